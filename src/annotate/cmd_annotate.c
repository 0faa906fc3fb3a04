/* xperf-annotate: options, the one pass over the file, and which symbols to annotate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "annotate/annotate_stdio.h"
#include "base/edit_distance.h"
#include "cli/cli.h"
#include "profile/disasm/annotate.h"
#include "view/opts.h"
#include "view/rv.h"
#include "view/run.h"

struct annotate_opts {
	const char *input, *symbol, *percent_type, *color;
	bool stdio, tui, print_lines, source, full_paths, nr_samples, total_period, skip_missing;
	double percent_limit;
	struct view_opts view; /* symbol lookup, --dsos, --cpu, -q: as every reading command */
};

static const char *const usage[] = {
	"xperf annotate [<options>] [SYMBOL]",
	NULL,
};

/* A symbol with samples: what the listing of an event is made of. */
struct sym_total {
	uint32_t dso;
	int32_t sym;
	uint64_t period;
	const char *dso_name;   /* short */
	uint64_t start;
};

/* perf's order: most period first; ties by the object's short name, then by address. */
static int cmp_period(const void *x, const void *y)
{
	const struct sym_total *a = x, *b = y;
	int r;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->dso != b->dso && (r = strcmp(a->dso_name, b->dso_name)))
		return r;
	if (a->dso != b->dso)
		return a->dso < b->dso ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

struct run {
	const struct annotate_opts *o;
	xpp_profile *p;
	struct ann_print_opts print;
	struct ann_print_state state;
	struct xpp_annotate_opts ann;
	xpp_dso_table *dsos;
	bool *warned;           /* per DSO: a failure was reported (perf's annotate_warned) */
	uint32_t printed, failed;
	/*
	 * Why symbols could not be annotated, one line per DSO, said at the end: as warnings
	 * when others were annotated (exit 0, as perf), as errors when none was (exit 2).
	 */
	char **why;
	uint32_t nr_why;
	bool kcore;             /* one of them is the kernel's code */
};

static void remember_failure(struct run *r, const struct xpp_dso *d, const char *sym,
			     const char *msg)
{
	char **v = realloc(r->why, (r->nr_why + 1) * sizeof(*v));

	r->failed++;
	if (!v)
		return;
	r->why = v;
	if (asprintf(&v[r->nr_why], "cannot annotate '%s' in %s: %s", sym,
		     d->short_name ? d->short_name : "?", msg) >= 0)
		r->nr_why++;
	if (d->kind == XPP_DSO_KERNEL || strstr(msg, "/proc/kcore"))
		r->kcore = true;
}

/* The failures: warnings after a listing, errors when nothing could be listed. */
static void say_failures(struct run *r)
{
	for (uint32_t i = 0; i < r->nr_why; i++) {
		if (!r->o->skip_missing && r->printed)
			cli_warning("%s", r->why[i]);
		else if (!r->o->skip_missing)
			cli_error("%s", r->why[i]);
		free(r->why[i]);
	}
	free(r->why);
	r->why = NULL;
	if (r->failed && !r->printed && r->o->skip_missing)
		cli_error("no symbol with samples could be annotated: %u skipped (--skip-missing) "
			  "because their code cannot be read", r->failed);
	if (r->kcore && !r->o->skip_missing)
		cli_hint("kernel code is read from /proc/kcore, which needs CAP_SYS_RAWIO (root) "
			 "and a kernel that provides it%s", r->printed ? "; --skip-missing leaves "
			 "out what cannot be read" : "");
}

/* Annotate one (dso, symbol) of event ev; a failure is reported once per DSO. */
static int annotate_one(struct run *r, uint32_t ev, const struct sym_total *t)
{
	struct xb_error err = { 0 };
	xpp_annotation *a;
	int ret;

	if (r->warned[t->dso])
		return 0;
	ret = xpp_annotation_create(&a, r->p, ev, t->dso, t->sym, &r->ann, &err);
	if (ret < 0) {
		r->warned[t->dso] = true;
		if (ret == -ENOMEM || ret == -EOPNOTSUPP)
			return ret;
		{
			const struct xpp_dso *d = xpp_dso_table_get(r->dsos, t->dso);

			remember_failure(r, d, xpp_dso_sym_name(d, (uint32_t)t->sym), err.msg);
		}
		return 0;
	}
	ann_print_stdio(a, &r->print, &r->state, stdout);
	xpp_annotation_free(a);
	r->printed++;
	return 0;
}

/*
 * The symbols of event ev with samples (named o->symbol, or all), found from the sample
 * addresses: each distinct address is looked up once, and a DSO's symbols are read only
 * when it has samples (and, for a named symbol, a symbol of that name). The kernel's only
 * with `kernel` (reading them costs more than the rest of an annotation).
 */
static int collect(struct run *r, uint32_t ev, const char *name, bool kernel,
		   struct sym_total **out, size_t *nr)
{
	struct sym_total *v = NULL;
	size_t n = 0, cap = 0;

	for (uint32_t dso = 0; dso < xpp_dso_table_nr(r->dsos); dso++) {
		const struct xpp_dso *d = xpp_dso_table_get(r->dsos, dso);
		size_t nh;
		const struct xpp_addr_hits *h =
			xpp_profile_addr_hits(r->p, ev, dso, 0, UINT64_MAX, &nh);

		if (!nh || (d->kind == XPP_DSO_KERNEL && !kernel))
			continue;
		/* a DSO without the name has nothing to annotate: its table is not built */
		if (name && !xpp_dso_table_may_have(r->dsos, dso, name))
			continue;
		for (size_t i = 0; i < nh; i++) {
			int64_t sym = xpp_dso_table_resolve(r->dsos, dso, h[i].addr);

			d = xpp_dso_table_get(r->dsos, dso);
			if (sym < 0 || (name && strcmp(xpp_dso_sym_name(d, (uint32_t)sym), name)))
				continue;
			/* addresses come sorted, so a symbol's are together */
			if (n && v[n - 1].dso == dso && v[n - 1].sym == sym) {
				v[n - 1].period += h[i].period;
				continue;
			}
			if (XB_ARRAY_RESERVE(v, cap, n + 1, 64)) {
				free(v);
				return -ENOMEM;
			}
			v[n++] = (struct sym_total){ dso, (int32_t)sym, h[i].period, d->short_name,
						     d->syms.syms[sym].start };
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_period);
	*out = v;
	*nr = n;
	return 0;
}

/*
 * Every symbol of event ev with samples (the one asked for, or all), most samples first.
 * A symbol asked for by name is looked for in the kernel only when no user-space symbol
 * of that name has samples.
 */
static int annotate_event(struct run *r, uint32_t ev, const struct xpp_event *e)
{
	char buf[64];
	const struct xpf_attr *a = xpf_reader_attr(xpp_profile_reader(r->p), ev);
	struct sym_total *t = NULL;
	size_t n = 0;
	int ret;

	r->print.event = xpf_attr_event_name(a, buf, sizeof(buf));
	ret = collect(r, ev, r->o->symbol, !r->o->symbol, &t, &n);
	if (ret == 0 && !n && r->o->symbol) {
		free(t);
		ret = collect(r, ev, r->o->symbol, true, &t, &n);
	}
	for (size_t i = 0; i < n && ret == 0; i++) {
		if (r->o->percent_limit > 0 && e->total_period &&
		    100.0 * (double)t[i].period / (double)e->total_period < r->o->percent_limit)
			continue;
		ret = annotate_one(r, ev, &t[i]);
	}
	free(t);
	return ret;
}

/*
 * The symbol whose name is nearest the one asked for (a typo: "mian" for "main"), into buf,
 * looked for among the symbols of the objects with samples; empty when none is near enough
 * (the limit of the event-name suggestions: a third of the name, at least two edits), or
 * when the name asked for is there, only without samples. Of names as near, one with
 * samples, the hottest. Returns whether the one named has samples.
 */
static bool suggest_symbol(struct run *r, char *buf, size_t len)
{
	const char *want = r->o->symbol;
	unsigned int limit = strlen(want) / 3 > 2 ? (unsigned int)strlen(want) / 3 : 2;
	unsigned int best = limit + 1;
	bool sampled = false;
	const struct xpp_event *ev;
	uint32_t nr_ev;

	buf[0] = 0;
	ev = xpp_profile_events(r->p, &nr_ev);
	for (uint32_t i = 0; i < nr_ev; i++) {
		struct sym_total *t = NULL;
		size_t n = 0;

		if (!ev[i].nr_samples || collect(r, i, NULL, true, &t, &n) < 0)
			continue;
		for (size_t k = 0; k < n; k++) {
			const char *name = xpp_dso_sym_name(xpp_dso_table_get(r->dsos, t[k].dso),
							    (uint32_t)t[k].sym);
			unsigned int d = xb_edit_distance(want, name);

			if (d < best || (d == best && !sampled)) {
				best = d;
				sampled = true;
				snprintf(buf, len, "%s", name);
			}
		}
		free(t);
	}
	/* then every symbol of the objects whose symbols were read for the samples */
	for (uint32_t id = 0; id < xpp_dso_table_nr(r->dsos); id++) {
		const struct xpp_dso *d = xpp_dso_table_get(r->dsos, id);

		for (uint32_t k = 0; k < d->syms.nr; k++) {
			const char *name = xpp_dso_sym_name(d, k);
			unsigned int dist = xb_edit_distance(want, name);

			if (!dist) { /* it exists, without samples: no other name is meant */
				buf[0] = 0;
				return true;
			}
			if (dist < best) {
				best = dist;
				sampled = false;
				snprintf(buf, len, "%s", name);
			}
		}
	}
	return sampled;
}

static int run_annotate(xpf_reader *rd, const struct annotate_opts *o)
{
	struct xpp_opts po = { .addrs_only = true };
	struct xb_error err = { 0 };
	struct run r = { .o = o };
	char near[256] = "";
	bool near_sampled = false;
	const struct xpp_event *ev;
	uint32_t nr_ev;
	bool fatal;
	int ret;

	rv_lookup_opts(&o->view, &po);
	ret = view_profile_run(&r.p, rd, &po, NULL, NULL, &err);
	if (ret < 0) {
		fflush(stdout);
		cli_error("%s", err.msg);
		xpp_profile_free(r.p);
		return CLI_EXIT_RUNTIME;
	}
	r.print.value = o->total_period ? ANN_PERIOD : o->nr_samples ? ANN_NR_SAMPLES : ANN_PERCENT;
	r.print.hits = o->percent_type && strstr(o->percent_type, "hits");
	r.print.source = o->source;
	r.print.print_lines = o->print_lines;
	r.print.full_paths = o->full_paths;
	r.print.color = o->color ? !strcmp(o->color, "always") :
			isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	if (o->color && !strcmp(o->color, "auto"))
		r.print.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	r.ann.no_source = !o->source && !o->print_lines;
	r.dsos = xpp_profile_dsos(r.p);
	r.warned = calloc(xpp_dso_table_nr(r.dsos) + 1, sizeof(*r.warned));
	ret = r.warned ? 0 : -ENOMEM;
	ev = xpp_profile_events(r.p, &nr_ev);
	for (uint32_t i = 0; i < nr_ev && ret == 0; i++)
		if (ev[i].nr_samples)
			ret = annotate_event(&r, i, &ev[i]);
	if (ret == 0 && o->symbol && !r.printed && !r.failed)
		near_sampled = suggest_symbol(&r, near, sizeof(near));
	free(r.warned);
	fflush(stdout);
	if (ret == 0)
		say_failures(&r);
	/* then the facts about the file: they say why there may be nothing to annotate */
	fatal = view_warnings(r.p, o->view.quiet, cli_warning_cb, NULL);
	xpp_profile_free(r.p);
	if (ret == -EOPNOTSUPP) {
		cli_error("annotate is not supported in this build: xperf was built without "
			  "a disassembler (install libzydis-dev or libcapstone-dev and rebuild)");
		return CLI_EXIT_RUNTIME;
	}
	if (ret < 0) {
		cli_error("cannot annotate: %s", strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	if (!r.printed && !r.failed) {
		if (o->symbol && near[0])
			cli_error("symbol '%s' has no samples in '%s' (did you mean '%s'?%s)",
				  o->symbol, o->input, near,
				  near_sampled ? "" : " it has no samples of its own either");
		else if (o->symbol)
			cli_error("symbol '%s' has no samples in '%s'", o->symbol, o->input);
		else
			cli_error("'%s' has no samples in symbols to annotate", o->input);
		return CLI_EXIT_RUNTIME;
	}
	return r.printed && !fatal ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}

/* perf's --percent-type words; only the local shares (of the symbol's own samples) are kept. */
static int check_percent_type(const char *t)
{
	static const char *const ok[] = { "local-period", "period-local", "local-hits", "hits-local" };

	if (!t)
		return 0;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(t, ok[i]))
			return 0;
	if (!strcmp(t, "global-period") || !strcmp(t, "period-global") ||
	    !strcmp(t, "global-hits") || !strcmp(t, "hits-global"))
		cli_error("--percent-type %s is not supported: only local-period (the default) "
			  "and local-hits", t);
	else
		cli_error("invalid --percent-type '%s': use local-period or local-hits", t);
	return -1;
}

int main(int argc, const char **argv)
{
	static char outbuf[1 << 20];
	struct annotate_opts o = { 0 };
	struct cli_option opts[] = {
		OPT_GROUP("Input"),
		OPT_FILENAME('i', "input", &o.input, "FILE",
			   "input file: '-' reads a pipe stream from stdin (default: stdin when "
			   "it is a pipe, else xperf.data, else perf.data)"),
		VIEW_OPT_DSOS(&o.view, 'd'),
		VIEW_OPT_CPU(&o.view),
		VIEW_OPT_TIME(&o.view),
		OPT_STRING('s', "symbol", &o.symbol, "SYMBOL",
			   "annotate this symbol (as the SYMBOL argument; default: every symbol "
			   "with samples, most samples first)"),
		VIEW_OPTS_LOOKUP(&o.view),
		OPT_GROUP("Output"),
		OPT_BOOL(0, "stdio", &o.stdio, "print to stdout, as perf annotate --stdio (the "
			 "default; the annotate TUI is xperf report's `a` key)"),
		OPT_BOOL(0, "tui", &o.tui, "not supported here: use xperf report and its `a` key"),
		OPT_BOOL(0, "source", &o.source, "show source lines above their instructions "
			 "(the default; --no-source hides them)"),
		OPT_BOOL('l', "print-line", &o.print_lines,
			 "a summary of the hottest source lines first, and each hot "
			 "instruction's file:line"),
		OPT_BOOL('P', "full-paths", &o.full_paths, "do not shorten file names"),
		OPT_BOOL('n', "show-nr-samples", &o.nr_samples,
			 "the number of samples of each instruction instead of its share"),
		OPT_BOOL(0, "show-total-period", &o.total_period,
			 "the period of each instruction instead of its share"),
		OPT_STRING(0, "percent-type", &o.percent_type, "TYPE",
			   "local-period (the default: shares of the symbol's period) or "
			   "local-hits (of its samples)"),
		OPT_DOUBLE(0, "percent-limit", &o.percent_limit, "PERCENT",
			   "skip symbols under PERCENT of their event's samples"),
		OPT_BOOL(0, "skip-missing", &o.skip_missing,
			 "skip symbols whose code cannot be read, without an error"),
		OPT_STRING(0, "stdio-color", &o.color, "WHEN",
			   "colour the shares: always, never or auto (the default: when stdout "
			   "is a terminal and NO_COLOR is unset)"),
		OPT_GROUP("Messages"),
		OPT_BOOL('q', "quiet", &o.view.quiet, "do not print warnings and notes on stderr"),
		OPT_END(),
	};
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	int ret, status;

	o.source = true; /* perf's default; --no-source clears it */
	view_opts_init(&o.view);
	cli_set_command("xperf annotate");
	argc = cli_parse(argc, argv, opts, usage, 0);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc > 1 || (argc == 1 && o.symbol && strcmp(o.symbol, argv[0]))) {
		cli_error("unexpected argument '%s'", argv[argc - 1]);
		cli_usage(opts, usage, true);
		return CLI_EXIT_USAGE;
	}
	if (argc == 1)
		o.symbol = argv[0];
	if (o.tui) {
		cli_error("--tui is not supported by xperf annotate: use xperf report and its "
			  "`a` key, or --stdio");
		return CLI_EXIT_USAGE;
	}
	if (o.color && strcmp(o.color, "always") && strcmp(o.color, "never") &&
	    strcmp(o.color, "auto")) {
		cli_error("invalid --stdio-color '%s': use always, never or auto", o.color);
		return CLI_EXIT_USAGE;
	}
	if (check_percent_type(o.percent_type) < 0)
		return CLI_EXIT_USAGE;
	if (view_opts_check(&o.view, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	if (!xpp_annotate_supported()) {
		cli_error("annotate is not supported in this build: xperf was built without "
			  "a disassembler (install libzydis-dev or libcapstone-dev and rebuild)");
		return CLI_EXIT_RUNTIME;
	}
	view_opts_dirs(&o.view);
	if (!o.input)
		o.input = cli_default_input(o.view.quiet);

	ret = xpf_reader_open(&r, o.input, &err);
	if (ret < 0) {
		cli_input_error(err.msg[0] ? err.msg : strerror(-ret), -ret);
		return CLI_EXIT_RUNTIME;
	}
	/* the disassembler loads on another thread while the pass reads the file */
	xpp_annotate_preload();
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	status = run_annotate(r, &o);
	xpf_reader_close(r);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error("cannot write the output: %s", strerror(errno));
		status = CLI_EXIT_RUNTIME;
	}
	return status;
}
