/* libxperf-base: hashing, and the open-addressing slot table every id lookup is built on. */
#ifndef XB_HASH_H
#define XB_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Hashing: start from 0 (or any seed) and fold each field in with xb_hash_add() (order
 * matters):
 *     h = xb_hash_add(xb_hash_add(0, addr), (uint64_t)dso << 32 | sym);
 * Cheap on purpose (one multiply a field: Fibonacci hashing), as the report hashes every
 * frame of every sample. Only the HIGH bits of such a hash depend on every bit of the
 * input: index tables and caches with xb_hash_bits(), never with `h & mask`.
 */
#define XB_HASH_MUL 0x9e3779b97f4a7c15ULL

static inline uint64_t xb_hash_add(uint64_t h, uint64_t v)
{
	return (h ^ v) * XB_HASH_MUL;
}

static inline uint64_t xb_hash_u64(uint64_t v)
{
	return v * XB_HASH_MUL;
}

/* The top `bits` bits of h (1..63): the index into a table of 1 << bits entries. */
static inline uint32_t xb_hash_bits(uint64_t h, unsigned int bits)
{
	return (uint32_t)(h >> (64 - bits));
}

/* Bytes (FNV-1a, then spread to the high bits as above): for names. */
uint64_t xb_hash_mem(const void *p, size_t len);
uint64_t xb_hash_str(const char *s);

/*
 * The slot table: an index from keys to the caller's entries, which stay in the caller's
 * own array (ids stay stable, entries stay contiguous). Each slot holds a caller's value,
 * never 0 (0 marks an empty slot): usually entry index + 1. Linear probing over a power
 * of two of slots, kept at most half full. Zero-initialised is empty and valid.
 *
 *   if (xb_slots_reserve(&t, nr + 1, hash_of, entries))      make room before looking up
 *           return -ENOMEM;
 *   uint32_t *s = xb_slots_find(&t, hash, eq, entries, &key);
 *   if (*s) return entries[*s - 1] ...                        found
 *   append the entry; *s = nr + 1;                            or insert at that empty slot
 *
 * hash_of(ctx, value) must give the hash the value's key was found with; eq(ctx, value, key)
 * says whether the entry behind value has key. Both are usually static functions the
 * compiler inlines into the find.
 */
struct xb_slots {
	uint32_t *slot;
	uint32_t nslots;   /* 0, or 1 << bits */
	unsigned int bits;
};

typedef uint64_t (*xb_slots_hash_fn)(const void *ctx, uint32_t value);
typedef bool (*xb_slots_eq_fn)(const void *ctx, uint32_t value, const void *key);

/* Double (or first allocate) the slots and put every value back. 0 or -ENOMEM. */
int xb_slots_grow(struct xb_slots *t, uint32_t nr, xb_slots_hash_fn hash_of, const void *ctx);

/* Room for nr values at most half full, growing when needed. 0 or -ENOMEM (t unchanged). */
static inline int xb_slots_reserve(struct xb_slots *t, uint32_t nr, xb_slots_hash_fn hash_of,
				   const void *ctx)
{
	if ((uint64_t)nr * 2 <= t->nslots)
		return 0;
	return xb_slots_grow(t, nr, hash_of, ctx);
}

/* The slot holding the value eq() accepts for key, else the empty slot where it would go. */
static inline uint32_t *xb_slots_find(const struct xb_slots *t, uint64_t hash, xb_slots_eq_fn eq,
				      const void *ctx, const void *key)
{
	uint32_t mask = t->nslots - 1, i = xb_hash_bits(hash, t->bits);

	for (; t->slot[i]; i = (i + 1) & mask)
		if (eq(ctx, t->slot[i], key))
			break;
	return &t->slot[i];
}

/* Empty every slot, keeping the allocation. */
void xb_slots_clear(struct xb_slots *t);
void xb_slots_free(struct xb_slots *t);

#endif
