/* When an event's samples fall: counts per stretch of time, in all and per thread (the TUI's timeline). */
#ifndef XPERF_VIEW_TIMELINE_H
#define XPERF_VIEW_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/profile.h"

#define VIEW_TIMELINE_BUCKETS 4096 /* equal stretches from the first sample to the last */

struct view_timeline_thread {
	int32_t pid, tid;
	uint64_t samples;
	uint32_t *bucket;            /* VIEW_TIMELINE_BUCKETS counts */
};

/*
 * The samples of one event of a file by time: the recording's first and last sample times
 * (of every event, as perf's --time percentages take them), the event's samples per bucket,
 * and per thread, the threads with the most samples first.
 */
struct view_timeline {
	uint64_t first, last;        /* ns; first == last: one instant, or no sample */
	uint64_t samples;            /* the event's */
	uint32_t all[VIEW_TIMELINE_BUCKETS];
	struct view_timeline_thread *th;
	uint32_t nr_th;
	bool no_time;                /* the event's samples have no time (record without -T) */
};

/*
 * Read the samples of file path (reading it again: a pipe cannot be) that count in event
 * idx (with wall, --wall's merged clock, rv_wall_into()). Only the records' headers and
 * the samples' times and threads are decoded: no symbol is looked up. 0, or a negative
 * errno with err set.
 */
int view_timeline_read(struct view_timeline *tl, const char *path, uint32_t idx, bool wall,
		       struct xb_error *err);
/*
 * The same from the samples profile p logged (opts.keep_samples: xpp_profile_logged()),
 * with no second read of its input: event idx as the profile counts it (--wall's merged
 * clock with it). 0, or a negative errno with err set when the log cannot tell (then read
 * the file).
 */
int view_timeline_from_profile(struct view_timeline *tl, const xpp_profile *p, uint32_t idx,
			       struct xb_error *err);
void view_timeline_free(struct view_timeline *tl);

/* The bucket of time ns (clamped to the recording). */
uint32_t view_timeline_bucket(const struct view_timeline *tl, uint64_t ns);
/* The first time of bucket b (b == VIEW_TIMELINE_BUCKETS: the last sample's time + 1). */
uint64_t view_timeline_time(const struct view_timeline *tl, uint32_t b);

#endif
