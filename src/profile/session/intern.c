/* String interning with an open-addressing hash over offsets into chunked storage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/session/intern.h"

struct xpp_intern {
	char **strs;           /* id -> string (each its own allocation: stable pointers) */
	uint32_t nr, cap;
	uint32_t *slots;       /* id + 1, 0 empty */
	uint32_t nslots;       /* power of two */
};

static uint64_t hash_mem(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
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
	free(in->slots);
	free(in);
}

static int grow(xpp_intern *in)
{
	uint32_t n = in->nslots ? in->nslots * 2 : 64;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i < in->nr; i++) {
		uint32_t k = (uint32_t)hash_mem(in->strs[i], strlen(in->strs[i])) & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = i + 1;
	}
	free(in->slots);
	in->slots = s;
	in->nslots = n;
	return 0;
}

int64_t xpp_intern_id(xpp_intern *in, const char *s, size_t len)
{
	uint32_t k;

	if ((uint64_t)(in->nr + 1) * 2 > in->nslots && grow(in))
		return -ENOMEM;
	for (k = (uint32_t)hash_mem(s, len) & (in->nslots - 1); in->slots[k];
	     k = (k + 1) & (in->nslots - 1)) {
		const char *e = in->strs[in->slots[k] - 1];

		if (!strncmp(e, s, len) && e[len] == '\0')
			return in->slots[k] - 1;
	}
	if (in->nr == in->cap) {
		uint32_t cap = in->cap ? in->cap * 2 : 64;
		char **a = realloc(in->strs, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		in->strs = a;
		in->cap = cap;
	}
	char *copy = malloc(len + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	in->strs[in->nr] = copy;
	in->slots[k] = ++in->nr;
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
