/* Source lines of instructions from the DSO's DWARF line table (libdw), as objdump -l finds them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <libiberty/demangle.h>

#include "base/array.h"
#include "base/input_file.h"
#include "profile/disasm/disasm.h"
#include "profile/symbols/load.h"

/* A CU's address range, for files whose .debug_aranges leave some code out. */
struct cu_range {
	uint64_t lo, hi;
	Dwarf_Off off;
};

struct xpp_lines {
	int fd;
	Elf *elf;
	Dwarf *dw;
	struct cu_range *ranges; /* sorted by lo; built on the first address aranges miss */
	size_t nr_ranges;
	bool ranges_built;
};


static void dw_close(struct xpp_lines *f)
{
	if (f->dw)
		dwarf_end(f->dw);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->dw = NULL;
	f->elf = NULL;
	f->fd = -1;
}

/* path opened with a line table, or false. */
static bool dw_open(struct xpp_lines *f, const char *path)
{
	f->dw = NULL;
	f->elf = NULL;
	f->fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (f->elf && elf_kind(f->elf) == ELF_K_ELF)
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (f->dw)
		return true;
	dw_close(f);
	return false;
}

/*
 * Where perf looks for DWARF, as symbols and source lines of the report do: the build-id
 * debug file, the .gnu_debuglink file, then the file itself (symbols/elf_syms.c).
 */
static bool open_lines(struct xpp_lines *f, const char *path, const char *debug_root,
		       struct xpp_debuginfod *dfd)
{
	char dbg[PATH_MAX];

	return xpp_elf_dwarf_file(path, debug_root, dfd, dbg, sizeof(dbg)) == 0 &&
	       dw_open(f, dbg);
}

static int cmp_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every CU's ranges, once per file: walking the CUs for each address is quadratic. */
static void build_ranges(struct xpp_lines *l)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	l->ranges_built = true;
	while (dwarf_nextcu(l->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (dwarf_offdie(l->dw, off + hsize, &cu)) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0) {
				if (XB_ARRAY_RESERVE(l->ranges, cap, (size_t)l->nr_ranges + 1, 256))
					return;
				l->ranges[l->nr_ranges++] = (struct cu_range){ lo, hi, off + hsize };
			}
		}
		off = next;
	}
	if (l->nr_ranges)
		qsort(l->ranges, l->nr_ranges, sizeof(*l->ranges), cmp_range);
}

/* The CU holding addr: by .debug_aranges, else (clang leaves them out) by each CU's ranges. */
static Dwarf_Die *cu_of(struct xpp_lines *l, uint64_t addr, Dwarf_Die *mem)
{
	size_t lo = 0, hi;

	if (dwarf_addrdie(l->dw, addr, mem))
		return mem;
	if (!l->ranges_built)
		build_ranges(l);
	/* the last range starting at or before addr, and the ones before it (ranges of
	   different CUs may nest when one CU's range spans another's) */
	hi = l->nr_ranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && lo - i <= 8;)
		if (addr < l->ranges[i].hi)
			return dwarf_offdie(l->dw, l->ranges[i].off, mem);
	return NULL;
}

/*
 * libdw joins a line's directory and name; a relative result is relative to the CU's
 * compilation directory, which objdump puts in front (and so must we, to find the file).
 */
static int64_t file_id(xpp_intern *names, Dwarf_Die *cu, const char *src)
{
	Dwarf_Attribute at;
	const char *dir = src[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
	char path[PATH_MAX];
	int n;

	if (!dir || !*dir)
		return xpp_intern_id(names, src, strlen(src));
	n = snprintf(path, sizeof(path), "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", src);
	if (n < 0 || (size_t)n >= sizeof(path))
		return xpp_intern_id(names, src, strlen(src));
	return xpp_intern_id(names, path, (size_t)n);
}

#define MAX_FN_BUILDS 8 /* function maps per symbol: past that, instructions keep the symbol's name */

/* A function's code: the subprogram's or an inlined instance's range, at its nesting depth. */
struct fn_range {
	uint64_t lo, hi;
	uint32_t depth, name;
};

/*
 * The functions of one symbol: its subprogram and every function inlined into it, with
 * their ranges, collected in one walk of the subprogram's DIEs. (libdw's dwarf_getscopes
 * walks the whole CU for each address: for every instruction of a big CU, too slow.)
 */
struct fn_map {
	struct fn_range *v;
	size_t nr, cap;
	int err;
};

/*
 * A function's name as objdump -l -C prints it: the linkage name demangled with its
 * parameters ("work::inline_host(unsigned long)") where the DWARF has one (through the
 * abstract origin and the declaration), else the plain name ("hot_inlined"). A new string.
 */
static char *fn_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));
	const char *name;
	char *dm;

	if (!link)
		link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	if (link && (dm = cplus_demangle(link, DMGL_PARAMS | DMGL_ANSI)))
		return dm;
	name = link ? link : dwarf_diename(die);
	return name ? strdup(name) : NULL;
}

static void fn_add(struct fn_map *m, Dwarf_Die *die, uint32_t depth, xpp_intern *names)
{
	char *name = fn_name(die);
	Dwarf_Addr base, lo, hi;
	ptrdiff_t r = 0;
	int64_t id;

	if (!name)
		return;
	id = xpp_intern_id(names, name, strlen(name));
	free(name);
	if (id < 0) {
		m->err = (int)id;
		return;
	}
	while ((r = dwarf_ranges(die, r, &base, &lo, &hi)) > 0) {
		if (XB_ARRAY_RESERVE(m->v, m->cap, m->nr + 1, 64)) {
			m->err = -ENOMEM;
			return;
		}
		m->v[m->nr++] = (struct fn_range){ lo, hi, depth, (uint32_t)id };
	}
}

/* The inlined functions below die (through lexical blocks), depth counting inlines. */
static void fn_walk(struct fn_map *m, Dwarf_Die *die, uint32_t depth, xpp_intern *names)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			fn_add(m, &child, depth + 1, names);
			fn_walk(m, &child, depth + 1, names);
		} else if (tag == DW_TAG_lexical_block) {
			fn_walk(m, &child, depth, names);
		}
	} while (!m->err && dwarf_siblingof(&child, &child) == 0);
}

/*
 * The concrete subprogram holding addr among die's children (C++ puts them in namespaces
 * and classes). Not dwarf_getscopes: for inlined code it returns the abstract definition's
 * scopes, not the function the code was inlined into.
 */
static bool find_subprogram(Dwarf_Die *die, uint64_t addr, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, addr) > 0) {
			*out = child;
			return true;
		}
		/* and where C++ nests them: a lambda's operator() inside its function */
		if ((tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
		     tag == DW_TAG_module || tag == DW_TAG_subprogram ||
		     tag == DW_TAG_lexical_block) &&
		    find_subprogram(&child, addr, out))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The subprogram holding addr and the functions inlined into it. */
static void fn_map_build(struct fn_map *m, Dwarf_Die *cu, uint64_t addr, xpp_intern *names)
{
	Dwarf_Die sub;

	if (!find_subprogram(cu, addr, &sub))
		return;
	fn_add(m, &sub, 0, names);
	fn_walk(m, &sub, 0, names);
}

/* The innermost function of the map holding addr: a name id, or UINT32_MAX. */
static uint32_t fn_find(const struct fn_map *m, uint64_t addr, bool *found)
{
	uint32_t best = UINT32_MAX, depth = 0;

	*found = false;
	for (size_t i = 0; i < m->nr; i++)
		if (addr >= m->v[i].lo && addr < m->v[i].hi && (!*found || m->v[i].depth > depth)) {
			*found = true;
			best = m->v[i].name;
			depth = m->v[i].depth;
		}
	return best;
}

int xpp_lines_open(xpp_lines **out, const char *path, const char *debug_root,
		   struct xpp_debuginfod *dfd)
{
	xpp_lines *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l)
		return -ENOMEM;
	l->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE || !open_lines(l, path, debug_root, dfd)) {
		free(l);
		return 0;
	}
	*out = l;
	return 1;
}

void xpp_lines_close(xpp_lines *l)
{
	if (!l)
		return;
	dw_close(l);
	free(l->ranges);
	free(l);
}

int xpp_lines_lookup(xpp_lines *l, const uint64_t *addrs, uint32_t n, struct xpp_line_loc *out,
		     xpp_intern *names)
{
	struct fn_map fm = { 0 };
	unsigned int builds = 0;
	Dwarf_Die cu;
	int ret = 0;

	for (uint32_t i = 0; i < n && ret == 0; i++) {
		Dwarf_Line *dl;
		const char *src;
		unsigned int discr = 0;
		int line = 0;
		int64_t id;
		bool found;

		out[i] = (struct xpp_line_loc){ UINT32_MAX, 0, 0, UINT32_MAX };
		if (!cu_of(l, addrs[i], &cu))
			continue;
		out[i].func = fn_find(&fm, addrs[i], &found);
		if (!found && builds < MAX_FN_BUILDS) {
			/* the first address, or one outside the function found so far (a
			   symbol over several functions' code); each build walks the CU */
			builds++;
			fm.nr = 0;
			fn_map_build(&fm, &cu, addrs[i], names);
			if ((ret = fm.err) < 0)
				break;
			out[i].func = fn_find(&fm, addrs[i], &found);
		}
		dl = dwarf_getsrc_die(&cu, addrs[i]);
		src = dl ? dwarf_linesrc(dl, NULL, NULL) : NULL;
		if (!src || dwarf_lineno(dl, &line) || line <= 0)
			continue;
		id = file_id(names, &cu, src);
		if (id < 0) {
			ret = (int)id;
			break;
		}
		dwarf_linediscriminator(dl, &discr);
		out[i].file = (uint32_t)id;
		out[i].line = (uint32_t)line;
		out[i].discriminator = discr;
	}
	free(fm.v);
	return ret;
}
