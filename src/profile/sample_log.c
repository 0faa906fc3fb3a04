/* The log of resolved samples (sample_log.h): shapes, samples, chains, bounded. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/sample_log.h"

void xpp_log_drop(struct xpp_sample_log *l)
{
	free(l->shapes);
	free(l->s);
	free(l->pool);
	free(l->wide);
	free(l->drops);
	l->drops = NULL;
	l->drop_bits = 0;
	l->nr_drops = 0;
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

static uint32_t drop_slot(const struct xpp_sample_log *l, uint32_t event, uint8_t why,
			  int32_t pid, int32_t tid, uint64_t sample_type)
{
	uint64_t h = xb_hash_add(xb_hash_add(xb_hash_add(xb_hash_add(0, event), why),
					     (uint32_t)pid), (uint32_t)tid);
	uint32_t mask = (1u << l->drop_bits) - 1, at;

	for (at = xb_hash_bits(h, l->drop_bits); l->drops[at]; at = (at + 1) & mask) {
		const struct xpp_log_shape *sh = &l->shapes[l->drops[at] - 1];

		if (sh->event == event && sh->drop == why && sh->pid == pid && sh->tid == tid &&
		    sh->sample_type == sample_type)
			break;
	}
	return at;
}

int64_t xpp_log_drop_shape(struct xpp_sample_log *l, uint32_t event, uint8_t why, int32_t pid,
			   int32_t tid, uint64_t sample_type)
{
	struct xpp_log_shape sh = { .sample_type = sample_type, .event = event, .pid = pid,
				    .tid = tid, .drop = why };
	uint32_t at;
	int64_t id;

	if (l->full)
		return -E2BIG;
	if (l->drop_bits) {
		at = drop_slot(l, event, why, pid, tid, sample_type);
		if (l->drops[at])
			return l->drops[at] - 1;
	}
	if (2 * (l->nr_drops + 1) > (l->drop_bits ? 1ull << l->drop_bits : 0)) {
		/* the slots grow, then hold the shapes again */
		uint32_t bits = l->drop_bits ? l->drop_bits + 1 : 8, *old = l->drops;
		size_t nold = l->drop_bits ? 1ull << l->drop_bits : 0;

		if (!room(l, sizeof(*l->drops) << bits))
			return -E2BIG;
		if (!(l->drops = calloc(1ull << bits, sizeof(*l->drops)))) {
			l->drops = old;
			return -ENOMEM;
		}
		l->drop_bits = bits;
		for (size_t i = 0; i < nold; i++)
			if (old[i]) {
				const struct xpp_log_shape *o = &l->shapes[old[i] - 1];

				l->drops[drop_slot(l, o->event, o->drop, o->pid, o->tid,
						   o->sample_type)] = old[i];
			}
		free(old);
	}
	xpp_hist_key_init(&sh.k);
	id = xpp_log_shape(l, &sh, NULL, 0);
	if (id < 0)
		return id;
	if (id >= UINT32_MAX - 1)
		return -ENOMEM;
	l->drops[drop_slot(l, event, why, pid, tid, sample_type)] = (uint32_t)id + 1;
	l->nr_drops++;
	return id;
}
