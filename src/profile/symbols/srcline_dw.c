/* Source lines and inline frames with libdw, in-process: one Dwarf per DSO, one answer per address. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "base/array.h"
#include "base/hash.h"
#include "base/input_file.h"
#include "profile/symbols/load.h"
#include "profile/symbols/srcline.h"

#define MAX_LOADS 16
#define CHUNK_WORDS 4096 /* answers' arrays live in chunks that never move */

enum dso_state { DSO_UNTRIED, DSO_OPEN, DSO_NO_LINES };

/* One DSO: its DWARF (from the file or its debug file) and how offsets become addresses. */
struct dso_dw {
	uint8_t state;
	int fd;
	Elf *elf;
	Dwarf *dw;
	uint64_t vaddr[MAX_LOADS], offset[MAX_LOADS], filesz[MAX_LOADS];
	unsigned int nr_loads;
};

/* One cached answer: (dso, offset) -> the arrays of struct xpp_src_frames. */
struct answer {
	uint64_t offset;
	uint32_t dso;
	uint32_t nr_inline;
	const uint32_t *arr;  /* names[nr_inline], then lines[nr_inline + 1] */
};

struct xpp_srcline {
	struct xpp_src_opts o;
	xpp_intern *strs;
	struct dso_dw *dsos;
	uint32_t nr_dsos;
	struct answer *ans;
	uint32_t nr, cap;
	struct xb_slots index; /* by (dso, offset): answer index + 1 */
	uint32_t **chunks;
	uint32_t nr_chunks, used; /* words used in the last chunk */
};

int xpp_srcline_create(xpp_srcline **out, xpp_intern *strs, const struct xpp_src_opts *opts,
		       struct xb_error *err)
{
	xpp_srcline *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || elf_version(EV_CURRENT) == EV_NONE) {
		free(s);
		return xb_error_set(err, -ENOMEM, "cannot start reading source lines: %s",
				     strerror(ENOMEM));
	}
	s->o = *opts;
	s->strs = strs;
	s->used = CHUNK_WORDS;
	*out = s;
	return 0;
}

static void dso_close(struct dso_dw *d)
{
	if (d->dw)
		dwarf_end(d->dw);
	if (d->elf)
		elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
}

void xpp_srcline_free(xpp_srcline *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->nr_dsos; i++)
		dso_close(&s->dsos[i]);
	for (uint32_t i = 0; i < s->nr_chunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	free(s->dsos);
	free(s->ans);
	xb_slots_free(&s->index);
	free(s);
}

/* The runtime file's PT_LOAD segments: a sample's file offset becomes a DWARF address. */
static void read_loads(struct dso_dw *d, const char *path)
{
	int fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	Elf *elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	size_t n = 0;

	if (elf && !elf_getphdrnum(elf, &n)) {
		for (size_t i = 0; i < n && d->nr_loads < MAX_LOADS; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			d->vaddr[d->nr_loads] = ph.p_vaddr;
			d->offset[d->nr_loads] = ph.p_offset;
			d->filesz[d->nr_loads] = ph.p_filesz;
			d->nr_loads++;
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static uint64_t to_vaddr(const struct dso_dw *d, uint64_t off)
{
	for (unsigned int i = 0; i < d->nr_loads; i++)
		if (off >= d->offset[i] && off - d->offset[i] < d->filesz[i])
			return off - d->offset[i] + d->vaddr[i];
	return off;
}

/* Open the DWARF of `path` on first need; a file without line tables is remembered so. */
static void dso_open(xpp_srcline *s, struct dso_dw *d, const char *path)
{
	char dbg[PATH_MAX];

	d->state = DSO_NO_LINES;
	if (xpp_elf_dwarf_file(path, s->o.debug_root, s->o.debuginfod, dbg, sizeof(dbg)) < 0)
		return;
	d->fd = xb_input_open(dbg, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	if (d->fd < 0)
		return;
	d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	d->dw = d->elf ? dwarf_begin_elf(d->elf, DWARF_C_READ, NULL) : NULL;
	if (!d->dw)
		return;
	read_loads(d, path);
	d->state = DSO_OPEN;
}

static struct dso_dw *dso_get(xpp_srcline *s, uint32_t dso, const char *path)
{
	if (dso >= s->nr_dsos) {
		uint32_t old = s->nr_dsos;

		if (XB_ARRAY_RESERVE0(s->dsos, s->nr_dsos, (size_t)dso + 1, 16))
			return NULL;
		for (uint32_t i = old; i < s->nr_dsos; i++)
			s->dsos[i].fd = -1;
	}
	if (s->dsos[dso].state == DSO_UNTRIED)
		dso_open(s, &s->dsos[dso], path);
	return &s->dsos[dso];
}

static uint32_t *alloc_words(xpp_srcline *s, uint32_t n)
{
	if (s->used + n > CHUNK_WORDS) {
		uint32_t **c = realloc(s->chunks, (s->nr_chunks + 1) * sizeof(*c));

		if (!c)
			return NULL;
		s->chunks = c;
		c[s->nr_chunks] = malloc(CHUNK_WORDS * sizeof(**c));
		if (!c[s->nr_chunks])
			return NULL;
		s->nr_chunks++;
		s->used = 0;
	}
	s->used += n;
	return s->chunks[s->nr_chunks - 1] + s->used - n;
}

static uint64_t answer_hash(uint32_t dso, uint64_t offset)
{
	return xb_hash_add(xb_hash_add(0, dso), offset);
}

static uint64_t answer_hash_of(const void *ctx, uint32_t v)
{
	const struct answer *a = &((const xpp_srcline *)ctx)->ans[v - 1];

	return answer_hash(a->dso, a->offset);
}

/* key: the dso and offset of an answer */
static bool answer_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct answer *a = &((const xpp_srcline *)ctx)->ans[v - 1], *k = key;

	return a->dso == k->dso && a->offset == k->offset;
}

/* "file:line" as perf prints it (the file's basename), interned; XPP_SRC_UNKNOWN for none. */
static int64_t line_id(xpp_srcline *s, const char *file, int line)
{
	char buf[PATH_MAX + 16];
	const char *base;
	int n;

	if (!file)
		return XPP_SRC_UNKNOWN;
	base = strrchr(file, '/');
	n = snprintf(buf, sizeof(buf), "%s:%u", base ? base + 1 : file, (unsigned int)line);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return XPP_SRC_UNKNOWN;
	return xpp_intern_id(s->strs, buf, (size_t)n);
}

/*
 * The name perf shows for an inlined function: binutils' addr2line, which perf reads, gives
 * the linkage name where the DWARF has one (perf then demangles it), else DW_AT_name; both
 * through DW_AT_abstract_origin and DW_AT_specification.
 */
static int64_t name_id(xpp_srcline *s, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
	char *dm = NULL;
	int64_t id;

	if (!n)
		n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	if (n && !s->o.no_demangle)
		dm = xpp_demangle(n);
	if (!n)
		n = dwarf_diename(die);
	if (!n)
		n = "??";
	id = xpp_intern_id(s->strs, dm ? dm : n, strlen(dm ? dm : n));
	free(dm);
	return id;
}

/* The CU holding addr: by .debug_aranges, else (files without it: clang's) by each CU's ranges. */
static Dwarf_Die *cu_of(Dwarf *dw, uint64_t addr, Dwarf_Die *mem)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, mem))
		return mem;
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hsize, mem) && dwarf_haspc(mem, addr) > 0)
			return mem;
		off = next;
	}
	return NULL;
}

/* Fill names[] and lines[] for addr; returns the number of inlined calls, or -ENOMEM. */
static int resolve(xpp_srcline *s, struct dso_dw *d, uint64_t addr, uint32_t *names,
		   uint32_t *lines)
{
	Dwarf_Die cu_mem, *cu = cu_of(d->dw, addr, &cu_mem), *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	Dwarf_Line *l;
	int64_t id;
	int lineno = 0, n = 0, nscopes;

	lines[0] = XPP_SRC_UNKNOWN;
	if (!cu)
		return 0;
	if ((l = dwarf_getsrc_die(cu, addr))) {
		dwarf_lineno(l, &lineno);
		if ((id = line_id(s, dwarf_linesrc(l, NULL, NULL), lineno)) < 0)
			return (int)id;
		lines[0] = (uint32_t)id;
	}
	if (!s->o.inlines)
		return 0;
	/*
	 * dwarf_getscopes() goes from the innermost inlined instance on to its abstract
	 * definition's scopes; the instances it is nested in (and the host) are its physical
	 * parents, which dwarf_getscopes_die() gives.
	 */
	nscopes = dwarf_getscopes(cu, addr, &scopes);
	for (int i = 0; i < nscopes; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			Dwarf_Die inl = scopes[i];

			free(scopes);
			scopes = NULL;
			nscopes = dwarf_getscopes_die(&inl, &scopes);
			break;
		}
		if (i + 1 == nscopes)
			nscopes = 0;
	}
	for (int i = 0; i < nscopes && n < XPP_SRC_MAX_INLINE; i++) {
		Dwarf_Attribute a;
		Dwarf_Word file = 0, line = 0;
		const char *path = NULL;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		if ((id = name_id(s, &scopes[i])) < 0)
			goto nomem;
		names[n] = (uint32_t)id;
		if (!files && dwarf_getsrcfiles(cu, &files, &nfiles))
			files = NULL;
		if (files && !dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &file) &&
		    file < nfiles)
			path = dwarf_filesrc(files, file, NULL, NULL);
		dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &line);
		if ((id = line_id(s, path, (int)line)) < 0)
			goto nomem;
		lines[++n] = (uint32_t)id;
	}
	free(scopes);
	return n;
nomem:
	free(scopes);
	return -ENOMEM;
}

int xpp_srcline_find(xpp_srcline *s, uint32_t dso, const char *path, uint64_t offset,
		     struct xpp_src_frames *out)
{
	uint32_t names[XPP_SRC_MAX_INLINE], lines[XPP_SRC_MAX_INLINE + 1], *arr, *slot;
	struct answer key = { .offset = offset, .dso = dso };
	struct dso_dw *d = dso_get(s, dso, path);
	int n;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -ENOMEM;
	if (d->state != DSO_OPEN)
		return 0;
	out->has_lines = true;
	if (xb_slots_reserve(&s->index, s->nr + 1, answer_hash_of, s))
		return -ENOMEM;
	slot = xb_slots_find(&s->index, answer_hash(dso, offset), answer_eq, s, &key);
	if (*slot) {
		const struct answer *a = &s->ans[*slot - 1];

		out->nr_inline = a->nr_inline;
		out->names = a->arr;
		out->lines = a->arr + a->nr_inline;
		return 0;
	}
	n = resolve(s, d, to_vaddr(d, offset), names, lines);
	if (n < 0)
		return n;
	if (s->nr == s->cap && XB_ARRAY_RESERVE(s->ans, s->cap, (size_t)s->nr + 1, 4096))
		return -ENOMEM;
	arr = alloc_words(s, 2 * (uint32_t)n + 1);
	if (!arr)
		return -ENOMEM;
	memcpy(arr, names, n * sizeof(*arr));
	memcpy(arr + n, lines, (n + 1) * sizeof(*arr));
	s->ans[s->nr] = (struct answer){ offset, dso, (uint32_t)n, arr };
	*slot = ++s->nr;
	out->nr_inline = (uint32_t)n;
	out->names = arr;
	out->lines = arr + n;
	return 0;
}
