/* perf's --time: the time ranges a view keeps samples from, parsed and checked per sample. */
#ifndef XPERF_PROFILE_TIME_RANGE_H
#define XPERF_PROFILE_TIME_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

/* One kept stretch of time, in ns of the recording's clock; 0 leaves that side open. */
struct xpp_time_range {
	uint64_t start, end;
};

struct xpp_time_ranges {
	struct xpp_time_range *r;
	uint32_t nr;
};

/*
 * Parse perf's --time string s into t (NULL or "": no ranges, every sample is kept):
 *   "START,END"      seconds[.fraction] (up to 9 digits), either side may be empty;
 *                    several such ranges separated by spaces, in increasing order;
 *   "P%/N,..."       the Nth slice of P% of the time between first and last;
 *   "A%-B%,..."      from A% to B% of that time;
 *   "P%"             the first slice of P%.
 * first and last are the recording's first and last sample times (the SAMPLE_TIME
 * feature); a percentage needs them (have_bounds). 0, -ENOMEM, or -EINVAL with err set.
 */
int xpp_time_ranges_parse(struct xpp_time_ranges *t, const char *s, uint64_t first,
			  uint64_t last, bool have_bounds, struct xb_error *err);
void xpp_time_ranges_free(struct xpp_time_ranges *t);

/* Whether a sample at time ns falls outside every range (a sample without a time never does). */
bool xpp_time_ranges_skip(const struct xpp_time_ranges *t, uint64_t ns);

#endif
