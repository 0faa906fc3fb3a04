/* The log of resolved samples (sample_log.h): shapes, samples, chains, bounded. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/sample_log.h"

void xpp_log_drop(struct xpp_sample_log *l)
{
	free(l->shapes);
	free(l->s);
	free(l->pool);
	free(l->wide);
	l->shapes = NULL;
	l->s = NULL;
	l->pool = NULL;
	l->wide = NULL;
	l->nr_shapes = l->cap_shapes = l->nr = l->cap = l->nr_pool = l->cap_pool = 0;
	l->nr_wide = l->cap_wide = 0;
	l->full = true;
}

void xpp_log_free(struct xpp_sample_log *l)
{
	if (!l)
		return;
	xpp_log_drop(l);
	free(l);
}

static bool room(struct xpp_sample_log *l, size_t more)
{
	if (l->full)
		return false;
	if (l->bytes + more > XPP_SAMPLE_LOG_MAX) {
		xpp_log_drop(l);
		return false;
	}
	l->bytes += more;
	return true;
}

int64_t xpp_log_shape(struct xpp_sample_log *l, const struct xpp_log_shape *sh,
		      const uint32_t *frames, uint32_t n)
{
	struct xpp_log_shape *d;

	if (!room(l, sizeof(*sh) + (n ? (n + 1) * sizeof(*frames) : 0)))
		return -E2BIG;
	if (XB_ARRAY_RESERVE(l->shapes, l->cap_shapes, l->nr_shapes + 1, 1024))
		return -ENOMEM;
	d = &l->shapes[l->nr_shapes];
	*d = *sh;
	d->chain = 0;
	if (n) {
		size_t at = l->nr_pool ? l->nr_pool : 1;

		if (at + n + 1 >= UINT32_MAX ||
		    XB_ARRAY_RESERVE(l->pool, l->cap_pool, at + n + 1, 4096))
			return -ENOMEM;
		l->pool[at] = n;
		memcpy(l->pool + at + 1, frames, n * sizeof(*frames));
		l->nr_pool = at + n + 1;
		d->chain = (uint32_t)at;
	}
	return (int64_t)l->nr_shapes++;
}

int xpp_log_sample_slow(struct xpp_sample_log *l, uint32_t shape, uint32_t cpu, uint64_t time,
			uint64_t period)
{
	uint64_t d = time - l->last_time;
	bool wide = d >= UINT32_MAX || period >= XPP_LOG_WIDE;

	if (l->full)
		return -E2BIG;
	if (l->nr == l->cap) {
		size_t cap = l->cap;

		/* the bound is taken as the array grows: the common way has no check */
		if (!room(l, (l->cap ? l->cap : 4096) * sizeof(*l->s)))
			return -E2BIG;
		if (XB_ARRAY_RESERVE(l->s, cap, l->nr + 1, 4096))
			return -ENOMEM;
		l->cap = cap;
	}
	if (wide) {
		if (!room(l, sizeof(*l->wide)))
			return -E2BIG;
		if (XB_ARRAY_RESERVE(l->wide, l->cap_wide, l->nr_wide + 1, 64))
			return -ENOMEM;
		l->wide[l->nr_wide++] = (struct xpp_log_wide){ time, period };
	}
	l->s[l->nr++] = (struct xpp_log_sample){ shape, cpu, wide ? 0 : (uint32_t)d,
						 wide ? XPP_LOG_WIDE : (uint32_t)period };
	l->last_time = time;
	return 0;
}
