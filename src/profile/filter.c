/* --comms / --dsos filters: names from the command line, verdicts cached per interned id. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	if (id >= f->cap) {
		uint32_t cap = f->cap ? f->cap : 64;
		uint8_t *v;

		while (cap <= id)
			cap *= 2;
		v = realloc(f->verdict, cap);
		if (!v)
			return listed(f, name); /* no cache, still the right answer */
		memset(v + f->cap, 0, cap - f->cap);
		f->verdict = v;
		f->cap = cap;
	}
	if (!f->verdict[id])
		f->verdict[id] = listed(f, name) ? 1 : 2;
	return f->verdict[id] == 1;
}
