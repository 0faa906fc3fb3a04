/* xperf report -T: the per-thread counts of `record -s` (PERF_RECORD_READ), as perf shows them. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/xpf_sample.h"
#include "report/report.h"

/*
 * perf's perf_read_values: threads and counters in the order they first appear, a value
 * per (thread, counter), the READ records of one thread (one per cpu it ran on) added up.
 */
struct report_threads {
	const xpf_reader *r;
	uint32_t nr_threads, cap_threads;
	int32_t *pid, *tid;
	uint64_t **value;          /* [thread][counter] */
	uint32_t nr_counters, cap_counters;
	uint32_t *attr_idx;        /* per counter */
	char **name;
};

struct report_threads *report_threads_create(const xpf_reader *r)
{
	struct report_threads *t = calloc(1, sizeof(*t));

	if (t)
		t->r = r;
	return t;
}

void report_threads_free(struct report_threads *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_threads; i++)
		free(t->value[i]);
	for (i = 0; i < t->nr_counters; i++)
		free(t->name[i]);
	free(t->value);
	free(t->pid);
	free(t->tid);
	free(t->attr_idx);
	free(t->name);
	free(t);
}

/* *p resized to n elements of size bytes; *p is kept (and still owned) on failure. */
static int resize(void *p, size_t n, size_t size)
{
	void *q = realloc(*(void **)p, n * size);

	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	return 0;
}

static int64_t find_thread(struct report_threads *t, int32_t pid, int32_t tid)
{
	uint32_t i = t->nr_threads;

	for (i = 0; i < t->nr_threads; i++)
		if (t->pid[i] == pid && t->tid[i] == tid)
			return i;
	if (i == t->cap_threads) {
		uint32_t cap = t->cap_threads ? t->cap_threads * 2 : 8;

		if (resize(&t->pid, cap, sizeof(*t->pid)) < 0 ||
		    resize(&t->tid, cap, sizeof(*t->tid)) < 0 ||
		    resize(&t->value, cap, sizeof(*t->value)) < 0)
			return -ENOMEM;
		t->cap_threads = cap;
	}
	t->value[i] = calloc(t->cap_counters ? t->cap_counters : 1, sizeof(**t->value));
	if (!t->value[i])
		return -ENOMEM;
	t->pid[i] = pid;
	t->tid[i] = tid;
	t->nr_threads++;
	return i;
}

static int64_t find_counter(struct report_threads *t, uint32_t idx, const struct xpf_attr *a)
{
	uint32_t i, j;
	char buf[64];

	for (i = 0; i < t->nr_counters; i++)
		if (t->attr_idx[i] == idx)
			return i;
	if (i == t->cap_counters) {
		uint32_t cap = t->cap_counters ? t->cap_counters * 2 : 8;

		if (resize(&t->attr_idx, cap, sizeof(*t->attr_idx)) < 0 ||
		    resize(&t->name, cap, sizeof(*t->name)) < 0)
			return -ENOMEM;
		for (j = 0; j < t->nr_threads; j++) {
			if (resize(&t->value[j], cap, sizeof(**t->value)) < 0)
				return -ENOMEM;
			memset(t->value[j] + t->cap_counters, 0,
			       (cap - t->cap_counters) * sizeof(**t->value));
		}
		t->cap_counters = cap;
	}
	t->name[i] = strdup(xpf_attr_event_name(a, buf, sizeof(buf)));
	if (!t->name[i])
		return -ENOMEM;
	t->attr_idx[i] = idx;
	t->nr_counters++;
	return i;
}

int report_threads_add(void *ctx, const struct perf_event_header *hdr)
{
	struct report_threads *t = ctx;
	const struct xpf_attr *a;
	struct xpf_read_values rv;
	struct xb_error err;
	uint32_t pid, tid;
	int64_t th, c;

	if (hdr->type != PERF_RECORD_READ)
		return 0;
	a = xpf_reader_attr_of(t->r, hdr);
	/* a record we cannot read is left out, as perf skips it */
	if (!a || xpf_read_event_decode(&a->attr, hdr, &pid, &tid, &rv, &err) < 0)
		return 0;
	/* a counter first: a new thread gets room for every counter known */
	c = find_counter(t, report_attr_index(t->r, a), a);
	th = c < 0 ? c : find_thread(t, (int32_t)pid, (int32_t)tid);
	if (th < 0)
		return (int)th;
	t->value[th][c] += rv.value;
	return 0;
}

static int digits(int64_t v)
{
	return snprintf(NULL, 0, "%" PRId64, v);
}

/* perf_read_values__display_pretty(): the widths fit the widest value of each column. */
void report_threads_print(const struct report_threads *t, FILE *out)
{
	int pidw = 3, tidw = 3, w;
	uint32_t i, j;
	int *cw = calloc(t->nr_counters + 1, sizeof(*cw));

	if (!cw)
		return;
	for (j = 0; j < t->nr_counters; j++)
		cw[j] = (int)strlen(t->name[j]);
	for (i = 0; i < t->nr_threads; i++) {
		if ((w = digits(t->pid[i])) > pidw)
			pidw = w;
		if ((w = digits(t->tid[i])) > tidw)
			tidw = w;
		for (j = 0; j < t->nr_counters; j++)
			if ((w = snprintf(NULL, 0, "%" PRIu64, t->value[i][j])) > cw[j])
				cw[j] = w;
	}
	fprintf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (j = 0; j < t->nr_counters; j++)
		fprintf(out, "  %*s", cw[j], t->name[j]);
	fputc('\n', out);
	for (i = 0; i < t->nr_threads; i++) {
		fprintf(out, "  %*d  %*d", pidw, t->pid[i], tidw, t->tid[i]);
		for (j = 0; j < t->nr_counters; j++)
			fprintf(out, "  %*" PRIu64, cw[j], t->value[i][j]);
		fputc('\n', out);
	}
	free(cw);
}
