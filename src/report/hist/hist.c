/* The aggregation table: open addressing over a contiguous entry array. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist/hist.h"

struct hist {
	struct hist_entry *e;
	size_t nr, cap;
	uint32_t *slots;   /* entry index + 1, 0 empty */
	size_t nslots;     /* power of two */
};

static uint64_t key_hash(const struct hist_key *k)
{
	uint64_t h = k->addr * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)k->comm << 32 | k->dso) * 0xc2b2ae3d27d4eb4fULL;
	h ^= ((uint64_t)(uint32_t)k->sym << 8 | k->level) * 0x165667b19e3779f9ULL;
	return h ^ (h >> 29);
}

static bool key_eq(const struct hist_key *a, const struct hist_key *b)
{
	return a->addr == b->addr && a->comm == b->comm && a->dso == b->dso && a->sym == b->sym &&
	       a->level == b->level;
}

hist *hist_create(void)
{
	return calloc(1, sizeof(struct hist));
}

void hist_free(hist *h)
{
	if (!h)
		return;
	free(h->e);
	free(h->slots);
	free(h);
}

static int grow_slots(hist *h)
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

int hist_add(hist *h, const struct hist_key *k, uint64_t period, uint64_t nr)
{
	int64_t id = hist_add_id(h, k, period, nr);

	return id < 0 ? (int)id : 0;
}

int64_t hist_add_id(hist *h, const struct hist_key *k, uint64_t period, uint64_t nr)
{
	size_t s;

	if ((h->nr + 1) * 2 > h->nslots && grow_slots(h))
		return -ENOMEM;
	for (s = key_hash(k) & (h->nslots - 1); h->slots[s]; s = (s + 1) & (h->nslots - 1)) {
		struct hist_entry *e = &h->e[h->slots[s] - 1];

		if (key_eq(&e->key, k)) {
			e->period += period;
			e->nr_samples += nr;
			return h->slots[s] - 1;
		}
	}
	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		struct hist_entry *e = realloc(h->e, cap * sizeof(*e));

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

struct hist_entry *hist_entries(const hist *h, size_t *nr)
{
	*nr = h->nr;
	return h->e;
}

hist *hist_collapse(const hist *h, unsigned int keys)
{
	hist *out = hist_create();

	if (!out)
		return NULL;
	for (size_t i = 0; i < h->nr; i++) {
		struct hist_key k = h->e[i].key;

		if (!(keys & HIST_KEY_COMM))
			k.comm = 0;
		if (!(keys & (HIST_KEY_DSO | HIST_KEY_SYM)))
			k.dso = HIST_NO_DSO;
		if (!(keys & HIST_KEY_SYM)) {
			k.sym = -1;
			k.addr = 0;
			k.level = '.';
		}
		if (hist_add(out, &k, h->e[i].period, h->e[i].nr_samples)) {
			hist_free(out);
			return NULL;
		}
	}
	return out;
}
