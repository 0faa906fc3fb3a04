/* Ordering records by time per round, as perf report does on FINISHED_ROUND, without copying
 * the records the reader lets us keep in place. */
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
 * What the queue may hold, its copies of records and its index: past this, it delivers the
 * earlier half at once, as perf's ordered_events does past its queue size. A file without
 * rounds (FINISHED_ROUND), or with rounds larger than this, would otherwise be held whole,
 * however far it inflates; records that come later with an earlier time are then delivered
 * late, which only such a file can see.
 */
#define XPP_ORDERED_MAX_BYTES (128u << 20)

/*
 * Queue a timed record (time in ns) read at file position pos (kept for messages about it):
 * a `lasting` record (the reader's: see struct xpf_record) is kept where it is until
 * xpp_ordered_reusing() names its memory, any other is copied. 0 or -ENOMEM.
 */
int xpp_ordered_queue(xpp_ordered *q, uint64_t time, const struct perf_event_header *hdr,
		      uint64_t pos, bool lasting);

/*
 * The memory [lo, hi) is about to be reused (the reader's reuse hook): copy the records
 * queued there. A copy that fails for want of memory is remembered: xpp_ordered_failed().
 */
void xpp_ordered_reusing(xpp_ordered *q, const void *lo, const void *hi);

/* A copy in xpp_ordered_reusing() failed: -ENOMEM, else 0. */
int xpp_ordered_failed(const xpp_ordered *q);

/*
 * FINISHED_ROUND: deliver every queued record up to the largest time seen before the
 * previous round, in (time, arrival) order.
 */
int xpp_ordered_round(xpp_ordered *q);

/* End of input: deliver everything. */
int xpp_ordered_flush_all(xpp_ordered *q);

#endif
