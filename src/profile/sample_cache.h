/* The pass's answers per distinct sample: what a repeated (thread, ip, call chain) was charged to. */
#ifndef XPERF_PROFILE_SAMPLE_CACHE_H
#define XPERF_PROFILE_SAMPLE_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/tree/hist.h"

/*
 * A profiled loop repeats a few call chains millions of times; resolving one (threads,
 * maps, symbols, interning, the tree's path) costs far more than finding it again. The
 * cache is direct-mapped and checked whole (every ip is compared, never the hash alone),
 * and an answer holds only while the model is unchanged: the pass bumps its epoch on every
 * side-band record and on anything else that changes how a sample is charged.
 */
struct xpp_sample_key {
	const void *attr;
	uint32_t pid, tid;
	uint64_t ip;
	uint16_t cpumode;
	uint32_t nr_vals;       /* the values of the sort keys read from the sample's fields */
	uint64_t vals[XPP_VAL_NR]; /* (values.h's from_sample), in the pass's order */
	uint32_t nr;            /* ips in the chain part of the key (0: the chain is not used) */
	const uint64_t *ips;
};

/* Where the pass charged such a sample; -1 where nothing was (addrs_only: only addr_entry). */
struct xpp_sample_answer {
	int64_t flat;           /* entry of the event's hist */
	int64_t leaf;           /* node of the event's call graph */
	int64_t own;            /* entry of the event's `own` hist */
	int64_t addr_entry;     /* keep_addrs: entry of the event's hist of addresses */
	int64_t shape;          /* opts.keep_samples: its shape in the sample log */
};

typedef struct xpp_sample_cache xpp_sample_cache;

/* NULL on ENOMEM. */
xpp_sample_cache *xpp_sample_cache_create(void);
void xpp_sample_cache_free(xpp_sample_cache *c);

/* Chains longer than this are not cached. */
#define XPP_SAMPLE_CACHE_MAX_IPS 64

/* The answer for k in epoch, or NULL. */
const struct xpp_sample_answer *xpp_sample_cache_find(xpp_sample_cache *c, uint32_t epoch,
						     const struct xpp_sample_key *k);

/* Remember answer a for k in epoch (replacing what shared its slot); no-op for long chains. */
void xpp_sample_cache_put(xpp_sample_cache *c, uint32_t epoch, const struct xpp_sample_key *k,
			  const struct xpp_sample_answer *a);

#endif
