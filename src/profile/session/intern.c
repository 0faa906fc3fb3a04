/* String interning: one copy of each string, its id found through the base slot table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/session/intern.h"

/*
 * The strings are packed in blocks of this size (a longer one has a block of its own):
 * a profile of unresolved addresses interns a name for each of millions of frames, and a
 * malloc each cost 16 bytes more than most of them hold.
 */
#define BLOCK_SIZE 65536

/* a string and its hash: a probe compares the hash first, and a grow rehashes without
 * reading the strings (each a cache miss once there are millions) */
struct interned {
	const char *s;
	uint64_t hash;
};

struct xpp_intern {
	struct interned *strs; /* by id */
	uint32_t nr, cap;
	struct xb_slots index; /* id + 1 */
	char **blocks;         /* the strings' storage: pointers into them stay valid */
	size_t nr_blocks, cap_blocks;
	char *next;            /* where the current block's free bytes start */
	size_t left;           /* and how many there are */
};

struct str_key {
	const char *s;
	size_t len;
	uint64_t hash;
};

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	const xpp_intern *in = ctx;

	return in->strs[v - 1].hash;
}

static bool eq(const void *ctx, uint32_t v, const void *key)
{
	const xpp_intern *in = ctx;
	const struct str_key *k = key;
	const struct interned *e = &in->strs[v - 1];

	return e->hash == k->hash && !strncmp(e->s, k->s, k->len) && e->s[k->len] == '\0';
}

xpp_intern *xpp_intern_create(void)
{
	return calloc(1, sizeof(struct xpp_intern));
}

void xpp_intern_free(xpp_intern *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nr_blocks; i++)
		free(in->blocks[i]);
	free(in->blocks);
	free(in->strs);
	xb_slots_free(&in->index);
	free(in);
}

/* Room for size bytes that stay where they are: the current block's, else a new block's. */
static char *store(xpp_intern *in, size_t size)
{
	bool own = size > BLOCK_SIZE / 4; /* a long string: a block of its own */
	char *b;

	if (size <= in->left) {
		b = in->next;
		in->next += size;
		in->left -= size;
		return b;
	}
	if (XB_ARRAY_RESERVE(in->blocks, in->cap_blocks, in->nr_blocks + 1, 16) ||
	    !(b = malloc(own ? size : BLOCK_SIZE)))
		return NULL;
	in->blocks[in->nr_blocks++] = b;
	/* a long one leaves the current block as it was, its room for the next short ones */
	if (!own) {
		in->next = b + size;
		in->left = BLOCK_SIZE - size;
	}
	return b;
}

int64_t xpp_intern_id(xpp_intern *in, const char *s, size_t len)
{
	struct str_key key = { s, len, xb_hash_mem(s, len) };
	uint32_t *slot;
	char *copy;

	if (xb_slots_reserve(&in->index, in->nr + 1, hash_of, in))
		return -ENOMEM;
	slot = xb_slots_find(&in->index, key.hash, eq, in, &key);
	if (*slot)
		return *slot - 1;
	if (in->nr == in->cap && XB_ARRAY_RESERVE(in->strs, in->cap, (size_t)in->nr + 1, 64))
		return -ENOMEM;
	if (!(copy = store(in, len + 1)))
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	in->strs[in->nr] = (struct interned){ copy, key.hash };
	*slot = ++in->nr;
	return in->nr - 1;
}

const char *xpp_intern_str(const xpp_intern *in, uint32_t id)
{
	return id < in->nr ? in->strs[id].s : NULL;
}

uint32_t xpp_intern_nr(const xpp_intern *in)
{
	return in->nr;
}
