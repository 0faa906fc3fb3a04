/* Ordering records by time per round, as perf report does on FINISHED_ROUND. */
#ifndef XPERF_REPORT_ORDERED_H
#define XPERF_REPORT_ORDERED_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

typedef struct xpp_ordered xpp_ordered;

/*
 * Called for each record in order, with the file position it was queued with; a negative
 * return stops the flush and is passed on.
 */
typedef int (*xpp_ordered_deliver_fn)(void *ctx, const struct perf_event_header *hdr,
				      uint64_t pos);

xpp_ordered *xpp_ordered_create(xpp_ordered_deliver_fn deliver, void *ctx);
void xpp_ordered_free(xpp_ordered *q);

/*
 * Queue a copy of a timed record (time in ns) read at file position pos (kept for messages
 * about it). 0 or -ENOMEM.
 */
int xpp_ordered_queue(xpp_ordered *q, uint64_t time, const struct perf_event_header *hdr,
		      uint64_t pos);

/*
 * FINISHED_ROUND: deliver every queued record up to the largest time seen before the
 * previous round, in (time, arrival) order.
 */
int xpp_ordered_round(xpp_ordered *q);

/* End of input: deliver everything. */
int xpp_ordered_flush_all(xpp_ordered *q);

#endif
