/* The pass's filters: --comms / --dsos names (verdicts cached per interned id), --pid / --tid / --cpu numbers. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/filter.h"

int xpp_filter_parse(struct xpp_filter *f, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, ",");
		char **a;

		if (n) {
			a = realloc(f->list.names, (f->list.nr + 1) * sizeof(*a));
			if (!a)
				return -ENOMEM;
			f->list.names = a;
			a[f->list.nr] = strndup(s, n);
			if (!a[f->list.nr])
				return -ENOMEM;
			f->list.nr++;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

void xpp_filter_free(struct xpp_filter *f)
{
	for (uint32_t i = 0; i < f->list.nr; i++)
		free(f->list.names[i]);
	free(f->list.names);
	free(f->verdict);
	memset(f, 0, sizeof(*f));
}

static bool listed(const struct xpp_filter *f, const char *name)
{
	for (uint32_t i = 0; i < f->list.nr; i++)
		if (name && !strcmp(f->list.names[i], name))
			return true;
	return false;
}

bool xpp_filter_pass(struct xpp_filter *f, uint32_t id, const char *name)
{
	if (!f->list.nr)
		return true;
	if (id == UINT32_MAX)
		return listed(f, name);
	/* without room for a cache entry, still the right answer */
	if (id >= f->cap && XB_ARRAY_RESERVE0(f->verdict, f->cap, (size_t)id + 1, 64))
		return listed(f, name);
	if (!f->verdict[id])
		f->verdict[id] = listed(f, name) ? 1 : 2;
	return f->verdict[id] == 1;
}

static int cmp_int(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static bool number(const char **s, long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return false;
	errno = 0;
	*v = strtol(*s, &end, 10);
	if (errno || *v > INT32_MAX)
		return false;
	*s = end;
	return true;
}

int xpp_int_list_parse(struct xpp_int_list *l, const char *s, bool ranges)
{
	size_t cap = 0;

	while (s && *s) {
		long lo, hi;

		if (!number(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (ranges && *s == '-') {
			s++;
			if (!number(&s, &hi) || hi < lo || hi - lo > 65536)
				return -EINVAL;
		}
		if (*s && *s != ',')
			return -EINVAL;
		if (*s)
			s++;
		for (long v = lo; v <= hi; v++) {
			if (XB_ARRAY_RESERVE(l->v, cap, (size_t)l->nr + 1, 16))
				return -ENOMEM;
			l->v[l->nr++] = (int32_t)v;
		}
	}
	if (l->nr)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_int);
	return 0;
}

void xpp_int_list_free(struct xpp_int_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool xpp_int_list_has(const struct xpp_int_list *l, int32_t v)
{
	return !l->nr || bsearch(&v, l->v, l->nr, sizeof(*l->v), cmp_int);
}
