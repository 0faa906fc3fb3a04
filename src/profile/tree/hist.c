/* The aggregation table: a contiguous entry array indexed by the base slot table. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/tree/hist.h"

struct xpp_hist {
	struct xpp_hist_entry *e;
	size_t nr, cap;
	struct xb_slots index;  /* entry index + 1 */
};

static uint64_t key_hash(const struct xpp_hist_key *k)
{
	uint64_t h = xb_hash_add(0, k->addr);

	h = xb_hash_add(h, (uint64_t)k->comm << 32 | k->dso);
	h = xb_hash_add(h, (uint64_t)(uint32_t)k->sym << 8 | k->level);
	h = xb_hash_add(h, (uint64_t)k->inl << 32 | k->srcline);
	/* most values are 0 (not asked for): those cost a test each */
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (k->val[i])
			h = xb_hash_add(h, k->val[i] ^ (uint64_t)i << 56);
	return h;
}

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	const xpp_hist *h = ctx;

	return key_hash(&h->e[v - 1].key);
}

static bool key_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct xpp_hist_key *a = &((const xpp_hist *)ctx)->e[v - 1].key, *b = key;

	return a->addr == b->addr && a->comm == b->comm && a->dso == b->dso && a->sym == b->sym &&
	       a->level == b->level && a->inl == b->inl && a->srcline == b->srcline &&
	       !memcmp(a->val, b->val, sizeof(a->val));
}

xpp_hist *xpp_hist_create(void)
{
	return calloc(1, sizeof(struct xpp_hist));
}

void xpp_hist_free(xpp_hist *h)
{
	if (!h)
		return;
	free(h->e);
	xb_slots_free(&h->index);
	free(h);
}

int xpp_hist_add(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr)
{
	int64_t id = xpp_hist_add_id(h, k, period, nr);

	return id < 0 ? (int)id : 0;
}

/*
 * Room in the index for one more entry. Its values are the entries 1..nr, so a grow puts
 * them back in that order, reading the entries' keys one after the other: put back in slot
 * order (xb_slots_grow()), each read is a cache miss, a seventh of a report of a million
 * entries (issue 20).
 */
static int reserve(xpp_hist *h)
{
	struct xb_slots *t = &h->index, n = { 0 };

	if (h->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((uint64_t)(h->nr + 1) * 2 <= t->nslots)
		return 0;
	/* what xb_slots_grow() makes of t: twice the slots, or enough for nr + 1 */
	if (xb_slots_grow(&n, h->nr + 1 > t->nslots ? (uint32_t)h->nr + 1 : t->nslots, hash_of, h))
		return -ENOMEM;
	for (uint32_t v = 1; v <= h->nr; v++) {
		uint32_t i = xb_hash_bits(key_hash(&h->e[v - 1].key), n.bits);

		while (n.slot[i])
			i = (i + 1) & (n.nslots - 1);
		n.slot[i] = v;
	}
	xb_slots_free(t);
	*t = n;
	return 0;
}

int64_t xpp_hist_add_id(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr)
{
	uint32_t *slot;

	if (reserve(h))
		return -ENOMEM;
	slot = xb_slots_find(&h->index, key_hash(k), key_eq, h, k);
	if (*slot) {
		struct xpp_hist_entry *e = &h->e[*slot - 1];

		e->period += period;
		e->nr_samples += nr;
		return *slot - 1;
	}
	if (h->nr == h->cap && XB_ARRAY_RESERVE(h->e, h->cap, h->nr + 1, 256))
		return -ENOMEM;
	h->e[h->nr].key = *k;
	h->e[h->nr].period = period;
	h->e[h->nr].nr_samples = nr;
	*slot = (uint32_t)++h->nr;
	return (int64_t)h->nr - 1;
}

int64_t xpp_hist_find(const xpp_hist *h, const struct xpp_hist_key *k)
{
	uint32_t *slot;

	if (!h->nr)
		return -1;
	slot = xb_slots_find(&h->index, key_hash(k), key_eq, h, k);
	return *slot ? (int64_t)*slot - 1 : -1;
}

struct xpp_hist_entry *xpp_hist_entries(const xpp_hist *h, size_t *nr)
{
	*nr = h->nr;
	return h->e;
}

void xpp_hist_key_mask(struct xpp_hist_key *k, unsigned int keys)
{
	if (!(keys & XPP_HIST_KEY_COMM))
		k->comm = 0;
	if (!(keys & (XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM)))
		k->dso = XPP_HIST_NO_DSO;
	if (!(keys & XPP_HIST_KEY_SYM)) {
		k->sym = -1;
		k->addr = 0;
		k->level = '.';
		k->inl = 0;
	}
	if (!(keys & XPP_HIST_KEY_SRCLINE))
		k->srcline = 0;
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (!(keys & XPP_HIST_KEY_VAL(i)))
			k->val[i] = 0;
}

xpp_hist *xpp_hist_collapse(const xpp_hist *h, unsigned int keys)
{
	xpp_hist *out = xpp_hist_create();

	if (!out)
		return NULL;
	for (size_t i = 0; i < h->nr; i++) {
		struct xpp_hist_key k = h->e[i].key;

		xpp_hist_key_mask(&k, keys);
		if (xpp_hist_add(out, &k, h->e[i].period, h->e[i].nr_samples)) {
			xpp_hist_free(out);
			return NULL;
		}
	}
	return out;
}

void xpp_hist_scale(xpp_hist *h, uint32_t num, uint32_t den)
{
	for (size_t i = 0; i < h->nr; i++) {
		h->e[i].period = den ? h->e[i].period * num / den : 0;
		h->e[i].nr_samples = den ? h->e[i].nr_samples * num / den : 0;
	}
}
