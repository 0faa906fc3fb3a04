/* The aggregation table: a contiguous array of compact entries indexed by the base slot table. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/tree/hist.h"

_Static_assert(sizeof(struct xpp_hist_rec) == 48, "a rec is 48 bytes (issue 20)");

struct xpp_hist {
	struct xpp_hist_rec *e;
	size_t nr, cap;
	struct xb_slots index;  /* entry index + 1 */
	uint8_t *tags;          /* per slot: 8 more bits of its entry's hash, so that a probe
				   reads an entry only when they match (a new key's probes
				   read no entry at all, mostly) */
	/*
	 * The values of the keys with any set, a row for each distinct set: keys share them
	 * (issue 20: a view by pid of one thread holds one row, where a row each took 176
	 * bytes of each of its million entries), found by vals_index (row + 1). A copy's
	 * rows go in that index as the next new row is looked up: vals_indexed of them are.
	 */
	uint64_t (*vals)[XPP_VAL_NR];
	size_t nr_vals, cap_vals;
	struct xb_slots vals_index;
	size_t vals_indexed;
	/* rows found shared; none with thousands of rows (values of each frame: --sort
	   addr), and rows are made without a look (a lookup each cost a third more) */
	size_t vals_shared;
	bool vals_apart;
};

/* A key looked up: whether any of its values is set, worked out once. */
struct lookup {
	const struct xpp_hist_key *k;
	bool vals;
};

static bool any_val(const struct xpp_hist_key *k)
{
	uint64_t any = 0;

	for (int i = 0; i < XPP_VAL_NR; i++)
		any |= k->val[i];
	return any != 0;
}

static uint64_t hash_fields(uint64_t addr, uint32_t comm, uint32_t dso, int32_t sym,
			    uint32_t level, uint32_t inl, uint32_t srcline, const uint64_t *val)
{
	uint64_t h = xb_hash_add(0, addr);

	h = xb_hash_add(h, (uint64_t)comm << 32 | dso);
	h = xb_hash_add(h, (uint64_t)(uint32_t)sym << 8 | level);
	h = xb_hash_add(h, (uint64_t)inl << 32 | srcline);
	/* most values are 0 (not asked for): those cost a test each */
	for (int i = 0; val && i < XPP_VAL_NR; i++)
		if (val[i])
			h = xb_hash_add(h, val[i] ^ (uint64_t)i << 56);
	return h;
}

/* `vals`: whether any of k's values is set (any_val()); without, they cost no test each */
static uint64_t key_hash(const struct xpp_hist_key *k, bool vals)
{
	return hash_fields(k->addr, k->comm, k->dso, k->sym, k->level, k->inl, k->srcline,
			   vals ? k->val : NULL);
}

static const uint64_t *rec_vals(const xpp_hist *h, const struct xpp_hist_rec *r)
{
	return r->vals ? h->vals[r->vals - 1] : NULL;
}

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	const xpp_hist *h = ctx;
	const struct xpp_hist_rec *r = &h->e[v - 1];

	return hash_fields(r->addr, r->comm, r->dso, r->sym, r->level, r->inl, r->srcline,
			   rec_vals(h, r));
}

static bool key_eq(const void *ctx, uint32_t v, const void *key)
{
	const xpp_hist *h = ctx;
	const struct xpp_hist_rec *a = &h->e[v - 1];
	const struct lookup *l = key;
	const struct xpp_hist_key *b = l->k;

	if (a->addr != b->addr || a->comm != b->comm || a->dso != b->dso || a->sym != b->sym ||
	    a->level != b->level || a->inl != b->inl || a->srcline != b->srcline ||
	    !a->vals != !l->vals)
		return false;
	return !a->vals || !memcmp(h->vals[a->vals - 1], b->val, sizeof(b->val));
}

static uint8_t tag_of(uint64_t hash)
{
	return (uint8_t)(hash >> 24); /* below the index's bits (at most 31 from the top) */
}

/* The slot of l's entry, else the empty slot where it goes; *tag: its tag. */
static uint32_t *probe(const xpp_hist *h, uint64_t hash, const struct lookup *l, uint8_t *tag)
{
	const struct xb_slots *t = &h->index;
	uint32_t mask = t->nslots - 1, i = xb_hash_bits(hash, t->bits);

	*tag = tag_of(hash);
	for (; t->slot[i]; i = (i + 1) & mask)
		if (h->tags[i] == *tag && key_eq(h, t->slot[i], l))
			break;
	return &t->slot[i];
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
	free(h->vals);
	xb_slots_free(&h->vals_index);
	xb_slots_free(&h->index);
	free(h->tags);
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
	uint8_t *tags;

	if (h->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	if ((uint64_t)(h->nr + 1) * 2 <= t->nslots)
		return 0;
	/* what xb_slots_grow() makes of t: twice the slots, or enough for nr + 1 */
	if (xb_slots_grow(&n, h->nr + 1 > t->nslots ? (uint32_t)h->nr + 1 : t->nslots, hash_of, h))
		return -ENOMEM;
	if (!(tags = malloc(n.nslots))) {
		xb_slots_free(&n);
		return -ENOMEM;
	}
	for (uint32_t v = 1; v <= h->nr; v++) {
		uint64_t hash = hash_of(h, v);
		uint32_t i = xb_hash_bits(hash, n.bits);

		/* the slots are written at random: ask for a later entry's ahead, so that
		   the misses overlap */
		if (v + 16 <= h->nr) {
			uint32_t a = xb_hash_bits(hash_of(h, v + 16), n.bits);

			__builtin_prefetch(&n.slot[a], 1);
			__builtin_prefetch(&tags[a], 1);
		}
		while (n.slot[i])
			i = (i + 1) & (n.nslots - 1);
		n.slot[i] = v;
		tags[i] = tag_of(hash);
	}
	xb_slots_free(t);
	free(h->tags);
	*t = n;
	h->tags = tags;
	return 0;
}

static uint64_t row_hash(const uint64_t *val)
{
	uint64_t h = 0;

	for (int i = 0; i < XPP_VAL_NR; i++)
		h = xb_hash_add(h, val[i]);
	return h;
}

static uint64_t row_hash_of(const void *ctx, uint32_t value)
{
	return row_hash(((const xpp_hist *)ctx)->vals[value - 1]);
}

static bool row_eq(const void *ctx, uint32_t value, const void *key)
{
	return !memcmp(((const xpp_hist *)ctx)->vals[value - 1], key,
		       sizeof(((const xpp_hist *)ctx)->vals[0]));
}

/* The slot of the row holding val, else the empty one where it goes (room made). */
static uint32_t *row_slot(xpp_hist *h, const uint64_t *val)
{
	if (xb_slots_reserve(&h->vals_index, (uint32_t)h->nr_vals + 1, row_hash_of, h))
		return NULL;
	return xb_slots_find(&h->vals_index, row_hash(val), row_eq, h, val);
}

/* A new row of values val, not looked up: its index, or -ENOMEM. */
static int64_t new_row(xpp_hist *h, const uint64_t *val)
{
	if (h->nr_vals >= XPP_HIST_VALS_MAX ||
	    XB_ARRAY_RESERVE(h->vals, h->cap_vals, h->nr_vals + 1, 64))
		return -ENOMEM;
	memcpy(h->vals[h->nr_vals], val, sizeof(h->vals[0]));
	return (int64_t)h->nr_vals++;
}

#define VALS_APART_ROWS 4096 /* rows made before asking whether keys share them */

/* The row of values val (made if new): its index, or -ENOMEM. */
static int64_t vals_row(xpp_hist *h, const uint64_t *val)
{
	uint32_t *slot;
	int64_t row;

	if (h->vals_apart)
		return new_row(h, val);
	if (h->nr_vals >= VALS_APART_ROWS && h->vals_shared < h->nr_vals) {
		h->vals_apart = true;
		xb_slots_free(&h->vals_index);
		h->vals_index = (struct xb_slots){ 0 };
		return new_row(h, val);
	}
	for (; h->vals_indexed < h->nr_vals; h->vals_indexed++) {
		if (!(slot = row_slot(h, h->vals[h->vals_indexed])))
			return -ENOMEM;
		if (!*slot)
			*slot = (uint32_t)h->vals_indexed + 1;
	}
	if (!(slot = row_slot(h, val)))
		return -ENOMEM;
	if (*slot) {
		h->vals_shared++;
		return *slot - 1;
	}
	if ((row = new_row(h, val)) < 0)
		return row;
	*slot = (uint32_t)h->nr_vals;
	h->vals_indexed = h->nr_vals;
	return row;
}

/* Key k as entry nr (h->nr one more), with values when `vals`; not in the index. */
static int new_rec(xpp_hist *h, const struct xpp_hist_key *k, bool vals, uint64_t period,
		   uint64_t nr)
{
	int64_t row = -1;

	if (h->nr == h->cap && XB_ARRAY_RESERVE(h->e, h->cap, h->nr + 1, 256))
		return -ENOMEM;
	if (vals && (row = vals_row(h, k->val)) < 0)
		return (int)row;
	h->e[h->nr++] = (struct xpp_hist_rec){
		.addr = k->addr, .period = period, .nr_samples = nr, .comm = k->comm,
		.dso = k->dso, .sym = k->sym, .level = (uint8_t)k->level, .inl = k->inl,
		.srcline = k->srcline, .vals = (uint32_t)(row + 1) };
	return 0;
}

int64_t xpp_hist_add_id(xpp_hist *h, const struct xpp_hist_key *k, uint64_t period, uint64_t nr)
{
	struct lookup l = { k, any_val(k) };
	struct xpp_hist_rec *r;
	uint32_t *slot;
	uint8_t tag;

	if (reserve(h))
		return -ENOMEM;
	slot = probe(h, key_hash(k, l.vals), &l, &tag);
	if (*slot) {
		r = &h->e[*slot - 1];
		r->period += period;
		r->nr_samples += nr;
		return *slot - 1;
	}
	if (new_rec(h, k, l.vals, period, nr))
		return -ENOMEM;
	h->tags[slot - h->index.slot] = tag;
	*slot = (uint32_t)h->nr;
	return (int64_t)h->nr - 1;
}

int64_t xpp_hist_append(xpp_hist *h, const struct xpp_hist_key *k)
{
	/* with an index, the entry goes there too: an add (k is new all the same) */
	if (h->index.nslots)
		return xpp_hist_add_id(h, k, 0, 0);
	if (h->nr >= UINT32_MAX - 1 || new_rec(h, k, any_val(k), 0, 0))
		return -ENOMEM;
	return (int64_t)h->nr - 1;
}

void xpp_hist_prefetch(const xpp_hist *h, const struct xpp_hist_key *k)
{
	uint32_t i;

	if (!h->index.nslots)
		return;
	i = xb_hash_bits(key_hash(k, any_val(k)), h->index.bits);
	__builtin_prefetch(&h->index.slot[i]);
	__builtin_prefetch(&h->tags[i]);
}

int64_t xpp_hist_find(const xpp_hist *h, const struct xpp_hist_key *k)
{
	struct lookup l = { k, any_val(k) };
	uint32_t *slot;

	if (!h->nr)
		return -1;
	/* frozen: the index comes back (the entries are the hist's state, the index a cache
	   of them); without the memory for it, each entry in turn */
	if (!h->index.nslots && reserve((xpp_hist *)h)) {
		for (size_t i = 0; i < h->nr; i++)
			if (key_eq(h, (uint32_t)i + 1, &l))
				return (int64_t)i;
		return -1;
	}
	slot = probe(h, key_hash(k, l.vals), &l, &(uint8_t){ 0 });
	return *slot ? (int64_t)*slot - 1 : -1;
}

void xpp_hist_freeze(xpp_hist *h)
{
	xb_slots_free(&h->vals_index);
	h->vals_index = (struct xb_slots){ 0 };
	h->vals_indexed = 0;
	xb_slots_free(&h->index);
	h->index = (struct xb_slots){ 0 };
	free(h->tags);
	h->tags = NULL;
}

void xpp_hist_clear(xpp_hist *h)
{
	/* an empty slot is 0 (its tag is read only beside a value): the tags may stay */
	if (h->index.nslots)
		memset(h->index.slot, 0, h->index.nslots * sizeof(*h->index.slot));
	if (h->vals_index.nslots)
		memset(h->vals_index.slot, 0, h->vals_index.nslots * sizeof(*h->vals_index.slot));
	h->nr = 0;
	h->nr_vals = h->vals_indexed = h->vals_shared = 0;
	h->vals_apart = false;
}

struct xpp_hist_rec *xpp_hist_recs(const xpp_hist *h, size_t *nr)
{
	*nr = h->nr;
	return h->e;
}

size_t xpp_hist_nr_val_rows(const xpp_hist *h)
{
	return h->nr_vals;
}

size_t xpp_hist_nr(const xpp_hist *h)
{
	return h->nr;
}

struct xpp_hist_key xpp_hist_key_at(const xpp_hist *h, size_t i)
{
	const struct xpp_hist_rec *r = &h->e[i];
	struct xpp_hist_key k = { .addr = r->addr, .comm = r->comm, .dso = r->dso,
				  .sym = r->sym, .level = r->level, .inl = r->inl,
				  .srcline = r->srcline };

	if (r->vals)
		memcpy(k.val, h->vals[r->vals - 1], sizeof(k.val));
	return k;
}

bool xpp_hist_key_load(const xpp_hist *h, size_t i, struct xpp_hist_key *k, bool vals_set)
{
	const struct xpp_hist_rec *r = &h->e[i];

	k->addr = r->addr;
	k->comm = r->comm;
	k->dso = r->dso;
	k->sym = r->sym;
	k->level = r->level;
	k->inl = r->inl;
	k->srcline = r->srcline;
	if (r->vals)
		memcpy(k->val, h->vals[r->vals - 1], sizeof(k->val));
	else if (vals_set)
		memset(k->val, 0, sizeof(k->val));
	return r->vals != 0;
}

struct xpp_hist_entry xpp_hist_entry_at(const xpp_hist *h, size_t i)
{
	return (struct xpp_hist_entry){ xpp_hist_key_at(h, i), h->e[i].period,
					h->e[i].nr_samples };
}

uint64_t xpp_hist_val_at(const xpp_hist *h, size_t i, int v)
{
	const uint64_t *val = rec_vals(h, &h->e[i]);

	return val ? val[v] : 0;
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

bool xpp_hist_mask_keeps(const xpp_hist *h, unsigned int keys)
{
	for (size_t i = 0; i < h->nr; i++) {
		const struct xpp_hist_rec *r = &h->e[i];

		if ((!(keys & XPP_HIST_KEY_COMM) && r->comm) ||
		    (!(keys & (XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM)) && r->dso != XPP_HIST_NO_DSO) ||
		    (!(keys & XPP_HIST_KEY_SYM) &&
		     (r->sym != -1 || r->addr || r->level != '.' || r->inl)) ||
		    (!(keys & XPP_HIST_KEY_SRCLINE) && r->srcline))
			return false;
		for (int v = 0; r->vals && v < XPP_VAL_NR; v++)
			if (!(keys & XPP_HIST_KEY_VAL(v)) && h->vals[r->vals - 1][v])
				return false;
	}
	return true;
}

/* A copy of h's entries (and values), without the index: the next add or find builds it. */
static xpp_hist *copy_entries(const xpp_hist *h)
{
	xpp_hist *out = xpp_hist_create();

	if (!out)
		return NULL;
	out->e = malloc((h->nr + 1) * sizeof(*out->e));
	out->vals = malloc((h->nr_vals + 1) * sizeof(*out->vals));
	if (!out->e || !out->vals) {
		xpp_hist_free(out);
		return NULL;
	}
	if (h->nr) /* (NULL before the first entry) */
		memcpy(out->e, h->e, h->nr * sizeof(*out->e));
	if (h->nr_vals)
		memcpy(out->vals, h->vals, h->nr_vals * sizeof(*out->vals));
	out->nr = h->nr;
	out->cap = h->nr + 1;
	out->nr_vals = h->nr_vals;
	out->cap_vals = h->nr_vals + 1;
	out->vals_shared = h->vals_shared; /* (whether its keys share rows, as h's do) */
	out->vals_apart = h->vals_apart;
	return out;
}

xpp_hist *xpp_hist_collapse(const xpp_hist *h, unsigned int keys)
{
	xpp_hist *out;

	/*
	 * Keys the mask leaves as they are stay apart, in their order: the entries as they
	 * are, copied in one go (issue 20: adding a million unresolved addresses again, a
	 * cache miss each, was 15% of their flat view).
	 */
	if (xpp_hist_mask_keeps(h, keys))
		return copy_entries(h);
	out = xpp_hist_create();
	if (!out)
		return NULL;
	for (size_t i = 0; i < h->nr; i++) {
		struct xpp_hist_key k = xpp_hist_key_at(h, i);

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
