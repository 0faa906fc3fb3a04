/* xperf top's TUI: the rings drained into a buffer, pushed into the profile at each refresh, browsed by the TUI library. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "cli/cli.h"
#include "top/top.h"
#include "tui/tui.h"

/*
 * What the rings gave since the last refresh, records back to back (8-byte aligned, as the
 * kernel writes them). While a screen holds the profile (flame graph, annotate, callers)
 * nothing may change it, so records wait here; past this many bytes samples are dropped
 * (counted, perf top's "drop") while the records of tasks and maps are kept.
 */
#define TOP_BUFFER_MAX (64u << 20)
/* How often the TUI asks for records: a ring (512 KiB) holds half a second at -F 25000 */
#define TOP_TUI_INTERVAL_MS 250
/* The first table comes sooner than -d: a screen of "waiting" says little */
#define TOP_FIRST_REFRESH 0.5

struct top_live {
	struct top_session *s;
	unsigned char *buf;
	size_t len, cap;
	int err;                 /* -ENOMEM while buffering */
	double last, next;
	bool aged;               /* the profile has a refresh's counts to age */
	int refreshes;           /* refreshes applied (--refreshes ends the TUI after them) */
	double end;              /* with --refreshes: when the last is due to have been shown
				    for -d seconds, whether or not a screen held refreshes back */
	char status[320];        /* the last refresh's status line, given at every call */
};

static int buffer_one(void *arg, const struct perf_event_header *h)
{
	struct top_live *l = arg;
	size_t need = l->len + h->size;

	if (l->err)
		return 0;
	if (need > TOP_BUFFER_MAX && h->type == PERF_RECORD_SAMPLE) {
		l->s->st.dropped++;
		return 0;
	}
	if (need > l->cap && XB_ARRAY_RESERVE(l->buf, l->cap, need, 1u << 16)) {
		l->err = -ENOMEM;
		return 0;
	}
	memcpy(l->buf + l->len, h, h->size);
	l->len += h->size;
	return 0;
}

/* The buffered records into the profile, in the order the rings gave them. */
static int push_buffered(struct top_live *l)
{
	struct top_session *s = l->s;

	for (size_t at = 0; at + sizeof(struct perf_event_header) <= l->len;) {
		const struct perf_event_header *h = (const void *)(l->buf + at);

		top_push(s, h);
		at += h->size;
		if (s->push_err)
			return s->push_err;
	}
	l->len = 0;
	return xpp_profile_round(s->p, &s->err);
}

static int update(void *ctx, bool apply, xpp_profile **p, char *status, size_t size)
{
	struct top_live *l = ctx;
	struct top_session *s = l->s;
	double now = top_now();
	int ret;

	(void)p; /* the profile goes on: the same one, fed */
	xpe_rings_drain(s->rings, s->nr_rings, buffer_one, l, NULL);
	if (l->err) {
		snprintf(status, size, "out of memory for the samples of the next refresh");
		return l->err;
	}
	/* --refreshes N: the N-th table shown for -d seconds, then the end, from any screen
	 * (one that holds the profile holds refreshes back: then at the time they were due) */
	if (s->o->refreshes && now >= l->next && (l->refreshes >= s->o->refreshes || now >= l->end))
		return TUI_UPDATE_END;
	if (!apply || now < l->next) {
		snprintf(status, size, "%s", l->status);
		return 0;
	}
	/* perf top's aging: the table shows the new samples and 7/8 of the old counts */
	if (l->aged)
		xpp_profile_decay(s->p, s->o->zero ? 0 : TOP_DECAY_NUM, TOP_DECAY_DEN);
	ret = push_buffered(l);
	if (ret == 0)
		ret = xpp_profile_settle(s->p, &s->err);
	if (ret < 0) {
		snprintf(status, size, "%s", s->err.msg);
		return ret;
	}
	top_status(s, now - l->last, l->status, sizeof(l->status));
	snprintf(status, size, "%s", l->status);
	s->st.samples = s->st.kernel_samples = s->st.hidden = s->st.exact = 0;
	l->aged = true;
	l->refreshes++;
	l->last = now;
	l->next = now + s->o->delay;
	return 1;
}

int top_tui(struct top_session *s)
{
	struct top_live l = { .s = s };
	struct tui_opts o = {
		.view = &s->o->view,
		.verbose = s->o->verbose,
		.t0 = top_now(),
	};
	struct tui_source src = {
		.o = &o,
		.profile = s->p,
		.update = update,
		.ctx = &l,
		.interval_ms = TOP_TUI_INTERVAL_MS,
	};
	int ret;

	l.last = top_now();
	l.next = l.last + (s->o->delay < TOP_FIRST_REFRESH ? s->o->delay : TOP_FIRST_REFRESH);
	l.end = l.next + s->o->refreshes * s->o->delay;
	ret = tui_browse(&src);
	free(l.buf);
	return ret;
}
