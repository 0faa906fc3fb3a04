/* The default view of xperf report: a symbolised table like `perf report --stdio --no-children`. */
#ifndef XPERF_REPORT_STDIO_H
#define XPERF_REPORT_STDIO_H

#include <stdbool.h>

#include "format/xpf_reader.h"

/* -g as perf's callchain_param: what the call graphs show and how (see report_call_graph_parse) */
enum report_cg_mode { CG_GRAPH, CG_FRACTAL, CG_FLAT, CG_FOLDED, CG_NONE };
enum report_cg_value { CG_PERCENT, CG_COUNT, CG_PERIOD };

struct report_call_graph {
	bool set;              /* false: perf's defaults (the rest unset) */
	enum report_cg_mode mode;
	double threshold;      /* percent: graph, flat, folded of the event's total, fractal of
				  the parent's callees; smaller branches are hidden */
	uint32_t print_limit;  /* branches shown per level (chains per entry); 0: all */
	int order;             /* 1 caller first, 0 callee first, -1 perf's default */
	enum report_cg_value value;
	bool srcline;          /* -g srcline: frames show their source line and differ by it */
};

/*
 * Apply one -g argument to g as perf parses it (words in any order, each a prefix of a
 * mode, order, key or value word; the first number the threshold, a second the print
 * limit); NULL or "none"-like unset: no call graph. 0, or -EINVAL after cli_error().
 */
int report_call_graph_parse(struct report_call_graph *g, const char *arg);
/* perf's defaults: graph, 0.5, no limit, the order left to the view, function, percent */
void report_call_graph_init(struct report_call_graph *g);

struct report_stdio_opts {
	const char *sort;          /* sort keys (comm, pid, dso, sym, srcline, cpu, parent) in
				      any order; NULL: "comm,dso,sym" */
	double percent_limit;      /* hide entries below this many percent */
	bool show_nr_samples;      /* -n: a Samples column */
	const char *comms;         /* comma-separated: only these commands; NULL: all */
	const char *dsos;          /* comma-separated: only these shared objects; NULL: all */
	bool quiet;                /* -q: only the entries, no header lines, no warnings */
	const char *kallsyms;      /* kernel symbols; NULL: /proc/kallsyms */
	const char *debug_root;    /* debug files; NULL: /usr/lib/debug */
	bool no_demangle;          /* --no-demangle: symbol names as the files have them */
	const char *symfs;         /* --symfs: files are looked for under this directory */
	const char *buildid_dir;   /* perf's build-id cache (~/.debug); NULL: none */
	const char *kallsyms_cache; /* the kallsyms cache's directory; NULL: none */
	int children;              /* 1 --children, 0 --no-children, -1 (0 too): perf's default,
				      children when the file has callchains */
	struct report_call_graph cg; /* -g (and --percent-limit, which sets its threshold) */
	bool inverted;             /* -G: caller order whatever -g and --children say */
	int group;                 /* 1 --group, 0 --no-group, -1 perf's default (groups side by
				      side when the file has them) */
	int inlines;               /* 1 --inline, 0 --no-inline, -1: perf's default (inline
				      frames in files recorded with --call-graph dwarf) */
	uint32_t max_stack;        /* frames kept per chain, as struct xpp_opts: 0 perf's
				      default, XPP_MAX_STACK_NONE none */
	struct report_threads *threads; /* -T: collects per-thread counts, printed after the
					   report (report.h); NULL: none */
	bool wall;                 /* --wall: on-CPU clock and offcpu-time samples as one
				      event, wall time in ns (view/wall.c) */
	const char *parent;        /* -p REGEX: parent symbols (adds the parent key); NULL:
				      perf's default */
	bool exclude_other;        /* -x: only samples with a parent */
	const char *pids, *tids;   /* --pid / --tid lists; NULL: all */
	const char *cpus;          /* --cpu list ("0-2,4"); NULL: all */
	const char *time;          /* --time ranges (profile/time_range.h); NULL: all */
	const char *symbols;       /* -S: only these symbols; NULL: all */
	bool hide_unresolved;      /* --hide-unresolved */
	const char *fields;        /* -F: perf's output fields; NULL: perf's default */
	int verbose;               /* -v */
	bool header_shown;         /* --header printed the file's header before the report */
};

/*
 * Read input_path ("-" for a pipe stream on stdin) in one pass and print, for each event
 * with samples, its entries sorted by overhead to stdout. Errors are printed with
 * cli_error(). Returns an exit status: CLI_EXIT_OK, CLI_EXIT_USAGE (a bad --sort key) or
 * CLI_EXIT_RUNTIME.
 */
int report_stdio_run(const char *input_path, const struct report_stdio_opts *opts);

/*
 * The same on a reader the caller opened (and still owns and closes), positioned before
 * the first data record. The reader's warning (truncated file) is left to the caller when
 * the status is CLI_EXIT_OK. CLI_EXIT_RUNTIME after a printed report: more than half of
 * the samples could not be decoded (both warnings were printed).
 */
int report_stdio_run_reader(xpf_reader *r, const struct report_stdio_opts *opts);

#endif
