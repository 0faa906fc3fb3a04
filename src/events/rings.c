/* libxperf-events: the rings of an opened evlist, a ring per cpu, and one pass over them all. */
#include <string.h>

#include "events/xpe_rings.h"

int xpe_rings_map(xpe_evlist *evl, const struct xpe_cpus *cpus, int nr_threads, size_t pages,
		  xpe_ring **rings, struct xb_error *err)
{
	size_t n = xpe_evlist_count(evl), i;
	int c, th, ret;

	for (c = 0; c < cpus->nr; c++) {
		xpe_ring *r = NULL;

		/* The first open fd of this cpu owns its ring; every other one feeds it. */
		for (i = 0; i < n; i++) {
			struct xpe_event *ev = xpe_evlist_event(evl, i);

			for (th = 0; th < nr_threads; th++) {
				int fd = ev->fd[c * nr_threads + th];

				if (fd < 0)
					continue;
				if (!r) {
					ret = xpe_ring_mmap(&r, fd, pages, err);
					if (ret < 0)
						return ret;
					rings[c] = r;
					continue;
				}
				ret = xpe_ring_set_output(r, fd);
				if (ret < 0)
					return xb_error_set(err, ret, "cannot redirect event '%s' "
							    "into the ring of cpu %d: %s", ev->name,
							    cpus->cpu[c], strerror(-ret));
			}
		}
	}
	return 0;
}

struct xpe_drain xpe_rings_drain(xpe_ring *const *rings, int nr, xpe_record_fn fn, void *ctx,
				 uint64_t *corrupt)
{
	struct xpe_drain d = { 0, 0, 0 };
	int i;

	for (i = 0; i < nr; i++) {
		xpe_ring *r = rings[i];
		const struct perf_event_header *h;

		if (!r || !xpe_ring_begin(r))
			continue;
		while ((h = xpe_ring_next(r))) {
			d.bytes += h->size;
			d.records++;
			if (d.err)
				continue;
			int ret = fn(ctx, h);

			if (ret < 0)
				d.err = ret;
		}
		xpe_ring_end(r);
	}
	if (corrupt) {
		*corrupt = 0;
		for (i = 0; i < nr; i++)
			if (rings[i])
				*corrupt += xpe_ring_corrupt(rings[i]);
	}
	return d;
}
