/* xperf-script: every sample of a data file on its own line(s), as perf script prints them, or folded stacks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "script/script.h"
#include "view/opts.h"
#include "view/rv.h"
#include "view/run.h"

struct script_opts {
	const char *input;
	bool ns, show_task, show_mmap, show_switch, folded, hide_chain;
	struct view_opts view; /* symbol lookup, --inline, filters: as every reading command */
	int max_stack;
	struct script_fields f;
	bool fields_bad;
};

static const char *const usage[] = {
	"xperf script [<options>]",
	NULL,
};

static struct script_opts *g_opts; /* for the -F callback */

static int parse_fields(const struct cli_option *opt, const char *arg, bool unset)
{
	(void)opt;
	if (unset || !arg) {
		script_fields_default(&g_opts->f);
		return 0;
	}
	return script_fields_parse(&g_opts->f, arg);
}

/*
 * What must wait for the attrs (a pipe brings them in its stream): the field checks, the
 * event names and their width, the tracepoint printer. Once, before the first line.
 */
static int script_start(struct script *sc)
{
	uint32_t n = xpf_reader_nr_attrs(sc->r);
	const char *why = NULL;
	char buf[64];

	if (script_fields_check(&sc->f, sc->r) < 0)
		return -EINVAL;
	sc->ev_names = calloc(n ? n : 1, sizeof(*sc->ev_names));
	if (!sc->ev_names)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = xpf_attr_event_name(xpf_reader_attr(sc->r, i), buf, sizeof(buf));
		int len = (int)strlen(name);

		if (!(sc->ev_names[i] = strdup(name)))
			return -ENOMEM;
		if (len > sc->name_width)
			sc->name_width = len;
	}
	sc->nr_names = n;
	for (uint32_t i = 0; i < n; i++)
		if (xpf_reader_attr(sc->r, i)->attr.type == PERF_TYPE_TRACEPOINT &&
		    (sc->f.fields[T_TRACE] & F_TRACE)) {
			int ret = tp_printer_create(&sc->tp, sc->r, sc->p, &why);

			if (ret == -ENOMEM)
				return ret;
			if (!sc->tp && why)
				cli_warning("tracepoint fields are not printed: %s", why);
			for (unsigned int w = 0; tp_printer_warning(sc->tp, w); w++)
				cli_warning("%s", tp_printer_warning(sc->tp, w));
			break;
		}
	return 0;
}

struct run {
	struct script sc;
	bool started;
	int start_err;
};

static int on_sample(void *ctx, const struct xpp_sample_view *v)
{
	struct run *r = ctx;

	if (!r->started) {
		r->started = true;
		if ((r->start_err = script_start(&r->sc)) < 0)
			return r->start_err;
	}
	return script_on_sample(&r->sc, v);
}

static int on_side_band(void *ctx, const struct perf_event_header *hdr)
{
	struct run *r = ctx;

	if (!r->sc.show_task && !r->sc.show_mmap && !r->sc.show_switch)
		return 0;
	if (!r->started) {
		r->started = true;
		if ((r->start_err = script_start(&r->sc)) < 0)
			return r->start_err;
	}
	return script_on_side_band(&r->sc, hdr);
}

/* The profile exists: the printer reads names through it. */
static int keep_profile(void *ctx, xpp_profile *p)
{
	((struct run *)ctx)->sc.p = p;
	return 0;
}

static int run(xpf_reader *rd, const struct script_opts *o, struct out *out)
{
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };
	struct run r = { 0 };
	xpp_profile *p = NULL;
	int ret, status = CLI_EXIT_RUNTIME;

	rv_lookup_opts(&o->view, &po);
	po.order = 0; /* perf script keeps the innermost frames of long chains */
	po.max_stack = o->max_stack > 0 ? (uint32_t)o->max_stack : 0;
	if (o->folded) {
		po.children = 0;
		po.no_chains = false;
	} else {
		po.children = 0;
		po.no_chains = true;
		po.stream = true; /* each sample printed and forgotten: nothing kept per frame */
		po.hook_ctx = &r;
		po.on_sample = on_sample;
		po.on_side_band = on_side_band;
	}
	r.sc.r = rd;
	r.sc.out = out;
	r.sc.f = o->f;
	r.sc.ns = o->ns;
	r.sc.show_task = o->show_task;
	r.sc.show_mmap = o->show_mmap;
	r.sc.show_switch = o->show_switch;
	r.sc.callchains = !o->hide_chain;
	ret = view_profile_run(&p, rd, &po, keep_profile, &r, &err);
	if (ret == 0 && o->folded)
		ret = script_print_folded(p, out);
	out_flush(out);
	if (ret < 0) {
		/* the start-up checks printed their own error */
		if (!(r.start_err && ret == r.start_err && ret == -EINVAL)) {
			if (out->err && ret == -out->err)
				cli_error("cannot write the output: %s", strerror(out->err));
			else
				cli_error("%s", !out->err ? err.msg : strerror(-ret));
		}
		status = r.start_err == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
		goto done;
	}
	status = view_warnings(p, o->view.quiet, cli_warning_cb, NULL) ? CLI_EXIT_RUNTIME :
									 CLI_EXIT_OK;
done:
	for (uint32_t i = 0; i < r.sc.nr_names; i++)
		free((char *)r.sc.ev_names[i]);
	free(r.sc.ev_names);
	tp_printer_free(r.sc.tp);
	xpp_profile_free(p);
	return status;
}

int main(int argc, const char **argv)
{
	static struct out out;
	struct script_opts o = { 0 };
	struct cli_option opts[] = {
		OPT_GROUP("Input"),
		OPT_FILENAME('i', "input", &o.input, "FILE",
			   "input file: '-' reads a pipe stream from stdin (default: stdin when "
			   "it is a pipe, else xperf.data, else perf.data)"),
		VIEW_OPTS_LOOKUP(&o.view),
		OPT_GROUP("Which samples"),
		VIEW_OPT_COMMS(&o.view),
		VIEW_OPT_DSOS(&o.view, 0),
		VIEW_OPT_PID(&o.view),
		VIEW_OPT_TID(&o.view),
		VIEW_OPT_CPU(&o.view),
		VIEW_OPT_TIME(&o.view),
		VIEW_OPT_SYMBOLS(&o.view),
		OPT_GROUP("What to print"),
		OPT_CALLBACK('F', "fields", &o.f, "[TYPE:]FIELD,...",
			     "the fields of each sample line, as perf script: comm, tid, pid, "
			     "time, cpu, event, trace, ip, sym, symoff, dso, addr, srcline, "
			     "period, misc; TYPE hw, sw, trace, raw or break limits them to "
			     "those events; +FIELD / -FIELD add to or remove from the defaults",
			     parse_fields),
		OPT_BOOL(0, "ns", &o.ns, "show times in nanoseconds"),
		OPT_BOOL(0, "show-task-events", &o.show_task,
			 "also print the COMM, FORK and EXIT records"),
		OPT_BOOL(0, "show-mmap-events", &o.show_mmap,
			 "also print the MMAP and MMAP2 records"),
		OPT_BOOL(0, "show-switch-events", &o.show_switch,
			 "also print the context switch records (PERF_RECORD_SWITCH and "
			 "SWITCH_CPU_WIDE)"),
		OPT_BOOL('G', "hide-call-graph", &o.hide_chain,
			 "one line per sample, without its call chain"),
		OPT_INT(0, "max-stack", &o.max_stack, "N",
			"print at most N frames of each call chain (default 127)"),
		OPT_BOOL(0, "folded", &o.folded,
			 "instead, one line per distinct call stack, 'comm;outermost;...;"
			 "innermost count' (samples), sorted: the input of flame-graph tools"),
		VIEW_OPT_INLINE(&o.view),
		OPT_GROUP("Messages"),
		OPT_BOOL('q', "quiet", &o.view.quiet, "do not print warnings on stderr"),
		OPT_END(),
	};
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	int ret, status;

	view_opts_init(&o.view);
	cli_set_command("xperf script");
	g_opts = &o;
	script_fields_default(&o.f);
	argc = cli_parse(argc, argv, opts, usage, 0);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc > 0) {
		cli_error("unexpected argument '%s' (xperf script runs no scripts)", argv[0]);
		cli_usage(opts, usage, true);
		return CLI_EXIT_USAGE;
	}
	if (view_opts_check(&o.view, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	view_opts_dirs(&o.view);
	if (!o.input)
		o.input = cli_default_input(o.view.quiet);
	ret = xpf_reader_open(&r, o.input, &err);
	if (ret < 0) {
		cli_input_error(err.msg[0] ? err.msg : strerror(-ret), -ret);
		return CLI_EXIT_RUNTIME;
	}
	out.fd = STDOUT_FILENO;
	status = run(r, &o, &out);
	xpf_reader_close(r);
	return status;
}
