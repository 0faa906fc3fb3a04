/* The pass's answers per distinct sample, direct-mapped and compared whole. */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "profile/sample_cache.h"

/*
 * Keys of the sample's fixed fields alone (the flat views': no chain, no values) index
 * 1 << BITS slots of 80 bytes; keys with a chain or values the first 1 << AUX_BITS of
 * them, each with room for those apart (688 bytes more). A flat view of a program of a few
 * thousand functions then finds them all: at 4096 slots two in five collided, evicted
 * each other, and were resolved again (issue 20: 27% of the flat view of 1M samples).
 */
#define BITS 14
#define AUX_BITS 12

/*
 * A slot holds what a lookup reads, 80 bytes: the key's fixed part and the answer; the
 * values and the chain of its key are apart, read only where the key has them (a slot
 * with the key's 22 values inline was 288 bytes, three or four cache lines a lookup).
 */
struct slot {
	uint64_t hash;
	uint32_t epoch;         /* the pass's epoch when written (a slot is filled: used[]) */
	uint16_t cpumode;
	uint8_t nr_vals, nr;    /* (at most XPP_VAL_NR and XPP_SAMPLE_CACHE_MAX_IPS) */
	const void *attr;
	uint32_t pid, tid;
	uint64_t ip;
	struct xpp_sample_answer a;
};

_Static_assert(XPP_VAL_NR <= 255 && XPP_SAMPLE_CACHE_MAX_IPS <= 255, "counts fit a byte");

struct xpp_sample_cache {
	uint64_t used[(1u << BITS) / 64]; /* the slots ever written */
	/*
	 * The slots and each slot's chain are read only once the slot was written: not zeroed,
	 * so a page of them is first touched by a write. Reading a fresh zeroed page maps the
	 * shared zero page, and the write after it must flush the TLB of every CPU the process
	 * runs on: an IPI each time while the reader's decompression thread is alive.
	 */
	struct slot *slots;
	uint64_t (*vals)[XPP_VAL_NR];
	uint64_t (*ips)[XPP_SAMPLE_CACHE_MAX_IPS];
	/*
	 * Where samples do not repeat (every one its own call path: issue 20's profiles),
	 * a lookup and a put are all cost. A window of lookups that finds next to nothing
	 * (below 1 in 64) turns the cache off for SKIP lookups, then another window tells.
	 */
	uint32_t looked, found, skip;
	bool off;               /* the last lookup was skipped: so is its put */
};

#define WINDOW (1u << 16)
#define SKIP (1u << 18)

xpp_sample_cache *xpp_sample_cache_create(void)
{
	xpp_sample_cache *c = calloc(1, sizeof(*c));

	if (c && (!(c->slots = malloc((1u << BITS) * sizeof(*c->slots))) ||
		  !(c->vals = malloc((1u << AUX_BITS) * sizeof(*c->vals))) ||
		  !(c->ips = malloc((1u << AUX_BITS) * sizeof(*c->ips))))) {
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
	free(c->vals);
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

/* The slot of key k, of hash h. */
static uint32_t slot_of(const struct xpp_sample_key *k, uint64_t h)
{
	return xb_hash_bits(h, k->nr || k->nr_vals ? AUX_BITS : BITS);
}

/* Whether slot i holds key k. */
static bool same(const xpp_sample_cache *c, uint32_t i, const struct xpp_sample_key *k)
{
	const struct slot *s = &c->slots[i];

	if (s->attr != k->attr || s->pid != k->pid || s->tid != k->tid || s->ip != k->ip ||
	    s->cpumode != k->cpumode || s->nr_vals != k->nr_vals || s->nr != k->nr)
		return false;
	for (uint32_t j = 0; j < k->nr_vals; j++)
		if (c->vals[i][j] != k->vals[j])
			return false;
	/* a plain loop: chains are short, and a call to memcmp cost more than the compare */
	for (uint32_t j = 0; j < k->nr; j++)
		if (c->ips[i][j] != k->ips[j])
			return false;
	return true;
}

const struct xpp_sample_answer *xpp_sample_cache_find(xpp_sample_cache *c, uint32_t epoch,
						     const struct xpp_sample_key *k)
{
	uint64_t h;
	uint32_t i;
	struct slot *s;

	c->off = c->skip > 0;
	if (c->off) {
		c->skip--;
		return NULL;
	}
	if (++c->looked == WINDOW) {
		if (c->found < WINDOW / 64)
			c->skip = SKIP;
		c->looked = c->found = 0;
	}
	if (k->nr > XPP_SAMPLE_CACHE_MAX_IPS || k->nr_vals > XPP_VAL_NR)
		return NULL;
	h = hash_of(k);
	i = slot_of(k, h);
	if (!(c->used[i / 64] >> (i % 64) & 1))
		return NULL;
	s = &c->slots[i];
	if (s->epoch != epoch || s->hash != h || !same(c, i, k))
		return NULL;
	c->found++;
	return &s->a;
}

void xpp_sample_cache_put(xpp_sample_cache *c, uint32_t epoch, const struct xpp_sample_key *k,
			  const struct xpp_sample_answer *a)
{
	uint64_t h;
	uint32_t i;
	struct slot *s;

	if (c->off || k->nr > XPP_SAMPLE_CACHE_MAX_IPS || k->nr_vals > XPP_VAL_NR)
		return;
	h = hash_of(k);
	i = slot_of(k, h);
	c->used[i / 64] |= 1ull << (i % 64);
	s = &c->slots[i];
	s->hash = h;
	s->epoch = epoch;
	s->cpumode = k->cpumode;
	s->nr_vals = (uint8_t)k->nr_vals;
	s->nr = (uint8_t)k->nr;
	s->attr = k->attr;
	s->pid = k->pid;
	s->tid = k->tid;
	s->ip = k->ip;
	if (k->nr_vals)
		memcpy(c->vals[i], k->vals, k->nr_vals * sizeof(*k->vals));
	if (k->nr) /* ips may be NULL then */
		memcpy(c->ips[i], k->ips, k->nr * sizeof(*k->ips));
	s->a = *a;
}
