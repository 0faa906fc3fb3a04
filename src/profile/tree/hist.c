/* The aggregation table: open addressing over a contiguous entry array. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/tree/hist.h"

struct xpp_hist {
	struct xpp_hist_entry *e;
	size_t nr, cap;
	uint32_t *slots;   /* entry index + 1, 0 empty */
	size_t nslots;     /* power of two */
};

static uint64_t key_hash(const struct xpp_hist_key *k)
{
	uint64_t h = k->addr * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)k->comm << 32 | k->dso) * 0xc2b2ae3d27d4eb4fULL;
	h ^= ((uint64_t)(uint32_t)k->sym << 8 | k->level) * 0x165667b19e3779f9ULL;
	h ^= ((uint64_t)k->inl << 32 | k->srcline) * 0x27d4eb2f165667c5ULL;
	return h ^ (h >> 29);
}

static bool key_eq(const struct xpp_hist_key *a, const struct xpp_hist_key *b)
{
	return a->addr == b->addr && a->comm == b->comm && a->dso == b->dso && a->sym == b->sym &&
	       a->level == b->level && a->inl == b->inl && a->srcline == b->srcline;
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
	free(h->slots);
	free(h);
}

static int grow_slots(xpp_hist *h)
{
	size_t n = h->nslots ? h->nslots * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr; i++) {
		size_t k = key_hash(&h->e[i].key) & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)(i + 1);
	}
	free(h->slots);
	h->slots = s;
	h->nslots = n;
	return 0;
}

int xpp_hist_add(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr)
{
	int64_t id = xpp_hist_add_id(h, k, period, nr);

	return id < 0 ? (int)id : 0;
}

int64_t xpp_hist_add_id(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr)
{
	size_t s;

	if ((h->nr + 1) * 2 > h->nslots && grow_slots(h))
		return -ENOMEM;
	for (s = key_hash(k) & (h->nslots - 1); h->slots[s]; s = (s + 1) & (h->nslots - 1)) {
		struct xpp_hist_entry *e = &h->e[h->slots[s] - 1];

		if (key_eq(&e->key, k)) {
			e->period += period;
			e->nr_samples += nr;
			return h->slots[s] - 1;
		}
	}
	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct xpp_hist_entry *e = realloc(h->e, cap * sizeof(*e));

		if (!e || cap > UINT32_MAX - 1)
			return -ENOMEM;
		h->e = e;
		h->cap = cap;
	}
	h->e[h->nr].key = *k;
	h->e[h->nr].period = period;
	h->e[h->nr].nr_samples = nr;
	h->slots[s] = (uint32_t)++h->nr;
	return (int64_t)h->nr - 1;
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
