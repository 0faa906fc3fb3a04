/* The reader's attrs: adding them (file section or HEADER_ATTR), the id -> attr map, names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/reader_int.h"

#define EMPTY_SLOT UINT32_MAX

static size_t hash_id(uint64_t id, size_t cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

static int ids_grow(struct xpf_reader *r)
{
	size_t cap = r->ids_cap ? r->ids_cap * 2 : 64;
	struct id_slot *slots = malloc(cap * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++)
		slots[i].attr_idx = EMPTY_SLOT;
	for (size_t i = 0; i < r->ids_cap; i++) {
		size_t h;

		if (r->ids[i].attr_idx == EMPTY_SLOT)
			continue;
		for (h = hash_id(r->ids[i].id, cap); slots[h].attr_idx != EMPTY_SLOT;)
			h = (h + 1) & (cap - 1);
		slots[h] = r->ids[i];
	}
	free(r->ids);
	r->ids = slots;
	r->ids_cap = cap;
	return 0;
}

/* The first attr to claim an id keeps it, as perf's hash lookup finds the first. */
static int ids_insert(struct xpf_reader *r, uint64_t id, uint32_t idx)
{
	size_t h;

	if ((r->ids_used + 1) * 2 > r->ids_cap && ids_grow(r))
		return -ENOMEM;
	for (h = hash_id(id, r->ids_cap); r->ids[h].attr_idx != EMPTY_SLOT; h = (h + 1) & (r->ids_cap - 1))
		if (r->ids[h].id == id)
			return 0;
	r->ids[h].id = id;
	r->ids[h].attr_idx = idx;
	r->ids_used++;
	return 0;
}

const struct xpf_attr *xpf_reader_attr_by_id(const xpf_reader *r, uint64_t id)
{
	if (!r->ids_cap)
		return NULL;
	for (size_t h = hash_id(id, r->ids_cap); r->ids[h].attr_idx != EMPTY_SLOT;
	     h = (h + 1) & (r->ids_cap - 1))
		if (r->ids[h].id == id)
			return r->attrs[r->ids[h].attr_idx];
	return NULL;
}

int xpf_reader_add_attr(struct xpf_reader *r, const void *attr_bytes, uint32_t attr_bytes_size,
			const void *ids, uint64_t nr_ids, bool swap_ids, struct xb_error *err)
{
	struct xpf_attr *a;
	uint64_t *own_ids = NULL;
	uint32_t size;

	/* every count here is bounded by the input the caller already checked */
	if (r->nr_attrs == r->cap_attrs) {
		uint32_t cap = r->cap_attrs ? r->cap_attrs * 2 : 8;
		struct xpf_attr **n;

		if (cap > (1u << 20))
			return xb_error_set(err, -EINVAL, "%s: more than %u attrs", r->name, 1u << 20);
		n = realloc(r->attrs, cap * sizeof(*n));
		if (!n)
			return xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
		r->attrs = n;
		r->cap_attrs = cap;
	}
	a = calloc(1, sizeof(*a));
	if (nr_ids)
		own_ids = malloc(nr_ids * sizeof(*own_ids));
	if (!a || (nr_ids && !own_ids)) {
		free(a);
		free(own_ids);
		return xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
	}
	size = attr_bytes_size < sizeof(a->attr) ? attr_bytes_size : (uint32_t)sizeof(a->attr);
	memcpy(&a->attr, attr_bytes, size);
	if (nr_ids) {
		memcpy(own_ids, ids, nr_ids * sizeof(*own_ids));
		if (swap_ids)
			xpf_swap_u64s(own_ids, nr_ids);
	}
	a->ids = own_ids;
	a->nr_ids = (uint32_t)nr_ids;
	r->attrs[r->nr_attrs] = a;
	for (uint64_t i = 0; i < nr_ids; i++)
		if (ids_insert(r, own_ids[i], r->nr_attrs)) {
			/* keep it listed: the map may already point at it */
			r->nr_attrs++;
			return xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
		}
	r->nr_attrs++;
	xpf_reader_name_attrs(r);
	return 0;
}

void xpf_reader_free_attrs(struct xpf_reader *r)
{
	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		free((void *)r->attrs[i]->ids);
		free(r->attrs[i]);
	}
	free(r->attrs);
	free(r->ids);
	r->attrs = NULL;
	r->ids = NULL;
	r->nr_attrs = r->cap_attrs = 0;
	r->ids_cap = r->ids_used = 0;
}

/*
 * Names come from EVENT_DESC, whose entries are in attr order (perf matches them by
 * position); when the counts differ, match by the first id.
 */
void xpf_reader_name_attrs(struct xpf_reader *r)
{
	const struct xpf_features *f = &r->feat;

	if (!xpf_features_has(f, XPF_FEAT_EVENT_DESC) || !f->event_desc)
		return;
	for (uint32_t i = 0; i < r->nr_attrs; i++) {
		struct xpf_attr *a = r->attrs[i];

		if (a->name)
			continue;
		if (f->nr_event_desc == r->nr_attrs) {
			a->name = f->event_desc[i].name;
			continue;
		}
		for (uint32_t d = 0; d < f->nr_event_desc && a->nr_ids; d++) {
			const struct xpf_event_desc *ed = &f->event_desc[d];

			if (ed->nr_ids && ed->ids && ed->ids[0] == a->ids[0]) {
				a->name = ed->name;
				break;
			}
		}
	}
}

uint32_t xpf_reader_nr_attrs(const xpf_reader *r)
{
	return r->nr_attrs;
}

const struct xpf_attr *xpf_reader_attr(const xpf_reader *r, uint32_t idx)
{
	return idx < r->nr_attrs ? r->attrs[idx] : NULL;
}

const struct xpf_attr *xpf_reader_attr_of(const xpf_reader *r, const struct perf_event_header *hdr)
{
	const struct perf_event_attr *first;
	const struct xpf_attr *a;
	uint64_t id;

	if (!r->nr_attrs)
		return NULL;
	/* as perf's evlist__event2evsel */
	if (r->nr_attrs == 1)
		return r->attrs[0];
	first = &r->attrs[0]->attr;
	if (!first->sample_id_all && hdr->type != PERF_RECORD_SAMPLE)
		return r->attrs[0];
	if (xpf_record_id(first->sample_type, first->sample_id_all, hdr, &id))
		return NULL;
	if (!id) /* synthesized records carry id 0 */
		return r->attrs[0];
	a = xpf_reader_attr_by_id(r, id);
	return a;
}
