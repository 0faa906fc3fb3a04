/* The evlist: an ordered, growing list of parsed events that owns names and fds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "events/xpe_evlist_impl.h"
#include "events/xpe_open.h"

xpe_evlist *xpe_evlist_create(void)
{
	return calloc(1, sizeof(struct xpe_evlist));
}

static void event_free(struct xpe_event *ev)
{
	if (!ev)
		return;
	free(ev->name);
	free(ev->pmu);
	free(ev->fd);
	free(ev->id);
	free(ev);
}

void xpe_evlist_free(xpe_evlist *evl)
{
	size_t i;

	if (!evl)
		return;
	xpe_evlist_close(evl);
	for (i = 0; i < evl->nr; i++)
		event_free(evl->ev[i]);
	free(evl->ev);
	free(evl);
}

struct xpe_event *xpe_evlist_new_event(xpe_evlist *evl)
{
	struct xpe_event *ev;

	if (evl->nr == evl->alloc && XB_ARRAY_RESERVE(evl->ev, evl->alloc, evl->nr + 1, 16))
		return NULL;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	xpe_attr_init(&ev->attr);
	ev->idx = (int)evl->nr;
	ev->leader = ev->idx;
	ev->group_size = 1;
	ev->scale = 1.0;
	evl->ev[evl->nr++] = ev;
	return ev;
}

void xpe_evlist_truncate(xpe_evlist *evl, size_t n)
{
	while (evl->nr > n)
		event_free(evl->ev[--evl->nr]);
}

struct xpe_event *xpe_evlist_add_attr(xpe_evlist *evl, const struct perf_event_attr *attr,
				      const char *name)
{
	struct xpe_event *ev = xpe_evlist_new_event(evl);

	if (!ev)
		return NULL;
	ev->attr = *attr;
	if (!ev->attr.size)
		ev->attr.size = sizeof(ev->attr);
	switch (attr->type) {
	case PERF_TYPE_HARDWARE: ev->kind = XPE_KIND_HW; break;
	case PERF_TYPE_SOFTWARE: ev->kind = XPE_KIND_SW; break;
	case PERF_TYPE_HW_CACHE: ev->kind = XPE_KIND_CACHE; break;
	case PERF_TYPE_RAW: ev->kind = XPE_KIND_RAW; break;
	case PERF_TYPE_TRACEPOINT: ev->kind = XPE_KIND_TRACEPOINT; break;
	case PERF_TYPE_BREAKPOINT: ev->kind = XPE_KIND_BREAKPOINT; break;
	default: ev->kind = XPE_KIND_PMU; break;
	}
	if (name) {
		ev->name = strdup(name);
	} else {
		char buf[256];

		xpe_attr_name(NULL, attr, buf, sizeof(buf));
		ev->name = strdup(buf);
	}
	if (!ev->name) {
		xpe_evlist_truncate(evl, evl->nr - 1);
		return NULL;
	}
	return ev;
}

size_t xpe_evlist_count(const xpe_evlist *evl)
{
	return evl ? evl->nr : 0;
}

struct xpe_event *xpe_evlist_event(const xpe_evlist *evl, size_t idx)
{
	return evl && idx < evl->nr ? evl->ev[idx] : NULL;
}

int xpe_evlist_nr_groups(const xpe_evlist *evl)
{
	size_t i;
	int n = 0;

	for (i = 0; i < evl->nr; i++)
		if (evl->ev[i]->leader == (int)i && evl->ev[i]->group_size > 1)
			n++;
	return n;
}
