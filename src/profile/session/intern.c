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
	size_t left;           /* bytes free at the end of the last block */
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

/* Room for size bytes that stay where they are: the last block's, else a new block's. */
static char *store(xpp_intern *in, size_t size)
{
	size_t bytes = size > BLOCK_SIZE / 4 ? size : BLOCK_SIZE;
	char *b;

	if (size <= in->left && in->nr_blocks) {
		b = in->blocks[in->nr_blocks - 1] + (BLOCK_SIZE - in->left);
		in->left -= size;
		return b;
	}
	if (XB_ARRAY_RESERVE(in->blocks, in->cap_blocks, in->nr_blocks + 1, 16) ||
	    !(b = malloc(bytes)))
		return NULL;
	/* a string of its own block goes before the last one, which keeps its room */
	if (bytes != BLOCK_SIZE && in->nr_blocks) {
		in->blocks[in->nr_blocks] = in->blocks[in->nr_blocks - 1];
		in->blocks[in->nr_blocks++ - 1] = b;
		return b;
	}
	in->blocks[in->nr_blocks++] = b;
	in->left = bytes == BLOCK_SIZE ? BLOCK_SIZE - size : 0;
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
