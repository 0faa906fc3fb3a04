/* xperf-stat counters: attrs for counting, opening per run, reading and summing into buckets. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat/session.h"

static void evsel_free_arrays(struct stat_evsel *e)
{
	free(e->prev);
	free(e->bucket);
	free(e->state);
	free(e->val);
	free(e->acc);
	free(e->acc_ena);
	free(e->acc_run);
	e->prev = NULL;
	e->bucket = NULL;
	e->state = NULL;
	e->val = NULL;
	e->acc = e->acc_ena = e->acc_run = NULL;
}

int stat_session_init(struct stat_session *s, xpe_ctx *ctx, xpe_evlist *evl, enum stat_aggr aggr)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->evl = evl;
	s->aggr = aggr;
	s->scale = true;
	s->inherit = true;
	s->nr_ev = (int)xpe_evlist_count(evl);
	s->evs = calloc(s->nr_ev ? s->nr_ev : 1, sizeof(*s->evs));
	if (!s->evs)
		return -ENOMEM;
	for (i = 0; i < s->nr_ev; i++) {
		struct stat_evsel *e = &s->evs[i];
		struct xpe_event *ev = xpe_evlist_event(evl, i);

		e->ev = ev;
		e->name = ev->name;
		e->kind = stat_kind_of(&ev->attr);
		e->ctx = stat_ctx_of(&ev->attr);
		/* perf shows the software clocks in msec; PMU events bring their sysfs unit */
		if (e->kind == STAT_K_CLOCK) {
			snprintf(e->unit, sizeof(e->unit), "msec");
			e->scale = 1e-6;
		} else {
			snprintf(e->unit, sizeof(e->unit), "%s", ev->unit);
			e->scale = ev->scale > 0 ? ev->scale : 1.0;
		}
	}
	return 0;
}

void stat_session_release(struct stat_session *s)
{
	int i;

	stat_session_close(s);
	for (i = 0; i < s->nr_ev; i++)
		evsel_free_arrays(&s->evs[i]);
	free(s->evs);
	free(s->comm);
	xpe_target_release(&s->target);
	s->evs = NULL;
	s->comm = NULL;
}

void stat_session_set_attr(struct stat_session *s, struct xpe_event *ev, bool enable_on_exec)
{
	struct perf_event_attr *a = &ev->attr;
	bool leader = ev->leader == ev->idx;

	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->sample_type = 0;
	a->sample_period = 0;
	a->freq = 0;
	a->inherit = s->inherit;
	/* Only leaders start disabled: members follow their leader on and off the PMU */
	a->disabled = leader;
	a->enable_on_exec = leader && enable_on_exec;
}

static int alloc_buckets(struct stat_session *s)
{
	int nfd = s->target.cpus.nr * s->target.threads.nr, i, nb;

	switch (s->aggr) {
	case STAT_AGGR_NONE: nb = s->target.cpus.nr; break;
	case STAT_AGGR_THREAD: nb = s->target.threads.nr; break;
	default: nb = 1; break;
	}
	/* Buckets persist across runs (-r) so the accumulators do; size only grows */
	if (nb < s->nr_bucket)
		nb = s->nr_bucket;
	for (i = 0; i < s->nr_ev; i++) {
		struct stat_evsel *e = &s->evs[i];
		struct stat_acc *a, *ae, *ar;

		free(e->prev);
		e->prev = calloc(nfd ? nfd : 1, sizeof(*e->prev));
		if (!e->prev)
			return -ENOMEM;
		if (nb == s->nr_bucket && e->acc)
			continue;
		e->bucket = realloc(e->bucket, nb * sizeof(*e->bucket));
		e->state = realloc(e->state, nb * sizeof(*e->state));
		e->val = realloc(e->val, nb * sizeof(*e->val));
		a = realloc(e->acc, nb * sizeof(*a));
		if (a)
			e->acc = a;
		ae = realloc(e->acc_ena, nb * sizeof(*ae));
		if (ae)
			e->acc_ena = ae;
		ar = realloc(e->acc_run, nb * sizeof(*ar));
		if (ar)
			e->acc_run = ar;
		if (!e->bucket || !e->state || !e->val || !a || !ae || !ar)
			return -ENOMEM;
		memset(e->acc + s->nr_bucket, 0, (nb - s->nr_bucket) * sizeof(*a));
		memset(e->acc_ena + s->nr_bucket, 0, (nb - s->nr_bucket) * sizeof(*a));
		memset(e->acc_run + s->nr_bucket, 0, (nb - s->nr_bucket) * sizeof(*a));
	}
	s->nr_bucket = nb;
	return 0;
}

int stat_session_open(struct stat_session *s, bool enable_on_exec, int *failed,
		      struct xb_error *err)
{
	int i, ret, tries;

	for (i = 0; i < s->nr_ev; i++)
		stat_session_set_attr(s, s->evs[i].ev, enable_on_exec);
	ret = alloc_buckets(s);
	if (ret)
		return xb_error_set(err, ret, "cannot allocate counters: %s", strerror(-ret));
	for (tries = 0;; tries++) {
		struct xpe_event *ev;
		char msg[256];

		*failed = -1;
		ret = xpe_evlist_open(s->evl, s->ctx, &s->target.cpus, &s->target.threads,
				      XPE_OPEN_SKIP_UNSUPPORTED | XPE_OPEN_NO_IDS, failed, err);
		if (ret != -EACCES && ret != -EPERM)
			break;
		/*
		 * As perf stat: an unprivileged user under perf_event_paranoid 2 still counts
		 * user space, so retry the refused event as EVENT:u (unsupported events were
		 * already skipped, so this never turns cycles into cpu-clock).
		 */
		ev = *failed >= 0 ? xpe_evlist_event(s->evl, *failed) : NULL;
		if (!ev || tries >= s->nr_ev || !xpe_event_fallback(ev, -ret, msg, sizeof(msg)))
			break;
		xb_error_clear(err);
	}
	/* a fallback may rename an event and change its privilege filter */
	for (i = 0; i < s->nr_ev; i++) {
		s->evs[i].name = s->evs[i].ev->name;
		s->evs[i].ctx = stat_ctx_of(&s->evs[i].ev->attr);
	}
	return ret;
}

void stat_session_close(struct stat_session *s)
{
	if (s->evl)
		xpe_evlist_close(s->evl);
}

static int bucket_of(const struct stat_session *s, int cpu_idx, int thread_idx)
{
	switch (s->aggr) {
	case STAT_AGGR_NONE: return cpu_idx;
	case STAT_AGGR_THREAD: return thread_idx;
	default: return 0;
	}
}

void stat_session_read(struct stat_session *s)
{
	int i, c, t, b, nt = s->target.threads.nr;

	for (i = 0; i < s->nr_ev; i++) {
		struct stat_evsel *e = &s->evs[i];
		struct xpe_event *ev = e->ev;

		memset(e->bucket, 0, s->nr_bucket * sizeof(*e->bucket));
		for (c = 0; c < s->target.cpus.nr; c++) {
			for (t = 0; t < nt; t++) {
				int k = c * nt + t;
				uint64_t buf[3];
				struct stat_counts *p = &e->prev[k], *bk;

				if (!ev->fd || k >= ev->nr_fd || ev->fd[k] < 0)
					continue;
				if (read(ev->fd[k], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
					continue;
				bk = &e->bucket[bucket_of(s, c, t)];
				/* Counters only grow; a delta below zero would be a kernel reset */
				bk->val += buf[0] >= p->val ? buf[0] - p->val : 0;
				bk->ena += buf[1] >= p->ena ? buf[1] - p->ena : 0;
				bk->run += buf[2] >= p->run ? buf[2] - p->run : 0;
				p->val = buf[0];
				p->ena = buf[1];
				p->run = buf[2];
			}
		}
		for (b = 0; b < s->nr_bucket; b++) {
			if (ev->unsupported) {
				/* a group mate of an unsupported event is never scheduled */
				e->state[b] = ev->group_failed ? STAT_NOT_COUNTED : STAT_NOT_SUPPORTED;
				e->val[b] = 0;
			} else {
				e->state[b] = stat_scale(&e->bucket[b], s->scale, &e->val[b], NULL);
			}
		}
	}
}

bool stat_session_idle(struct stat_session *s)
{
	int i, k;

	for (i = 0; i < s->nr_ev; i++) {
		struct stat_evsel *e = &s->evs[i];
		struct xpe_event *ev = e->ev;

		if (ev->unsupported || !ev->fd)
			continue;
		for (k = 0; k < ev->nr_fd && k < s->target.cpus.nr * s->target.threads.nr; k++) {
			uint64_t buf[3];

			if (ev->fd[k] < 0 || read(ev->fd[k], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
				continue;
			if (buf[1] > e->prev[k].ena)
				return false;
		}
	}
	return true;
}

void stat_session_accumulate(struct stat_session *s, bool reset)
{
	int i, b;

	for (i = 0; i < s->nr_ev; i++) {
		struct stat_evsel *e = &s->evs[i];

		for (b = 0; b < s->nr_bucket; b++) {
			if (reset) {
				memset(&e->acc[b], 0, sizeof(e->acc[b]));
				memset(&e->acc_ena[b], 0, sizeof(e->acc_ena[b]));
				memset(&e->acc_run[b], 0, sizeof(e->acc_run[b]));
			}
			stat_acc_add(&e->acc[b], e->val[b]);
			stat_acc_add(&e->acc_ena[b], (double)e->bucket[b].ena);
			stat_acc_add(&e->acc_run[b], (double)e->bucket[b].run);
		}
	}
}

void stat_session_read_comms(struct stat_session *s)
{
	int t, nt = s->target.threads.nr;
	void *p = realloc(s->comm, (nt ? nt : 1) * sizeof(*s->comm));

	if (!p)
		return;
	s->comm = p;
	for (t = 0; t < s->target.threads.nr; t++) {
		char path[64];
		int fd;
		ssize_t n = 0;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)s->target.threads.tid[t]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, s->comm[t], sizeof(s->comm[t]) - 1);
			close(fd);
		}
		if (n <= 0) {
			snprintf(s->comm[t], sizeof(s->comm[t]), "%s", "<unknown>");
			continue;
		}
		s->comm[t][n] = 0;
		if (s->comm[t][n - 1] == '\n')
			s->comm[t][n - 1] = 0;
	}
}
