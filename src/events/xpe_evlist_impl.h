/* The layout of xpe_evlist, shared by the files of libxperf-events only. */
#ifndef XPE_EVLIST_IMPL_H
#define XPE_EVLIST_IMPL_H

#include "events/xpe_internal.h"

struct xpe_evlist {
	struct xpe_event **ev; /* pointers, so events never move */
	size_t nr, alloc;
	int nr_cpus, nr_threads; /* of the last open */
};

#endif
