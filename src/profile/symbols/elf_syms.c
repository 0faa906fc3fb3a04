/* Function symbols from ELF files with libelf: debug-file search, .symtab/.dynsym, offsets. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/input_file.h"
#include "elf/build_id.h"
#include "profile/symbols/debuginfod.h"
#include "profile/symbols/load.h"

#define MAX_LOADS 16

/* The PT_LOAD segments of the runtime file: how a symbol's vaddr becomes a file offset. */
struct loads {
	uint64_t vaddr[MAX_LOADS], memsz[MAX_LOADS], offset[MAX_LOADS];
	unsigned int nr;
};

struct elf_file {
	int fd;
	Elf *elf;
};

static void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->elf = NULL;
	f->fd = -1;
}

static int elf_file_open(struct elf_file *f, const char *path)
{
	f->elf = NULL;
	f->fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	if (f->fd < 0)
		return f->fd;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto bad;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF)
		goto bad;
	return 0;
bad:
	elf_file_close(f);
	return -ENOEXEC;
}

static void read_loads(Elf *elf, struct loads *l)
{
	size_t n, i;

	l->nr = 0;
	if (elf_getphdrnum(elf, &n))
		return;
	for (i = 0; i < n && l->nr < MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		l->vaddr[l->nr] = ph.p_vaddr;
		l->memsz[l->nr] = ph.p_memsz;
		l->offset[l->nr] = ph.p_offset;
		l->nr++;
	}
}

static uint64_t to_offset(const struct loads *l, uint64_t vaddr)
{
	for (unsigned int i = 0; i < l->nr; i++)
		if (vaddr >= l->vaddr[i] && vaddr - l->vaddr[i] < l->memsz[i])
			return vaddr - l->vaddr[i] + l->offset[i];
	return vaddr;
}

/* The section of `type` (SHT_SYMTAB / SHT_DYNSYM) with at least one symbol, or NULL. */
static Elf_Scn *find_symtab(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type && sh->sh_entsize &&
		    sh->sh_size / sh->sh_entsize > 1)
			return scn;
	return NULL;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* The GNU build-id's bytes into id (at most cap); its size, or 0 when there is none. */
static size_t read_build_id_raw(Elf *elf, uint8_t *id, size_t cap)
{
	size_t size;
	const char *image = elf_rawfile(elf, &size);
	int n = image ? xelf_build_id_from_image(image, size, id, cap) : -ENOEXEC;

	return n > 0 ? (size_t)n : 0;
}

/* The GNU build-id of an open file as lower-case hex (whole: it names the debug file). */
static bool read_build_id(Elf *elf, char hex[2 * 64 + 1])
{
	uint8_t id[64];
	size_t n = read_build_id_raw(elf, id, sizeof(id));

	if (!n)
		return false;
	xelf_build_id_hex(id, n, hex);
	return true;
}

int xpp_elf_build_id(const char *path, uint8_t *id, size_t cap)
{
	struct elf_file f;
	int ret = elf_file_open(&f, path);

	if (ret < 0)
		return ret;
	ret = (int)read_build_id_raw(f.elf, id, cap);
	elf_file_close(&f);
	return ret;
}

int xpp_elf_build_id_mem(const void *image, size_t size, uint8_t *id, size_t cap)
{
	int n = xelf_build_id_from_image(image, size, id, cap);

	return n == -ENOENT ? 0 : n;
}

/* Whether a section name marks code, for unsized NOTYPE labels (perf: "text" in the name). */
static bool text_section(Elf *elf, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && strstr(n, "text");
}

/* perf's elf_sec__is_data(): a section named "...data..." (its labels are symbols too) */
static bool data_section(Elf *elf, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;
	size_t shstrndx;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && strstr(n, "data");
}

/*
 * A symbol of a .symtab/.dynsym that perf takes as a function (with `objects`, a variable
 * too, as perf's elf_sym__filter() for data addresses): its name, else NULL.
 */
static const char *func_sym_name(Elf *elf, const GElf_Shdr *sh, const GElf_Sym *s, bool objects)
{
	int type = GELF_ST_TYPE(s->st_info);
	const char *name;

	if (!s->st_name || s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return NULL;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && !(objects && type == STT_OBJECT) &&
	    !(type == STT_NOTYPE && (text_section(elf, s->st_shndx) ||
				     (objects && data_section(elf, s->st_shndx)))))
		return NULL;
	name = elf_strptr(elf, sh->sh_link, s->st_name);
	return name && *name ? name : NULL;
}

/*
 * fn(ctx, sym, name, file) for each function symbol of the table, name as it is shown
 * (demangled unless no_demangle), file the STT_FILE symbol binutils' addr2line names its
 * source by when no line table covers it, or NULL; stops at fn's first non-zero answer and
 * returns it. -ENOEXEC for a table that cannot be read.
 */
typedef int (*func_sym_fn)(void *ctx, const GElf_Sym *s, const char *name, const char *file);

static int each_func_sym(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, bool no_demangle,
			 bool objects, func_sym_fn fn, void *ctx)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	/* bfd's elf_find_function(): a local symbol is in the latest file symbol before it;
	   a global one only while no file symbol came after another symbol (then the table
	   was not made by ld -r, and globals, sorted after every file, belong to none) */
	enum { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL } state = NOTHING_SEEN;
	const char *file = NULL;
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return -ENOEXEC;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		char *dm;
		int ret;

		if (!gelf_getsym(d, (int)i, &s))
			break;
		if (GELF_ST_TYPE(s.st_info) == STT_FILE) {
			file = s.st_name ? elf_strptr(elf, sh->sh_link, s.st_name) : NULL;
			if (state == SYMBOL_SEEN)
				state = FILE_AFTER_SYMBOL;
			continue;
		}
		if (state == NOTHING_SEEN)
			state = SYMBOL_SEEN;
		if (!(name = func_sym_name(elf, sh, &s, objects)))
			continue;
		dm = name[0] == '_' && !no_demangle ? xpp_demangle(name) : NULL;
		ret = fn(ctx, &s, dm ? dm : name,
			 file && *file && (GELF_ST_BIND(s.st_info) == STB_LOCAL ||
					   state != FILE_AFTER_SYMBOL) ? file : NULL);
		free(dm);
		if (ret)
			return ret;
	}
	return 0;
}

struct add_ctx {
	struct xpp_symtab *t;
	const struct loads *l;
	uint32_t last_file; /* xpp_symtab_set_file()'s memo */
};

static int add_one(void *ctx, const GElf_Sym *s, const char *name, const char *file)
{
	struct add_ctx *a = ctx;
	int bind = GELF_ST_BIND(s->st_info);
	enum xpp_sym_binding b = bind == STB_GLOBAL ? XPP_SYM_GLOBAL :
				 bind == STB_WEAK ? XPP_SYM_WEAK : XPP_SYM_LOCAL;
	/* the kind only where variables are kept: their text differs (sort_keys.c daddr) */
	enum xpp_sym_kind kind = !a->t->objects ? XPP_SYM_OTHER :
				 GELF_ST_TYPE(s->st_info) == STT_OBJECT ? XPP_SYM_OBJECT : XPP_SYM_FUNC;
	int ret = xpp_symtab_add_kind(a->t, to_offset(a->l, s->st_value), s->st_size, b, kind,
				      name, strlen(name));

	if (!ret && file)
		ret = xpp_symtab_set_file(a->t, file, &a->last_file);
	return ret < 0 ? ret : 0;
}

static int add_symbols(struct xpp_symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		       const struct loads *l)
{
	struct add_ctx a = { t, l, 0 };

	return each_func_sym(elf, scn, sh, t->no_demangle, t->objects, add_one, &a);
}

static int is_wanted(void *want, const GElf_Sym *s, const char *name, const char *file)
{
	(void)s;
	(void)file;
	return !strcmp(name, want);
}

/*
 * Whether the table's strings can hold a symbol named `want` at all. A name made of
 * identifier characters only is written verbatim in the table, or inside any mangled name
 * that demangles to it, so a string table without it has no such symbol: the walk, which
 * demangles every name that starts with '_' (most of libc's), is not needed. Other names
 * (ns::f, operator+, f<int>, and any with '$', which Rust's legacy mangling writes as
 * $u24$) are left to the walk.
 */
static bool strings_may_hold(Elf *elf, const GElf_Shdr *sh, const char *want)
{
	Elf_Scn *str = elf_getscn(elf, sh->sh_link);
	Elf_Data *d;

	for (const char *c = want; *c; c++)
		if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
		    !(*c >= '0' && *c <= '9') && *c != '_' && *c != '.')
			return true;
	if (!*want || !str || !(d = elf_getdata(str, NULL)) || !d->d_buf)
		return true;
	return memmem(d->d_buf, d->d_size, want, strlen(want)) != NULL;
}

/*
 * Whether a function symbol of the table is named `want` once add_symbols() named it: 1
 * yes, 0 no, -ENOEXEC for a table add_symbols() cannot read either.
 */
static int has_symbol(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, bool no_demangle,
		      const char *want)
{
	if (!strings_may_hold(elf, sh, want))
		return 0;
	return each_func_sym(elf, scn, sh, no_demangle, false, is_wanted, (void *)want);
}

/*
 * perf's "name@plt" symbols: one per .rela.plt entry, in order, PLT-entry sized, after the
 * PLT header (or from the start of .plt.sec where IBT moved the entries there).
 */
static int add_plt_symbols(struct xpp_symtab *t, Elf *elf, const struct loads *l)
{
	GElf_Shdr rel_sh, plt_sh, sec_sh, dyn_sh;
	Elf_Scn *rel = find_section(elf, ".rela.plt", &rel_sh), *plt, *dyn;
	Elf_Data *rd, *dd;
	uint64_t addr, entsize;
	char name[512];
	size_t i, n;

	if (!rel || rel_sh.sh_type != SHT_RELA || !rel_sh.sh_entsize)
		return 0;
	dyn = elf_getscn(elf, rel_sh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dyn_sh) || !dyn_sh.sh_entsize)
		return 0;
	if ((plt = find_section(elf, ".plt.sec", &sec_sh))) {
		addr = sec_sh.sh_addr;
		entsize = sec_sh.sh_entsize ? sec_sh.sh_entsize : 16;
	} else if ((plt = find_section(elf, ".plt", &plt_sh))) {
		entsize = plt_sh.sh_entsize ? plt_sh.sh_entsize : 16;
		addr = plt_sh.sh_addr + entsize;
	} else {
		return 0;
	}
	rd = elf_getdata(rel, NULL);
	dd = elf_getdata(dyn, NULL);
	if (!rd || !dd)
		return 0;
	n = rel_sh.sh_size / rel_sh.sh_entsize;
	for (i = 0; i < n; i++, addr += entsize) {
		GElf_Rela ra;
		GElf_Sym s;
		const char *sn = NULL;
		int ret;

		if (!gelf_getrela(rd, (int)i, &ra))
			break;
		if (gelf_getsym(dd, (int)GELF_R_SYM(ra.r_info), &s))
			sn = elf_strptr(elf, dyn_sh.sh_link, s.st_name);
		char *dm = sn && sn[0] == '_' && !t->no_demangle ? xpp_demangle(sn) : NULL;

		snprintf(name, sizeof(name), "%s@plt", dm ? dm : sn ? sn : "");
		free(dm);
		ret = xpp_symtab_add(t, to_offset(l, addr), entsize, XPP_SYM_GLOBAL, name, strlen(name));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Whether f has what the caller looks for: a .symtab, or DWARF line tables. */
static bool debug_file_has(struct elf_file *f, bool dwarf)
{
	GElf_Shdr sh;

	if (!dwarf)
		return find_symtab(f->elf, SHT_SYMTAB, &sh) != NULL;
	return find_section(f->elf, ".debug_line", &sh) || find_section(f->elf, ".zdebug_line", &sh);
}

/*
 * A debug file for the runtime file, holding a .symtab (or, `dwarf`, line tables): opened
 * into f with its name in cand, or -ENOENT.
 */
static int open_debug_file(struct elf_file *f, Elf *runtime, const char *path,
			   const char *debug_root, bool dwarf, char cand[PATH_MAX])
{
	char hex[2 * 64 + 1], dir[PATH_MAX];
	const char *root = debug_root ? debug_root : "/usr/lib/debug";
	GElf_Shdr sh;
	Elf_Scn *scn;
	const char *slash;
	size_t dlen;
	int i;

	if (read_build_id(runtime, hex) && strlen(hex) > 2) {
		snprintf(cand, PATH_MAX, "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
		if (!elf_file_open(f, cand)) {
			if (debug_file_has(f, dwarf))
				return 0;
			elf_file_close(f);
		}
	}
	scn = find_section(runtime, ".gnu_debuglink", &sh);
	if (!scn)
		return -ENOENT;
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d || !d->d_size || !memchr(d->d_buf, '\0', d->d_size))
		return -ENOENT;
	const char *link = d->d_buf;

	slash = strrchr(path, '/');
	dlen = slash ? (size_t)(slash - path) : 0;
	if (dlen >= sizeof(dir) || strchr(link, '/'))
		return -ENOENT;
	memcpy(dir, path, dlen);
	dir[dlen] = '\0';
	for (i = 0; i < 3; i++) {
		struct stat a, b;
		int n;

		if (i == 0)
			n = snprintf(cand, PATH_MAX, "%s/%s", dir, link);
		else if (i == 1)
			n = snprintf(cand, PATH_MAX, "%s/.debug/%s", dir, link);
		else
			n = snprintf(cand, PATH_MAX, "%s%s/%s", root, dir, link);
		if (n < 0 || (size_t)n >= PATH_MAX)
			continue;
		/* the link may name the file itself */
		if (!stat(cand, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			continue;
		if (!elf_file_open(f, cand)) {
			if (debug_file_has(f, dwarf))
				return 0;
			elf_file_close(f);
		}
	}
	return -ENOENT;
}

/*
 * The debug file a debuginfod server has for the runtime file, asked for only when no
 * local file had what the caller wants (a .symtab, or `dwarf` line tables): opened into f
 * with its name in cand, or -ENOENT. The server's file must have the runtime file's
 * build-id: a wrong one would name functions that never ran.
 */
static int fetch_debug_file(struct elf_file *f, Elf *runtime, xpp_debuginfod *dfd, bool dwarf,
			    char cand[PATH_MAX])
{
	uint8_t id[64], got[64];
	size_t n;

	if (!dfd)
		return -ENOENT;
	n = read_build_id_raw(runtime, id, sizeof(id));
	if (!n || xpp_debuginfod_find(dfd, id, n, cand, PATH_MAX) || elf_file_open(f, cand))
		return -ENOENT;
	if (read_build_id_raw(f->elf, got, sizeof(got)) == n && !memcmp(got, id, n) &&
	    debug_file_has(f, dwarf))
		return 0;
	elf_file_close(f);
	return -ENOENT;
}

int xpp_elf_dwarf_file(const char *path, const char *debug_root, xpp_debuginfod *dfd,
		       char *out, size_t size)
{
	struct elf_file rt = { .fd = -1 }, dbg = { .fd = -1 };
	char cand[PATH_MAX];
	int ret;

	ret = elf_file_open(&rt, path);
	if (ret < 0)
		return ret;
	if (!open_debug_file(&dbg, rt.elf, path, debug_root, true, cand))
		elf_file_close(&dbg);
	else if (debug_file_has(&rt, true))
		snprintf(cand, sizeof(cand), "%s", path);
	else if (!fetch_debug_file(&dbg, rt.elf, dfd, true, cand))
		elf_file_close(&dbg);
	else
		ret = -ENOENT;
	elf_file_close(&rt);
	if (!ret && snprintf(out, size, "%s", cand) >= (int)size)
		ret = -ENAMETOOLONG;
	return ret;
}

/* Where xpp_elf_syms_load() takes a file's symbols from: the files it opened and the table. */
struct syms_src {
	struct elf_file rt, dbg;
	struct loads l;
	Elf *src;               /* the file of scn */
	Elf_Scn *scn;           /* the table, NULL: none */
	GElf_Shdr sh;
};

static void syms_src_close(struct syms_src *s)
{
	elf_file_close(&s->dbg);
	elf_file_close(&s->rt);
}

/*
 * The first .symtab of the local debug file, the file itself, or the debug file a
 * debuginfod server has (dfd; asked last: the network is slower than any local file),
 * else the file's .dynsym.
 */
static int syms_src_open(struct syms_src *s, const char *path, const char *debug_root,
			 xpp_debuginfod *dfd)
{
	char cand[PATH_MAX];
	int ret;

	s->dbg = (struct elf_file){ .fd = -1 };
	ret = elf_file_open(&s->rt, path);
	if (ret < 0)
		return ret;
	read_loads(s->rt.elf, &s->l);
	s->src = s->rt.elf;
	if (!open_debug_file(&s->dbg, s->rt.elf, path, debug_root, false, cand)) {
		s->src = s->dbg.elf;
		if (!s->l.nr)
			read_loads(s->dbg.elf, &s->l);
	}
	s->scn = find_symtab(s->src, SHT_SYMTAB, &s->sh);
	if (!s->scn) {
		s->src = s->rt.elf;
		s->scn = find_symtab(s->src, SHT_SYMTAB, &s->sh);
	}
	if (!s->scn && !s->dbg.elf && !fetch_debug_file(&s->dbg, s->rt.elf, dfd, false, cand)) {
		s->src = s->dbg.elf;
		if (!s->l.nr)
			read_loads(s->dbg.elf, &s->l);
		s->scn = find_symtab(s->src, SHT_SYMTAB, &s->sh);
		if (!s->scn)
			s->src = s->rt.elf;
	}
	if (!s->scn)
		s->scn = find_symtab(s->src, SHT_DYNSYM, &s->sh);
	return 0;
}

int xpp_elf_syms_load(struct xpp_symtab *t, const char *path, const char *debug_root,
		      xpp_debuginfod *dfd, struct xb_error *err)
{
	struct syms_src s;
	GElf_Shdr text;
	int ret;

	ret = syms_src_open(&s, path, debug_root, dfd);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read symbols of '%s': %s", path,
				     ret == -ENOEXEC ? "not an ELF file" : strerror(-ret));
	ret = s.scn ? add_symbols(t, s.src, s.scn, &s.sh, &s.l) : 0;
	if (!ret)
		ret = add_plt_symbols(t, s.rt.elf, &s.l);
	/* perf reads it from the runtime file, whichever file gave the symbols */
	if (find_section(s.rt.elf, ".text", &text))
		t->text_offset = text.sh_addr - text.sh_offset;
	syms_src_close(&s);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read symbols of '%s': %s", path,
				     strerror(-ret));
	xpp_symtab_finish(t);
	return 0;
}

int xpp_elf_vmlinux_load(struct xpp_symtab *t, const char *path, const uint8_t *bid,
			 size_t bid_size, bool *mismatch, struct xb_error *err)
{
	struct loads none = { .nr = 0 };
	struct elf_file f;
	uint8_t id[XPP_BUILD_ID_MAX];
	size_t n;
	GElf_Shdr sh;
	Elf_Scn *scn;
	int ret = elf_file_open(&f, path);

	if (ret < 0)
		return xb_error_set(err, ret, "cannot read the kernel's symbols of '%s': %s", path,
				    ret == -ENOEXEC ? "not an ELF file" : strerror(-ret));
	/* perf's symsrc__init(): always reject images with a mismatched build id */
	if (bid_size && ((n = read_build_id_raw(f.elf, id, sizeof(id))) != bid_size ||
			 memcmp(id, bid, n))) {
		*mismatch = true;
		elf_file_close(&f);
		return 0;
	}
	scn = find_symtab(f.elf, SHT_SYMTAB, &sh);
	if (!scn)
		scn = find_symtab(f.elf, SHT_DYNSYM, &sh);
	ret = scn ? add_symbols(t, f.elf, scn, &sh, &none) : 0;
	elf_file_close(&f);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read the kernel's symbols of '%s': %s", path,
				    strerror(-ret));
	xpp_symtab_finish(t);
	return 0;
}

/*
 * Symbol versions, as objdump decorates the names of dynamic symbols: "strlen@GLIBC_2.2.5"
 * (a reference, or a hidden version), "_Py_ctype_tolower@@Base" (a default definition).
 */
struct versions {
	Elf_Data *versym;        /* .gnu.version, NULL: no versions */
	const char **names;      /* by version index */
	size_t nr;
};

static void set_version(struct versions *v, size_t ndx, const char *name)
{
	if (ndx >= 4096 || !name)
		return;
	if (ndx >= v->nr && XB_ARRAY_RESERVE0(v->names, v->nr, ndx + 1, 64))
		return;
	v->names[ndx] = name;
}

static void read_versions(Elf *elf, struct versions *v)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(v, 0, sizeof(*v));
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t off = 0;

		if (!gelf_getshdr(scn, &sh) || !(d = elf_getdata(scn, NULL)))
			continue;
		if (sh.sh_type == SHT_GNU_versym) {
			v->versym = d;
		} else if (sh.sh_type == SHT_GNU_verdef) {
			for (size_t i = 0; i < sh.sh_info && off < d->d_size; i++) {
				GElf_Verdef vd;
				GElf_Verdaux va;

				if (!gelf_getverdef(d, (int)off, &vd))
					break;
				if (gelf_getverdaux(d, (int)(off + vd.vd_aux), &va))
					set_version(v, vd.vd_ndx, elf_strptr(elf, sh.sh_link, va.vda_name));
				if (!vd.vd_next)
					break;
				off += vd.vd_next;
			}
		} else if (sh.sh_type == SHT_GNU_verneed) {
			for (size_t i = 0; i < sh.sh_info && off < d->d_size; i++) {
				GElf_Verneed vn;
				size_t aoff;

				if (!gelf_getverneed(d, (int)off, &vn))
					break;
				aoff = off + vn.vn_aux;
				for (unsigned int j = 0; j < vn.vn_cnt; j++) {
					GElf_Vernaux a;

					if (!gelf_getvernaux(d, (int)aoff, &a))
						break;
					set_version(v, a.vna_other, elf_strptr(elf, sh.sh_link, a.vna_name));
					if (!a.vna_next)
						break;
					aoff += a.vna_next;
				}
				if (!vn.vn_next)
					break;
				off += vn.vn_next;
			}
		}
	}

}

/* name as objdump writes dynamic symbol `idx`: demangled, then its version */
static void dyn_name(const struct versions *v, size_t idx, const GElf_Sym *s, const char *name,
		     char *out, size_t size)
{
	char *dm = name[0] == '_' ? xpp_demangle_params(name) : NULL;
	GElf_Versym vs;
	size_t ndx;

	snprintf(out, size, "%s", dm ? dm : name);
	free(dm);
	if (!v || !v->versym || !gelf_getversym(v->versym, (int)idx, &vs))
		return;
	ndx = vs & 0x7fff;
	/* index 1, no version of its own: binutils calls it Base */
	if (!ndx || (ndx > 1 && (ndx >= v->nr || !v->names[ndx])))
		return;
	snprintf(out + strlen(out), size - strlen(out), "%s%s",
		 s->st_shndx != SHN_UNDEF && !(vs & 0x8000) ? "@@" : "@",
		 ndx == 1 ? "Base" : v->names[ndx]);
}

/*
 * Every named symbol objdump would name an address with: not sections, files, undefined.
 * v: the versions of a .dynsym (objdump decorates those names), NULL for a .symtab.
 */
static int add_addr_names(struct xpp_symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			  const struct loads *l, const struct versions *v)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	char buf[1024];
	size_t n;

	if (!d || !sh->sh_entsize)
		return -ENOEXEC;
	n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		int type, bind, ret;
		const char *name;
		GElf_Sym s;

		if (!gelf_getsym(d, (int)i, &s))
			break;
		type = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (!s.st_name || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
		    type == STT_SECTION || type == STT_FILE)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		dyn_name(v, i, &s, name, buf, sizeof(buf));
		ret = xpp_symtab_add_kind(t, to_offset(l, s.st_value), s.st_size,
					  bind == STB_GLOBAL ? XPP_SYM_GLOBAL :
					  bind == STB_WEAK ? XPP_SYM_WEAK : XPP_SYM_LOCAL,
					  type == STT_FUNC || type == STT_GNU_IFUNC ? XPP_SYM_FUNC :
					  type == STT_OBJECT || type == STT_TLS ||
					  type == STT_COMMON ? XPP_SYM_OBJECT : XPP_SYM_OTHER,
					  buf, strlen(buf));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * The symbols of the dynamic relocations (the GOT's slots, pointers initialised to a
 * function): objdump names such a slot by them where no symbol starts there.
 */
static int add_reloc_names(struct xpp_symtab *t, Elf *elf, const struct loads *l)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;
	struct versions v;
	char buf[1024];
	int ret = 0;

	while ((dyn = elf_nextscn(elf, dyn)))
		if (gelf_getshdr(dyn, &dsh) && dsh.sh_type == SHT_DYNSYM)
			break;
	if (!dyn || !dsh.sh_entsize)
		return 0;
	read_versions(elf, &v);
	while (!ret && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *rd, *dd = elf_getdata(dyn, NULL);

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    elf_getscn(elf, sh.sh_link) != dyn || !(rd = elf_getdata(scn, NULL)) || !dd)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			size_t si;
			const char *name;
			GElf_Rela ra;
			GElf_Sym s;

			if (!gelf_getrela(rd, (int)i, &ra))
				break;
			si = GELF_R_SYM(ra.r_info);
			if (!si || !gelf_getsym(dd, (int)si, &s) || !s.st_name ||
			    GELF_ST_TYPE(s.st_info) == STT_SECTION)
				continue;
			name = elf_strptr(elf, dsh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			dyn_name(&v, si, &s, name, buf, sizeof(buf));
			/* objdump writes the slot's distance from a defined symbol's own address */
			if (s.st_shndx != SHN_UNDEF && ra.r_offset != s.st_value)
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%c0x%llx",
					 ra.r_offset > s.st_value ? '+' : '-',
					 (unsigned long long)(ra.r_offset > s.st_value ?
							      ra.r_offset - s.st_value :
							      s.st_value - ra.r_offset));
			ret = xpp_symtab_add_kind(t, to_offset(l, ra.r_offset), 8, XPP_SYM_GLOBAL,
						  XPP_SYM_RELOC, buf, strlen(buf));
			if (ret < 0)
				break;
		}
	}
	free(v.names);
	return ret < 0 ? ret : 0;
}

/*
 * objdump's "name@plt": each entry of .plt, .plt.sec and .plt.got named by the relocation of
 * the GOT slot its `jmp *disp(%rip)` goes through (not by the order of .rela.plt, which
 * ifuncs' entries break), an ifunc's as "*ABS*+0xADDEND@plt".
 */
static int add_objdump_plt(struct xpp_symtab *t, Elf *elf, const struct loads *l)
{
	static const char *const secs[] = { ".plt", ".plt.sec", ".plt.got" };
	GElf_Shdr dsh, sh;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL, *dyn = NULL;
	Elf_Data *dd;
	struct slot {
		uint64_t got;
		size_t sym;
		int64_t addend;
	} *slots = NULL;
	size_t nr = 0, cap = 0;
	char buf[1024];
	int ret = 0;

	/* the entries' code and the relocation types are x86-64's */
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0;
	while ((dyn = elf_nextscn(elf, dyn)))
		if (gelf_getshdr(dyn, &dsh) && dsh.sh_type == SHT_DYNSYM)
			break;
	if (!dyn || !dsh.sh_entsize || !(dd = elf_getdata(dyn, NULL)))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *rd;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    elf_getscn(elf, sh.sh_link) != dyn || !(rd = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela ra;
			int type;

			if (!gelf_getrela(rd, (int)i, &ra))
				break;
			type = (int)GELF_R_TYPE(ra.r_info);
			if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT &&
			    type != R_X86_64_IRELATIVE)
				continue;
			if (XB_ARRAY_RESERVE(slots, cap, nr + 1, 256)) {
				free(slots);
				return -ENOMEM;
			}
			slots[nr++] = (struct slot){ ra.r_offset, GELF_R_SYM(ra.r_info),
						     ra.r_addend };
		}
	}
	for (size_t k = 0; !ret && k < sizeof(secs) / sizeof(secs[0]); k++) {
		Elf_Scn *plt = find_section(elf, secs[k], &sh);
		Elf_Data *pd = plt ? elf_getdata(plt, NULL) : NULL;
		uint64_t ent = sh.sh_entsize ? sh.sh_entsize : 16;

		if (!pd || !pd->d_buf || sh.sh_type != SHT_PROGBITS)
			continue;
		for (uint64_t off = 0; off + ent <= pd->d_size && off + ent <= sh.sh_size; off += ent) {
			const uint8_t *e = (const uint8_t *)pd->d_buf + off;
			uint64_t got = 0;
			size_t j;

			/* the entry's jmp *disp32(%rip): ff 25, after endbr64 or bnd if any */
			for (j = 0; j + 6 <= ent; j++)
				if (e[j] == 0xff && e[j + 1] == 0x25) {
					int32_t disp;

					memcpy(&disp, e + j + 2, 4);
					got = sh.sh_addr + off + j + 6 + (uint64_t)(int64_t)disp;
					break;
				}
			if (j + 6 > ent)
				continue;
			for (j = 0; j < nr && slots[j].got != got; j++)
				;
			if (j == nr)
				continue;
			if (!slots[j].sym) {
				snprintf(buf, sizeof(buf), "*ABS*+0x%llx@plt",
					 (unsigned long long)slots[j].addend);
			} else {
				GElf_Sym sym;
				const char *name = gelf_getsym(dd, (int)slots[j].sym, &sym) ?
					elf_strptr(elf, dsh.sh_link, sym.st_name) : NULL;
				char *dm = name && name[0] == '_' ? xpp_demangle_params(name) : NULL;

				if (!name)
					continue;
				snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
				free(dm);
			}
			ret = xpp_symtab_add_kind(t, to_offset(l, sh.sh_addr + off), ent,
						  XPP_SYM_GLOBAL, XPP_SYM_FUNC, buf, strlen(buf));
		}
	}
	free(slots);
	return ret < 0 ? ret : 0;
}

int xpp_elf_addr_names_load(struct xpp_symtab *t, const char *path, const char *debug_root,
			    xpp_debuginfod *dfd, struct xb_error *err)
{
	struct versions v = { 0 };
	struct syms_src s;
	int ret;

	t->objdump_names = true;
	ret = syms_src_open(&s, path, debug_root, dfd);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read symbols of '%s': %s", path,
				     ret == -ENOEXEC ? "not an ELF file" : strerror(-ret));
	if (s.scn && s.sh.sh_type == SHT_DYNSYM)
		read_versions(s.src, &v);
	ret = s.scn ? add_addr_names(t, s.src, s.scn, &s.sh, &s.l,
				     s.sh.sh_type == SHT_DYNSYM ? &v : NULL) : 0;
	if (!ret)
		ret = add_objdump_plt(t, s.rt.elf, &s.l);
	if (!ret)
		ret = add_reloc_names(t, s.rt.elf, &s.l);
	free(v.names);
	syms_src_close(&s);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read symbols of '%s': %s", path,
				     strerror(-ret));
	xpp_symtab_finish(t);
	return 0;
}

int xpp_elf_syms_may_have(const char *path, const char *debug_root, xpp_debuginfod *dfd,
			  bool no_demangle, const char *name)
{
	size_t len = strlen(name);
	struct syms_src s;
	int ret;

	/* PLT entries are named after the relocations' symbols: not worth reading here */
	if (len > 4 && !strcmp(name + len - 4, "@plt"))
		return 1;
	ret = syms_src_open(&s, path, debug_root, dfd);
	if (ret < 0)
		return ret;
	ret = s.scn ? has_symbol(s.src, s.scn, &s.sh, no_demangle, name) : 0;
	syms_src_close(&s);
	return ret;
}

int xpp_elf_syms_load_mem(struct xpp_symtab *t, const void *image, size_t size, struct xb_error *err)
{
	struct loads l;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf *elf;
	int ret = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return xb_error_set(err, -ENOEXEC, "libelf is unusable");
	elf = elf_memory((char *)image, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		return xb_error_set(err, -ENOEXEC, "the vdso image is not an ELF file");
	}
	read_loads(elf, &l);
	scn = find_symtab(elf, SHT_SYMTAB, &sh);
	if (!scn)
		scn = find_symtab(elf, SHT_DYNSYM, &sh);
	if (scn)
		ret = add_symbols(t, elf, scn, &sh, &l);
	elf_end(elf);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read the vdso symbols: %s", strerror(-ret));
	xpp_symtab_finish(t);
	return 0;
}

const void *xpp_vdso_image(size_t *size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	uint64_t end;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* the section headers come last in the vdso image */
	end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	if (end < sizeof(*eh) || end > (64u << 10))
		return NULL;
	*size = end;
	return eh;
}
