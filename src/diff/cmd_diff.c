/* xperf-diff: perf diff's options, the inputs, one pass per file, a table per event. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "diff/diff.h"
#include "profile/disasm/annotate.h"
#include "view/run.h"

static const char *const usage[] = {
	"xperf diff [<options>] [OLD] [NEW...]",
	NULL,
};

/* -c delta|delta-abs|ratio|wdiff:W1,W2, as perf's setup_compute() */
static int opt_compute(const struct cli_option *opt, const char *arg, bool unset)
{
	struct diff_opts *o = opt->value;
	static const char *const names[] = {
		[DIFF_DELTA] = "delta", [DIFF_RATIO] = "ratio", [DIFF_WDIFF] = "wdiff",
		[DIFF_DELTA_ABS] = "delta-abs",
	};
	size_t n = arg ? strcspn(arg, ":") : 0;

	if (unset || !arg) {
		o->compute = DIFF_DELTA_ABS;
		return 0;
	}
	for (int i = 0; i < 4; i++) {
		if (strlen(names[i]) != n || strncmp(arg, names[i], n))
			continue;
		o->compute = (enum diff_compute)i;
		if (i == DIFF_WDIFF) {
			char *end;
			const char *w = arg[n] ? arg + n + 1 : "";

			o->w1 = strtoll(w, &end, 10);
			if (*end == ',' && end[1])
				o->w2 = strtoll(end + 1, &end, 10);
			if (!arg[n] || !o->w1 || !o->w2 || *end) {
				cli_error("wrong weights in '-c %s': use wdiff:W1,W2, two non-zero "
					  "integers", arg);
				return -1;
			}
		} else if (arg[n]) {
			cli_error("-c %s takes no value: '%s'", names[i], arg + n + 1);
			return -1;
		}
		return 0;
	}
	if (!strcmp(arg, "cycles"))
		cli_error("-c cycles is not supported: it needs branch stacks (record -b)");
	else
		cli_error("'%s' is not a computation: use delta, delta-abs, ratio or wdiff:W1,W2",
			  arg);
	return -1;
}

static int opt_percentage(const struct cli_option *opt, const char *arg, bool unset)
{
	bool *absolute = opt->value;

	if (!unset && arg && !strcmp(arg, "absolute"))
		*absolute = true;
	else if (!unset && arg && !strcmp(arg, "relative"))
		*absolute = false;
	else {
		cli_error("invalid --percentage '%s': use relative or absolute", arg ? arg : "");
		return -1;
	}
	return 0;
}

/*
 * The inputs as perf diff takes them: none, OLD.old and OLD; one, NEW against the default
 * OLD; more, the first is the baseline. The default pair follows report's rule: xperf.data
 * unless only perf.data is there.
 */
static int inputs(int argc, const char **argv, const char ***out, uint32_t *nf)
{
	static const char *def[2];
	bool perf = access("xperf.data", F_OK) && !access("perf.data", F_OK);

	if (argc >= 2) {
		*out = argv;
		*nf = (uint32_t)argc;
		return 0;
	}
	def[0] = perf ? "perf.data.old" : "xperf.data.old";
	if (argc == 1) {
		/* the baseline beside one file given: whichever of the two is there */
		if (access("xperf.data.old", F_OK) && !access("perf.data.old", F_OK))
			def[0] = "perf.data.old";
		else
			def[0] = "xperf.data.old";
	}
	def[1] = argc == 1 ? argv[0] : perf ? "perf.data" : "xperf.data";
	*out = def;
	*nf = 2;
	return 0;
}

/*
 * Open file d and set its pass up: one line naming the file when it cannot be read. With
 * --tui the passes take tui_view's options (new: the file browsed).
 */
static int open_file(struct diff_file *d, const struct diff_opts *o,
		     const struct view_opts *tui_view, bool new)
{
	struct xb_error err = { 0 };
	int ret = xpf_reader_open(&d->r, d->path, &err);

	if (ret < 0) {
		cli_input_error(err.msg[0] ? err.msg : strerror(-ret), -ret);
		return -1;
	}
	if (o->tui) {
		/* NEW is browsed as report's TUI shows a file; OLD gives its flame graph */
		if (rv_ctx_parse(&d->c, tui_view, &d->po) < 0)
			return -1;
		d->po.keep_addrs = new && xpp_annotate_supported(); /* the a key */
		d->po.keep_samples = new; /* s and o count its samples again */
		return 0;
	}
	if (o->flamegraph) {
		/* the call paths, callers first, as report --flamegraph reads them */
		d->po = (struct xpp_opts){ .children = 0, .order = -1 };
		rv_lookup_opts(&o->view, &d->po);
		return 0;
	}
	return rv_ctx_parse(&d->c, &o->view, &d->po);
}

/*
 * The files' passes, on up to one thread per cpu: each profile is its own (the library
 * keeps no state between profiles), and a diff reads two files or more, so two cpus read
 * two files in the time of one.
 */
struct passes {
	struct diff_file *f;
	uint32_t nf, next;
	pthread_mutex_t lock;
};

static void *pass_thread(void *arg)
{
	struct passes *ps = arg;

	for (;;) {
		struct diff_file *d;

		pthread_mutex_lock(&ps->lock);
		d = ps->next < ps->nf ? &ps->f[ps->next++] : NULL;
		pthread_mutex_unlock(&ps->lock);
		if (!d)
			return NULL;
		d->ret = view_profile_run(&d->p, d->r, &d->po, NULL, NULL, &d->err);
	}
}

/* Run every file's pass; the first that failed is said (one line naming it). */
static int run_passes(struct diff_file *f, uint32_t nf)
{
	struct passes ps = { .f = f, .nf = nf, .lock = PTHREAD_MUTEX_INITIALIZER };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t nt = cpus > 1 ? (uint32_t)(cpus < nf ? cpus : nf) : 1, started = 0;
	pthread_t th[8];

	if (nt > 8)
		nt = 8;
	/* the calling thread is one of them */
	for (uint32_t i = 1; i < nt; i++)
		if (!pthread_create(&th[started], NULL, pass_thread, &ps))
			started++;
	pass_thread(&ps);
	for (uint32_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < nf; i++) {
		if (f[i].ret < 0) {
			cli_error("%s: %s", f[i].path, f[i].err.msg);
			return -1;
		}
		rv_ctx_take(&f[i].c, f[i].p, f[i].r);
	}
	return 0;
}

int64_t diff_match_event(const struct diff_file *base, uint32_t idx, const struct diff_file *d,
			 bool sampled)
{
	const struct xpf_attr *a = xpf_reader_attr(base->r, idx);

	for (uint32_t i = 0; i < xpf_reader_nr_attrs(d->r); i++) {
		const struct xpf_attr *b = xpf_reader_attr(d->r, i);

		if (a->attr.type == b->attr.type && a->attr.config == b->attr.config &&
		    (!sampled || (i < d->c.nr_ev && d->c.ev[i].nr_samples)))
			return i;
	}
	return -1;
}

static int build(struct diff_file *d, int64_t idx)
{
	d->built = false;
	if (idx < 0 || (uint32_t)idx >= d->c.nr_ev || !d->c.ev[idx].h)
		return 0;
	if (rv_entries_build(&d->g, &d->c, (uint32_t)idx) < 0)
		return -ENOMEM;
	d->built = true;
	return 0;
}

static int run(struct diff_file *f, uint32_t nf, const struct diff_opts *o)
{
	struct diff_table t = { .o = o, .f = f, .nf = nf };
	int ret = 0;

	for (uint32_t i = 0; i < xpf_reader_nr_attrs(f[0].r) && ret == 0; i++) {
		char name[128];

		ret = build(&f[0], i);
		for (uint32_t k = 1; k < nf && ret == 0; k++)
			ret = build(&f[k], diff_match_event(&f[0], i, &f[k], false));
		if (ret == 0)
			ret = diff_table_build(&t);
		if (ret == 0)
			diff_print_event(&t, rv_event_name(&f[0].c, i, name, sizeof(name)), i == 0,
					 stdout);
		diff_table_free(&t);
		for (uint32_t k = 0; k < nf; k++)
			if (f[k].built)
				rv_entries_free(&f[k].g);
	}
	return ret;
}

static double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * --tui shows NEW's profile, not the table: the table's options and --flamegraph are
 * errors with it, never ignored (report's rule for its modes).
 */
static int check_tui(const struct cli_option *opts, const uint8_t *given)
{
	static const char *const table_only[] = {
		"compute", "order", "baseline-only", "percentage", "period", "formula",
		"field-separator", "flamegraph",
	};

	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		if (!given[i] || !opts[i].long_name)
			continue;
		for (size_t k = 0; k < sizeof(table_only) / sizeof(table_only[0]); k++)
			if (!strcmp(opts[i].long_name, table_only[k])) {
				cli_error("'--%s' is not supported with '--tui'", table_only[k]);
				return -1;
			}
	}
	return 0;
}

int main(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	/* perf diff's percentages are of every sample unless --percentage relative */
	struct diff_opts o = { .compute = DIFF_DELTA_ABS, .order = 1, .absolute = true };
	int order = 1;
	struct cli_option opts[] = {
		OPT_GROUP("Computation"),
		OPT_CALLBACK('c', "compute", &o, "delta|delta-abs|ratio|wdiff:W1,W2",
			     "what the newer files' columns show: delta (the change of the "
			     "share, in points), delta-abs (the same, sorted by its size; the "
			     "default), ratio (the period's ratio to the baseline's) or wdiff:W1,W2 "
			     "(new period * W2 - old period * W1)", opt_compute),
		OPT_INT('o', "order", &order, "N",
			"sort by the column of file N (1, the first newer file, by default; 0 by "
			"the Baseline)"),
		OPT_BOOL('b', "baseline-only", &o.baseline_only,
			 "only the baseline's entries that the newer files have too"),
		OPT_CALLBACK(0, "percentage", &o.absolute, "relative|absolute",
			     "the shares of the entries the filters keep: of every sample "
			     "(absolute, the default, as perf diff) or of what they keep (relative)", opt_percentage),
		OPT_GROUP("Output"),
		OPT_STRING('s', "sort", &o.view.sort, "KEYS",
			   "pair, group and sort the entries by KEYS, also their columns: a "
			   "comma-separated list of comm, pid, dso, sym, srcline, cpu, parent "
			   "(default: dso,sym)"),
		OPT_BOOL('p', "period", &o.period, "show each file's period beside its column"),
		OPT_BOOL('F', "formula", &o.formula, "show how each value was computed"),
		OPT_STRING('t', "field-separator", &o.sep, "SEP",
			   "separate the columns with SEP instead of aligning them"),
		OPT_STRING(0, "flamegraph", &o.flamegraph, "FILE.svg",
			   "write NEW's flame graph to FILE.svg ('-': stdout) instead of the table, "
			   "each box coloured by the change of its share from OLD: red grew, blue "
			   "shrank (two files only)"),
		OPT_BOOL(0, "tui", &o.tui,
			 "browse NEW in the TUI instead of the table, opening on its flame graph "
			 "with each frame coloured by the change of its share from OLD: red grew, "
			 "blue shrank (two files recorded with -g; perf diff has no TUI)"),
		OPT_GROUP("Which samples"),
		VIEW_OPT_DSOS(&o.view, 'd'),
		OPT_STRING('C', "comms", &o.view.comms, "COMM[,COMM...]",
			   "only samples of these commands"),
		VIEW_OPT_SYMBOLS(&o.view),
		OPT_STRING(0, "cpu", &o.view.cpus, "CPUS",
			   "only samples taken on these cpus: numbers and ranges, as 0-2,4"),
		VIEW_OPT_PID(&o.view),
		VIEW_OPT_TID(&o.view),
		VIEW_OPT_TIME(&o.view),
		OPT_GROUP("Symbols"),
		VIEW_OPTS_LOOKUP(&o.view),
		OPT_GROUP("Messages"),
		OPT_INCR('v', "verbose", &o.view.verbose,
			 "the files' full names, each entry's first address, the data files"),
		OPT_BOOL('q', "quiet", &o.view.quiet,
			 "only the entries: no header lines, no warnings"),
		OPT_END(),
	};
	uint8_t given[sizeof(opts) / sizeof(opts[0])] = { 0 };
	struct view_opts tui_view;
	double t0 = monotonic_now();
	const char **paths;
	struct diff_file *f;
	struct xb_error err = { 0 };
	uint32_t nf;
	int status = CLI_EXIT_OK;

	view_opts_init(&o.view);
	cli_set_command("xperf diff");
	argc = cli_parse_given(argc, argv, opts, usage, 0, given);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.tui && check_tui(opts, given) < 0)
		return CLI_EXIT_USAGE;
	/* --tui: NEW's main view as report shows a file (its default keys, call graphs) */
	tui_view = o.view;
	if (!o.view.sort)
		o.view.sort = "dso,sym";
	/* no call graphs: perf diff compares the samples' own entries */
	o.view.children = 0;
	o.view.cg.set = true;
	o.view.cg.mode = CG_NONE;
	if (view_opts_check(&o.view, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	{
		/* a bad --sort is a usage error, before any file is read */
		struct rv_ctx c = { 0 };
		struct xpp_opts po = { 0 };

		if (rv_ctx_parse(&c, &o.view, &po) < 0)
			return CLI_EXIT_USAGE;
	}
	inputs(argc, argv, &paths, &nf);
	if (order < 0 || (uint32_t)order >= nf) {
		cli_error("-o %d: there is no such file to sort by (0 to %u)", order, nf - 1);
		return CLI_EXIT_USAGE;
	}
	o.order = (unsigned int)order;
	if (o.flamegraph && nf != 2) {
		cli_error("--flamegraph compares two files, OLD and NEW: %u given", nf);
		return CLI_EXIT_USAGE;
	}
	if (o.tui && nf != 2) {
		cli_error("--tui compares two files, OLD and NEW: %u given", nf);
		return CLI_EXIT_USAGE;
	}
	if (o.tui && (!isatty(STDOUT_FILENO) || !getenv("TERM") || !getenv("TERM")[0] ||
		      !strcmp(getenv("TERM"), "dumb"))) {
		/* said before the files are read */
		cli_error("--tui: standard output is not a terminal that can show it (TERM unset "
			  "or dumb, or not a terminal)");
		return CLI_EXIT_USAGE;
	}
	if (o.flamegraph && !o.flamegraph[0]) {
		cli_error("--flamegraph needs a file name ('-' for stdout)");
		return CLI_EXIT_USAGE;
	}
	view_opts_dirs(&o.view);
	f = calloc(nf, sizeof(*f));
	if (!f) {
		cli_error("%s", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	for (uint32_t i = 0; i < nf && status == CLI_EXIT_OK; i++) {
		f[i].path = paths[i];
		if (open_file(&f[i], &o, &tui_view, i == 1) < 0)
			status = CLI_EXIT_RUNTIME;
	}
	if (status == CLI_EXIT_OK && run_passes(f, nf) < 0)
		status = CLI_EXIT_RUNTIME;
	if (status == CLI_EXIT_OK && o.tui)
		status = diff_tui_run(f, &tui_view, t0);
	else if (status == CLI_EXIT_OK && o.flamegraph)
		status = diff_flamegraph_write(f, o.flamegraph);
	else if (status == CLI_EXIT_OK && run(f, nf, &o) < 0) {
		fflush(stdout);
		cli_error("%s", strerror(ENOMEM));
		status = CLI_EXIT_RUNTIME;
	}
	fflush(stdout);
	for (uint32_t i = 0; i < nf; i++) {
		if (f[i].p && status == CLI_EXIT_OK &&
		    view_warnings(f[i].p, o.view.quiet, cli_warning_cb, NULL))
			status = CLI_EXIT_RUNTIME;
		xpp_profile_free(f[i].p);
		if (f[i].r)
			xpf_reader_close(f[i].r);
	}
	free(f);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write the output: %s", strerror(errno));
		status = CLI_EXIT_RUNTIME;
	}
	return status;
}
