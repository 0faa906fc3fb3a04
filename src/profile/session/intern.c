/* String interning: one copy of each string, its id found through the base slot table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/session/intern.h"

struct xpp_intern {
	char **strs;           /* id -> string (each its own allocation: stable pointers) */
	uint32_t nr, cap;
	struct xb_slots index; /* id + 1 */
};

struct str_key {
	const char *s;
	size_t len;
};

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	const xpp_intern *in = ctx;

	return xb_hash_str(in->strs[v - 1]);
}

static bool eq(const void *ctx, uint32_t v, const void *key)
{
	const xpp_intern *in = ctx;
	const struct str_key *k = key;
	const char *e = in->strs[v - 1];

	return !strncmp(e, k->s, k->len) && e[k->len] == '\0';
}

xpp_intern *xpp_intern_create(void)
{
	return calloc(1, sizeof(struct xpp_intern));
}

void xpp_intern_free(xpp_intern *in)
{
	if (!in)
		return;
	for (uint32_t i = 0; i < in->nr; i++)
		free(in->strs[i]);
	free(in->strs);
	xb_slots_free(&in->index);
	free(in);
}

int64_t xpp_intern_id(xpp_intern *in, const char *s, size_t len)
{
	struct str_key key = { s, len };
	uint32_t *slot;

	if (xb_slots_reserve(&in->index, in->nr + 1, hash_of, in))
		return -ENOMEM;
	slot = xb_slots_find(&in->index, xb_hash_mem(s, len), eq, in, &key);
	if (*slot)
		return *slot - 1;
	if (in->nr == in->cap && XB_ARRAY_RESERVE(in->strs, in->cap, (size_t)in->nr + 1, 64))
		return -ENOMEM;
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	in->strs[in->nr] = copy;
	*slot = ++in->nr;
	return in->nr - 1;
}

const char *xpp_intern_str(const xpp_intern *in, uint32_t id)
{
	return id < in->nr ? in->strs[id] : NULL;
}

uint32_t xpp_intern_nr(const xpp_intern *in)
{
	return in->nr;
}
