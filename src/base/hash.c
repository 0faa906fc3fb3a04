/* Hashing of bytes, and growing the slot table (base/hash.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

#define FIRST_BITS 6

uint64_t xb_hash_mem(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	/* FNV leaves the last bytes in the middle bits: one multiply spreads them to the top */
	return xb_hash_u64(h);
}

uint64_t xb_hash_str(const char *s)
{
	return xb_hash_mem(s, strlen(s));
}

int xb_slots_grow(struct xb_slots *t, uint32_t nr, xb_slots_hash_fn hash_of, const void *ctx)
{
	unsigned int bits = t->nslots ? t->bits + 1 : FIRST_BITS;
	uint32_t *s, n;

	while (bits < 32 && (1ULL << bits) < (uint64_t)nr * 2)
		bits++;
	if (bits > 31)
		return -ENOMEM;
	n = 1u << bits;
	s = calloc(n, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nslots; i++) {
		uint32_t v = t->slot[i], k;

		if (!v)
			continue;
		for (k = xb_hash_bits(hash_of(ctx, v), bits); s[k]; k = (k + 1) & (n - 1))
			;
		s[k] = v;
	}
	free(t->slot);
	t->slot = s;
	t->nslots = n;
	t->bits = bits;
	return 0;
}

void xb_slots_clear(struct xb_slots *t)
{
	if (t->nslots)
		memset(t->slot, 0, t->nslots * sizeof(*t->slot));
}

void xb_slots_free(struct xb_slots *t)
{
	free(t->slot);
	t->slot = NULL;
	t->nslots = 0;
	t->bits = 0;
}
