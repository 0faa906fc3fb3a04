/* xperf report --speedscope: one pass handing each sample to the model, then the file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/speedscope/speedscope.h"
#include "report/speedscope/ss_int.h"
#include "view/rv.h"
#include "view/run.h"

/* The profile exists: the model names frames through it. */
static int keep_profile(void *ctx, xpp_profile *p)
{
	((struct ss *)ctx)->p = p;
	return 0;
}

/* The off-CPU event of the file when it has samples, else UINT32_MAX. */
static uint32_t offcpu_event(const xpp_profile *p)
{
	xpf_reader *r = xpp_profile_reader(p);
	uint32_t nr;
	const struct xpp_event *ev = xpp_profile_events(p, &nr);

	for (uint32_t i = 0; i < nr; i++)
		if (ev[i].nr_samples && xpf_reader_attr(r, i) &&
		    rv_is_offcpu(xpf_reader_attr(r, i)))
			return i;
	return UINT32_MAX;
}

/* Whether an event besides `besides` has samples. */
static bool others_sampled(const xpp_profile *p, uint32_t besides)
{
	uint32_t nr;
	const struct xpp_event *ev = xpp_profile_events(p, &nr);

	for (uint32_t i = 0; i < nr; i++)
		if (i != besides && ev[i].nr_samples)
			return true;
	return false;
}

/* The picked event's profiles first, then off-CPU time; the busiest thread first in each. */
static int by_weight(const void *a, const void *b, void *ctx)
{
	const struct ss *s = ctx;
	const struct ss_stream *x = &s->st[*(const uint32_t *)a];
	const struct ss_stream *y = &s->st[*(const uint32_t *)b];
	uint32_t first = s->first_event;

	if (x->event != y->event)
		return x->event == first ? -1 : y->event == first ? 1 : x->event < y->event ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Event idx's name, and with --wall the off-CPU time counted in it. */
static void event_name(const xpp_profile *p, uint32_t idx, bool wall, char *buf, size_t size)
{
	char name[64];

	snprintf(buf, size, "%s%s", xpf_attr_event_name(xpf_reader_attr(xpp_profile_reader(p), idx),
							  name, sizeof(name)),
		 wall ? " + offcpu-time" : "");
}

/* Write the streams of events on and off (UINT32_MAX: none) to path. An exit status. */
static int write_file(struct ss *s, const char *input, const char *path, uint32_t on,
		      uint32_t off, bool wall)
{
	xpf_reader *r = xpp_profile_reader(s->p);
	uint32_t *pick = malloc((s->nr_st ? s->nr_st : 1) * sizeof(*pick)), n = 0;
	char **names = calloc(s->nr_st ? s->nr_st : 1, sizeof(*names));
	const char **units = calloc(s->nr_st ? s->nr_st : 1, sizeof(*units));
	int status = CLI_EXIT_RUNTIME, ret;
	FILE *out = NULL;

	if (!pick || !names || !units) {
		cli_error("cannot build the speedscope profile: %s", strerror(ENOMEM));
		goto out;
	}
	for (uint32_t i = 0; i < s->nr_st; i++)
		if (s->st[i].nr && (s->st[i].event == on || s->st[i].event == off))
			pick[n++] = i;
	if (!n) {
		/* the events had samples, the filters took every one */
		cli_error("no samples for the speedscope profile: the filters left none");
		goto out;
	}
	s->first_event = on;
	qsort_r(pick, n, sizeof(*pick), by_weight, s);
	for (uint32_t i = 0; i < n; i++) {
		const struct ss_stream *t = &s->st[pick[i]];
		const char *comm = xpp_intern_str(xpp_profile_comms(s->p), t->comm);
		const struct xpf_attr *a = xpf_reader_attr(r, t->event);
		char ev[96];
		size_t len;

		event_name(s->p, t->event, wall, ev, sizeof(ev));
		/* perf script's way of naming a thread: command pid/tid */
		len = strlen(comm ? comm : "") + strlen(ev) + 32;
		if (!(names[i] = malloc(len))) {
			cli_error("cannot build the speedscope profile: %s", strerror(ENOMEM));
			goto out;
		}
		snprintf(names[i], len, "%s %d/%d %s", comm ? comm : ":-1", t->pid, t->tid, ev);
		units[i] = wall || (a && (rv_is_clock(a) || rv_is_offcpu(a))) ? "nanoseconds" : "none";
	}
	if (!(out = cli_output_open(path)))
		goto out;
	/* speedscope titles its page with the name: the file's, not its directory's */
	ret = ss_write(s, out, strrchr(input, '/') ? strrchr(input, '/') + 1 : input, pick, n,
		       names, units);
	if (cli_output_close(out, path, ret) == 0)
		status = CLI_EXIT_OK;
out:
	for (uint32_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(units);
	free(pick);
	return status;
}

int report_speedscope_run(xpf_reader *r, const char *input, const char *path, const char *event,
			  const struct view_opts *o)
{
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };
	xpp_profile *p = NULL;
	struct ss s;
	uint32_t on = UINT32_MAX, off = UINT32_MAX;
	int ret, status = CLI_EXIT_RUNTIME;
	bool fatal;

	if (ss_init(&s) < 0) {
		cli_error("cannot build the speedscope profile: %s", strerror(ENOMEM));
		ss_free(&s);
		return CLI_EXIT_RUNTIME;
	}
	rv_lookup_opts(o, &po);
	po.children = 0;
	po.no_chains = true;   /* every sample comes to the model: no call trees */
	po.order = 0;          /* long stacks keep their innermost frames, as perf script */
	po.hook_ctx = &s;
	po.on_sample = ss_on_sample;
	ret = view_profile_run(&p, r, &po, keep_profile, &s, &err);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		goto out;
	}
	/* the facts first: they say why there may be nothing to show */
	fatal = view_warnings(p, o->quiet, cli_warning_cb, NULL);
	/* off-CPU time comes as profiles of its own, unless --event or --wall say otherwise */
	if (!event && !o->wall)
		off = offcpu_event(p);
	status = CLI_EXIT_OK;
	if (off == UINT32_MAX || others_sampled(p, off))
		status = report_event_pick_besides(p, event, "the speedscope profile", o->quiet,
						   off, &on);
	if (status == CLI_EXIT_OK)
		status = write_file(&s, input, path, on, off, o->wall);
	if (fatal)
		status = CLI_EXIT_RUNTIME;
out:
	ss_free(&s);
	xpp_profile_free(p);
	return status;
}
