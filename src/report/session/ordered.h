/* Ordering records by time per round, as perf report does on FINISHED_ROUND. */
#ifndef XPERF_REPORT_ORDERED_H
#define XPERF_REPORT_ORDERED_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

typedef struct ordered ordered;

/* Called for each record in order; a negative return stops the flush and is passed on. */
typedef int (*ordered_deliver_fn)(void *ctx, const struct perf_event_header *hdr);

ordered *ordered_create(ordered_deliver_fn deliver, void *ctx);
void ordered_free(ordered *q);

/* Queue a copy of a timed record (time in ns). 0 or -ENOMEM. */
int ordered_queue(ordered *q, uint64_t time, const struct perf_event_header *hdr);

/*
 * FINISHED_ROUND: deliver every queued record up to the largest time seen before the
 * previous round, in (time, arrival) order.
 */
int ordered_round(ordered *q);

/* End of input: deliver everything. */
int ordered_flush_all(ordered *q);

/*
 * The time of a record from its sample fields (SAMPLE) or its sample_id trailer (other
 * kernel records with sample_id_all), for attrs of sample_type st. false if it has none.
 */
bool record_time(uint64_t st, bool sample_id_all, const struct perf_event_header *hdr,
		 uint64_t *time);

#endif
