/* The per-round ordering queue: record copies in two swapped arenas, stably sorted at flush. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/session/ordered.h"

struct entry {
	uint64_t time;
	uint64_t seq;   /* arrival order: equal times keep it */
	size_t off;     /* in the current arena */
};

struct arena {
	char *buf;
	size_t len, cap;
};

struct ordered {
	ordered_deliver_fn deliver;
	void *ctx;
	struct entry *e;
	size_t nr, cap;
	struct arena cur, spare;
	uint64_t seq;
	uint64_t max_time;     /* largest time queued so far */
	uint64_t next_flush;   /* what the next round may deliver up to */
	bool sorted;           /* e[] is in (time, seq) order */
};

ordered *ordered_create(ordered_deliver_fn deliver, void *ctx)
{
	ordered *q = calloc(1, sizeof(*q));

	if (q) {
		q->deliver = deliver;
		q->ctx = ctx;
		q->sorted = true;
	}
	return q;
}

void ordered_free(ordered *q)
{
	if (!q)
		return;
	free(q->e);
	free(q->cur.buf);
	free(q->spare.buf);
	free(q);
}

static int arena_put(struct arena *a, const void *p, size_t size, size_t *off)
{
	size_t need = (size + 7) & ~(size_t)7;

	if (a->len + need > a->cap) {
		size_t cap = a->cap ? a->cap : 1 << 20;
		char *b;

		while (cap < a->len + need)
			cap *= 2;
		b = realloc(a->buf, cap);
		if (!b)
			return -ENOMEM;
		a->buf = b;
		a->cap = cap;
	}
	memcpy(a->buf + a->len, p, size);
	*off = a->len;
	a->len += need;
	return 0;
}

int ordered_queue(ordered *q, uint64_t time, const struct perf_event_header *hdr)
{
	struct entry *e;
	int ret;

	if (q->nr == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;

		e = realloc(q->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		q->e = e;
		q->cap = cap;
	}
	e = &q->e[q->nr];
	ret = arena_put(&q->cur, hdr, hdr->size, &e->off);
	if (ret < 0)
		return ret;
	e->time = time;
	e->seq = q->seq++;
	if (q->nr && (time < e[-1].time))
		q->sorted = false;
	q->nr++;
	if (time > q->max_time)
		q->max_time = time;
	return 0;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int flush_upto(ordered *q, uint64_t limit)
{
	size_t i, n, j;
	int ret = 0;

	if (!q->nr)
		return 0;
	if (!q->sorted)
		qsort(q->e, q->nr, sizeof(*q->e), cmp_entry);
	q->sorted = true;
	for (n = 0; n < q->nr && q->e[n].time <= limit; n++) {
		ret = q->deliver(q->ctx, (const struct perf_event_header *)(q->cur.buf + q->e[n].off));
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

int ordered_round(ordered *q)
{
	int ret = flush_upto(q, q->next_flush);

	q->next_flush = q->max_time;
	return ret;
}

int ordered_flush_all(ordered *q)
{
	return flush_upto(q, UINT64_MAX);
}

bool record_time(uint64_t st, bool sample_id_all, const struct perf_event_header *hdr,
		 uint64_t *time)
{
	size_t pos;

	if (!(st & PERF_SAMPLE_TIME))
		return false;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		pos = 8 + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
			       !!(st & PERF_SAMPLE_TID));
	} else {
		size_t after = !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
			       !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);

		if (!sample_id_all || hdr->type >= 64 || hdr->size < 8 + 8 * (after + 1))
			return false;
		pos = hdr->size - 8 * (after + 1);
	}
	if (pos + 8 > hdr->size)
		return false;
	memcpy(time, (const char *)hdr + pos, 8);
	return true;
}
