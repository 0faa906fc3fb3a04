/* The per-round ordering queue: records kept in place or copied to an arena, stably sorted at flush. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/session/ordered.h"

/*
 * A queued record is either where the reader left it (a `lasting` record: in the mapped
 * file or a decompressed chunk, ref is its address) or copied into the current arena (ref
 * is 1 + twice its offset there). Records are 8-byte aligned, so the low bit tells which.
 * Copying every record cost a tenth of a report's pass (8 KB for a DWARF sample); in place,
 * a record is copied only when the reader is about to reuse its memory before its round
 * is flushed, which is rare.
 */
struct entry {
	uint64_t time;
	uint64_t pos;   /* in the file, for the deliver callback */
	uintptr_t ref;
};

struct arena {
	char *buf;
	size_t len, cap;
};

struct xpp_ordered {
	xpp_ordered_deliver_fn deliver;
	void *ctx;
	struct entry *e;
	size_t nr, cap;
	struct entry *tmp;     /* merge buffer, swapped with e */
	size_t tmp_cap;
	size_t *runs, runs_cap;
	struct arena cur, spare;
	uint64_t max_time;     /* largest time queued so far */
	uint64_t next_flush;   /* what the next round may deliver up to */
	bool sorted;           /* e[] is in time order (arrival order among equal times) */
	int failed;            /* a copy in xpp_ordered_reusing() found no memory */
};

xpp_ordered *xpp_ordered_create(xpp_ordered_deliver_fn deliver, void *ctx)
{
	xpp_ordered *q = calloc(1, sizeof(*q));

	if (q) {
		q->deliver = deliver;
		q->ctx = ctx;
		q->sorted = true;
	}
	return q;
}

void xpp_ordered_free(xpp_ordered *q)
{
	if (!q)
		return;
	free(q->e);
	free(q->tmp);
	free(q->runs);
	free(q->cur.buf);
	free(q->spare.buf);
	free(q);
}

/* Copy a record into the arena: its ref there. 0 on ENOMEM (no ref is 0). */
static uintptr_t arena_put(struct arena *a, const struct perf_event_header *h)
{
	size_t need = ((size_t)h->size + 7) & ~(size_t)7;
	uintptr_t ref;

	if (XB_ARRAY_RESERVE(a->buf, a->cap, a->len + need, 1 << 20))
		return 0;
	memcpy(a->buf + a->len, h, h->size);
	ref = 1 + 2 * (uintptr_t)a->len;
	a->len += need;
	return ref;
}

static int flush_upto(xpp_ordered *q, uint64_t limit);
static int sort_runs(xpp_ordered *q);

/* The queue is full: deliver its earlier half (by time), keep the rest. */
static int flush_half(xpp_ordered *q)
{
	int ret;

	if (!q->sorted && (ret = sort_runs(q)) < 0)
		return ret;
	q->sorted = true;
	return flush_upto(q, q->e[q->nr / 2].time);
}

static const struct perf_event_header *record_of(const xpp_ordered *q, uintptr_t ref)
{
	if (ref & 1)
		return (const struct perf_event_header *)(const void *)(q->cur.buf + (ref >> 1));
	return (const struct perf_event_header *)ref;
}

int xpp_ordered_queue(xpp_ordered *q, uint64_t time, const struct perf_event_header *hdr,
		      uint64_t pos, bool lasting)
{
	struct entry *e;

	if (q->nr == q->cap && XB_ARRAY_RESERVE(q->e, q->cap, q->nr + 1, 4096))
		return -ENOMEM;
	e = &q->e[q->nr];
	/* in place only where aligned: the low bit of ref must be free */
	if (lasting && !((uintptr_t)hdr & 7))
		e->ref = (uintptr_t)hdr;
	else if (!(e->ref = arena_put(&q->cur, hdr)))
		return -ENOMEM;
	e->time = time;
	e->pos = pos;
	if (q->nr && time < e[-1].time)
		q->sorted = false;
	q->nr++;
	if (time > q->max_time)
		q->max_time = time;
	if (q->cur.len + q->nr * sizeof(*q->e) > XPP_ORDERED_MAX_BYTES)
		return flush_half(q);
	return 0;
}

void xpp_ordered_reusing(xpp_ordered *q, const void *lo, const void *hi)
{
	uintptr_t l = (uintptr_t)lo, h = (uintptr_t)hi;

	for (size_t i = 0; i < q->nr; i++) {
		uintptr_t ref = q->e[i].ref, copy;

		if (ref & 1 || ref < l || ref >= h)
			continue;
		copy = arena_put(&q->cur, (const struct perf_event_header *)ref);
		if (!copy) {
			/* the record is lost to the queue: the run stops with ENOMEM */
			q->failed = -ENOMEM;
			continue;
		}
		q->e[i].ref = copy;
	}
}

int xpp_ordered_failed(const xpp_ordered *q)
{
	return q->failed;
}

/*
 * Sort e[0..n) by time, stably. The queue is a few ascending runs (one per CPU buffer the
 * recorder drained), so a bottom-up merge of the natural runs costs n log(runs), not
 * n log n, and keeps no allocation beyond one reused buffer. A run ends where the time goes
 * down, and a merge takes from the later run only what is strictly earlier, so records of
 * equal time keep their arrival order.
 */
static int sort_runs(xpp_ordered *q)
{
	size_t n = q->nr, *runs, nruns = 0, i;
	struct entry *src = q->e, *dst;

	if (q->tmp_cap < n) {
		struct entry *t = realloc(q->tmp, q->cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		q->tmp = t;
		q->tmp_cap = q->cap;
	}
	if (q->runs_cap < n + 1) {
		size_t *r = realloc(q->runs, (q->cap + 1) * sizeof(*r));

		if (!r)
			return -ENOMEM;
		q->runs = r;
		q->runs_cap = q->cap + 1;
	}
	runs = q->runs;
	runs[nruns++] = 0;
	for (i = 1; i < n; i++)
		if (src[i].time < src[i - 1].time)
			runs[nruns++] = i;
	runs[nruns] = n;
	dst = q->tmp;
	while (nruns > 1) {
		size_t out = 0, r;

		for (r = 0; r + 1 < nruns; r += 2) {
			size_t a = runs[r], am = runs[r + 1], b = am, bm = runs[r + 2], k = a;

			while (a < am && b < bm)
				dst[k++] = src[b].time < src[a].time ? src[b++] : src[a++];
			while (a < am)
				dst[k++] = src[a++];
			while (b < bm)
				dst[k++] = src[b++];
			runs[out++] = runs[r];
		}
		if (r < nruns) {
			memcpy(dst + runs[r], src + runs[r], (n - runs[r]) * sizeof(*dst));
			runs[out++] = runs[r];
		}
		runs[out] = n;
		nruns = out;
		struct entry *t = src;

		src = dst;
		dst = t;
	}
	if (src != q->e) {
		/* the sorted copy is in tmp: swap the buffers instead of copying back */
		q->tmp = q->e;
		q->e = src;
		size_t c = q->tmp_cap;

		q->tmp_cap = q->cap;
		q->cap = c;
	}
	return 0;
}

static int flush_upto(xpp_ordered *q, uint64_t limit)
{
	size_t i, n, j;
	int ret = 0;

	if (q->failed)
		return q->failed;
	if (!q->nr)
		return 0;
	if (!q->sorted) {
		ret = sort_runs(q);
		if (ret < 0)
			return ret;
	}
	q->sorted = true;
	for (n = 0; n < q->nr && q->e[n].time <= limit; n++) {
		ret = q->deliver(q->ctx, record_of(q, q->e[n].ref), q->e[n].pos);
		if (ret < 0)
			return ret;
	}
	if (n == q->nr) {
		q->nr = 0;
		q->cur.len = 0;
		return 0;
	}
	/* keep the rest, copies in the spare arena, which becomes the current one */
	q->spare.len = 0;
	for (i = n, j = 0; i < q->nr; i++, j++) {
		struct entry e = q->e[i];

		if (e.ref & 1 && !(e.ref = arena_put(&q->spare, record_of(q, e.ref))))
			return -ENOMEM;
		q->e[j] = e;
	}
	q->nr = j;
	struct arena t = q->cur;

	q->cur = q->spare;
	q->spare = t;
	q->spare.len = 0;
	return 0;
}

int xpp_ordered_round(xpp_ordered *q)
{
	int ret = flush_upto(q, q->next_flush);

	q->next_flush = q->max_time;
	return ret;
}

int xpp_ordered_flush_all(xpp_ordered *q)
{
	return flush_upto(q, UINT64_MAX);
}
