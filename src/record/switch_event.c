/* xperf record --switch-output-event: the events that switch the output, opened and read. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"
#include "record/switch_event.h"

/* They only say "now": a page holds dozens of samples between two reads. */
#define SWITCH_EVENT_PAGES 1

struct rec_switch_event {
	xpe_evlist *evl;
	xpe_ring **rings;        /* one per cpu of the open, the other fds redirected into it */
	int nr_rings;
	pid_t self;
};

int rec_switch_event_parse(struct rec_switch_event **out, xpe_ctx *ctx, const char *const *events,
			   int nr_events, struct xb_error *err)
{
	struct rec_switch_event *se = calloc(1, sizeof(*se));
	int i, ret = 0;

	*out = NULL;
	if (!se || !(se->evl = xpe_evlist_create())) {
		free(se);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < nr_events && ret == 0; i++)
		ret = xpe_evlist_parse(se->evl, ctx, events[i], err);
	if (ret < 0) {
		rec_switch_event_free(se);
		return ret;
	}
	se->self = getpid();
	*out = se;
	return 0;
}

int rec_switch_event_open(struct rec_switch_event *se, xpe_ctx *ctx, const struct rec_target *t,
			  struct xb_error *err)
{
	struct xpe_cpus all_cpus = { 0 };
	struct xpe_threads any_task = { 0 };
	const struct xpe_cpus *cpus = &t->tg.cpus;
	const struct xpe_threads *threads = &t->tg.threads;
	size_t n = xpe_evlist_count(se->evl), i;
	int ret = 0;

	if (t->cmd_is_target) {
		/* perf's side band has no task for a command: every cpu, every task */
		ret = xpe_cpus_online(ctx, &all_cpus, err);
		if (ret == 0 && xpe_threads_one(&any_task, -1) < 0)
			ret = xb_error_set(err, -ENOMEM, "out of memory");
		cpus = &all_cpus;
		threads = &any_task;
	}
	for (i = 0; i < n && ret == 0; i++) {
		struct perf_event_attr *a = &xpe_evlist_event(se->evl, i)->attr;

		a->size = sizeof(*a);
		a->sample_type = PERF_SAMPLE_TID; /* whose sample: ours are ignored */
		a->disabled = 0;
		a->watermark = 0;
		a->wakeup_events = 1;
	}
	if (ret == 0)
		ret = xpe_evlist_open(se->evl, ctx, cpus, threads, XPE_OPEN_NO_IDS, NULL, err);
	if (ret == 0) {
		se->rings = calloc((size_t)cpus->nr, sizeof(*se->rings));
		if (!se->rings)
			ret = xb_error_set(err, -ENOMEM, "out of memory");
	}
	if (ret == 0) {
		se->nr_rings = cpus->nr;
		ret = xpe_rings_map(se->evl, cpus, threads->nr, SWITCH_EVENT_PAGES, se->rings,
				    err);
	}
	xpe_cpus_release(&all_cpus);
	xpe_threads_release(&any_task);
	if (ret < 0 && strncmp(err->msg, "--switch-output-event", 21)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		xb_error_set(err, ret, "--switch-output-event: %s", why);
	}
	return ret;
}

int rec_switch_event_nr_fds(const struct rec_switch_event *se)
{
	return se ? se->nr_rings : 0;
}

int rec_switch_event_pollfds(const struct rec_switch_event *se, struct pollfd *pfd)
{
	int i, nr = 0;

	for (i = 0; se && i < se->nr_rings; i++) {
		if (!se->rings[i])
			continue;
		pfd[nr].fd = xpe_ring_fd(se->rings[i]);
		pfd[nr].events = POLLIN;
		nr++;
	}
	return nr;
}

bool rec_switch_event_fired(struct rec_switch_event *se)
{
	bool fired = false;
	int i;

	for (i = 0; se && i < se->nr_rings; i++) {
		const struct perf_event_header *h;
		uint32_t pid;

		if (!se->rings[i] || !xpe_ring_begin(se->rings[i]))
			continue;
		while ((h = xpe_ring_next(se->rings[i]))) {
			if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 8)
				continue;
			memcpy(&pid, h + 1, sizeof(pid));
			if ((pid_t)pid != se->self)
				fired = true;
		}
		xpe_ring_end(se->rings[i]);
	}
	return fired;
}

void rec_switch_event_free(struct rec_switch_event *se)
{
	int i;

	if (!se)
		return;
	for (i = 0; i < se->nr_rings; i++)
		xpe_ring_unmap(se->rings[i]);
	free(se->rings);
	xpe_evlist_free(se->evl);
	free(se);
}
