/* --comms / --dsos / --pid / --cpu filters of the pass: a name list and per-id verdicts cached so a sample costs one byte read. */
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

/* A --pid/--tid list of numbers, or perf's cpu list ("0-2,4"): sorted, so a lookup is a search. */
struct xpp_int_list {
	int32_t *v;
	uint32_t nr;
};

/*
 * Parse s (NULL: an empty list) into l: comma-separated numbers, with ranges ("A-B") when
 * `ranges`. 0, -ENOMEM, or -EINVAL (nothing else is said: the caller names the option).
 */
int xpp_int_list_parse(struct xpp_int_list *l, const char *s, bool ranges);
void xpp_int_list_free(struct xpp_int_list *l);
/* Whether v is in l (an empty list holds everything). */
bool xpp_int_list_has(const struct xpp_int_list *l, int32_t v);

#endif
