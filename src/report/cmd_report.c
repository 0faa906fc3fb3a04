/* xperf-report: options, input selection and the one pass over the file for each mode. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/flamegraph/flamegraph.h"
#include "report/modes.h"
#include "report/report.h"
#include "profile/profile.h"
#include "report/pprof/pprof.h"
#include "report/speedscope/speedscope.h"
#include "report/stdio/report_stdio.h"
#include "tui/tui.h"
#include "view/opts.h"
#include "view/rv.h"

struct report_opts {
	const char *input, *pprof;
	const char *flamegraph; /* --flamegraph FILE: src/report/flamegraph/ */
	const char *speedscope; /* --speedscope FILE: src/report/speedscope/ */
	const char *event;      /* --event NAME: the event the exports draw */
	bool flame_inverted;    /* --flamegraph-inverted: the root on top */
	bool dump, stats, header, header_only, stdio, tui, quiet;
	bool threads;           /* -T: src/report/threads.c */
	int verbose;
	struct view_opts view; /* the symbolised views: src/report/stdio/, src/tui/ */
};

static const char *const usage[] = {
	"xperf report [<options>]",
	NULL,
};

/* When the data was captured, as perf says it: the mtime of the file (or of stdin). */
static int64_t captured_time(const char *path)
{
	struct stat st;
	int ret = strcmp(path, "-") ? stat(path, &st) : fstat(STDIN_FILENO, &st);

	return ret ? time(NULL) : st.st_mtime;
}

static int fail(const struct xb_error *err, int code)
{
	fflush(stdout);
	if (err->msg[0])
		cli_error("%s", err->msg);
	else
		cli_error("%s", strerror(-code));
	return CLI_EXIT_RUNTIME;
}

static void warn_once(const xpf_reader *r, const struct report_opts *o)
{
	const char *w = xpf_reader_warning(r);

	if (w && !o->quiet) {
		fflush(stdout);
		cli_warning("%s", w);
	}
}

/* Records that describe a pipe stream; the header of a pipe ends at the first other one. */
static bool is_stream_header(uint32_t type)
{
	return type == XPF_RECORD_HEADER_ATTR || type == XPF_RECORD_HEADER_FEATURE ||
	       type == XPF_RECORD_HEADER_EVENT_TYPE || type == XPF_RECORD_HEADER_TRACING_DATA ||
	       type == XPF_RECORD_HEADER_BUILD_ID;
}

static int run_header_only(xpf_reader *r, const struct report_opts *o)
{
	const struct xpf_header_info *h = xpf_reader_header(r);
	struct xb_error err = { 0 };
	struct xpf_record rec;
	int ret;

	if (h->pipe) {
		/* a pipe's features arrive as records: read until they stop */
		while ((ret = xpf_reader_next(r, &rec, &err)) > 0)
			if (!is_stream_header(rec.hdr->type))
				break;
		if (ret < 0)
			return fail(&err, ret);
	}
	header_print(r, captured_time(o->input), stdout);
	/* a file cut short lacks its features: the header alone must say so too */
	warn_once(r, o);
	return CLI_EXIT_OK;
}

/* One pass: count every record; print each one too with --dump. */
static int run_pass(xpf_reader *r, const struct report_opts *o)
{
	struct report_stats st = { 0 };
	struct xb_error err = { 0 };
	struct xpf_record rec;
	int ret;

	if (o->dump)
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n", stdout);
	while ((ret = xpf_reader_next(r, &rec, &err)) > 0) {
		if (o->dump) {
			fputc('\n', stdout);
			dump_record(r, &rec, stdout);
		}
		ret = report_stats_add(&st, r, rec.hdr);
		if (ret < 0) {
			xb_error_set(&err, ret, "cannot count records: %s", strerror(-ret));
			break;
		}
	}
	if (ret < 0) {
		report_stats_free(&st);
		return fail(&err, ret);
	}
	report_stats_print(&st, r, stdout);
	report_stats_free(&st);
	warn_once(r, o);
	return CLI_EXIT_OK;
}

/*
 * The TUI when standard output is a terminal that can show it, as perf decides: a pipe, a
 * file or TERM=dumb get the stdio view.
 */
static bool want_tui(const struct report_opts *o)
{
	const char *term = getenv("TERM");

	if (o->tui)
		return true;
	if (o->stdio)
		return false;
	return isatty(STDOUT_FILENO) && term && term[0] && strcmp(term, "dumb");
}

/* The TUI, or the stdio view where it cannot run (unless --tui asked for it). */
static int run_tui(xpf_reader *r, const struct report_opts *o, double t0)
{
	struct tui_opts to = {
		.view = &o->view, .input = o->input, .captured = captured_time(o->input),
		.verbose = o->verbose, .t0 = t0, .flame_inverted = o->flame_inverted,
		.header = header_print,
	};
	int status = tui_browse_file(r, &to);

	if (status == -EOPNOTSUPP || status == -ENOTTY) {
		if (o->tui) {
			cli_error(status == -EOPNOTSUPP ?
				  "--tui: this build has no TUI (it was built without ncursesw)" :
				  "--tui: standard output is not a terminal that can show it "
				  "(TERM unset or dumb, or not a terminal)");
			return CLI_EXIT_USAGE;
		}
		return -1;
	}
	return status;
}

static double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --percent-limit as perf's: the entries' limit and the call graphs' threshold (the last of
 * it and -g's number wins, as they come) */
static int set_percent_limit(const struct cli_option *opt, const char *arg, bool unset)
{
	struct view_opts *v = opt->value;
	char *end;

	if (unset) {
		v->percent_limit = 0;
		return 0;
	}
	v->percent_limit = strtod(arg, &end);
	if (end == arg || *end) {
		cli_error("invalid --percent-limit '%s': want a percentage", arg);
		return -1;
	}
	if (!v->cg.set)
		report_call_graph_init(&v->cg);
	v->cg.threshold = v->percent_limit;
	return 0;
}

static int run_stdio(xpf_reader *r, struct report_opts *o)
{
	int status;

	if (o->threads && !(o->view.threads = report_threads_create(r))) {
		cli_error("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	if (o->header) {
		header_print(r, captured_time(o->input), stdout);
		o->view.header_shown = true;
	}
	status = report_stdio_run_reader(r, &o->view);
	report_threads_free(o->view.threads);
	o->view.threads = NULL;
	return status;
}

/*
 * The mode the switches ask for (one at most), else the one report picks: -T and --header
 * follow the stdio report (perf prints -T's table once its browser is closed), a terminal
 * gets the TUI unless an option given asks for what only the stdio view shows. -1 after a
 * usage error.
 */
static int pick_mode(const struct report_opts *o, const struct cli_option *opts,
		     const uint8_t *given)
{
	if (o->header_only + (o->stdio || o->tui) + (o->dump || o->stats) + !!o->pprof +
	    !!o->flamegraph + !!o->speedscope > 1 || (o->stdio && o->tui)) {
		cli_error("--header-only, --stdio, --tui, --pprof, --flamegraph, --speedscope and "
			  "--dump/--stats cannot be combined");
		return -1;
	}
	if (o->header_only)
		return RM_HEADER_ONLY;
	if (o->dump)
		return RM_DUMP;
	if (o->stats)
		return RM_STATS;
	if (o->pprof)
		return RM_PPROF;
	if (o->flamegraph)
		return RM_FLAMEGRAPH;
	if (o->speedscope)
		return RM_SPEEDSCOPE;
	if (o->tui)
		return RM_TUI;
	if (o->stdio || o->threads || o->header)
		return RM_STDIO;
	return want_tui(o) && report_mode_honours(RM_TUI, opts, given) ? RM_TUI : RM_STDIO;
}

/*
 * The values of the view's options (--sort keys, -F fields), whatever the mode: an unknown
 * sort key is an error even where sorting means nothing, as perf's. -1 after the error.
 */
static int check_view_values(const struct report_opts *o)
{
	struct rv_ctx c = { 0 };
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };

	if (view_opts_check(&o->view, &err) < 0) {
		cli_error("%s", err.msg);
		return -1;
	}
	return rv_ctx_parse(&c, &o->view, &po) < 0 ? -1 : 0;
}

int main(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	double t0 = monotonic_now();
	struct report_opts o = { 0 };
	struct cli_option opts[] = {
		OPT_GROUP("Input"),
		OPT_FILENAME('i', "input", &o.input, "FILE",
			   "input file: '-' reads a pipe stream from stdin (default: stdin when "
			   "it is a pipe, else xperf.data, else perf.data)"),
		OPT_GROUP("What to show"),
		OPT_BOOL('D', "dump", &o.dump,
			 "print every record: file offset, size, type and decoded fields (like "
			 "perf report -D), then the record counts"),
		OPT_BOOL(0, "stats", &o.stats,
			 "print the number of records of each type (like perf report --stats)"),
		OPT_BOOL(0, "header", &o.header,
			 "print the file header and its features, then the report (--stdio)"),
		OPT_BOOL(0, "header-only", &o.header_only,
			 "print the file header and its features, then exit"),
		OPT_BOOL(0, "stdio", &o.stdio,
			 "print the samples by command, shared object and symbol, most first "
			 "(the default when standard output is not a terminal)"),
		OPT_BOOL(0, "tui", &o.tui,
			 "browse the same view in the terminal, folding and unfolding call "
			 "chains (the default when standard output is a terminal; 'h' there "
			 "lists the keys)"),
		OPT_FILENAME(0, "pprof", &o.pprof, "FILE",
			   "instead, write the profile to FILE ('-': stdout) in pprof's format "
			   "(gzip-compressed profile.proto: call stacks with source lines and "
			   "inline frames, mappings with build ids), for go tool pprof, Pyroscope, "
			   "Parca or Grafana"),
		OPT_FILENAME(0, "flamegraph", &o.flamegraph, "FILE.svg",
			   "write the call tree of one event (see --event) as an SVG flame graph "
			   "to FILE.svg ('-': stdout), with hover titles, click to zoom and "
			   "Ctrl-F to search, instead of printing the report; the filters, "
			   "--wall, --max-stack and --inline apply"),
		OPT_BOOL(0, "flamegraph-inverted", &o.flame_inverted,
			 "draw the flame graph upside down, an icicle graph: the root on top, "
			 "callees below (flamegraph.pl --inverted); in the TUI the flame graph "
			 "opens so ('i' there flips it)"),
		OPT_FILENAME(0, "speedscope", &o.speedscope, "FILE.json",
			   "write the samples to FILE.json ('-': stdout) in speedscope's format "
			   "(https://www.speedscope.app): a profile per thread of one event (see "
			   "--event), its stacks in time order weighted by their periods, "
			   "off-CPU time (record --off-cpu) as profiles of their own, frames with "
			   "the source file and line of their function; the filters, --wall, "
			   "--max-stack and --inline apply"),
		OPT_STRING(0, "event", &o.event, "NAME",
			   "the event --flamegraph draws or --speedscope writes (default: the "
			   "first with samples, a warning naming it when there are several) or "
			   "the one --pprof writes (default: every event), by its name as the "
			   "report heads it"),
		VIEW_OPT_SORT(&o.view),
		OPT_STRING('F', "fields", &o.view.fields, "FIELDS",
			   "the columns of the --stdio view, in this order, as perf's: overhead, "
			   "overhead_sys, overhead_us, overhead_guest_sys, overhead_guest_us, "
			   "overhead_children, sample, period and the --sort keys; entries are "
			   "sorted by the --sort keys, then by these fields"),
		OPT_CALLBACK(0, "percent-limit", &o.view, "PERCENT",
			     "hide entries below PERCENT of their event (Children with "
			     "--children), and call-graph branches below it, as -g's threshold",
			     set_percent_limit),
		OPT_BOOL('T', "threads", &o.threads,
			 "after the report, the per-thread counts of 'xperf record -s' "
			 "(the stdio view)"),
		OPT_CALLBACK_NOARG(0, "group", &o.view.group,
				   "show the events of a group (recorded with -e '{a,b}') side by "
				   "side in one section (in the TUI one main view), a percentage "
				   "column each, as perf (the "
				   "default for files with groups; on a file without, all its events "
				   "as one group; --no-group: a section each)", view_opt_tristate),
		OPT_BOOL('n', "show-nr-samples", &o.view.show_nr_samples,
			 "add a column with the number of samples of each entry"),
		OPT_BOOL(0, "show-total-period", &o.view.show_total_period,
			 "add a column with the period of each entry (its own, with "
			 "--children too)"),
		OPT_BOOL(0, "hierarchy", &o.view.hierarchy,
			 "show the sort keys as levels of a tree, each entry of a key above "
			 "its entries of the next, each with its own overhead (as perf: its "
			 "own period, --children has no effect; not with -F; the stdio view)"),
		VIEW_OPTS_FILTERS(&o.view, 'd'),
		OPT_BOOL(0, "hide-unresolved", &o.view.hide_unresolved,
			 "leave out the samples whose address has no symbol (they leave the "
			 "totals) and the frames without one from call chains"),
		OPT_STRING('p', "parent", &o.view.parent, "REGEX",
			   "the parent of a sample is the first frame of its chain whose symbol "
			   "matches REGEX (default '^sys_|^do_page_fault'); sorts by parent too"),
		OPT_BOOL('x', "exclude-other", &o.view.exclude_other,
			 "only samples with a parent (see --parent)"),
		OPT_BOOL(0, "mem-mode", &o.view.mem_mode,
			 "perf's memory view of files recorded with -d: each sample weighs its "
			 "weight (1 without one), sorted by default by " RV_MEM_SORT "; the "
			 "keys symbol_daddr, dso_daddr, mem, snoop, tlb, locked, blocked, "
			 "dcacheline, phys_daddr and data_page_size need it"),
		VIEW_OPTS_CALLGRAPH(&o.view),
		VIEW_OPTS_LOOKUP(&o.view),
		OPT_BOOL(0, "wall", &o.view.wall,
			 "where the wall-clock time went: on-CPU samples (cpu-clock or "
			 "task-clock, ns) and off-CPU time (offcpu-time, from record --off-cpu) "
			 "as one profile, per thread (comm)"),
		OPT_GROUP("Messages"),
		OPT_BOOL('q', "quiet", &o.quiet, "do not print warnings and notes on stderr"),
		OPT_INCR('v', "verbose", &o.verbose,
			 "with the TUI, print on exit the time to its first screen and how long "
			 "the keys took (-vv: each key); with --stdio, as perf: each symbol's "
			 "first sample address, and the files' full paths"),
		OPT_END(),
	};
	uint8_t given[sizeof(opts) / sizeof(opts[0])] = { 0 };
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	int ret, status, mode;

	/*
	 * Big tables (the call trees of a million distinct paths) grow by doubling: with a fixed
	 * mmap threshold they stay mapped, so realloc moves pages (mremap) instead of copying
	 * them beside the old block, and free gives them back. glibc's dynamic threshold would
	 * put them on the heap after the first big free, and the peak would hold both copies.
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	view_opts_init(&o.view);
	cli_set_command("xperf report");
	argc = cli_parse_given(argc, argv, opts, usage, 0, given);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc > 0) {
		cli_error("unexpected argument '%s'", argv[0]);
		cli_usage(opts, usage, true);
		return CLI_EXIT_USAGE;
	}
	mode = pick_mode(&o, opts, given);
	if (mode < 0) {
		cli_usage(opts, usage, true);
		return CLI_EXIT_USAGE;
	}
	if (check_view_values(&o) < 0 || report_mode_check(mode, opts, given) < 0)
		return CLI_EXIT_USAGE;
	if (o.event && o.view.wall) {
		cli_error("'--event' cannot be combined with '--wall': it draws one event, on- and "
			  "off-CPU time merged");
		return CLI_EXIT_USAGE;
	}
	o.view.quiet = o.quiet;
	o.view.verbose = o.verbose;
	view_opts_dirs(&o.view);
	if (!o.input)
		o.input = cli_default_input(o.quiet);

	ret = xpf_reader_open(&r, o.input, &err);
	if (ret < 0) {
		cli_input_error(err.msg[0] ? err.msg : strerror(-ret), -ret);
		return CLI_EXIT_RUNTIME;
	}
	if (o.view.wall && rv_wall_check(r) < 0) {
		xpf_reader_close(r);
		return CLI_EXIT_USAGE;
	}

	status = mode == RM_TUI ? run_tui(r, &o, t0) : -1; /* < 0: no terminal for it after all */
	if (status < 0) {
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		switch (mode) {
		case RM_PPROF:
			status = report_pprof_run(r, o.pprof, o.event, &o.view);
			break;
		case RM_HEADER_ONLY:
			status = run_header_only(r, &o);
			break;
		case RM_FLAMEGRAPH:
			status = report_flamegraph_run(r, o.flamegraph, o.event, o.flame_inverted,
						       &o.view);
			break;
		case RM_SPEEDSCOPE:
			status = report_speedscope_run(r, o.input, o.speedscope, o.event, &o.view);
			break;
		case RM_DUMP:
		case RM_STATS:
			status = run_pass(r, &o);
			break;
		default:
			status = run_stdio(r, &o);
		}
	}

	xpf_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write the output: %s", strerror(errno));
		status = CLI_EXIT_RUNTIME;
	}
	return status;
}
