/* libxperf-events: one ring per cpu of an opened evlist, and draining them all (record, top). */
#ifndef XPE_RINGS_H
#define XPE_RINGS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"
#include "events/ring.h"
#include "events/xpe.h"
#include "events/xpe_open.h"

/*
 * One ring of `pages` data pages per cpu of an opened evlist (cpus as opened, nr_threads
 * its thread count): rings[c] is mapped on the first open fd of cpu c, every other fd of
 * that cpu is redirected into it (a cpu without an open fd keeps rings[c] NULL). 0 or a
 * negative errno with err set; the rings mapped so far stay in rings[] for the caller to
 * unmap.
 */
int xpe_rings_map(xpe_evlist *evl, const struct xpe_cpus *cpus, int nr_threads, size_t pages,
		  xpe_ring **rings, struct xb_error *err);

/*
 * A record of a ring, valid during the call only (the ring's space is given back after
 * it). A negative return is kept as the drain's error; the records after it are still
 * consumed without a call, so the kernel never stalls on a reader that failed.
 */
typedef int (*xpe_record_fn)(void *ctx, const struct perf_event_header *hdr);

struct xpe_drain {
	size_t bytes;           /* of the records consumed */
	uint64_t records;
	int err;                /* fn's first negative return, or 0 */
};

/*
 * One pass over rings[0..nr) (NULL ones skipped): every record ready in each ring, in ring
 * order, to fn, then the ring's space is given back. *corrupt, when not NULL, gets the
 * rings' count of corrupt records since they were mapped.
 */
struct xpe_drain xpe_rings_drain(xpe_ring *const *rings, int nr, xpe_record_fn fn, void *ctx,
				 uint64_t *corrupt);

#endif
