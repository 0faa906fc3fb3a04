/* Source lines and inline frames of addresses in ELF files, from their DWARF, cached per address. */
#ifndef XPERF_PROFILE_SRCLINE_H
#define XPERF_PROFILE_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/session/intern.h"

/* A line the DWARF does not know (perf, through addr2line, shows "??:0"). */
#define XPP_SRC_UNKNOWN UINT32_MAX

/* Inlined calls nested deeper than this are cut (perf's MAX_INLINE_NEST is larger; no real
 * program comes near either). */
#define XPP_SRC_MAX_INLINE 64

struct xpp_src_opts {
	const char *debug_root; /* where build-id and debuglink debug files are; NULL /usr/lib/debug */
	struct xpp_debuginfod *debuginfod; /* servers asked for missing debug files; NULL: none */
	bool inlines;           /* read inline frames too (else only lines[0] is filled) */
	bool no_demangle;       /* inlined functions' linkage names as the DWARF has them */
};

/*
 * What the DWARF of a file says about one address. Strings are ids in the intern table
 * given to xpp_srcline_create(): "file:line" with the file's basename, as perf prints
 * them, and function names, demangled as symbols are.
 */
struct xpp_src_frames {
	bool has_lines;         /* the file has line tables; false: nothing below is set
				   (perf shows "??:0" or its stand-in, see
				   xpp_dso_a2l_names_function()) */
	uint32_t nr_inline;     /* inlined calls covering the address, innermost first */
	const uint32_t *names;  /* [nr_inline]: the inlined functions' names */
	const uint32_t *lines;  /* [nr_inline + 1]: each frame's line, or XPP_SRC_UNKNOWN:
				   lines[0] is the address's own, lines[i + 1] the line the
				   inlined call i was made from (the last: in the host function) */
};

typedef struct xpp_srcline xpp_srcline;

/*
 * A source-line resolver interning its strings into strs (borrowed; it must outlive the
 * resolver). 0, or a negative errno with err set: -EOPNOTSUPP when xperf was built
 * without libdw.
 */
int xpp_srcline_create(xpp_srcline **out, xpp_intern *strs, const struct xpp_src_opts *opts,
		       struct xb_error *err);
/* Accepts NULL. */
void xpp_srcline_free(xpp_srcline *s);

/*
 * The answer for `offset`, a file offset in the ELF file `path`, which the caller calls DSO
 * `dso` (a small dense id: the resolver keeps one Dwarf handle per DSO, opened on first
 * need, and caches each (dso, offset) answer). The arrays stay valid until
 * xpp_srcline_free(). 0 or a negative errno (-ENOMEM, -EOPNOTSUPP without libdw). A file
 * without DWARF is not an error: has_lines is false.
 */
int xpp_srcline_find(xpp_srcline *s, uint32_t dso, const char *path, uint64_t offset,
		     struct xpp_src_frames *out);

#endif
