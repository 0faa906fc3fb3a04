/* The flame graph's tree: the profile's call paths with frames named and merged by name. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "view/flame.h"

void flame_free(struct flame *f)
{
	xpp_cg_free(f->t);
	xpp_intern_free(f->names);
	free(f->period);
	free(f->count);
	free(f->kind);
	free(f->dso);
	free(f->base);
	free(f->of_cg);
	memset(f, 0, sizeof(*f));
}

/* Node `id` of the flame tree exists in the per-node arrays. */
static int reserve(struct flame *f, uint32_t id)
{
	/* four arrays of one length: each grows the same way from the same capacity */
	uint32_t cp = f->cap, cc = f->cap, ck = f->cap, cd = f->cap;

	if (XB_ARRAY_RESERVE0(f->period, cp, (size_t)id + 1, 1024) ||
	    XB_ARRAY_RESERVE0(f->count, cc, (size_t)id + 1, 1024) ||
	    XB_ARRAY_RESERVE0(f->kind, ck, (size_t)id + 1, 1024) ||
	    XB_ARRAY_RESERVE0(f->dso, cd, (size_t)id + 1, 1024))
		return -ENOMEM;
	f->cap = cp;
	return 0;
}

/*
 * a + b, or UINT64_MAX where it would wrap: a damaged file's periods can add up past 2^64,
 * and a frame must never weigh less than one below it (nor the root less than the graph).
 */
static uint64_t sum(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* The child of `parent` named `name`, charged with period and count: its id or -errno. */
static int64_t add(struct flame *f, uint32_t parent, const char *name, enum flame_kind kind,
		   const char *dso, uint64_t period, uint64_t count)
{
	int64_t key = xpp_intern_id(f->names, name, strlen(name)), id;

	if (key < 0)
		return key;
	id = xpp_cg_child(f->t, parent, (uint32_t)key);
	if (id < 0 || reserve(f, (uint32_t)id) < 0)
		return -ENOMEM;
	f->period[id] = sum(f->period[id], period);
	f->count[id] = sum(f->count[id], count);
	f->kind[id] = (uint8_t)kind;
	f->dso[id] = dso;
	return id;
}

/* A frame's name, kind and object, as folded stacks name frames. */
static const char *frame_name(const xpp_profile *p, const struct xpp_hist_key *k, char *buf,
			      size_t size, enum flame_kind *kind, const char **dso)
{
	const char *s = xpp_profile_sym_name(p, k);

	*dso = k->dso == XPP_HIST_NO_DSO ? NULL : xpp_profile_dso_name(p, k);
	*kind = k->level == 'k' || k->level == 'g' ? FK_KERNEL : FK_USER;
	if (s)
		return s;
	*kind = FK_UNKNOWN;
	if (*dso) {
		snprintf(buf, size, "[%s]", *dso);
		return buf;
	}
	return "[unknown]";
}

/*
 * The call tree's nodes in id order (a node's parent always comes before it), each charged
 * with its own samples; then each box's totals, its children's added to it from the last
 * box up (a child's id is above its parent's here too). The call tree is read lean
 * (parent, key, self): its full nodes, 56 bytes each, were a third of the memory of a
 * graph of a million distinct paths (issue 20). The pass's trees hide no children.
 */
static int from_callgraph(struct flame *f, const xpp_profile *p, const xpp_callgraph *cg)
{
	uint32_t n = xpp_cg_nr_nodes(cg), nf;
	uint32_t *map = malloc((n ? n : 1) * sizeof(*map));
	const xpp_intern *comms = xpp_profile_comms(p);
	int ret = 0;

	if (!map)
		return -ENOMEM;
	map[0] = 0;
	for (uint32_t id = 1; id < n && ret == 0; id++) {
		uint32_t parent = xpp_cg_parent(cg, id), key = xpp_cg_key(cg, id);
		enum flame_kind kind = FK_COMM;
		const char *name, *dso = NULL;
		uint64_t period, count;
		char buf[256];
		int64_t m;

		if (!parent) {
			name = xpp_intern_str(comms, key);
			if (!name)
				name = "[unknown]";
		} else {
			struct xpp_hist_key k = xpp_profile_frame_key(p, 0, key);

			name = frame_name(p, &k, buf, sizeof(buf), &kind, &dso);
		}
		xpp_cg_self(cg, id, &period, &count);
		m = add(f, map[parent], name, kind, dso, period, count);
		if (m < 0)
			ret = (int)m;
		else
			map[id] = (uint32_t)m;
	}
	nf = xpp_cg_nr_nodes(f->t);
	for (uint32_t id = nf; ret == 0 && id-- > 1;) {
		uint32_t parent = xpp_cg_parent(f->t, id);

		f->period[parent] = sum(f->period[parent], f->period[id]);
		f->count[parent] = sum(f->count[parent], f->count[id]);
	}
	/* kept: views that walk the call tree find its boxes */
	f->of_cg = map;
	f->nr_of_cg = n;
	return ret;
}

/* A file without call chains: command, then the sample's own function. */
static int from_hist(struct flame *f, const xpp_profile *p, const xpp_hist *h)
{
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(h, &n);
	const xpp_intern *comms = xpp_profile_comms(p);

	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key k = xpp_hist_key_at(h, i);
		const char *comm = xpp_intern_str(comms, e[i].comm), *name, *dso;
		enum flame_kind kind;
		char buf[256];
		int64_t c, m;

		c = add(f, 0, comm ? comm : "[unknown]", FK_COMM, NULL, e[i].period, e[i].nr_samples);
		if (c < 0)
			return (int)c;
		name = frame_name(p, &k, buf, sizeof(buf), &kind, &dso);
		m = add(f, (uint32_t)c, name, kind, dso, e[i].period, e[i].nr_samples);
		if (m < 0)
			return (int)m;
	}
	return 0;
}

int flame_build(struct flame *f, const xpp_profile *p, const struct xpp_event *e)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->t = xpp_cg_create();
	f->names = xpp_intern_create();
	if (!f->t || !f->names || reserve(f, 0) < 0)
		return -ENOMEM;
	f->kind[0] = FK_ROOT;
	if (e->cg)
		return from_callgraph(f, p, e->cg);
	ret = e->h ? from_hist(f, p, e->h) : 0;
	if (ret < 0)
		return ret;
	/* the root: everything below it, filtered samples left out as the tree leaves them */
	for (uint32_t c = xpp_cg_node(f->t, 0)->first_child; c;
	     c = xpp_cg_node(f->t, c)->next_sibling) {
		f->period[0] = sum(f->period[0], f->period[c]);
		f->count[0] = sum(f->count[0], f->count[c]);
	}
	return 0;
}

int flame_set_baseline(struct flame *f, const struct flame *old)
{
	uint32_t n = xpp_cg_nr_nodes(old->t), nf;
	uint32_t *map = malloc((n ? n : 1) * sizeof(*map));
	double old_total = old->period[0] ? (double)old->period[0] : 1;
	double total = f->period[0] ? (double)f->period[0] : 1;
	int ret = 0;

	if (!map)
		return -ENOMEM;
	/* old's paths in f's tree (ids in order: a parent before its children) */
	map[0] = 0;
	for (uint32_t id = 1; id < n && ret == 0; id++) {
		const char *name = xpp_intern_str(old->names, xpp_cg_key(old->t, id));
		int64_t key = xpp_intern_id(f->names, name, strlen(name)), m;

		m = key < 0 ? key : xpp_cg_child(f->t, map[xpp_cg_parent(old->t, id)], (uint32_t)key);
		if (m < 0 || reserve(f, (uint32_t)m) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (!f->count[m] && !f->period[m]) { /* a path f lacks: never drawn, named alike */
			f->kind[m] = old->kind[id];
			f->dso[m] = NULL;
		}
		map[id] = (uint32_t)m;
	}
	nf = xpp_cg_nr_nodes(f->t);
	if (ret == 0 && !(f->base = calloc(nf ? nf : 1, sizeof(*f->base))))
		ret = -ENOMEM;
	for (uint32_t id = 0; id < n && ret == 0; id++)
		f->base[map[id]] = (double)old->period[id] / old_total;
	f->base_max = 0;
	for (uint32_t id = 0; id < nf && ret == 0; id++) {
		double d = (double)f->period[id] / total - f->base[id];

		if (f->period[id] && (d < 0 ? -d : d) > f->base_max)
			f->base_max = d < 0 ? -d : d;
	}
	free(map);
	return ret;
}

double flame_delta(const struct flame *f, uint32_t id)
{
	if (!f->base)
		return 0;
	return (f->period[0] ? (double)f->period[id] / (double)f->period[0] : 0) - f->base[id];
}
