/* The pass's answers per distinct sample, direct-mapped and compared whole. */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "profile/sample_cache.h"

#define BITS 12

struct slot {
	uint64_t hash;
	uint32_t epoch;         /* the pass's epoch when written (a slot is filled: used[]) */
	struct xpp_sample_key k; /* k.ips points into the cache's ips[] */
	struct xpp_sample_answer a;
};

struct xpp_sample_cache {
	uint64_t used[(1u << BITS) / 64]; /* the slots ever written */
	/*
	 * The slots and each slot's chain are read only once the slot was written: not zeroed,
	 * so a page of them is first touched by a write. Reading a fresh zeroed page maps the
	 * shared zero page, and the write after it must flush the TLB of every CPU the process
	 * runs on: an IPI each time while the reader's decompression thread is alive.
	 */
	struct slot *slots;
	uint64_t (*ips)[XPP_SAMPLE_CACHE_MAX_IPS];
};

xpp_sample_cache *xpp_sample_cache_create(void)
{
	xpp_sample_cache *c = calloc(1, sizeof(*c));

	if (c && (!(c->slots = malloc((1u << BITS) * sizeof(*c->slots))) ||
		  !(c->ips = malloc((1u << BITS) * sizeof(*c->ips))))) {
		xpp_sample_cache_free(c);
		c = NULL;
	}
	return c;
}

void xpp_sample_cache_free(xpp_sample_cache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->ips);
	free(c);
}

static uint64_t hash_of(const struct xpp_sample_key *k)
{
	uint64_t h = xb_hash_add(xb_hash_add(xb_hash_u64((uintptr_t)k->attr),
					     (uint64_t)k->pid << 32 | k->tid),
				 k->ip ^ (uint64_t)k->cpumode << 48 ^ (uint64_t)k->nr << 56);
	uint64_t h2 = 0;
	uint32_t i;

	for (i = 0; i < k->nr_vals; i++)
		h = xb_hash_add(h, k->vals[i]);

	/* two lanes: a chain of dependent multiplies is as slow as the chain is long */
	for (i = 0; i + 1 < k->nr; i += 2) {
		h = xb_hash_add(h, k->ips[i]);
		h2 = xb_hash_add(h2, k->ips[i + 1]);
	}
	if (i < k->nr)
		h = xb_hash_add(h, k->ips[i]);
	return xb_hash_add(h, h2);
}

static bool same(const struct xpp_sample_key *a, const struct xpp_sample_key *b)
{
	if (a->attr != b->attr || a->pid != b->pid || a->tid != b->tid || a->ip != b->ip ||
	    a->cpumode != b->cpumode || a->nr_vals != b->nr_vals || a->nr != b->nr)
		return false;
	for (uint32_t i = 0; i < a->nr_vals; i++)
		if (a->vals[i] != b->vals[i])
			return false;
	/* a plain loop: chains are short, and a call to memcmp cost more than the compare */
	for (uint32_t i = 0; i < a->nr; i++)
		if (a->ips[i] != b->ips[i])
			return false;
	return true;
}

const struct xpp_sample_answer *xpp_sample_cache_find(xpp_sample_cache *c, uint32_t epoch,
						     const struct xpp_sample_key *k)
{
	uint64_t h;
	uint32_t i;
	struct slot *s;

	if (k->nr > XPP_SAMPLE_CACHE_MAX_IPS || k->nr_vals > XPP_VAL_NR)
		return NULL;
	h = hash_of(k);
	i = xb_hash_bits(h, BITS);
	if (!(c->used[i / 64] >> (i % 64) & 1))
		return NULL;
	s = &c->slots[i];
	return s->epoch == epoch && s->hash == h && same(&s->k, k) ? &s->a : NULL;
}

void xpp_sample_cache_put(xpp_sample_cache *c, uint32_t epoch, const struct xpp_sample_key *k,
			  const struct xpp_sample_answer *a)
{
	uint64_t h;
	uint32_t i;
	struct slot *s;

	if (k->nr > XPP_SAMPLE_CACHE_MAX_IPS || k->nr_vals > XPP_VAL_NR)
		return;
	h = hash_of(k);
	i = xb_hash_bits(h, BITS);
	c->used[i / 64] |= 1ull << (i % 64);
	s = &c->slots[i];
	s->hash = h;
	s->epoch = epoch;
	s->k = *k;
	s->k.ips = c->ips[i];
	if (k->nr) /* ips may be NULL then */
		memcpy(c->ips[i], k->ips, k->nr * sizeof(*k->ips));
	s->a = *a;
}
