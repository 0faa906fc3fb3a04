/* `xperf report --flamegraph FILE.svg`: the profile's call tree as a standalone SVG flame graph. */
#ifndef XPERF_REPORT_FLAMEGRAPH_H
#define XPERF_REPORT_FLAMEGRAPH_H

#include "format/xpf_reader.h"

struct report_flame_opts {
	const char *comms;      /* comma-separated: only these commands; NULL: all */
	const char *dsos;       /* comma-separated: only these shared objects; NULL: all */
	const char *kallsyms;   /* kernel symbols; NULL: /proc/kallsyms */
	const char *debug_root; /* debug files; NULL: /usr/lib/debug */
	const char *symfs;      /* --symfs: files are looked for under this directory */
	const char *buildid_dir;/* perf's build-id cache (~/.debug); NULL: none */
	const char *kallsyms_cache; /* the kallsyms cache's directory; NULL: none */
	bool no_demangle;       /* symbol names as the files have them */
	int inlines;            /* inline frames: 1 yes, 0 no, -1 the report's default */
};

/*
 * Read r in one pass and write the flame graph of its first event with samples to `path`
 * ("-" for stdout): one box per function per call path, as wide as its share of the
 * samples, callers below callees, siblings in name order; each box's title names the
 * function, its object, its samples and share; a click zooms into a box. Errors are
 * printed with cli_error(). Returns CLI_EXIT_OK or CLI_EXIT_RUNTIME.
 */
int report_flamegraph_run(xpf_reader *r, const char *path, const struct report_flame_opts *o);

#endif
