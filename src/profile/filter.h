/* --comms / --dsos filters of the pass: a name list and per-id verdicts cached so a sample costs one byte read. */
#ifndef XPERF_PROFILE_FILTER_H
#define XPERF_PROFILE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/profile.h"

struct xpp_filter {
	struct xpp_name_list list;
	uint8_t *verdict;      /* per id: 0 unknown, 1 pass, 2 drop */
	uint32_t cap;
};

/* Add the comma-separated names of s (NULL: none). 0 or -ENOMEM. */
int xpp_filter_parse(struct xpp_filter *f, const char *s);
void xpp_filter_free(struct xpp_filter *f);

/*
 * Whether the name with this id passes (an empty list passes everything). id UINT32_MAX:
 * no id to cache the answer under.
 */
bool xpp_filter_pass(struct xpp_filter *f, uint32_t id, const char *name);

#endif
