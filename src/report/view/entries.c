/* An event's entries as perf lists them (children and self from the call tree, or flat) and each entry's chains. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "report/view/rv.h"

static unsigned int key_mask(const struct rv_ctx *c)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < c->nr_cols; i++)
		m |= c->cols[i];
	return m;
}

static struct xpp_hist_key collapse(const struct rv_ctx *c, uint32_t comm, uint32_t f,
				    unsigned int mask)
{
	struct xpp_hist_key k = rv_frame_key(c, comm, f);

	xpp_hist_key_mask(&k, mask);
	/* perf's entries of one unmapped address are one, whatever their level: the first
	 * shows its own (kept beside the key) */
	if (k.dso == XPP_HIST_NO_DSO)
		k.level = 0;
	return k;
}

/* The event's samples whose own entry is apart from their path (struct xpp_event's own). */
struct own {
	uint32_t node, frame;
	uint64_t period, count;
};

static int cmp_own(const void *pa, const void *pb)
{
	const struct own *a = pa, *b = pb;

	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return a->frame < b->frame ? -1 : a->frame > b->frame;
}

/* ev->own by node, in *out (n of them); 0 or -ENOMEM */
static int own_by_node(const struct xpp_event *ev, struct own **out, size_t *n)
{
	const struct xpp_hist_entry *e = ev->own ? xpp_hist_entries(ev->own, n) : NULL;

	if (!e)
		*n = 0;
	*out = malloc((*n + 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++)
		(*out)[i] = (struct own){ XPP_OWN_NODE(e[i].key.addr), XPP_OWN_FRAME(e[i].key.addr),
					  e[i].period, e[i].nr_samples };
	qsort(*out, *n, sizeof(**out), cmp_own);
	return 0;
}

/*
 * The paths of the event tree (nodes with samples of their own), frames into one pool:
 * a node's samples whose own entry is apart make a path each with that own entry (a
 * comm's too: their chain was empty), the rest one with the node's frame as their own.
 */
static int collect_paths(struct rv_entries *g)
{
	const xpp_callgraph *cg = g->ev->cg;
	uint32_t nr = xpp_cg_nr_nodes(cg);
	size_t pool = 0, at = 0, nown, j = 0;
	struct own *own;

	if (own_by_node(g->ev, &own, &nown))
		return -ENOMEM;
	for (uint32_t i = 1; i < nr; i++)
		if (xpp_cg_node(cg, i)->self_count) {
			g->nr_paths++;
			pool += xpp_cg_node(cg, i)->depth - 1;
		}
	for (size_t i = 0; i < nown; i++)
		pool += xpp_cg_node(cg, own[i].node)->depth - 1;
	g->paths = calloc(g->nr_paths + nown + 1, sizeof(*g->paths));
	g->frames = malloc((pool + 1) * sizeof(*g->frames));
	if (!g->paths || !g->frames)
		return free(own), -ENOMEM;
	g->nr_paths = 0;
	g->maxdepth = 1;
	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *n = xpp_cg_node(cg, i);
		uint64_t period = n->self_period, count = n->self_count;
		size_t j0 = j;

		for (; j < nown && own[j].node == i; j++)
			period -= own[j].period, count -= own[j].count;
		if (!n->self_count)
			continue;
		for (size_t o = j0; o <= j; o++) {
			struct rv_path *p = &g->paths[g->nr_paths];
			const struct xpp_cg_node *x = n;

			if (o < j) {
				p->own_self = true;
				p->self = own[o].frame;
				p->period = own[o].period;
				p->count = own[o].count;
			} else if (count && n->depth >= 2) {
				p->period = period;
				p->count = count;
			} else {
				continue;
			}
			g->nr_paths++;
			p->off = (uint32_t)at;
			p->len = n->depth - 1;
			at += p->len;
			if (p->len > g->maxdepth)
				g->maxdepth = p->len;
			for (uint32_t k = p->len; k-- > 0; x = xpp_cg_node(cg, x->parent))
				g->frames[p->off + k] = x->key;
			p->comm = x->key;
		}
	}
	free(own);
	return 0;
}

/* Growable per-entry arrays of aggregate(). */
struct agg {
	uint32_t *stamp, *slot;
	size_t cap, cap2, cap3, cap4, cap5, pcap;
};

/*
 * Path p meets entry k at frame i (f): one pair per (entry, path); `leaf`: the sample's own
 * (i == len: its own entry apart from the frames, which moves no pair's last frame).
 */
static int meet(struct rv_entries *g, struct agg *a, uint32_t p, uint32_t i, uint32_t f,
		const struct xpp_hist_key *k, bool leaf)
{
	const struct rv_path *pa = &g->paths[p];
	int64_t id = xpp_hist_add_id(g->h, k, 0, 0);
	size_t n;

	if (id < 0 || XB_ARRAY_RESERVE0(a->stamp, a->cap, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(a->slot, a->cap2, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(g->self, a->cap3, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(g->self_count, a->cap4, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(g->level, a->cap5, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(g->pairs, a->pcap, g->nr_pairs + 1, 256))
		return -ENOMEM;
	if (!g->level[id])
		g->level[id] = (uint8_t)rv_frame_key(g->c, 0, f).level;
	if (a->stamp[id] != p + 1) {
		struct xpp_hist_entry *e = &xpp_hist_entries(g->h, &n)[id];

		a->stamp[id] = p + 1;
		a->slot[id] = (uint32_t)g->nr_pairs;
		g->pairs[g->nr_pairs++] = (struct rv_pair){ (uint32_t)id, p, i, i, false };
		e->period += pa->period;
		e->nr_samples += pa->count;
	} else if (i < pa->len) {
		g->pairs[a->slot[id]].last = i;
	}
	if (leaf) {
		g->pairs[a->slot[id]].leaf = true;
		g->self[id] += pa->period;
		g->self_count[id] += pa->count;
	}
	return 0;
}

/*
 * Children and self per entry; every (entry, path) meeting as a pair. A sample's own entry
 * is its ip's host frame, under the functions inlined there (perf charges self time to the
 * symbol); with source lines it has the line of the ip itself, the innermost frame's, where
 * its frame as a caller of the inlined code has the line of the call. A path whose own
 * entry is apart (own_self) charges it there, as perf adds its sample's entry first, with
 * the whole chain, and does not count it again where the chain meets it.
 */
static int aggregate(struct rv_entries *g)
{
	unsigned int mask = key_mask(g->c);
	bool inlines = xpp_profile_inlines(g->c->p);
	struct agg a = { 0 };
	int ret = -ENOMEM;

	g->h = xpp_hist_create();
	if (!g->h)
		return -ENOMEM;
	for (uint32_t p = 0; p < g->nr_paths; p++) {
		const struct rv_path *pa = &g->paths[p];
		const uint32_t *f = g->frames + pa->off;
		uint32_t self_i = pa->own_self ? UINT32_MAX : pa->len - 1;

		while (inlines && !pa->own_self && self_i > 0 &&
		       rv_frame_key(g->c, 0, f[self_i]).inl)
			self_i--;
		for (uint32_t i = 0; i < pa->len; i++) {
			struct xpp_hist_key k = collapse(g->c, pa->comm, f[i], mask), sk;

			if (i == self_i && self_i + 1 < pa->len && (mask & XPP_HIST_KEY_SRCLINE)) {
				sk = k;
				sk.srcline = collapse(g->c, pa->comm, f[pa->len - 1], mask).srcline;
				if (sk.srcline != k.srcline) {
					if (meet(g, &a, p, i, f[i], &k, false) ||
					    meet(g, &a, p, i, f[i], &sk, true))
						goto out;
					continue;
				}
			}
			if (meet(g, &a, p, i, f[i], &k, i == self_i))
				goto out;
		}
		if (pa->own_self) {
			struct xpp_hist_key k = collapse(g->c, pa->comm, pa->self, mask);

			if (meet(g, &a, p, pa->len, pa->self, &k, true))
				goto out;
		}
	}
	ret = 0;
out:
	free(a.stamp);
	free(a.slot);
	return ret;
}

/* pairs grouped by entry (a counting sort), so one entry's chains are one run */
static int group_pairs(struct rv_entries *g)
{
	size_t nr;

	xpp_hist_entries(g->h, &nr);
	g->pair_off = calloc(nr + 2, sizeof(*g->pair_off));
	g->order = malloc((g->nr_pairs + 1) * sizeof(*g->order));
	if (!g->pair_off || !g->order)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_pairs; i++)
		g->pair_off[g->pairs[i].entry + 2]++;
	for (size_t e = 2; e < nr + 2; e++)
		g->pair_off[e] += g->pair_off[e - 1];
	for (size_t i = 0; i < g->nr_pairs; i++)
		g->order[g->pair_off[g->pairs[i].entry + 1]++] = (uint32_t)i;
	return 0;
}

static bool dso_shown(const struct rv_entries *g, const struct xpp_hist_key *k)
{
	const struct xpp_name_list *f = g->c->dso_filter;
	const char *name = rv_dso_name(g->c, k);

	for (uint32_t i = 0; i < f->nr; i++)
		if (!strcmp(f->names[i], name))
			return true;
	return !f->nr;
}

struct row_sort {
	const struct rv_entries *g;
	struct rv_cols v;
};

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct row_sort *rs = arg;
	const struct rv_entries *g = rs->g;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	size_t n;
	const struct xpp_hist_entry *e = xpp_hist_entries(g->h, &n);
	uint64_t va = g->c->children ? e[a].period : g->self[a];
	uint64_t vb = g->c->children ? e[b].period : g->self[b];

	if (va != vb)
		return va > vb ? -1 : 1;
	if (g->self[a] != g->self[b])
		return g->self[a] > g->self[b] ? -1 : 1;
	/* perf's collapsed order: symbols of one DSO by start address, highest first */
	if (e[a].key.comm == e[b].key.comm && e[a].key.dso == e[b].key.dso &&
	    e[a].key.sym >= 0 && e[b].key.sym >= 0 && e[a].key.dso != XPP_HIST_NO_DSO) {
		const struct xpp_dso *d = xpp_dso_table_get(g->c->dsos, e[a].key.dso);
		uint64_t sa = d->syms.syms[e[a].key.sym].start, sb = d->syms.syms[e[b].key.sym].start;

		if (sa != sb)
			return sa > sb ? -1 : 1;
	}
	/* and, with graphs, addresses without a symbol in one DSO highest first (perf's
	 * _sort__addr_cmp orders its collapsed entries so; -g none keeps them lowest first) */
	if (g->c->cg.mode != CG_NONE && e[a].key.comm == e[b].key.comm &&
	    e[a].key.dso == e[b].key.dso && e[a].key.dso != XPP_HIST_NO_DSO &&
	    e[a].key.sym < 0 && e[b].key.sym < 0 && e[a].key.addr != e[b].key.addr)
		return e[a].key.addr > e[b].key.addr ? -1 : 1;
	return rv_cmp_keys(&e[a].key, &e[b].key, &rs->v);
}

/* The flat view's order: overhead, then the columns' text. */
static int cmp_flat(const void *pa, const void *pb, void *arg)
{
	const struct row_sort *rs = arg;
	size_t n;
	const struct xpp_hist_entry *e = xpp_hist_entries(rs->g->h, &n);
	const struct xpp_hist_entry *a = &e[*(const uint32_t *)pa], *b = &e[*(const uint32_t *)pb];

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return rv_cmp_keys(&a->key, &b->key, &rs->v);
}

static int build_flat(struct rv_entries *g)
{
	unsigned int mask = key_mask(g->c);
	struct xpp_hist_entry *e;
	size_t n;

	g->h = xpp_hist_collapse(g->ev->h, mask);
	if (!g->h)
		return -ENOMEM;
	e = xpp_hist_entries(g->h, &n);
	g->self = malloc((n + 1) * sizeof(*g->self));
	g->self_count = malloc((n + 1) * sizeof(*g->self_count));
	g->level = malloc(n + 1);
	g->rows = malloc((n + 1) * sizeof(*g->rows));
	if (!g->self || !g->self_count || !g->level || !g->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		g->self[i] = e[i].period;
		g->self_count[i] = e[i].nr_samples;
		g->level[i] = (uint8_t)e[i].key.level;
		g->rows[g->nr_rows++] = (uint32_t)i;
	}
	return 0;
}

static int select_rows(struct rv_entries *g)
{
	size_t n;
	struct xpp_hist_entry *e = xpp_hist_entries(g->h, &n);

	g->rows = malloc((n + 1) * sizeof(*g->rows));
	if (!g->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if ((!g->c->children && !g->self[i]) || !dso_shown(g, &e[i].key))
			continue;
		g->rows[g->nr_rows++] = (uint32_t)i;
	}
	return 0;
}

bool rv_event_chains(const struct rv_ctx *c, uint32_t idx)
{
	return c->callchains && c->ev[idx].cg && (c->children || c->cg.mode != CG_NONE);
}

int rv_entries_build(struct rv_entries *g, const struct rv_ctx *c, uint32_t idx)
{
	struct row_sort rs = { g };
	int ret;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->ev = &c->ev[idx];
	g->chains = rv_event_chains(c, idx);
	/* perf's min_callchain_hits: a u64 from the double */
	g->min_hit = (uint64_t)((double)g->ev->total_period * (c->cg.threshold / 100.0));
	if (!g->chains) {
		ret = build_flat(g);
	} else {
		ret = collect_paths(g);
		if (!ret)
			ret = aggregate(g);
		if (!ret)
			ret = group_pairs(g);
		if (!ret)
			ret = select_rows(g);
	}
	if (ret < 0) {
		rv_entries_free(g);
		return ret;
	}
	rv_cols_init(&rs.v, c);
	qsort_r(g->rows, g->nr_rows, sizeof(*g->rows), g->chains ? cmp_rows : cmp_flat, &rs);
	return 0;
}

void rv_entries_free(struct rv_entries *g)
{
	xpp_hist_free(g->h);
	free(g->self);
	free(g->self_count);
	free(g->level);
	free(g->rows);
	free(g->paths);
	free(g->frames);
	free(g->pairs);
	free(g->pair_off);
	free(g->order);
	xpp_hist_free(g->chain_keys);
	free(g->chain_rep);
	free(g->frame_rep);
	memset(g, 0, sizeof(*g));
}

struct xpp_hist_key rv_entry_key(const struct rv_entries *g, uint32_t e)
{
	size_t n;
	struct xpp_hist_key k = xpp_hist_entries(g->h, &n)[e].key;

	k.level = g->level[e];
	return k;
}

uint64_t rv_entry_period(const struct rv_entries *g, uint32_t e)
{
	size_t n;

	return g->c->children ? xpp_hist_entries(g->h, &n)[e].period : g->self[e];
}

/*
 * The frame that stands for f in chains: perf's chains tell frames apart by function (with
 * -g srcline, by source line too), while frames differ by source line whenever the sort
 * keys have it, so frames equal but for that are one in a chain.
 */
static int64_t chain_frame(struct rv_entries *g, uint32_t f)
{
	struct xpp_hist_key k;
	int64_t id;

	if (!xpp_profile_srclines(g->c->p))
		return f; /* frames are what chains compare */
	if (f < g->frame_cap && g->frame_rep[f])
		return g->frame_rep[f] - 1;
	k = rv_frame_key(g->c, 0, f);
	if (!g->c->cg.srcline)
		k.srcline = 0;
	else if (k.srcline & XPP_SRCLINE_FALLBACK)
		k.srcline = XPP_SRCLINE_FALLBACK; /* "??:0", whatever stood in for the line */
	if ((!g->chain_keys && !(g->chain_keys = xpp_hist_create())) ||
	    (id = xpp_hist_add_id(g->chain_keys, &k, 0, 0)) < 0 ||
	    XB_ARRAY_RESERVE0(g->chain_rep, g->rep_cap, (size_t)id + 1, 256) ||
	    XB_ARRAY_RESERVE0(g->frame_rep, g->frame_cap, (size_t)f + 1, 256))
		return -ENOMEM;
	if (!g->chain_rep[id])
		g->chain_rep[id] = f + 1;
	g->frame_rep[f] = g->chain_rep[id];
	return g->chain_rep[id] - 1;
}

int rv_entry_chains(struct rv_entries *g, uint32_t e, xpp_callgraph *t, uint32_t *seq)
{
	bool caller = g->c->cg.order != 0;

	xpp_cg_reset(t);
	if (!g->chains)
		return 0;
	for (size_t j = g->pair_off[e]; j < g->pair_off[e + 1]; j++) {
		const struct rv_pair *pr = &g->pairs[g->order[j]];
		const struct rv_path *pa = &g->paths[pr->path];
		const uint32_t *f = g->frames + pa->off;
		uint32_t n = 0, from;

		if (!g->c->children && !pr->leaf)
			continue;
		/* a leaf keeps its whole chain: perf's self entry holds the full callchain */
		if (caller) {
			from = pr->leaf ? 0 : pr->first;
			for (uint32_t i = from; i < pa->len; i++)
				seq[n++] = f[i];
		} else {
			from = pr->leaf ? pa->len - 1 : pr->last;
			for (uint32_t i = from + 1; i-- > 0;)
				seq[n++] = f[i];
		}
		for (uint32_t i = 0; i < n; i++) {
			int64_t r = chain_frame(g, seq[i]);

			if (r < 0)
				return (int)r;
			seq[i] = (uint32_t)r;
		}
		if (xpp_cg_add_path(t, seq, n, pa->period, pa->count) < 0)
			return -ENOMEM;
	}
	return 0;
}

struct kid_sort {
	const struct rv_entries *g;
	const xpp_callgraph *t;
};

static int cmp_kids(const void *pa, const void *pb, void *arg)
{
	const struct kid_sort *ks = arg;
	const struct xpp_cg_node *a = xpp_cg_node(ks->t, *(const uint32_t *)pa);
	const struct xpp_cg_node *b = xpp_cg_node(ks->t, *(const uint32_t *)pb);
	char ba[64], bb[64];

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	/* perf's ties keep its child order: names in descending order */
	return strcmp(rv_frame_name(ks->g->c, b->key, bb, sizeof(bb)),
		      rv_frame_name(ks->g->c, a->key, ba, sizeof(ba)));
}

uint32_t *rv_chain_kids(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			uint32_t *nr)
{
	struct kid_sort ks = { g, t };
	uint32_t n = 0, *k;

	for (uint32_t c = xpp_cg_node(t, id)->first_child; c; c = xpp_cg_node(t, c)->next_sibling)
		n++;
	k = malloc((n + 1) * sizeof(*k));
	*nr = 0;
	if (!k)
		return NULL;
	for (uint32_t c = xpp_cg_node(t, id)->first_child; c; c = xpp_cg_node(t, c)->next_sibling)
		if (xpp_cg_node(t, c)->period >= g->min_hit)
			k[(*nr)++] = c;
	qsort_r(k, *nr, sizeof(*k), cmp_kids, &ks);
	return k;
}

uint32_t rv_chain_run_end(const xpp_callgraph *t, uint32_t id)
{
	const struct xpp_cg_node *n = xpp_cg_node(t, id);

	while (!n->self_count && n->first_child && !xpp_cg_node(t, n->first_child)->next_sibling) {
		id = n->first_child;
		n = xpp_cg_node(t, id);
	}
	return id;
}
