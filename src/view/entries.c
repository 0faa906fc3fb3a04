/* An event's entries as perf lists them (children and self from the call tree, or flat) and each entry's chains. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/values.h"
#include "view/rv.h"

static unsigned int key_mask(const struct rv_ctx *c)
{
	return rv_key_fields(c);
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

/*
 * collapse()'s key of frame f of a path of comm, in g->fkey: loaded in place, its values
 * written only where some are set (a view of unresolved addresses makes a million keys, a
 * seventh of making its entries was writing their 176 bytes of zero values).
 */
static const struct xpp_hist_key *frame_key(struct rv_entries *g, uint32_t comm, uint32_t f)
{
	struct xpp_hist_key *k = &g->fkey;

	g->fkey_vals = xpp_profile_frame_key_load(g->c->p, comm, f, k, g->fkey_vals);
	/* (values not set need no masking: their bits kept, the mask leaves them be) */
	xpp_hist_key_mask(k, key_mask(g->c) | (g->fkey_vals ? 0 : ~0xffu));
	if (k->dso == XPP_HIST_NO_DSO)
		k->level = 0; /* as collapse() */
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
	const struct xpp_hist_rec *e = ev->own ? xpp_hist_recs(ev->own, n) : NULL;

	if (!e)
		*n = 0;
	*out = malloc((*n + 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++)
		(*out)[i] = (struct own){ XPP_OWN_NODE(e[i].addr), XPP_OWN_FRAME(e[i].addr),
					  e[i].period, e[i].nr_samples };
	qsort(*out, *n, sizeof(**out), cmp_own);
	return 0;
}

/*
 * The paths of the event tree, from its nodes with samples of their own: a node's samples
 * whose own entry is apart make a path each with that own entry (a comm's too: their chain
 * was empty), the rest one with the node's frame as their own.
 */
static int collect_paths(struct rv_entries *g)
{
	const xpp_callgraph *cg = g->ev->cg;
	uint32_t nr = xpp_cg_nr_nodes(cg), cap = 0;
	size_t nown, j = 0;
	struct own *own;

	if (own_by_node(g->ev, &own, &nown))
		return -ENOMEM;
	g->maxdepth = 1;
	for (uint32_t i = 1; i < nr; i++)
		cap += xpp_cg_self(cg, i, NULL, NULL);
	g->paths = malloc((cap + nown + 1) * sizeof(*g->paths));
	if (!g->paths)
		return free(own), -ENOMEM;
	for (uint32_t i = 1; i < nr; i++) {
		uint64_t period, count;
		uint32_t depth = 0; /* frames below the comm */
		size_t j0 = j;

		if (!xpp_cg_self(cg, i, &period, &count))
			continue;
		for (; j < nown && own[j].node == i; j++)
			period -= own[j].period, count -= own[j].count;
		for (uint32_t n = i; xpp_cg_parent(cg, n); n = xpp_cg_parent(cg, n))
			depth++;
		if (depth > g->maxdepth)
			g->maxdepth = depth;
		for (size_t o = j0; o <= j; o++) {
			struct rv_path *p = &g->paths[g->nr_paths];

			if (o < j)
				*p = (struct rv_path){ i, 0, own[o].frame, own[o].period, own[o].count };
			else if (count && xpp_cg_parent(cg, i))
				*p = (struct rv_path){ i, 0, UINT32_MAX, period, count };
			else
				continue;
			g->nr_paths++;
			g->nr_keys += depth + 1; /* the comm's too */
		}
	}
	free(own);
	return 0;
}

const uint32_t *rv_path_frames(const struct rv_entries *g, uint32_t p, uint32_t *buf,
			       uint32_t *n, uint32_t *comm)
{
	uint32_t d;

	if (p < g->nr_pkeys) {
		buf = g->pkeys + g->pkey_off[p];
		d = g->pkey_off[p + 1] - g->pkey_off[p];
	} else {
		d = xpp_cg_path(g->ev->cg, g->paths[p].node, buf, g->maxdepth + 1);
	}
	*comm = d ? buf[0] : 0;
	*n = d ? d - 1 : 0;
	return buf + 1;
}

static bool wants(const struct rv_ctx *c, unsigned int col);

/* Room for need elements in *a, doubling; the new ones zeroed when `zero`. */
static int grow(void **a, size_t *cap, size_t need, size_t size, bool zero)
{
	size_t n = *cap ? *cap : 256;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*a, n * size);
	if (!p)
		return -ENOMEM;
	if (zero)
		memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*a = p;
	*cap = n;
	return 0;
}

/*
 * The entry of key k (first met at frame f), made if new with its per-entry counters: a
 * new one without a lookup where k is known to be new (`fresh`, see g->fresh).
 */
static int64_t entry_of_key(struct rv_entries *g, const struct xpp_hist_key *k, uint32_t f,
			    bool fresh)
{
	size_t nr;
	int64_t id = fresh ? xpp_hist_append(g->h, k) : xpp_hist_add_id(g->h, k, 0, 0);

	if (id < 0)
		return id;
	nr = xpp_hist_nr(g->h);
	if (nr > g->cap_entries) {
		size_t c1 = g->cap_entries, c2 = c1, c3 = c1, c4 = c1;

		size_t c5 = c1, c7 = c1, c8 = c1;

		/* not zeroed ahead: a page of them is resident once an entry is there */
		if (grow((void **)&g->self, &c1, nr, sizeof(*g->self), false) ||
		    grow((void **)&g->self_count, &c2, nr, sizeof(*g->self_count), false) ||
		    grow((void **)&g->level, &c3, nr, sizeof(*g->level), false) ||
		    grow((void **)&g->stamp, &c4, nr, sizeof(*g->stamp), false) ||
		    (g->c->children && g->c->cg.mode != CG_NONE &&
		     (grow((void **)&g->depth, &c5, nr, sizeof(*g->depth), false) ||
		      grow((void **)&g->first_path, &c7, nr, sizeof(*g->first_path), false) ||
		      grow((void **)&g->first_pos, &c8, nr, sizeof(*g->first_pos), false))))
			return -ENOMEM;
		g->cap_entries = c1;
	}
	for (; g->nr_zeroed < nr; g->nr_zeroed++) { /* a new entry (one at most) */
		size_t i = g->nr_zeroed;

		g->self[i] = g->self_count[i] = 0;
		g->level[i] = 0;
		g->stamp[i] = 0;
		if (g->depth)
			g->depth[i] = g->first_path[i] = g->first_pos[i] = 0;
	}
	/*
	 * perf's entry keeps the level of the sample that made it (an unmapped address met
	 * by a kernel and a user sample of one command shows the first one's). Paths come
	 * in the order of their nodes, each made by the first sample down it, so the first
	 * path to meet an entry holds the first sample that did: its frame's level is it.
	 * (Frame ids will not do: they count first meetings in any command.)
	 */
	if (!g->level[id])
		g->level[id] = (uint8_t)xpp_profile_frame_rec(g->c->p, f)->level;
	return id;
}

/* entry_of() where dense has no answer: another command's frame, or one not met yet. */
static __attribute__((noinline)) int64_t entry_of_new(struct rv_entries *g, uint32_t comm,
						       uint32_t f)
{
	struct rv_entry_map *m = &g->map;
	uint64_t key = ((uint64_t)comm << 32 | f) + 1;
	uint32_t s;

	/* the first command's frames (often all there are) by frame id, a load each */
	if (!g->dense_cap && !g->map.nr)
		g->dense_comm = comm;
	if (comm == g->dense_comm) {
		if (f < g->dense_cap && g->dense[f])
			return g->dense[f] - 1;
		if (XB_ARRAY_RESERVE0(g->dense, g->dense_cap, (size_t)f + 1, 1024))
			return -ENOMEM;
		int64_t id = entry_of_key(g, frame_key(g, comm, f), f, g->fresh);

		if (id >= 0)
			g->dense[f] = (uint32_t)id + 1;
		return id;
	}
	if ((m->nr + 1) * 2 > m->nslots) {
		uint32_t n = m->nslots ? m->nslots * 2 : 1024;
		uint64_t *nk = calloc(n, sizeof(*nk));
		uint32_t *ne = malloc(n * sizeof(*ne));

		if (!nk || !ne)
			return free(nk), free(ne), -ENOMEM;
		for (uint32_t i = 0; i < m->nslots; i++) {
			if (!m->key[i])
				continue;
			for (s = (uint32_t)((m->key[i] * 0x9e3779b97f4a7c15ULL) >> 32) & (n - 1);
			     nk[s]; s = (s + 1) & (n - 1))
				;
			nk[s] = m->key[i];
			ne[s] = m->entry[i];
		}
		free(m->key);
		free(m->entry);
		m->key = nk;
		m->entry = ne;
		m->nslots = n;
	}
	for (s = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (m->nslots - 1); m->key[s];
	     s = (s + 1) & (m->nslots - 1))
		if (m->key[s] == key)
			return m->entry[s];
	int64_t id;

	g->fresh = false; /* another command's key may be one of dense_comm's */
	id = entry_of_key(g, frame_key(g, comm, f), f, false);
	if (id < 0)
		return id;
	m->key[s] = key;
	m->entry[s] = (uint32_t)id;
	m->nr++;
	return id;
}

/*
 * The entry frame f of a path of comm falls in (the entry map caches the answer): a load
 * where dense has it, inline (every printed entry's graph asks for each frame of each of
 * its paths: 100M times for the bench's 1M distinct paths, a call each was 5%)
 */
static inline int64_t entry_of(struct rv_entries *g, uint32_t comm, uint32_t f)
{
	if (comm == g->dense_comm && f < g->dense_cap && g->dense[f])
		return g->dense[f] - 1;
	return entry_of_new(g, comm, f);
}

/*
 * Where a path's own entry is among its frames f[0..n): its ip's host frame, under the
 * functions inlined there (perf charges self time to the symbol).
 */
static uint32_t self_index(const struct rv_entries *g, const uint32_t *f, uint32_t n)
{
	uint32_t i = n - 1;

	while (xpp_profile_inlines(g->c->p) && i > 0 && xpp_profile_frame_rec(g->c->p, f[i])->inl)
		i--;
	return i;
}

/*
 * The entry a path's self time goes to: its host frame's (self_index()); with source lines,
 * with the line of the ip itself, the innermost frame's, where its frame as a caller of the
 * inlined code has the line of the call; its own entry's when apart (self).
 */
static int64_t self_entry(struct rv_entries *g, const uint32_t *f, uint32_t n, uint32_t comm,
			  uint32_t self)
{
	unsigned int mask = key_mask(g->c);
	uint32_t i;

	if (self != UINT32_MAX)
		return entry_of(g, comm, self);
	i = self_index(g, f, n);
	if (i + 1 < n && (mask & XPP_HIST_KEY_SRCLINE)) {
		struct xpp_hist_key k = collapse(g->c, comm, f[i], mask), sk = k;

		sk.srcline = collapse(g->c, comm, f[n - 1], mask).srcline;
		if (sk.srcline != k.srcline) {
			g->fresh = false; /* not a frame's key: it may be one */
			return entry_of_key(g, &sk, f[i], false);
		}
	}
	return entry_of(g, comm, f[i]);
}

/* Whether path a's first sample came before path b's (in perf's order of samples). */
static bool first_before(const struct rv_entries *g, uint32_t a, uint32_t b)
{
	uint64_t oa, ob;

	xpp_cg_self_tag(g->ev->cg, g->paths[a].node, &oa);
	xpp_cg_self_tag(g->ev->cg, g->paths[b].node, &ob);
	return oa < ob;
}

/* The thread of entry e's first sample (0 unknown). */
static uint32_t entry_thread(const struct rv_entries *g, uint32_t e)
{
	return g->first_path[e] ? xpp_cg_self_tag(g->ev->cg, g->paths[g->first_path[e] - 1].node,
						  NULL) : 0;
}

/*
 * The level perf gives each entry path p makes, in g->pathlev[0..n] (its own last): its
 * sample's level for its own, then each frame's as perf's cursor meets them (outermost
 * first in caller order): a mapped frame's from its map, an unmapped one the level before
 * it (perf's fill_callchain_info() leaves it as it was), the sample's for the first.
 */
static void cursor_levels(struct rv_entries *g, uint32_t p, const uint32_t *f, uint32_t n)
{
	uint32_t own = g->paths[p].own != UINT32_MAX ? g->paths[p].own :
		       n ? f[self_index(g, f, n)] : UINT32_MAX;
	uint8_t cur = own == UINT32_MAX ? '.' :
		      (uint8_t)xpp_profile_frame_rec(g->c->p, own)->level;
	bool caller = g->c->cg.order != 0;

	/* (a frame's dso and level as the profile holds them: no key made for two fields) */
	g->pathlev[n] = cur;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = caller ? j : n - 1 - j;
		const struct xpp_hist_rec *r = xpp_profile_frame_rec(g->c->p, f[i]);

		if (r->dso != XPP_HIST_NO_DSO)
			cur = (uint8_t)r->level;
		g->pathlev[i] = cur;
	}
}

/*
 * Path p's entries (frames f[0..n), then its own), each once, into g->fentry: how many.
 * Its own entry alone where the view shows self time only (g->self_only).
 */
static int path_entries(struct rv_entries *g, uint32_t p, const uint32_t *f, uint32_t n,
			uint32_t comm, uint32_t tag)
{
	uint32_t m = 0;

	if (g->depth && tag == p + 1)
		cursor_levels(g, p, f, n);
	for (uint32_t i = g->self_only ? n : 0; i <= n; i++) {
		int64_t e = i < n ? entry_of(g, comm, f[i]) : g->paths[p].self_entry;

		if (e < 0)
			return (int)e;
		if (g->depth && tag == p + 1) {
			/* perf's callchain max_depth of the entry (see cmp_rows()): its own
			 * entry holds the whole chain, another its cursor from its own node
			 * on in the order perf walks it (callchain_cursor_snapshot()): the
			 * frame itself and those past it */
			uint32_t d = i == n || e == g->paths[p].self_entry ? n :
				     g->c->cg.order != 0 ? n - i : i + 1;

			bool first = !g->first_path[e] || first_before(g, p, g->first_path[e] - 1);

			if (d > g->depth[e])
				g->depth[e] = d;
			/* where perf's cursor meets the frame: after the sample's own entry */
			uint32_t pos = i == n ? 0 : g->c->cg.order != 0 ? i + 1 : n - i;

			if (first)
				g->first_path[e] = p + 1;
			if (g->first_path[e] == p + 1 && (first || pos < g->first_pos[e])) {
				g->first_pos[e] = pos;
				g->level[e] = g->pathlev[i];
			}
		}
		if (g->stamp[e] == tag)
			continue;
		g->stamp[e] = tag;
		g->fentry[m++] = (uint32_t)e;
	}
	return (int)m;
}

/*
 * Children and self per entry, and the paths that meet each entry, once a path however
 * often it meets it: perf adds a sample's own entry first, with the whole chain, and does
 * not count it again where the chain meets it. Two walks over the paths, so that nothing
 * per (entry, path) is kept but the path's index.
 */
static int aggregate(struct rv_entries *g)
{
	size_t nr, cap = 0;
	uint32_t *npaths = NULL;
	int ret = -ENOMEM;
	bool each = false;
	/* the paths of each entry make its graph: with -g none there is none to make */
	bool pairs = g->c->cg.mode != CG_NONE;

	for (unsigned int i = 0; i < g->c->nr_cols; i++)
		each |= rv_keys[g->c->cols[i]].children_each;
	/*
	 * Without children an entry is shown for its self time and its chains are those of
	 * the paths it ends: only the paths' own entries are made (as perf makes entries of
	 * the samples' own ips only), not one per frame (issue 20: 1.1M entries where 100k
	 * are shown). A -F or -s of the children's column needs them all.
	 */
	g->self_only = !g->c->children && !wants(g->c, RV_OUT_CHILDREN);
	for (unsigned int i = 0; g->self_only && i < g->c->nr_sort; i++)
		g->self_only = g->c->sort[i] != RV_OUT_CHILDREN;
	each &= !g->self_only;
	/*
	 * Where distinct frames are distinct entries, the first command's frames make new
	 * entries without a lookup until another kind of key comes (entry_of()): a profile
	 * of unresolved addresses has a million, each a cache miss in a growing table
	 */
	g->fresh = xpp_profile_frames_apart(g->c->p, key_mask(g->c));
	g->h = xpp_hist_create();
	g->pathbuf = malloc((g->maxdepth + 2) * sizeof(*g->pathbuf));
	g->fentry = malloc((g->maxdepth + 2) * sizeof(*g->fentry));
	g->pathlev = malloc(g->maxdepth + 2);
	if (!g->h || !g->pathbuf || !g->fentry || !g->pathlev)
		return -ENOMEM;
	/*
	 * With graphs, each path is read again by every entry it meets (the children view's
	 * graphs) and once more below: its keys are kept as read now, 4 bytes a key, rather
	 * than walked up the tree each time (unless their offsets would not fit 32 bits)
	 */
	if (pairs && g->nr_keys + g->maxdepth + 1 <= UINT32_MAX) {
		g->pkeys = malloc((g->nr_keys + g->maxdepth + 1) * sizeof(*g->pkeys));
		g->pkey_off = malloc(((size_t)g->nr_paths + 1) * sizeof(*g->pkey_off));
		if (!g->pkeys || !g->pkey_off)
			return -ENOMEM;
		g->pkey_off[0] = 0;
	}
	for (uint32_t p = 0; p < g->nr_paths; p++) {
		struct rv_path *pa = &g->paths[p];
		uint32_t comm, n, self = pa->own;
		const uint32_t *f;

		/* read into pkeys, where the next reads find it (room for the longest left) */
		if (g->pkeys && g->nr_pkeys == p && g->pkey_off[p] <= g->nr_keys) {
			uint32_t d = xpp_cg_path(g->ev->cg, pa->node, g->pkeys + g->pkey_off[p],
						 g->maxdepth + 1);

			g->pkey_off[p + 1] = g->pkey_off[p] + d;
			g->nr_pkeys = p + 1;
		}
		f = rv_path_frames(g, p, g->pathbuf, &n, &comm);
		/* entries are made in the order the path meets them (the view's ties keep it):
		 * its own entry after its host frame's, or after all frames when apart */
		uint32_t si = self == UINT32_MAX && n ? self_index(g, f, n) : n;
		int64_t se = 0, fe = 0;
		int m;

		for (uint32_t i = g->self_only ? si : 0; i < n && fe >= 0 && se >= 0; i++) {
			if (!g->self_only)
				fe = entry_of(g, comm, f[i]);
			if (fe >= 0 && i == si)
				se = self_entry(g, f, n, comm, self);
		}
		if (fe >= 0 && se >= 0 && si == n)
			se = self_entry(g, f, n, comm, self);
		if (fe < 0 || se < 0)
			goto out;
		pa->self_entry = (uint32_t)se;
		m = path_entries(g, p, f, n, comm, p + 1);
		if (m < 0)
			goto out;
		nr = xpp_hist_nr(g->h);
		if (pairs && grow((void **)&npaths, &cap, nr, sizeof(*npaths), true))
			goto out;
		for (int i = 0; i < m; i++) {
			struct xpp_hist_rec *he = &xpp_hist_recs(g->h, &nr)[g->fentry[i]];

			he->period += pa->period;
			he->nr_samples += pa->count;
			if (pairs)
				npaths[g->fentry[i]]++;
		}
		/* a key perf's children count once per frame: the frames' repeats too */
		for (uint32_t i = 0; each && i <= n; i++) {
			int64_t e = i < n ? entry_of(g, comm, f[i]) : pa->self_entry;
			struct xpp_hist_rec *he;

			if (e < 0)
				goto out;
			he = &xpp_hist_recs(g->h, &nr)[e];
			if (g->stamp[e] == p + 1 + g->nr_paths * 2) {
				he->period += pa->period;
				he->nr_samples += pa->count;
			}
			g->stamp[e] = p + 1 + g->nr_paths * 2;
		}
		g->self[se] += pa->period;
		g->self_count[se] += pa->count;
	}
	/*
	 * Every entry is made, and every frame of the paths has found its own (the entry
	 * map keeps them): the index of keys goes now, not after the sort (a fifth of an
	 * entry's bytes, 168 MB for 11M entries), unless -F's or -v's columns look entries
	 * up by key (mode_periods(), entry_addrs())
	 */
	g->fresh = false; /* (any entry made later is looked up) */
	if (!g->c->nr_fields && !g->c->o->verbose)
		xpp_hist_freeze(g->h);
	if (!pairs) {
		ret = 0;
		goto out;
	}
	/* the paths grouped by entry (a counting sort) */
	nr = xpp_hist_nr(g->h);
	g->pair_off = calloc(nr + 1, sizeof(*g->pair_off));
	if (!g->pair_off)
		goto out;
	for (size_t e = 0; e < nr; e++)
		g->pair_off[e + 1] = g->pair_off[e] + (e < cap ? npaths[e] : 0);
	g->order = malloc((g->pair_off[nr] + 1) * sizeof(*g->order));
	if (!g->order)
		goto out;
	for (uint32_t p = 0; p < g->nr_paths; p++) {
		uint32_t comm, n;
		const uint32_t *f = rv_path_frames(g, p, g->pathbuf, &n, &comm);
		int m = path_entries(g, p, f, n, comm, g->nr_paths + 1 + p);

		if (m < 0)
			goto out;
		for (int i = 0; i < m; i++)
			g->order[g->pair_off[g->fentry[i]]++] = p;
	}
	for (size_t e = nr; e > 0; e--)
		g->pair_off[e] = g->pair_off[e - 1];
	g->pair_off[0] = 0;
	ret = 0;
out:
	free(npaths);
	return ret;
}

struct row_sort {
	const struct rv_entries *g;
	struct rv_cols v;
	/* the keys compared last, loaded again in place (xpp_hist_key_load()): a sort of a
	   million entries compares 20 million pairs */
	struct xpp_hist_key ka, kb;
	bool va, vb;
	bool tree; /* entries equal by perf's sort are equal (rb_order() places them) */
	const uint32_t *pos; /* with tree, per entry: its place in the collapsed order, which
				orders them instead (NULL: equal) */
	const struct srec *er; /* per entry, its values as compared (NULL: read them) */
	const uint32_t *thread; /* with er, per entry: its thread (entry_thread()) */
};

/*
 * An entry as cmp_rows() and cmp_flat() compare it, its values side by side and its keys
 * as one number (rv_key_ranks()): a sort of them moves records and reads nothing else
 * (issue 20: 20 million comparisons of a million entries, each reading two entries'
 * values from five arrays and their keys from the hist, column by column).
 */
struct srec {
	uint64_t v;    /* the value sorted by: most first */
	uint64_t self; /* after the depth, its self: most first */
	uint64_t key;  /* then its keys' rank, least first (in a tree, with its pos below) */
	uint32_t aux;  /* its depth as compared, least first (0 where depths do not count) */
	uint32_t row;  /* the entry */
};

/* Rows a's and b's keys into rs->ka and rs->kb. */
static void load_keys(struct row_sort *rs, const xpp_hist *h, uint32_t a, uint32_t b)
{
	rs->va = xpp_hist_key_load(h, a, &rs->ka, rs->va);
	rs->vb = xpp_hist_key_load(h, b, &rs->kb, rs->vb);
}

/* the same values of the sample's context (values.h) that the view's keys hold */
static bool same_context(const struct rv_entries *g, uint32_t a, uint32_t b)
{
	for (int i = 0; g->ctx_vals && i < XPP_VAL_NR; i++)
		if ((g->ctx_vals & XPP_HIST_KEY_VAL(i)) &&
		    xpp_hist_val_at(g->h, a, i) != xpp_hist_val_at(g->h, b, i))
			return false;
	return true;
}

int rv_entry_cmp_depth(const struct rv_entries *g, uint32_t a, uint32_t b)
{
	/* the cheap test first: sorts call this for every tie */
	if (!g->depth || g->depth[a] == g->depth[b] || !(key_mask(g->c) & XPP_HIST_KEY_SYM))
		return 0;
	/* perf compares the depths of entries whose first samples came from one thread */
	if (entry_thread(g, a) == entry_thread(g, b) && same_context(g, a, b))
		return (g->depth[a] > g->depth[b]) == (g->c->cg.order != 0) ? -1 : 1;
	return 0;
}

/* cmp_rows() of records: perf's depths compare between entries of one thread */
static int cmp_recs(const struct row_sort *rs, uint32_t a, uint32_t b)
{
	const struct srec *x = &rs->er[a], *y = &rs->er[b];

	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	if (x->aux != y->aux && rs->thread[a] == rs->thread[b] && same_context(rs->g, a, b))
		return x->aux < y->aux ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	struct row_sort *rs = arg;
	const struct rv_entries *g = rs->g;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(g->h, &n);
	uint64_t va, vb;

	if (rs->er)
		return cmp_recs(rs, a, b);
	va = g->c->children ? e[a].period : g->self[a];
	vb = g->c->children ? e[b].period : g->self[b];

	if (va != vb)
		return va > vb ? -1 : 1;
	/*
	 * perf's __hpp__sort_acc: of equal children, a caller above its callee: by the depth
	 * of their chains, deeper first in caller order (perf asks this of entries whose first
	 * samples came from one thread, and only when it sorts by symbol; with -g none its
	 * entries keep no chains, so no depth)
	 */
	int d = rv_entry_cmp_depth(g, a, b);

	if (d)
		return d;
	if (g->self[a] != g->self[b])
		return g->self[a] > g->self[b] ? -1 : 1;
	load_keys(rs, g->h, a, b);
	if (!rs->tree)
		return rv_cmp_keys(&rs->ka, &rs->kb, &rs->v);
	/* perf's tree keeps entries equal by its sort in the order they came (collapsed) */
	int r = rv_sort_keys(&rs->ka, &rs->kb, &rs->v);

	return r || !rs->pos ? r : rs->pos[a] < rs->pos[b] ? -1 : rs->pos[a] > rs->pos[b];
}

/* The order perf collapsed its entries in (each key's se_cmp). */
static int cmp_collapsed(const void *pa, const void *pb, void *arg)
{
	struct row_sort *rs = arg;

	load_keys(rs, rs->g->h, *(const uint32_t *)pa, *(const uint32_t *)pb);
	for (unsigned int i = 0; i < rs->v.nr_cols; i++) {
		int r = rv_collapse_col(rs->v.c, &rs->ka, &rs->kb, rs->v.cols[i]);

		if (r)
			return r;
	}
	return 0;
}

/* A red-black tree of rows, as the kernel's rbtree (lib/rbtree.c) shapes one. */
struct rb {
	uint32_t *l, *r, *up;
	uint8_t *red;
	uint32_t root;
};
#define RB_NIL UINT32_MAX

static void rb_rotate(struct rb *t, uint32_t x, bool left)
{
	uint32_t *a = left ? t->l : t->r, *b = left ? t->r : t->l;
	uint32_t y = b[x], p = t->up[x];

	b[x] = a[y];
	if (a[y] != RB_NIL)
		t->up[a[y]] = x;
	t->up[y] = p;
	if (p == RB_NIL)
		t->root = y;
	else if (t->l[p] == x)
		t->l[p] = y;
	else
		t->r[p] = y;
	a[y] = x;
	t->up[x] = y;
}

static void rb_fix(struct rb *t, uint32_t z)
{
	while (t->up[z] != RB_NIL && t->red[t->up[z]]) {
		uint32_t p = t->up[z], gp = t->up[p];
		bool pl = t->l[gp] == p;
		uint32_t u = pl ? t->r[gp] : t->l[gp];

		if (u != RB_NIL && t->red[u]) {
			t->red[p] = t->red[u] = 0;
			t->red[gp] = 1;
			z = gp;
			continue;
		}
		if (z == (pl ? t->r[p] : t->l[p])) {
			z = p;
			rb_rotate(t, z, pl);
			p = t->up[z];
		}
		t->red[p] = 0;
		t->red[gp] = 1;
		rb_rotate(t, gp, !pl);
	}
	t->red[t->root] = 0;
}

/*
 * Insert seq[0..n) in turn into a red-black tree shaped as the kernel's (lib/rbtree.c), a
 * node going left of another when cmp(node, other) < 0, else right; then seq in the
 * tree's order. perf's trees of entries are such: their comparisons are no total order
 * (see rb_order()), so the shape decides between some entries, and a sort would not.
 */
static void rb_pass(struct rb *t, uint32_t *seq, uint32_t *tmp, size_t n,
		    int (*cmp)(const void *, const void *, void *), void *arg)
{
	size_t k = 0;
	uint32_t x;

	t->root = RB_NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t p = RB_NIL, c = t->root;
		bool left = false;

		while (c != RB_NIL) {
			p = c;
			left = cmp(&seq[i], &seq[c], arg) < 0;
			c = left ? t->l[c] : t->r[c];
		}
		t->l[i] = t->r[i] = RB_NIL;
		t->up[i] = p;
		t->red[i] = 1;
		if (p == RB_NIL)
			t->root = (uint32_t)i;
		else if (left)
			t->l[p] = (uint32_t)i;
		else
			t->r[p] = (uint32_t)i;
		rb_fix(t, (uint32_t)i);
	}
	/* in order: leftmost first */
	for (x = t->root; x != RB_NIL && t->l[x] != RB_NIL; x = t->l[x])
		;
	while (x != RB_NIL) {
		tmp[k++] = seq[x];
		if (t->r[x] != RB_NIL) {
			for (x = t->r[x]; t->l[x] != RB_NIL; x = t->l[x])
				;
		} else {
			uint32_t c = x;

			for (x = t->up[x]; x != RB_NIL && t->r[x] == c; c = x, x = t->up[x])
				;
		}
	}
	memcpy(seq, tmp, n * sizeof(*seq));
}

/* The order perf made its entries in: by their first samples, then where in them. */
static int cmp_made(const void *pa, const void *pb, void *arg)
{
	const struct rv_entries *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t sa = UINT64_MAX, sb = UINT64_MAX;

	if (g->first_path[a])
		xpp_cg_self_tag(g->ev->cg, g->paths[g->first_path[a] - 1].node, &sa);
	if (g->first_path[b])
		xpp_cg_self_tag(g->ev->cg, g->paths[g->first_path[b] - 1].node, &sb);
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (g->first_pos[a] != g->first_pos[b])
		return g->first_pos[a] < g->first_pos[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A DSO of a view's entries, as collapse_is_order() reads them. */
struct collapse_dso {
	uint64_t lo, hi; /* the addresses of its entries without a symbol (lo > hi: none) */
	bool named;      /* it holds entries with a symbol */
	size_t below;    /* DSOs of entries with one that perf's _sort__dso_cmp puts first */
};

/* more DSOs of either kind, and the view takes perf's trees (rb_order()): their places
 * are compared pairwise */
#define COLLAPSE_DSOS_MAX 256

/* perf's _sort__dso_cmp of two DSOs (the dso key's compare): by name, none after any */
static int collapse_dso_cmp(const struct rv_entries *g, uint32_t a, uint32_t b)
{
	struct xpp_hist_key ka, kb;

	xpp_hist_key_init(&ka);
	xpp_hist_key_init(&kb);
	ka.dso = a;
	kb.dso = b;
	return rv_cmp_col(g->c, &ka, &kb, RV_KEY_DSO);
}

/*
 * Whether the entries without a symbol, in the DSOs d[0..nd] (by id; d[nd] no DSO), sit
 * in one line with those with one: their addresses rise with their DSOs' places among
 * the named ones.
 */
static bool unnamed_in_line(const struct rv_entries *g, struct collapse_dso *d, uint32_t nd)
{
	uint32_t un[COLLAPSE_DSOS_MAX], named[COLLAPSE_DSOS_MAX], nun = 0, nnamed = 0;

	for (uint32_t i = 0; i <= nd; i++) {
		uint32_t id = i == nd ? XPP_HIST_NO_DSO : i;

		if ((d[i].lo <= d[i].hi && nun == COLLAPSE_DSOS_MAX) ||
		    (d[i].named && nnamed == COLLAPSE_DSOS_MAX))
			return false;
		if (d[i].lo <= d[i].hi)
			un[nun++] = i;
		if (d[i].named)
			named[nnamed++] = id;
	}
	if (!nnamed || nun < 2)
		return true;
	/* each unnamed DSO's place: after the named DSOs before it and its own (an entry
	   without a symbol after those with one in its DSO, as sym_collapse() orders them) */
	for (uint32_t a = 0; a < nun; a++)
		for (uint32_t j = 0; j < nnamed; j++)
			d[un[a]].below += collapse_dso_cmp(g, named[j], un[a] == nd ?
							   XPP_HIST_NO_DSO : un[a]) <= 0;
	/* a place before another holds lower addresses only */
	for (uint32_t a = 0; a < nun; a++)
		for (uint32_t b = 0; b < nun; b++)
			if (d[un[a]].below < d[un[b]].below && d[un[a]].hi >= d[un[b]].lo)
				return false;
	return true;
}

/*
 * Whether perf's se_cmp of the view's keys is an order of its entries: unresolved
 * addresses (by signed difference) all within 2^63 of each other, no inlined function
 * (compared by name, the others by address), and entries with and without a symbol in
 * one line. perf's sort__sym_cmp (sym_collapse()) compares two entries without a symbol
 * by address, and an entry without one and an entry with one by DSO, the one with a
 * symbol first where the DSO is one. So with the DSO key before the symbol's, or no entry
 * with a symbol, it is an order; else the entries without a symbol sit among the DSOs of
 * those with one, and it is one where their addresses rise with those places (a stripped
 * program and the [unknown] end of its chains: one place, after every library). (Issue
 * 20: a profile of unresolved addresses sorted by symbol alone was remade as perf's
 * red-black tree of a million entries, twice the time of the default view.)
 */
static bool collapse_is_order(const struct rv_entries *g, const struct rv_cols *v)
{
	bool dso = false, sym = false, ret = true;
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t nd = xpp_dso_table_nr(g->c->dsos);
	struct collapse_dso *d = NULL;

	for (unsigned int i = 0; i < v->nr_cols && !sym; i++) {
		dso |= v->cols[i] == RV_KEY_DSO;
		sym = v->cols[i] == RV_KEY_SYM;
	}
	if (!sym)
		return true;
	/* per DSO by id (the last: none), where the DSO key does not come first */
	if (!dso && !(d = malloc(((size_t)nd + 1) * sizeof(*d))))
		return false;
	for (uint32_t i = 0; d && i <= nd; i++)
		d[i] = (struct collapse_dso){ UINT64_MAX, 0, false, 0 };
	/* the fields a symbol's name is read from, not the whole key (a million entries) */
	struct xpp_hist_key k;
	size_t nr;
	const struct xpp_hist_rec *e = xpp_hist_recs(g->h, &nr);

	xpp_hist_key_init(&k);
	for (size_t i = 0; i < g->nr_rows && ret; i++) {
		const struct xpp_hist_rec *r = &e[g->rows[i]];
		uint32_t x = r->dso == XPP_HIST_NO_DSO ? nd : r->dso;
		bool named;

		k.dso = r->dso;
		k.sym = r->sym;
		named = rv_sym_name(g->c, &k) != NULL;
		if (r->inl || (d && x > nd)) {
			ret = false;
		} else if (named) {
			if (d)
				d[x].named = true;
		} else {
			lo = r->addr < lo ? r->addr : lo;
			hi = r->addr > hi ? r->addr : hi;
			if (d) {
				d[x].lo = r->addr < d[x].lo ? r->addr : d[x].lo;
				d[x].hi = r->addr > d[x].hi ? r->addr : d[x].hi;
			}
		}
	}
	if (ret && lo <= hi && hi - lo >= (1ULL << 63))
		ret = false;
	if (ret && d)
		ret = unnamed_in_line(g, d, nd);
	free(d);
	return ret;
}

/* Whether the entries came from one thread and share their context values (a view by
 * pid of one process's thread, say): then their depths compare, an order. */
static bool one_thread(const struct rv_entries *g)
{
	for (size_t i = 1; i < g->nr_rows; i++)
		if (entry_thread(g, g->rows[i]) != entry_thread(g, g->rows[0]) ||
		    !same_context(g, g->rows[i], g->rows[0]))
			return false;
	return true;
}

/*
 * Entry e's record (key its keys' rank): its values as cmp_rows() or cmp_flat() reads
 * them, h the hist's entries, depths whether depths compare (rv_entry_cmp_depth()).
 */
static struct srec rec_of(const struct rv_entries *g, const struct xpp_hist_rec *h, bool depths,
			  uint32_t e, uint64_t key)
{
	uint32_t aux = 0;

	if (!g->chains) /* cmp_flat(): the period, then the keys */
		return (struct srec){ h[e].period, 0, key, 0, e };
	/* deeper first in caller order, else shallower */
	if (depths)
		aux = g->c->cg.order != 0 ? UINT32_MAX - g->depth[e] : g->depth[e];
	return (struct srec){ g->c->children ? h[e].period : g->self[e], g->self[e], key, aux, e };
}

static bool depths_compare(const struct rv_entries *g)
{
	return g->depth && (key_mask(g->c) & XPP_HIST_KEY_SYM);
}

/* Whether record a comes before b (all of one thread, or no depths). */
static inline bool rec_before(const struct srec *a, const struct srec *b)
{
	if (a->v != b->v)
		return a->v > b->v;
	if (a->aux != b->aux)
		return a->aux < b->aux;
	if (a->self != b->self)
		return a->self > b->self;
	return a->key < b->key;
}

/* A row whose whole order is one number (pack_order()). */
struct prec {
	uint64_t k;
	uint32_t row;
};

static inline bool prec_before(const struct prec *a, const struct prec *b)
{
	return a->k < b->k;
}

/*
 * A stable merge sort of r[0..n) by before() (tmp: room for n / 2 + 1): qsort_r()'s order
 * of the rows, the sort being stable where its comparison is an order. And name##_rows():
 * g's rows put in the order of their records r[0..g->nr_rows) once sorted (r, NULL where
 * its allocation failed, is freed here), 0 or -ENOMEM: both kinds of record end alike.
 */
#define MERGE_SORT(name, type, before)                                                      \
	static void name(type *r, type *tmp, size_t n)                                      \
	{                                                                                   \
		size_t h = n / 2, i = 0, j = h, k = 0;                                      \
                                                                                            \
		if (n <= 16) {                                                              \
			for (size_t x = 1; x < n; x++) {                                    \
				type t = r[x];                                              \
				size_t y = x;                                               \
                                                                                            \
				for (; y > 0 && before(&t, &r[y - 1]); y--)                 \
					r[y] = r[y - 1];                                    \
				r[y] = t;                                                   \
			}                                                                   \
			return;                                                             \
		}                                                                           \
		name(r, tmp, h);                                                            \
		name(r + h, tmp, n - h);                                                    \
		if (!before(&r[h], &r[h - 1]))                                              \
			return;                                                             \
		memcpy(tmp, r, h * sizeof(*r));                                             \
		while (i < h && j < n)                                                      \
			r[k++] = before(&r[j], &tmp[i]) ? r[j++] : tmp[i++];                \
		memcpy(&r[k], &tmp[i], (h - i) * sizeof(*r));                               \
	}                                                                                   \
                                                                                            \
	static int name##_rows(struct rv_entries *g, type *r)                               \
	{                                                                                   \
		size_t n = g->nr_rows;                                                      \
		type *tmp = r ? malloc((n / 2 + 1) * sizeof(*tmp)) : NULL;                  \
                                                                                            \
		if (!tmp)                                                                   \
			return free(r), -ENOMEM;                                            \
		name(r, tmp, n);                                                            \
		for (size_t i = 0; i < n; i++)                                              \
			g->rows[i] = r[i].row;                                              \
		free(r);                                                                    \
		free(tmp);                                                                  \
		return 0;                                                                   \
	}

MERGE_SORT(sort_recs, struct srec, rec_before)
MERGE_SORT(sort_precs, struct prec, prec_before)

/*
 * In rank (the keys' ranks of g's rows), each row's whole order as one number where it
 * fits 64 bits: its value and self ranked among their few values (most first), its depth,
 * its keys' rank, side by side. The sort then moves 16 bytes a row, not 32 (a million
 * entries of unresolved addresses hold a few values, ten depths and addresses of 48
 * bits). 0, 1 where it does not fit (rank as it was), -ENOMEM.
 */
static int pack_order(const struct rv_entries *g, const struct xpp_hist_rec *h, bool depths,
		      uint64_t *rank)
{
	size_t n = g->nr_rows;
	uint64_t *cur = malloc((n + 1) * sizeof(*cur)), *nxt = malloc((n + 1) * sizeof(*nxt));
	int ret = -ENOMEM;

	if (!cur || !nxt)
		goto out;
	for (size_t i = 0; i < n; i++)
		cur[i] = UINT64_MAX - rec_of(g, h, depths, g->rows[i], 0).v;
	if ((ret = rv_rank_few(cur, n)))
		goto out;
	for (size_t i = 0; i < n; i++)
		nxt[i] = rec_of(g, h, depths, g->rows[i], 0).aux;
	if ((ret = rv_rank_pack(cur, nxt, n)))
		goto out;
	for (size_t i = 0; i < n; i++)
		nxt[i] = UINT64_MAX - rec_of(g, h, depths, g->rows[i], 0).self;
	if ((ret = rv_rank_few(nxt, n)) || (ret = rv_rank_pack(cur, nxt, n)) ||
	    (ret = rv_rank_pack(cur, rank, n)))
		goto out;
	memcpy(rank, cur, n * sizeof(*rank));
out:
	free(cur);
	free(nxt);
	return ret;
}

/*
 * g's rows sorted by their packed order (pack_order(), in row_ranks()'s array, which has
 * room for the records: they are made in place, last first, and it is freed here). 0 or
 * -ENOMEM.
 */
static int sort_packed(struct rv_entries *g, uint64_t *order)
{
	size_t n = g->nr_rows;
	struct prec *r = (struct prec *)order;

	/* record i takes the numbers 2i and 2i + 1: those of rows i and after are read */
	for (size_t i = n; i-- > 0;) {
		uint64_t k = order[i];

		r[i] = (struct prec){ k, g->rows[i] };
	}
	return sort_precs_rows(g, r);
}

/*
 * The ranks of the keys of g's rows as rs compares them (pos after); 0, 1 none, -ENOMEM.
 * The array has room for as many records of 16 bytes (sort_packed()).
 */
static int row_ranks(const struct rv_entries *g, const struct row_sort *rs, uint64_t **rank)
{
	size_t n = g->nr_rows;
	int ret;

	_Static_assert(sizeof(struct prec) == 2 * sizeof(uint64_t), "a record is two numbers");
	*rank = malloc((n + 1) * sizeof(struct prec));
	if (!*rank)
		return -ENOMEM;
	ret = rv_key_ranks(&rs->v, g->h, g->rows, n, !rs->tree, *rank);
	/* a tree's ranks (of rv_sort_keys()) are below 2^32: its place goes below them */
	for (size_t i = 0; !ret && rs->pos && i < n; i++)
		(*rank)[i] = (*rank)[i] << 32 | rs->pos[g->rows[i]];
	if (ret) {
		free(*rank);
		*rank = NULL;
	}
	return ret;
}

/*
 * g's rows sorted by cmp (cmp_rows() of entries of one thread, or cmp_flat()), as records
 * where the keys have ranks. 0 or -ENOMEM.
 */
static int sort_rows(struct rv_entries *g, struct row_sort *rs,
		     int (*cmp)(const void *, const void *, void *))
{
	size_t n = g->nr_rows, nr;
	const struct xpp_hist_rec *h = xpp_hist_recs(g->h, &nr);
	bool depths = depths_compare(g);
	struct srec *r;
	uint64_t *rank;
	int ret = row_ranks(g, rs, &rank);

	if (ret == 1) {
		qsort_r(g->rows, n, sizeof(*g->rows), cmp, rs);
		return 0;
	}
	if (ret < 0)
		return ret;
	ret = pack_order(g, h, depths, rank);
	if (!ret)
		return sort_packed(g, rank);
	if (ret < 0)
		return free(rank), ret;
	r = malloc((n + 1) * sizeof(*r));
	for (size_t i = 0; r && i < n; i++)
		r[i] = rec_of(g, h, depths, g->rows[i], rank[i]);
	free(rank);
	return sort_recs_rows(g, r);
}

/*
 * rs->er and rs->thread: each row's record and thread, for cmp_rows() in a tree's pass.
 * 0, 1 where the keys have no ranks, -ENOMEM.
 */
static int entry_recs(struct rv_entries *g, struct row_sort *rs, struct srec **er,
		      uint32_t **thread)
{
	size_t nr;
	const struct xpp_hist_rec *h = xpp_hist_recs(g->h, &nr);
	bool depths = depths_compare(g);
	uint64_t *rank;
	int ret = row_ranks(g, rs, &rank);

	*er = NULL;
	*thread = NULL;
	if (ret)
		return ret;
	*er = malloc((nr + 1) * sizeof(**er));
	*thread = malloc((nr + 1) * sizeof(**thread));
	if (!*er || !*thread) {
		free(rank);
		return -ENOMEM;
	}
	for (size_t i = 0; i < g->nr_rows; i++) {
		uint32_t e = g->rows[i];

		(*er)[e] = rec_of(g, h, depths, e, rank[i]);
		(*thread)[e] = g->depth ? entry_thread(g, e) : 0;
	}
	free(rank);
	rs->er = *er;
	rs->thread = *thread;
	return 0;
}

/*
 * perf's order of a view with chains, made as perf makes it: its entries go into a tree
 * (hists->entries_in) in the order its samples made them, by their keys (se_cmp); in that
 * tree's order into another by their collapsed keys when a key collapses (comm); in that
 * one's order into the output tree (hist_entry__sort()). Either comparison may be no
 * order: unresolved addresses compare by their signed difference (_sort__addr_cmp), and
 * chains' depths only between entries of one thread (__hpp__sort_acc). Where it is one, a
 * sort gives the tree's order (its ties kept in the order they came), at a sort's cost.
 */
static int rb_order(struct rv_entries *g, struct row_sort *rs)
{
	size_t n = g->nr_rows, nr = xpp_hist_nr(g->h);
	bool order = collapse_is_order(g, &rs->v), one = one_thread(g), collapse = false;
	struct rb t = { NULL, NULL, NULL, NULL, RB_NIL };
	uint32_t *tmp = NULL, *pos = NULL, *thread = NULL;
	struct srec *er = NULL;
	int ret = -ENOMEM;

	/* both orders: one sort, its ties in the collapsed order (rv_cmp_keys()) */
	if (order && one)
		return sort_rows(g, rs, cmp_rows);
	t = (struct rb){ malloc(n * 4 + 4), malloc(n * 4 + 4), malloc(n * 4 + 4), malloc(n + 1),
			 RB_NIL };
	tmp = malloc(n * 4 + 4);
	pos = calloc(nr + 1, sizeof(*pos));
	if (!t.l || !t.r || !t.up || !t.red || !tmp || !pos)
		goto out;
	for (unsigned int i = 0; i < rs->v.nr_cols; i++)
		collapse |= rs->v.cols[i] == RV_KEY_COMM;
	if (order) {
		qsort_r(g->rows, n, sizeof(*g->rows), cmp_collapsed, rs);
	} else {
		qsort_r(g->rows, n, sizeof(*g->rows), cmp_made, g);
		rb_pass(&t, g->rows, tmp, n, cmp_collapsed, rs);
		if (collapse)
			rb_pass(&t, g->rows, tmp, n, cmp_collapsed, rs);
	}
	rs->tree = true;
	if (one) {
		for (size_t i = 0; i < n; i++)
			pos[g->rows[i]] = (uint32_t)i;
		rs->pos = pos;
		ret = sort_rows(g, rs, cmp_rows);
		rs->pos = NULL;
	} else {
		ret = entry_recs(g, rs, &er, &thread);
		if (ret >= 0)
			rb_pass(&t, g->rows, tmp, n, cmp_rows, rs);
		rs->er = NULL;
		rs->thread = NULL;
	}
	rs->tree = false;
	if (ret > 0)
		ret = 0;
out:
	free(er);
	free(thread);
	free(t.l);
	free(t.r);
	free(t.up);
	free(t.red);
	free(tmp);
	free(pos);
	return ret;
}

/* The flat view's order: overhead, then the columns' text. */
static int cmp_flat(const void *pa, const void *pb, void *arg)
{
	struct row_sort *rs = arg;
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(rs->g->h, &n);
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;

	if (e[ia].period != e[ib].period)
		return e[ia].period > e[ib].period ? -1 : 1;
	load_keys(rs, rs->g->h, ia, ib);
	return rv_cmp_keys(&rs->ka, &rs->kb, &rs->v);
}

static int build_flat(struct rv_entries *g)
{
	unsigned int mask = key_mask(g->c);
	struct xpp_hist_rec *e;
	size_t n;

	g->h = xpp_hist_collapse(g->ev->h, mask);
	if (!g->h)
		return -ENOMEM;
	e = xpp_hist_recs(g->h, &n);
	g->self = malloc((n + 1) * sizeof(*g->self));
	g->self_count = malloc((n + 1) * sizeof(*g->self_count));
	g->level = malloc(n + 1);
	g->rows = malloc((n + 1) * sizeof(*g->rows));
	if (!g->self || !g->self_count || !g->level || !g->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		g->self[i] = e[i].period;
		g->self_count[i] = e[i].nr_samples;
		g->level[i] = (uint8_t)e[i].level;
		g->rows[g->nr_rows++] = (uint32_t)i;
	}
	return 0;
}

static int select_rows(struct rv_entries *g)
{
	size_t n = xpp_hist_nr(g->h);

	g->rows = malloc((n + 1) * sizeof(*g->rows));
	if (!g->rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		/*
		 * No test of the entry's DSO against --dsos: the pass dropped the samples
		 * outside it, and their callers' entries, of any DSO, are shown with the
		 * samples that passed, as perf shows the entries a passing sample made
		 * (and a key without the DSO has none to test)
		 */
		if (!g->c->children && !g->self[i])
			continue;
		g->rows[g->nr_rows++] = (uint32_t)i;
	}
	return 0;
}

/* With -F: perf's sort list in turn, metrics most first, keys as perf orders them. */
static int cmp_fields(const void *pa, const void *pb, void *arg)
{
	struct row_sort *rs = arg;
	const struct rv_entries *g = rs->g;
	const struct rv_ctx *c = g->c;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	bool keys = false;

	for (unsigned int i = 0; i < c->nr_sort; i++) {
		unsigned int col = c->sort[i];
		int r;

		if (col >= RV_OUT_OVERHEAD) {
			uint64_t va = rv_entry_metric(g, a, col), vb = rv_entry_metric(g, b, col);

			r = va > vb ? -1 : va < vb;
		} else {
			if (!keys) {
				load_keys(rs, g->h, a, b);
				keys = true;
			}
			r = rv_cmp_col(c, &rs->ka, &rs->kb, col);
		}
		if (r)
			return r;
	}
	return a < b ? -1 : a > b;
}

static bool wants(const struct rv_ctx *c, unsigned int col)
{
	for (unsigned int i = 0; i < c->nr_fields; i++)
		if (c->fields[i] == col)
			return true;
	return false;
}

/*
 * -F's sys/usr/guest columns: each entry's own period by the cpumode of its samples, read
 * from the event's flat hist (its keys keep the level of the sample's mode) collapsed to
 * the view's keys.
 */
static int mode_periods(struct rv_entries *g)
{
	static const unsigned int cols[4] = { RV_OUT_SYS, RV_OUT_US, RV_OUT_GUEST_SYS,
					      RV_OUT_GUEST_US };
	static const char levels[4] = { 'k', '.', 'g', 'u' };
	unsigned int mask = key_mask(g->c);
	size_t n, nr;
	const struct xpp_hist_rec *raw = xpp_hist_recs(g->ev->h, &nr);
	bool any = false;

	n = xpp_hist_nr(g->h);
	for (int m = 0; m < 4; m++) {
		if (!wants(g->c, cols[m]))
			continue;
		g->mode_period[m] = calloc(n + 1, sizeof(*g->mode_period[m]));
		if (!g->mode_period[m])
			return -ENOMEM;
		any = true;
	}
	for (size_t i = 0; any && i < nr; i++) {
		struct xpp_hist_key k = xpp_hist_key_at(g->ev->h, i);
		int64_t id;
		int m;

		for (m = 0; m < 4 && levels[m] != (char)k.level; m++)
			;
		if (m == 4 || !g->mode_period[m])
			continue;
		xpp_hist_key_mask(&k, mask);
		if (g->chains && k.dso == XPP_HIST_NO_DSO)
			k.level = 0; /* as collapse() keys entries of unmapped addresses */
		id = xpp_hist_find(g->h, &k);
		if (id >= 0)
			g->mode_period[m][id] += raw[i].period;
	}
	return 0;
}

/*
 * -v: each entry's first sample's address, from the event's flat hist (its entries are in
 * the order samples first met them) collapsed to the view's keys. An entry of callees only
 * has none here.
 */
static int entry_addrs(struct rv_entries *g)
{
	unsigned int mask = key_mask(g->c);
	size_t n = xpp_hist_nr(g->h), nr = xpp_hist_nr(g->ev->h);

	g->addr = malloc((n + 1) * sizeof(*g->addr));
	if (!g->addr)
		return -ENOMEM;
	memset(g->addr, 0xff, (n + 1) * sizeof(*g->addr));
	for (size_t i = 0; g->ev->first_addr && i < nr; i++) {
		struct xpp_hist_key k = xpp_hist_key_at(g->ev->h, i);
		int64_t id;

		xpp_hist_key_mask(&k, mask);
		if (g->chains && k.dso == XPP_HIST_NO_DSO)
			k.level = 0;
		id = xpp_hist_find(g->h, &k);
		if (id >= 0 && g->addr[id] == UINT64_MAX)
			g->addr[id] = g->ev->first_addr[i];
	}
	return 0;
}

/* perf's dso__symtab_origin(), as far as xperf knows where the symbols came from */
static char symtab_origin(const struct rv_ctx *c, uint32_t dso)
{
	const struct xpp_dso *d = dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(c->dsos, dso);

	if (!d || !d->syms.nr)
		return '!';
	return d->kind == XPP_DSO_KERNEL ? 'k' : d->kind == XPP_DSO_ANON ? 'j' : 'd';
}

const char *rv_entry_sym_prefix(const struct rv_entries *g, uint32_t e, char *buf,
				size_t size)
{
	size_t n;
	const struct xpp_hist_rec *k = &xpp_hist_recs(g->h, &n)[e];
	uint64_t a = g->addr ? g->addr[e] : UINT64_MAX;

	if (!g->addr)
		return NULL;
	if (a == UINT64_MAX)
		a = k->addr;
	snprintf(buf, size, "%-#*" PRIx64 " %c ", RV_VERBOSE_SYM_WIDTH - 3, a,
		 symtab_origin(g->c, k->dso));
	return buf;
}

bool rv_event_chains(const struct rv_ctx *c, uint32_t idx)
{
	return c->callchains && c->ev[idx].cg && (c->children || c->cg.mode != CG_NONE);
}

/* The value rows are sorted by before anything else (cmp_rows(), cmp_flat()). */
static uint64_t row_value(const struct rv_entries *g, const struct xpp_hist_rec *e, uint32_t r)
{
	return g->chains && !g->c->children ? g->self[r] : e[r].period;
}

/* The k-th largest of v[0..n) (k < n), v reordered: selection by three-way partitions. */
static uint64_t kth_largest(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* k is in [lo, hi) */

	for (;;) {
		uint64_t pivot = v[lo + (hi - lo) / 2], t;
		size_t gt = lo, i = lo, lt = hi;

		/* v[lo..gt) > pivot, v[gt..i) == pivot, v[lt..hi) < pivot */
		while (i < lt) {
			if (v[i] > pivot)
				t = v[i], v[i++] = v[gt], v[gt++] = t;
			else if (v[i] < pivot)
				t = v[i], v[i] = v[--lt], v[lt] = t;
			else
				i++;
		}
		if (k < gt)
			hi = gt;
		else if (k < lt)
			return pivot;
		else
			lo = lt;
	}
}

/*
 * Keep of g's rows those that can be among the first `limit` of the sorted order: every
 * comparison starts with row_value(), so they are the rows of a value at least the
 * limit-th largest (ties at it are all kept: the keys order them). The rest are left
 * unsorted and uncounted; a refresh of top then sorts what it shows, not 40k entries.
 */
static int keep_top_rows(struct rv_entries *g, size_t limit)
{
	size_t n, m = 0;
	const struct xpp_hist_rec *e = xpp_hist_recs(g->h, &n);
	uint64_t *v, min;

	if (!limit || limit >= g->nr_rows)
		return 0;
	v = malloc(g->nr_rows * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_rows; i++)
		v[i] = row_value(g, e, g->rows[i]);
	min = kth_largest(v, g->nr_rows, limit - 1);
	free(v);
	for (size_t i = 0; i < g->nr_rows; i++)
		if (row_value(g, e, g->rows[i]) >= min)
			g->rows[m++] = g->rows[i];
	g->nr_rows = m;
	return 0;
}

int rv_entries_build(struct rv_entries *g, const struct rv_ctx *c, uint32_t idx)
{
	return rv_entries_build_top(g, c, idx, 0);
}

int rv_entries_build_top(struct rv_entries *g, const struct rv_ctx *c, uint32_t idx,
			 size_t limit)
{
	struct row_sort rs = { g };
	int ret;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->ev = &c->ev[idx];
	g->chains = rv_event_chains(c, idx);
	/* values a key holds only when asked for: the others are 0 in every key */
	g->ctx_vals = xpp_val_mask(true) & key_mask(c);
	/* perf's min_callchain_hits: a u64 from the double */
	g->min_hit = (uint64_t)((double)g->ev->total_period * (c->cg.threshold / 100.0));
	if (!g->chains) {
		ret = build_flat(g);
	} else {
		ret = collect_paths(g);
		if (!ret)
			ret = aggregate(g);
		if (!ret)
			ret = select_rows(g);
	}
	if (!ret && c->nr_fields)
		ret = mode_periods(g);
	if (!ret && c->o->verbose)
		ret = entry_addrs(g);
	/* -F's sort lists may start with a key: they sort everything */
	if (!ret && !c->nr_sort)
		ret = keep_top_rows(g, limit);
	if (ret < 0) {
		rv_entries_free(g);
		return ret;
	}
	rv_cols_init(&rs.v, c);
	if (!c->nr_sort && g->chains && g->depth)
		ret = rb_order(g, &rs);
	else if (c->nr_sort)
		qsort_r(g->rows, g->nr_rows, sizeof(*g->rows), cmp_fields, &rs);
	else
		ret = sort_rows(g, &rs, g->chains ? cmp_rows : cmp_flat);
	if (ret < 0) {
		rv_entries_free(g);
		return ret;
	}
	if (limit && g->nr_rows > limit)
		g->nr_rows = limit;
	/* the entries are made: what finds them by frame is the entry map (entry_of()) */
	xpp_hist_freeze(g->h);
	return 0;
}

void rv_entries_free(struct rv_entries *g)
{
	xpp_hist_free(g->h);
	free(g->self);
	free(g->self_count);
	for (int m = 0; m < 4; m++)
		free(g->mode_period[m]);
	free(g->level);
	free(g->rows);
	free(g->paths);
	free(g->pair_off);
	free(g->order);
	free(g->map.key);
	free(g->map.entry);
	free(g->dense);
	free(g->stamp);
	free(g->depth);
	free(g->first_path);
	free(g->first_pos);
	free(g->addr);
	free(g->pathbuf);
	free(g->pkeys);
	free(g->pkey_off);
	free(g->fentry);
	free(g->pathlev);
	xpp_hist_free(g->chain_keys);
	free(g->chain_rep);
	free(g->frame_rep);
	free(g->frame_self);
	memset(g, 0, sizeof(*g));
}

struct xpp_hist_key rv_entry_key(const struct rv_entries *g, uint32_t e)
{
	struct xpp_hist_key k = xpp_hist_key_at(g->h, e);

	k.level = g->level[e];
	return k;
}

uint64_t rv_entry_period(const struct rv_entries *g, uint32_t e)
{
	size_t n;

	return g->c->children ? xpp_hist_recs(g->h, &n)[e].period : g->self[e];
}

uint64_t rv_entry_metric(const struct rv_entries *g, uint32_t e, unsigned int col)
{
	size_t n;

	switch (col) {
	case RV_OUT_CHILDREN:
		return g->chains ? xpp_hist_recs(g->h, &n)[e].period : g->self[e];
	case RV_OUT_SAMPLE:
		return g->self_count[e];
	case RV_OUT_SYS:
	case RV_OUT_US:
	case RV_OUT_GUEST_SYS:
	case RV_OUT_GUEST_US: {
		const uint64_t *m = g->mode_period[col - RV_OUT_SYS];

		return m ? m[e] : 0;
	}
	default:
		return g->self[e];
	}
}

/*
 * The frame that stands for f in chains: perf's chains tell frames apart by function (with
 * -g srcline, by source line too), while frames differ by source line whenever the sort
 * keys have it, so frames equal but for that are one in a chain; and frames without a map
 * are one per address, whatever their level (a user and a kernel context's 0).
 */
static int64_t chain_frame(struct rv_entries *g, uint32_t f)
{
	struct xpp_hist_key k;
	int64_t id;

	if (f / 64 < g->self_cap && (g->frame_self[f / 64] >> (f % 64) & 1))
		return f;
	if (f < g->frame_cap && g->frame_rep[f])
		return g->frame_rep[f] - 1;
	k = rv_frame_key(g->c, 0, f);
	if (k.dso == XPP_HIST_NO_DSO) {
		k.level = 0; /* perf matches frames without a map by address alone */
	} else if (!xpp_profile_srclines(g->c->p)) {
		/* frames are what chains compare: f stands for itself (cached all the same,
		 * so the next time costs one load; a bit a frame, for an outermost caller's
		 * chains meet every frame there is) */
		if (XB_ARRAY_RESERVE0(g->frame_self, g->self_cap, (size_t)f / 64 + 1, 64))
			return -ENOMEM;
		g->frame_self[f / 64] |= 1ULL << (f % 64);
		return f;
	}
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

#define CHAINS_FREEZE_NODES (1u << 16)

/*
 * The chain the j-th path of entry e (order[j]) gives its graph, into seq: its length, -1
 * when the path gives none (without children, a path that does not end in e), or -ENOMEM.
 */
static int64_t entry_chain(struct rv_entries *g, uint32_t e, size_t j, uint32_t *seq)
{
	bool caller = g->c->cg.order != 0;
	uint32_t p = g->order[j], comm, len, n = 0, first = UINT32_MAX, last = 0, from;
	const struct rv_path *pa = &g->paths[p];
	const uint32_t *f;
	bool leaf = pa->self_entry == e;

	/* the paths of an entry are scattered over the paths and the tree: ask early for a
	 * later one's (two steps: its path and where its keys are, then its keys, or its
	 * nodes when the keys are not kept) */
	if (j + 32 < g->pair_off[e + 1]) {
		uint32_t q = g->order[j + 32];

		__builtin_prefetch(&g->paths[q]);
		if (q < g->nr_pkeys)
			__builtin_prefetch(&g->pkey_off[q]);
	}
	if (j + 16 < g->pair_off[e + 1]) {
		uint32_t q = g->order[j + 16];

		if (q < g->nr_pkeys)
			__builtin_prefetch(&g->pkeys[g->pkey_off[q]]);
		else
			xpp_cg_prefetch(g->ev->cg, g->paths[q].node);
	}
	if (!g->c->children && !leaf)
		return -1;
	f = rv_path_frames(g, p, g->pathbuf, &len, &comm);
	for (uint32_t i = 0; !leaf && i < len; i++) {
		int64_t fe = entry_of(g, comm, f[i]);

		if (fe < 0)
			return fe;
		if (fe != e)
			continue;
		if (first == UINT32_MAX)
			first = i;
		last = i;
	}
	/* a leaf keeps its whole chain: perf's self entry holds the full callchain */
	if (caller) {
		from = leaf ? 0 : first;
		for (uint32_t i = from; i < len; i++)
			seq[n++] = f[i];
	} else {
		from = leaf ? len - 1 : last;
		for (uint32_t i = from + 1; i-- > 0;)
			seq[n++] = f[i];
	}
	for (uint32_t i = 0; i < n; i++) {
		int64_t r = chain_frame(g, seq[i]);

		if (r < 0)
			return r;
		seq[i] = (uint32_t)r;
	}
	return n;
}

int rv_entry_chains(struct rv_entries *g, uint32_t e, xpp_callgraph *t, uint32_t *seq)
{
	xpp_cg_reset(t);
	if (!g->chains || !g->pair_off) /* -g none: no graphs */
		return 0;
	for (size_t j = g->pair_off[e]; j < g->pair_off[e + 1]; j++) {
		const struct rv_path *pa = &g->paths[g->order[j]];
		int64_t n = entry_chain(g, e, j, seq);

		if (n < -1)
			return (int)n;
		if (n >= 0 && xpp_cg_add_path(t, seq, (size_t)n, pa->period, pa->count) < 0)
			return -ENOMEM;
	}
	/*
	 * A graph of every path (an outermost caller's) is read now, as full nodes of 56
	 * bytes: its lookup table (10 bytes a node) goes first. A small one stays for the
	 * next entry, which would make it again.
	 */
	if (xpp_cg_nr_nodes(t) > CHAINS_FREEZE_NODES)
		xpp_cg_freeze(t);
	return 0;
}

/* The scratch of rv_entry_chains_above(): the chains, the paths alive, a level's nodes. */
struct above {
	uint32_t *chain;         /* per path giving a chain: its path, length, frames */
	size_t nr_chain, cap_chain;
	uint32_t *at, *cur, *cand; /* per path alive: its chain, its node, its level's node */
	size_t cap_alive;
	xpp_callgraph *level;    /* the level's nodes: (node, frame) of the paths alive */
	struct above_node {
		uint64_t period, count;
		uint32_t node;   /* its node in the graph, 0 left out */
	} *ln;                   /* per level node */
	size_t cap_level;
};

static void above_free(struct above *a)
{
	free(a->chain);
	free(a->at);
	free(a->cur);
	free(a->cand);
	xpp_cg_free(a->level);
	free(a->ln);
}

/* Entry e's chains into a->chain, a->at the paths giving one: how many, or -ENOMEM. */
static int64_t above_chains(struct rv_entries *g, uint32_t e, struct above *a, uint32_t *seq)
{
	size_t nr = 0;

	for (size_t j = g->pair_off[e]; j < g->pair_off[e + 1]; j++) {
		int64_t n = entry_chain(g, e, j, seq);

		if (n < -1)
			return n;
		if (n < 0)
			continue;
		if (XB_ARRAY_RESERVE(a->chain, a->cap_chain, a->nr_chain + 2 + (size_t)n, 1024) ||
		    XB_ARRAY_RESERVE(a->at, a->cap_alive, nr + 1, 256))
			return -ENOMEM;
		a->at[nr++] = (uint32_t)a->nr_chain;
		a->chain[a->nr_chain++] = g->order[j];
		a->chain[a->nr_chain++] = (uint32_t)n;
		memcpy(&a->chain[a->nr_chain], seq, (size_t)n * sizeof(*seq));
		a->nr_chain += (size_t)n;
	}
	return (int64_t)nr;
}

/*
 * One level of the graph: each path alive (nr) goes to its next frame's node below its
 * node, made in t when that node holds min_hit at least, else charged to its parent as
 * hidden and the path dropped; a path that ends charges its node's self. The paths alive
 * after it: how many, or -ENOMEM.
 */
static int64_t above_level(struct rv_entries *g, xpp_callgraph *t, struct above *a, size_t nr,
			   uint32_t depth, uint64_t min_hit)
{
	size_t m = 0, k = 0;
	uint32_t nl;

	xpp_cg_reset(a->level);
	for (size_t i = 0; i < nr; i++) {
		const uint32_t *c = &a->chain[a->at[i]];
		const struct rv_path *pa = &g->paths[c[0]];
		int64_t id;

		if (c[1] == depth) {
			if (xpp_cg_add_self(t, a->cur[i], pa->period, pa->count) < 0)
				return -ENOMEM;
			continue;
		}
		id = xpp_cg_child(a->level, a->cur[i], c[2 + depth]);
		if (id < 0 || XB_ARRAY_RESERVE(a->ln, a->cap_level, (size_t)id + 1, 256))
			return -ENOMEM;
		if ((size_t)id > k) { /* a new node: ids come in order */
			a->ln[id].period = a->ln[id].count = 0;
			k = (size_t)id;
		}
		a->ln[id].period += pa->period;
		a->ln[id].count += pa->count;
		a->at[m] = a->at[i];
		a->cur[m] = a->cur[i];
		a->cand[m++] = (uint32_t)id;
	}
	/* the level's nodes in the order the paths met them, as a whole graph makes them */
	nl = xpp_cg_nr_nodes(a->level);
	for (uint32_t id = 1; id < nl; id++) {
		struct above_node *x = &a->ln[id];
		uint32_t parent = xpp_cg_parent(a->level, id);
		int64_t n = 0;

		if (x->period >= min_hit)
			n = xpp_cg_child(t, parent, xpp_cg_key(a->level, id));
		else if (xpp_cg_add_hidden(t, parent, x->period, x->count) < 0)
			n = -ENOMEM;
		if (n < 0)
			return -ENOMEM;
		x->node = (uint32_t)n;
	}
	nr = 0;
	for (size_t i = 0; i < m; i++) {
		if (!a->ln[a->cand[i]].node)
			continue;
		a->at[nr] = a->at[i];
		a->cur[nr++] = a->ln[a->cand[i]].node;
	}
	return (int64_t)nr;
}

int rv_entry_chains_above(struct rv_entries *g, uint32_t e, xpp_callgraph *t, uint32_t *seq,
			  uint64_t min_hit)
{
	struct above a = { 0 };
	int64_t nr;
	int ret = -ENOMEM;

	if (!min_hit || !g->chains || !g->pair_off)
		return rv_entry_chains(g, e, t, seq);
	xpp_cg_reset(t);
	nr = above_chains(g, e, &a, seq);
	if (nr < 0)
		goto out;
	a.level = xpp_cg_create();
	a.cur = calloc((size_t)nr + 1, sizeof(*a.cur));
	a.cand = malloc(((size_t)nr + 1) * sizeof(*a.cand));
	if (!a.level || !a.cur || !a.cand)
		goto out;
	for (uint32_t depth = 0; nr > 0; depth++)
		if ((nr = above_level(g, t, &a, (size_t)nr, depth, min_hit)) < 0)
			goto out;
	ret = 0;
out:
	above_free(&a);
	return ret;
}

struct kid_sort {
	const struct rv_entries *g;
	const xpp_callgraph *t;
};

/* perf's match_chain order of a node's children: DSO (by the order perf made them, see
 * struct xpp_dso's made), then symbol start (an address without one), highest first (its
 * rb_root_in, read from the first) */
static int cmp_kids_perf(const void *pa, const void *pb, void *arg)
{
	const struct kid_sort *ks = arg;
	uint32_t fa = xpp_cg_node(ks->t, *(const uint32_t *)pa)->key;
	uint32_t fb = xpp_cg_node(ks->t, *(const uint32_t *)pb)->key;
	struct xpp_hist_key a = rv_frame_key(ks->g->c, 0, fa), b = rv_frame_key(ks->g->c, 0, fb);
	uint64_t va = a.addr, vb = b.addr;

	if (a.dso != b.dso) /* without a map (NULL to perf) lowest */
		return a.dso == XPP_HIST_NO_DSO ? 1 : b.dso == XPP_HIST_NO_DSO ? -1 :
		       xpp_dso_table_get(ks->g->c->dsos, a.dso)->made >
		       xpp_dso_table_get(ks->g->c->dsos, b.dso)->made ? -1 : 1;
	if (a.inl || b.inl) {
		char ba[64], bb[64];
		const char *na = rv_sym_or_addr(ks->g->c, &a, ba, sizeof(ba));
		const char *nb = rv_sym_or_addr(ks->g->c, &b, bb, sizeof(bb));

		return strcmp(nb, na);
	}
	if (a.sym >= 0 && b.sym >= 0 && a.dso != XPP_HIST_NO_DSO) {
		const struct xpp_dso *d = xpp_dso_table_get(ks->g->c->dsos, a.dso);

		va = d->syms.syms[a.sym].start;
		vb = d->syms.syms[b.sym].start;
	}
	return va > vb ? -1 : va < vb;
}

static int cmp_kids(const void *pa, const void *pb, void *arg)
{
	const struct kid_sort *ks = arg;
	const struct xpp_cg_node *a = xpp_cg_node(ks->t, *(const uint32_t *)pa);
	const struct xpp_cg_node *b = xpp_cg_node(ks->t, *(const uint32_t *)pb);

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	/* perf's ties keep its child order (cmp_kids_perf()) */
	return cmp_kids_perf(pa, pb, arg);
}

/* The children of node id with at least min_hit, sorted by cmp: a new array of *nr ids */
static uint32_t *chain_kids(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			    uint64_t min_hit, int (*cmp)(const void *, const void *, void *),
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
		if (xpp_cg_node(t, c)->period >= min_hit)
			k[(*nr)++] = c;
	qsort_r(k, *nr, sizeof(*k), cmp, &ks);
	return k;
}

uint32_t *rv_chain_kids(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			uint32_t *nr)
{
	const struct xpp_cg_node *parent = xpp_cg_node(t, id);
	uint64_t min_hit = g->min_hit;

	/* fractal: perf's __sort_chain_graph_rel, a share of the parent's callees */
	if (g->c->cg.mode == CG_FRACTAL)
		min_hit = (uint64_t)ceil((double)(parent->period - parent->self_period) *
					 (g->c->cg.threshold / 100.0));
	return chain_kids(g, t, id, min_hit, cmp_kids, nr);
}

uint32_t *rv_chain_kids_perf(const struct rv_entries *g, const xpp_callgraph *t, uint32_t id,
			     uint32_t *nr)
{
	return chain_kids(g, t, id, 0, cmp_kids_perf, nr);
}

uint32_t rv_chain_run_end(const xpp_callgraph *t, uint32_t id)
{
	const struct xpp_cg_node *n = xpp_cg_node(t, id);

	while (!n->self_count && !n->hidden && n->first_child &&
	       !xpp_cg_node(t, n->first_child)->next_sibling) {
		id = n->first_child;
		n = xpp_cg_node(t, id);
	}
	return id;
}
