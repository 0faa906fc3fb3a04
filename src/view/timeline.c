/* When an event's samples fall: the samples counted per stretch of time, in all and per thread. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "format/xpf_reader.h"
#include "format/xpf_sample.h"
#include "view/rv.h"
#include "view/timeline.h"

/* One sample of the event: its time and thread. */
struct stamp {
	uint64_t time;
	int32_t pid, tid;
};

uint32_t view_timeline_bucket(const struct view_timeline *tl, uint64_t ns)
{
	uint64_t span = tl->last - tl->first + 1;

	if (ns <= tl->first)
		return 0;
	if (ns >= tl->last)
		return VIEW_TIMELINE_BUCKETS - 1;
	/* (ns - first) * BUCKETS / span without overflow: span fits 2^52 ns (52 days) */
	return (uint32_t)((double)(ns - tl->first) * VIEW_TIMELINE_BUCKETS / (double)span);
}

uint64_t view_timeline_time(const struct view_timeline *tl, uint32_t b)
{
	uint64_t span = tl->last - tl->first + 1;

	if (b >= VIEW_TIMELINE_BUCKETS)
		return tl->last + 1;
	return tl->first + (uint64_t)((double)span * b / VIEW_TIMELINE_BUCKETS + 0.5);
}

static int cmp_thread(const void *pa, const void *pb)
{
	const struct view_timeline_thread *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static int cmp_tid(const void *pa, const void *pb)
{
	const struct stamp *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

/* The stamps into buckets: in all, then per thread (the stamps sorted by thread). */
static int count(struct view_timeline *tl, struct stamp *s, size_t n)
{
	size_t cap = 0;

	for (size_t i = 0; i < n; i++)
		tl->all[view_timeline_bucket(tl, s[i].time)]++;
	qsort(s, n, sizeof(*s), cmp_tid);
	for (size_t i = 0; i < n;) {
		struct view_timeline_thread *t;
		size_t j = i;

		if (XB_ARRAY_RESERVE(tl->th, cap, tl->nr_th + 1, 16))
			return -ENOMEM;
		t = &tl->th[tl->nr_th];
		*t = (struct view_timeline_thread){ .pid = s[i].pid, .tid = s[i].tid };
		if (!(t->bucket = calloc(VIEW_TIMELINE_BUCKETS, sizeof(*t->bucket))))
			return -ENOMEM;
		tl->nr_th++;
		for (; j < n && s[j].tid == s[i].tid && s[j].pid == s[i].pid; j++)
			t->bucket[view_timeline_bucket(tl, s[j].time)]++;
		t->samples = j - i;
		i = j;
	}
	qsort(tl->th, tl->nr_th, sizeof(*tl->th), cmp_thread);
	return 0;
}

int view_timeline_read(struct view_timeline *tl, const char *path, uint32_t idx, bool wall,
		       struct xb_error *err)
{
	xpf_reader *r = NULL;
	struct xpf_record rec;
	struct stamp *s = NULL;
	size_t n = 0, cap = 0;
	bool any = false;
	int ret;

	memset(tl, 0, sizeof(*tl));
	ret = xpf_reader_open(&r, path, err);
	while (ret == 0 && (ret = xpf_reader_next(r, &rec, err)) > 0) {
		const struct xpf_attr *a;
		struct xpf_sample smp;
		struct xb_error skip;
		uint32_t i;

		ret = 0;
		if (rec.hdr->type != PERF_RECORD_SAMPLE || !(a = xpf_reader_attr_of(r, rec.hdr)))
			continue;
		if (xpf_reader_decode_sample(r, rec.hdr, &smp, &skip) < 0)
			continue; /* the pass counts and says the undecodable ones */
		if (!(a->attr.sample_type & PERF_SAMPLE_TIME))
			continue;
		/* the recording's bounds come from every event's samples */
		if (!any || smp.time < tl->first)
			tl->first = smp.time;
		if (!any || smp.time > tl->last)
			tl->last = smp.time;
		any = true;
		for (i = 0; i < xpf_reader_nr_attrs(r) && xpf_reader_attr(r, i) != a; i++)
			;
		if ((wall ? rv_wall_into(r, i) : (int64_t)i) != (int64_t)idx)
			continue;
		if (XB_ARRAY_RESERVE(s, cap, n + 1, 4096)) {
			ret = xb_error_set(err, -ENOMEM, "%s", strerror(ENOMEM));
			break;
		}
		s[n++] = (struct stamp){ smp.time, (int32_t)smp.pid, (int32_t)smp.tid };
	}
	if (ret == 0) {
		tl->no_time = !any;
		tl->samples = n;
		ret = count(tl, s, n);
		if (ret)
			xb_error_set(err, ret, "%s", strerror(-ret));
	}
	free(s);
	xpf_reader_close(r);
	if (ret)
		view_timeline_free(tl);
	return ret;
}

/*
 * The profile's log counted (view_timeline_from_profile()): each shape's thread row worked
 * out once (rows[shape]: the row + 1; 0 not yet), rows found by (pid, tid) in a hash.
 */
struct from_log {
	struct view_timeline *tl;
	uint32_t idx;
	uint32_t *rows;
	size_t cap_rows, cap_th;
	uint32_t *slots, bits;  /* the threads' rows + 1 by (pid, tid); 0 free */
	int ret;
};

static uint32_t thread_slot(const struct from_log *f, int32_t pid, int32_t tid)
{
	uint32_t mask = (1u << f->bits) - 1;
	uint32_t at = xb_hash_bits(xb_hash_add(xb_hash_add(0, (uint32_t)pid), (uint32_t)tid),
				   f->bits);

	for (; f->slots[at]; at = (at + 1) & mask) {
		const struct view_timeline_thread *t = &f->tl->th[f->slots[at] - 1];

		if (t->pid == pid && t->tid == tid)
			break;
	}
	return at;
}

/* The row of thread (pid, tid), made when new: its index + 1, 0 without memory. */
static uint32_t thread_row(struct from_log *f, int32_t pid, int32_t tid)
{
	struct view_timeline *tl = f->tl;
	struct view_timeline_thread *t;
	uint32_t at;

	if (f->bits && f->slots[at = thread_slot(f, pid, tid)])
		return f->slots[at];
	if (2 * (tl->nr_th + 1) > (f->bits ? 1u << f->bits : 0)) { /* grow, hold them again */
		uint32_t bits = f->bits ? f->bits + 1 : 8, *ns = calloc(1u << bits, sizeof(*ns));

		if (!ns)
			return 0;
		free(f->slots);
		f->slots = ns;
		f->bits = bits;
		for (uint32_t i = 0; i < tl->nr_th; i++)
			f->slots[thread_slot(f, tl->th[i].pid, tl->th[i].tid)] = i + 1;
	}
	if (XB_ARRAY_RESERVE(tl->th, f->cap_th, tl->nr_th + 1, 16))
		return 0;
	t = &tl->th[tl->nr_th];
	*t = (struct view_timeline_thread){ .pid = pid, .tid = tid };
	if (!(t->bucket = calloc(VIEW_TIMELINE_BUCKETS, sizeof(*t->bucket))))
		return 0;
	f->slots[thread_slot(f, pid, tid)] = ++tl->nr_th;
	return tl->nr_th;
}

static void count_logged(void *ctx, const struct xpp_logged_sample *s)
{
	struct from_log *f = ctx;
	uint32_t b, row;

	if (f->ret || !s->timed || s->event != f->idx)
		return;
	if (s->shape >= f->cap_rows &&
	    XB_ARRAY_RESERVE0(f->rows, f->cap_rows, (size_t)s->shape + 1, 1024)) {
		f->ret = -ENOMEM;
		return;
	}
	if (!(row = f->rows[s->shape]) &&
	    !(row = f->rows[s->shape] = thread_row(f, s->pid, s->tid))) {
		f->ret = -ENOMEM;
		return;
	}
	b = view_timeline_bucket(f->tl, s->time);
	f->tl->all[b]++;
	f->tl->th[row - 1].bucket[b]++;
	f->tl->th[row - 1].samples++;
	f->tl->samples++;
}

int view_timeline_from_profile(struct view_timeline *tl, const xpp_profile *p, uint32_t idx,
			       struct xb_error *err)
{
	struct from_log f = { .tl = tl, .idx = idx };
	int ret;

	memset(tl, 0, sizeof(*tl));
	/* the bounds are set before the first sample comes, as the buckets need them */
	ret = xpp_profile_logged(p, count_logged, &f, &tl->first, &tl->last, err);
	free(f.rows);
	free(f.slots);
	if (ret >= 0 && f.ret < 0)
		ret = xb_error_set(err, f.ret, "%s", strerror(-f.ret));
	if (ret < 0) {
		view_timeline_free(tl);
		return ret;
	}
	tl->no_time = ret == 0;
	qsort(tl->th, tl->nr_th, sizeof(*tl->th), cmp_thread);
	return 0;
}

void view_timeline_free(struct view_timeline *tl)
{
	for (uint32_t i = 0; i < tl->nr_th; i++)
		free(tl->th[i].bucket);
	free(tl->th);
	memset(tl, 0, sizeof(*tl));
}
