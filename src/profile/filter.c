/* --comms / --dsos filters: names from the command line, verdicts cached per interned id. */
#include <errno.h>
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
