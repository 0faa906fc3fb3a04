/* The layout of xpe_ctx, shared by the files of libxperf-events only. */
#ifndef XPE_CTX_H
#define XPE_CTX_H

#include "events/xpe_internal.h"

struct xpe_ctx {
	char *sysfs;
	char *tracefs;
	bool tracefs_given;
	bool tracefs_tried;
	struct xpe_pmu **pmus; /* loaded PMUs, by first use */
	int nr_pmus;
	bool all_pmus_loaded;
};

#endif
