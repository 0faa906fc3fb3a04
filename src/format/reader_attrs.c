/* The reader's attrs: adding them (file section or HEADER_ATTR), the id -> attr map, names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "format/reader_int.h"

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	return xb_hash_u64(((const struct xpf_reader *)ctx)->ids[v - 1].id);
}

static bool id_eq(const void *ctx, uint32_t v, const void *id)
{
	return ((const struct xpf_reader *)ctx)->ids[v - 1].id == *(const uint64_t *)id;
}

/* The first attr to claim an id keeps it, as perf's hash lookup finds the first. */
static int ids_insert(struct xpf_reader *r, uint64_t id, uint32_t idx)
{
	uint32_t *slot;

	if (r->nr_ids == UINT32_MAX - 1 || xb_slots_reserve(&r->id_index, r->nr_ids + 1, hash_of, r))
		return -ENOMEM;
	slot = xb_slots_find(&r->id_index, xb_hash_u64(id), id_eq, r, &id);
	if (*slot)
		return 0;
	if (r->nr_ids == r->cap_ids &&
	    XB_ARRAY_RESERVE(r->ids, r->cap_ids, (size_t)r->nr_ids + 1, 64))
		return -ENOMEM;
	r->ids[r->nr_ids] = (struct id_entry){ id, idx };
	*slot = ++r->nr_ids;
	return 0;
}

const struct xpf_attr *xpf_reader_attr_by_id(const xpf_reader *r, uint64_t id)
{
	const uint32_t *slot;

	if (!r->nr_ids)
		return NULL;
	slot = xb_slots_find(&r->id_index, xb_hash_u64(id), id_eq, r, &id);
	return *slot ? r->attrs[r->ids[*slot - 1].attr_idx] : NULL;
}

int xpf_reader_add_attr(struct xpf_reader *r, const void *attr_bytes, uint32_t attr_bytes_size,
			const void *ids, uint64_t nr_ids, bool swap_ids, struct xb_error *err)
{
	struct xpf_attr *a;
	uint64_t *own_ids = NULL;
	uint32_t size;

	/* every count here is bounded by the input the caller already checked */
	if (r->nr_attrs == (1u << 20))
		return xb_error_set(err, -EINVAL, "%s: more than %u attrs", r->name, 1u << 20);
	if (r->nr_attrs == r->cap_attrs &&
	    XB_ARRAY_RESERVE(r->attrs, r->cap_attrs, (size_t)r->nr_attrs + 1, 8))
		return xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
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
	xb_slots_free(&r->id_index);
	r->attrs = NULL;
	r->ids = NULL;
	r->nr_attrs = r->cap_attrs = 0;
	r->nr_ids = r->cap_ids = 0;
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
