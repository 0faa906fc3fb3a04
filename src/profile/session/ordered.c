/* The per-round ordering queue: record copies in two swapped arenas, stably sorted at flush. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/session/ordered.h"

struct entry {
	uint64_t time;
	uint64_t seq;   /* arrival order: equal times keep it */
	size_t off;     /* in the current arena */
	uint64_t pos;   /* in the file, for the deliver callback */
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
	uint64_t seq;
	uint64_t max_time;     /* largest time queued so far */
	uint64_t next_flush;   /* what the next round may deliver up to */
	bool sorted;           /* e[] is in (time, seq) order */
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

static int arena_put(struct arena *a, const void *p, size_t size, size_t *off)
{
	size_t need = (size + 7) & ~(size_t)7;

	if (XB_ARRAY_RESERVE(a->buf, a->cap, a->len + need, 1 << 20))
		return -ENOMEM;
	memcpy(a->buf + a->len, p, size);
	*off = a->len;
	a->len += need;
	return 0;
}

int xpp_ordered_queue(xpp_ordered *q, uint64_t time, const struct perf_event_header *hdr,
		      uint64_t pos)
{
	struct entry *e;
	int ret;

	if (q->nr == q->cap && XB_ARRAY_RESERVE(q->e, q->cap, q->nr + 1, 4096))
		return -ENOMEM;
	e = &q->e[q->nr];
	ret = arena_put(&q->cur, hdr, hdr->size, &e->off);
	if (ret < 0)
		return ret;
	e->time = time;
	e->pos = pos;
	e->seq = q->seq++;
	if (q->nr && (time < e[-1].time))
		q->sorted = false;
	q->nr++;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

static inline bool before(const struct entry *a, const struct entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/*
 * Sort e[0..n) by (time, seq). The queue is a few ascending runs (one per CPU buffer the
 * recorder drained), so a bottom-up merge of the natural runs costs n log(runs), not
 * n log n, and keeps no allocation beyond one reused buffer.
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
		if (before(&src[i], &src[i - 1]))
			runs[nruns++] = i;
	runs[nruns] = n;
	dst = q->tmp;
	while (nruns > 1) {
		size_t out = 0, r;

		for (r = 0; r + 1 < nruns; r += 2) {
			size_t a = runs[r], am = runs[r + 1], b = am, bm = runs[r + 2], k = a;

			while (a < am && b < bm)
				dst[k++] = before(&src[b], &src[a]) ? src[b++] : src[a++];
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

	if (!q->nr)
		return 0;
	if (!q->sorted) {
		ret = sort_runs(q);
		if (ret < 0)
			return ret;
	}
	q->sorted = true;
	for (n = 0; n < q->nr && q->e[n].time <= limit; n++) {
		ret = q->deliver(q->ctx, (const struct perf_event_header *)(q->cur.buf + q->e[n].off),
				 q->e[n].pos);
		if (ret < 0)
			return ret;
	}
	if (n == q->nr) {
		q->nr = 0;
		q->cur.len = 0;
		return 0;
	}
	/* keep the rest in the spare arena, which becomes the current one */
	q->spare.len = 0;
	for (i = n, j = 0; i < q->nr; i++, j++) {
		const struct perf_event_header *h =
			(const struct perf_event_header *)(q->cur.buf + q->e[i].off);
		struct entry e = q->e[i];

		ret = arena_put(&q->spare, h, h->size, &e.off);
		if (ret < 0)
			return ret;
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
