/* The options every command that reads a profile shares, and the option-table fragments that declare them. */
#ifndef XPERF_VIEW_OPTS_H
#define XPERF_VIEW_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "cli/cli.h"

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

/*
 * One struct for what a reading command shares (report's views, script, annotate): a
 * command keeps one, declares its options with the fragments below, and hands it to
 * rv_lookup_opts() / rv_ctx_parse(), so a command cannot lack --symfs or read the
 * build-id cache differently from another. view_opts_init() sets perf's defaults; the
 * strings point into argv.
 */
struct view_opts {
	/* ---- symbol and file lookup (VIEW_OPTS_LOOKUP, view_opts_dirs()) ---- */
	const char *kallsyms;      /* kernel symbols; NULL: /proc/kallsyms */
	const char *vmlinux;       /* -k/--vmlinux as perf's: the kernel's symbols from this
				      ELF file (checked readable by view_opts_check()) */
	const char *debug_root;    /* debug files; NULL: /usr/lib/debug */
	bool no_demangle;          /* --no-demangle: symbol names as the files have them */
	const char *symfs;         /* --symfs: files are looked for under this directory */
	const char *buildid_dir;   /* perf's build-id cache (~/.debug); NULL: none */
	const char *kallsyms_cache; /* the kallsyms cache's directory; NULL: none */
	/* --debuginfod[=URLS]: given 1, --no-debuginfod 0, -1 not given (DEBUGINFOD_URLS, as
	   elfutils' tools); urls: the option's, else the environment's (view_opts_dirs()) */
	struct view_debuginfod { int given; const char *urls, *env; } debuginfod;
	int inlines;               /* 1 --inline, 0 --no-inline, -1: perf's default (inline
				      frames in files recorded with --call-graph dwarf) */
	/* ---- filters (VIEW_OPTS_FILTERS) ---- */
	const char *comms;         /* comma-separated: only these commands; NULL: all */
	const char *dsos;          /* comma-separated: only these shared objects; NULL: all */
	const char *pids, *tids;   /* --pid / --tid lists; NULL: all */
	const char *cpus;          /* --cpu list ("0-2,4"); NULL: all */
	const char *time;          /* --time ranges (profile/time_range.h); NULL: all */
	const char *symbols;       /* -S: only these symbols; NULL: all */
	/* ---- sort keys (VIEW_OPT_SORT) ---- */
	const char *sort;          /* sort keys (comm, pid, dso, sym, srcline, cpu, parent) in
				      any order; NULL: "comm,dso,sym" */
	/* ---- call graphs (VIEW_OPTS_CALLGRAPH) ---- */
	int children;              /* 1 --children, 0 --no-children, -1 (0 too): perf's default,
				      children when the file has callchains */
	struct report_call_graph cg; /* -g (and --percent-limit, which sets its threshold) */
	bool inverted;             /* -G: caller order whatever -g and --children say */
	uint32_t max_stack;        /* frames kept per chain, as struct xpp_opts: 0 perf's
				      default, XPP_MAX_STACK_NONE none */
	/* ---- messages ---- */
	bool quiet;                /* -q: only the entries, no header lines, no warnings */
	int verbose;               /* -v */
	/* ---- report's symbolised views only (stdio, TUI) ---- */
	double percent_limit;      /* hide entries below this many percent */
	bool show_nr_samples;      /* -n: a Samples column */
	bool hierarchy;            /* --hierarchy: the sort keys as levels of a tree (stdio) */
	bool show_total_period;    /* --show-total-period: a Period column (own period) */
	int group;                 /* 1 --group, 0 --no-group, -1 perf's default (groups side by
				      side when the file has them) */
	struct report_threads *threads; /* -T: collects per-thread counts, printed after the
					   report (report.h); NULL: none */
	bool wall;                 /* --wall: on-CPU clock and offcpu-time samples as one
				      event, wall time in ns (view/wall.c) */
	const char *parent;        /* -p REGEX: parent symbols (adds the parent key); NULL:
				      perf's default */
	bool exclude_other;        /* -x: only samples with a parent */
	bool hide_unresolved;      /* --hide-unresolved */
	const char *fields;        /* -F: perf's output fields; NULL: perf's default */
	bool mem_mode;             /* --mem-mode: perf's memory view (sort_keys.c's mem_only
				      keys, RV_MEM_SORT by default, weights for periods) */
	bool header_shown;         /* --header printed the file's header before the report */
	/* where view_opts_dirs() keeps the directories it builds */
	char dir_buf[2][4096];
};

/* perf's defaults: children, inlines and groups as the file calls for. */
void view_opts_init(struct view_opts *v);
/*
 * The directories taken from the environment (cli_buildid_dir(), cli_kallsyms_cache_dir()):
 * perf's build-id cache, which every reading command looks in, and the kallsyms cache.
 */
void view_opts_dirs(struct view_opts *v);

/*
 * The filters' values checked as written, before the file is opened: a --pid, --tid or
 * --cpu list that is not one, a --time string perf would not parse; a --vmlinux file that
 * cannot be opened (perf's "Invalid file"). 0, or -EINVAL with
 * err's one line (the command's usage error, as a bad --sort key). What needs the file
 * (a percentage of a recording without sample times, --cpu on a file without the cpu)
 * is checked when the profile starts.
 */
int view_opts_check(const struct view_opts *v, struct xb_error *err);

/* ---- option-table fragments: `struct cli_option opts[] = { ..., VIEW_OPTS_LOOKUP(&v), ... }` */

/* callbacks of the fragments: a tri-state int (1 given, 0 --no-), -g, --max-stack, --demangle */
int view_opt_tristate(const struct cli_option *opt, const char *arg, bool unset);
int view_opt_call_graph(const struct cli_option *opt, const char *arg, bool unset);
int view_opt_max_stack(const struct cli_option *opt, const char *arg, bool unset);
int view_opt_demangle(const struct cli_option *opt, const char *arg, bool unset);
int view_opt_debuginfod(const struct cli_option *opt, const char *arg, bool unset);
/* The debuginfod servers --debuginfod and DEBUGINFOD_URLS name (URLs, not blank); NULL: none. */
const char *view_debuginfod_urls(const struct view_debuginfod *d);

/* Where symbols and files are looked for: --kallsyms, --symfs, --demangle, --debuginfod. */
#define VIEW_OPTS_LOOKUP(v)                                                                  \
	OPT_STRING(0, "kallsyms", &(v)->kallsyms, "FILE",                                     \
		   "kernel symbols from FILE (default: /proc/kallsyms)"),                       \
	OPT_STRING('k', "vmlinux", &(v)->vmlinux, "FILE",                                     \
		   "kernel symbols from the ELF file FILE instead of kallsyms, as perf: a "    \
		   "FILE whose build id is not the recorded kernel's is not read (a "          \
		   "warning; kernel addresses then stay unresolved)"),                          \
	OPT_CALLBACK_NOARG(0, "demangle", &(v)->no_demangle,                                 \
			   "show C++ and Rust symbol names demangled, without parameters, as "  \
			   "perf does (the default; --no-demangle: as the files have them)",     \
			   view_opt_demangle),                                                   \
	OPT_STRING(0, "symfs", &(v)->symfs, "DIR",                                           \
		   "look for the recorded files under DIR (as perf): DIR/usr/bin/prog for "    \
		   "/usr/bin/prog, debug files under DIR/usr/lib/debug; files whose build "     \
		   "id differs are also looked for in perf's build-id cache "                   \
		   "($PERF_BUILDID_DIR, else ~/.debug)"),                                       \
	OPT_CALLBACK_OPTARG(0, "debuginfod", &(v)->debuginfod, "URLS",                         \
			    "fetch the debug files of stripped files (symbols, source lines, "  \
			    "inline frames) that no local file has from these debuginfod "      \
			    "servers (space-separated; alone: $DEBUGINFOD_URLS, which is used "  \
			    "without the option too; --no-debuginfod: none), into "             \
			    "$DEBUGINFOD_CACHE_PATH (default "                                   \
			    "$XDG_CACHE_HOME/debuginfod_client), each waited for at most "       \
			    "$DEBUGINFOD_TIMEOUT seconds (default 5), "                          \
			    "tried $DEBUGINFOD_RETRY_LIMIT more times (default 0); after a "     \
			    "server fails, nothing more is asked",                               \
			    view_opt_debuginfod)

/* --inline / --no-inline: inline frames in call chains. */
#define VIEW_OPT_INLINE(v)                                                                   \
	OPT_CALLBACK_NOARG(0, "inline", &(v)->inlines,                                        \
			   "in call chains, show the functions inlined at each address, each "  \
			   "as a frame 'name (inlined)' above the function they were inlined "  \
			   "into, from DWARF (default: for files recorded with --call-graph "   \
			   "dwarf, as perf; --no-inline: never)",                                \
			   view_opt_tristate)

/* Which samples: each filter alone, and all of them in perf report's letters. */
#define VIEW_OPT_COMMS(v)                                                                    \
	OPT_STRING('c', "comms", &(v)->comms, "COMM[,COMM...]",                               \
		   "only samples of these commands")
/* perf report and annotate spell it -d, perf script has no letter for it (-d is another) */
#define VIEW_OPT_DSOS(v, letter)                                                             \
	OPT_STRING(letter, "dsos", &(v)->dsos, "DSO[,DSO...]",                                \
		   "only samples in these shared objects (short names, as shown)")
#define VIEW_OPT_PID(v)                                                                      \
	OPT_STRING(0, "pid", &(v)->pids, "PID[,PID...]", "only samples of these processes")
#define VIEW_OPT_TID(v)                                                                      \
	OPT_STRING(0, "tid", &(v)->tids, "TID[,TID...]", "only samples of these threads")
#define VIEW_OPT_CPU(v)                                                                      \
	OPT_STRING('C', "cpu", &(v)->cpus, "CPUS",                                            \
		   "only samples taken on these cpus: numbers and ranges, as 0-2,4 (the "       \
		   "file must have recorded the cpu; the others leave the totals)")
#define VIEW_OPT_TIME(v)                                                                     \
	OPT_STRING(0, "time", &(v)->time, "START,END",                                        \
		   "only samples in these time ranges: seconds as the file's times "            \
		   "(\"1234.5,1235\", either side empty, several separated by spaces) "          \
		   "or slices of the recording (\"10%/2\" the second tenth, "                   \
		   "\"0%-10%,30%-40%\"), as perf's --time")
#define VIEW_OPT_SYMBOLS(v)                                                                  \
	OPT_STRING('S', "symbols", &(v)->symbols, "SYMBOL[,SYMBOL...]",                       \
		   "only samples whose own symbol is one of these (names as shown)")
#define VIEW_OPTS_FILTERS(v, dsos_letter)                                                    \
	VIEW_OPT_COMMS(v), VIEW_OPT_DSOS(v, dsos_letter), VIEW_OPT_PID(v), VIEW_OPT_TID(v),  \
	VIEW_OPT_CPU(v), VIEW_OPT_TIME(v), VIEW_OPT_SYMBOLS(v)

/*
 * -s/--sort: its help made once from the sort keys' table (sort_keys.c), every key in
 * perf's order with the row's help, so it lists the keys there are; the option table
 * holding it is a local array, built at run time
 */
const char *rv_sort_help(void);
#define VIEW_OPT_SORT(v) OPT_STRING('s', "sort", &(v)->sort, "KEYS", rv_sort_help())

/* Call graphs: --children, -g, -G, --inline, --max-stack. */
#define VIEW_OPTS_CALLGRAPH(v)                                                               \
	OPT_CALLBACK_NOARG(0, "children", &(v)->children,                                    \
			   "with call graphs, show each entry's time with its callees "         \
			   "(Children) beside its own (Self), sorted by Children (the default " \
			   "for files with callchains; --no-children: the flat view)",           \
			   view_opt_tristate),                                                   \
	OPT_CALLBACK_DEFAULT('g', "call-graph", &(v)->cg,                                     \
			     "MODE[,THRESHOLD[,LIMIT]][,ORDER][,KEY][,VALUE]",                   \
			     "call graphs of files with callchains, words in any order "        \
			     "(alone: graph,0.5,caller,function,percent): MODE graph (default; " \
			     "percentages of the event), fractal (of the parent), flat (each "  \
			     "chain in full), folded (a line per chain, frames joined by ';') " \
			     "or none; THRESHOLD hides branches under that percent (0.5), LIMIT " \
			     "shows that many branches per level (default all); ORDER caller "  \
			     "or callee (default: caller with --children, else callee); KEY "   \
			     "function (default) or srcline (frames by source line, shown "     \
			     "after the name); VALUE percent, period or count",                 \
			     view_opt_call_graph, "graph,0.5,caller,function,percent"),         \
	OPT_BOOL('G', "inverted", &(v)->inverted,                                             \
		 "call graphs in caller order (perf's alias for -g caller), whatever -g "     \
		 "and --children say"),                                                         \
	VIEW_OPT_INLINE(v),                                                                   \
	OPT_CALLBACK(0, "max-stack", &(v)->max_stack, "N",                                    \
		     "call graphs keep N frames of each chain, counted from the end the "      \
		     "order starts at (default 127, as perf); the sample's own entry keeps "   \
		     "its self time", view_opt_max_stack)

#endif
