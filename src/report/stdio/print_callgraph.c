/* Call-graph views of the stdio report: children/self entries and perf's graph and folded chains. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

/* One distinct call path of the event tree: frames outermost first, and its samples. */
struct path {
	uint32_t off, len, comm;
	uint64_t period, count;
};

/* An entry met on a path: where first and last, and whether it is the path's leaf. */
struct pair {
	uint32_t entry, path, first, last;
	bool leaf;
};

struct cgview {
	struct stdio_ctx *c;
	const struct xpp_event *ev;
	struct view v;
	struct path *paths;
	uint32_t nr_paths;
	uint32_t *frames;            /* the paths' frames, one pool */
	xpp_hist *entries;               /* collapsed keys; period/nr_samples are the children */
	uint64_t *self, *self_count; /* per entry */
	uint8_t *level;              /* per entry: what [.]/[k] shows (see collapse()) */
	struct pair *pairs;
	size_t nr_pairs;
	size_t *pair_off;            /* per entry: its pairs are pairs[pair_off[e]..[e + 1]) */
	uint32_t *order;             /* pairs sorted by entry */
	xpp_callgraph *scratch;          /* one entry's chains */
	uint32_t *seq;
	uint64_t min_hit;
	/* frames as chains tell them apart (see chain_frame()) */
	xpp_hist *chain_keys;
	uint32_t *chain_rep;         /* per chain key: the first frame id with it */
	uint32_t *frame_rep;         /* per frame id: its chain key's frame + 1, 0 unknown */
	size_t rep_cap, frame_cap;
};

static unsigned int key_mask(const struct stdio_ctx *c)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < c->nr_cols; i++)
		m |= c->cols[i];
	return m;
}

static struct xpp_hist_key collapse(const struct stdio_ctx *c, uint32_t comm, uint32_t f,
				unsigned int mask)
{
	struct xpp_hist_key k = stdio_frame_key(c, comm, f);

	xpp_hist_key_mask(&k, mask);
	/* perf's entries of one unmapped address are one, whatever their level: the first
	 * shows its own (kept beside the key) */
	if (k.dso == XPP_HIST_NO_DSO)
		k.level = 0;
	return k;
}

/* The paths of the event tree (nodes with samples of their own), frames into one pool. */
static int collect_paths(struct cgview *g)
{
	const xpp_callgraph *cg = g->ev->cg;
	uint32_t nr = xpp_cg_nr_nodes(cg);
	size_t pool = 0, at = 0;

	for (uint32_t i = 1; i < nr; i++)
		if (xpp_cg_node(cg, i)->self_count && xpp_cg_node(cg, i)->depth >= 2) {
			g->nr_paths++;
			pool += xpp_cg_node(cg, i)->depth - 1;
		}
	g->paths = calloc(g->nr_paths + 1, sizeof(*g->paths));
	g->frames = malloc((pool + 1) * sizeof(*g->frames));
	if (!g->paths || !g->frames)
		return -ENOMEM;
	g->nr_paths = 0;
	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *n = xpp_cg_node(cg, i);
		struct path *p;

		if (!n->self_count || n->depth < 2)
			continue;
		p = &g->paths[g->nr_paths++];
		p->off = (uint32_t)at;
		p->len = n->depth - 1;
		p->period = n->self_period;
		p->count = n->self_count;
		at += p->len;
		for (uint32_t j = p->len; j-- > 0; n = xpp_cg_node(cg, n->parent))
			g->frames[p->off + j] = n->key;
		p->comm = n->key;
	}
	return 0;
}

static int grow(void **a, size_t *cap, size_t need, size_t size)
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
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*a = p;
	*cap = n;
	return 0;
}

/* Growable per-entry arrays of aggregate(). */
struct agg {
	uint32_t *stamp, *slot;
	size_t cap, cap2, cap3, cap4, cap5, pcap;
};

/* Path p meets entry k at frame i (f): one pair per (entry, path); `leaf`: the sample's own. */
static int meet(struct cgview *g, struct agg *a, uint32_t p, uint32_t i, uint32_t f,
		const struct xpp_hist_key *k, bool leaf)
{
	const struct path *pa = &g->paths[p];
	int64_t id = xpp_hist_add_id(g->entries, k, 0, 0);
	size_t n;

	if (id < 0 || grow((void **)&a->stamp, &a->cap, (size_t)id + 1, sizeof(*a->stamp)) ||
	    grow((void **)&a->slot, &a->cap2, (size_t)id + 1, sizeof(*a->slot)) ||
	    grow((void **)&g->self, &a->cap3, (size_t)id + 1, sizeof(*g->self)) ||
	    grow((void **)&g->self_count, &a->cap4, (size_t)id + 1, sizeof(*g->self_count)) ||
	    grow((void **)&g->level, &a->cap5, (size_t)id + 1, sizeof(*g->level)) ||
	    grow((void **)&g->pairs, &a->pcap, g->nr_pairs + 1, sizeof(*g->pairs)))
		return -ENOMEM;
	if (!g->level[id])
		g->level[id] = (uint8_t)stdio_frame_key(g->c, 0, f).level;
	if (a->stamp[id] != p + 1) {
		struct xpp_hist_entry *e = &xpp_hist_entries(g->entries, &n)[id];

		a->stamp[id] = p + 1;
		a->slot[id] = (uint32_t)g->nr_pairs;
		g->pairs[g->nr_pairs++] = (struct pair){ (uint32_t)id, p, i, i, false };
		e->period += pa->period;
		e->nr_samples += pa->count;
	} else {
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
 * its frame as a caller of the inlined code has the line of the call.
 */
static int aggregate(struct cgview *g)
{
	unsigned int mask = key_mask(g->c);
	bool inlines = xpp_profile_inlines(g->c->p);
	struct agg a = { 0 };
	int ret = -ENOMEM;

	g->entries = xpp_hist_create();
	if (!g->entries)
		return -ENOMEM;
	for (uint32_t p = 0; p < g->nr_paths; p++) {
		const struct path *pa = &g->paths[p];
		const uint32_t *f = g->frames + pa->off;
		uint32_t self_i = pa->len - 1;

		while (inlines && self_i > 0 && stdio_frame_key(g->c, 0, f[self_i]).inl)
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
	}
	ret = 0;
out:
	free(a.stamp);
	free(a.slot);
	return ret;
}

/* pairs grouped by entry (a counting sort), so one entry's chains are one run */
static int group_pairs(struct cgview *g)
{
	size_t nr;

	xpp_hist_entries(g->entries, &nr);
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

static const char *frame_name(const struct cgview *g, uint32_t f, char *buf, size_t size)
{
	struct xpp_hist_key k = stdio_frame_key(g->c, 0, f);
	const char *s = stdio_sym_name(g->c, &k);

	if (s)
		return s;
	snprintf(buf, size, "%#" PRIx64, k.addr);
	return buf;
}

/*
 * The frame that stands for f in chains: perf's chains tell frames apart by function (with
 * -g srcline, by source line too), while frames differ by source line whenever the sort
 * keys have it, so frames equal but for that are one in a chain.
 */
static int64_t chain_frame(struct cgview *g, uint32_t f)
{
	struct xpp_hist_key k;
	int64_t id;

	if (!xpp_profile_srclines(g->c->p))
		return f; /* frames are what chains compare */
	if (f < g->frame_cap && g->frame_rep[f])
		return g->frame_rep[f] - 1;
	k = stdio_frame_key(g->c, 0, f);
	if (!g->c->cg.srcline)
		k.srcline = 0;
	else if (k.srcline & XPP_SRCLINE_FALLBACK)
		k.srcline = XPP_SRCLINE_FALLBACK; /* "??:0", whatever stood in for the line */
	if ((!g->chain_keys && !(g->chain_keys = xpp_hist_create())) ||
	    (id = xpp_hist_add_id(g->chain_keys, &k, 0, 0)) < 0 ||
	    grow((void **)&g->chain_rep, &g->rep_cap, (size_t)id + 1, sizeof(*g->chain_rep)) ||
	    grow((void **)&g->frame_rep, &g->frame_cap, (size_t)f + 1, sizeof(*g->frame_rep)))
		return -ENOMEM;
	if (!g->chain_rep[id])
		g->chain_rep[id] = f + 1;
	g->frame_rep[f] = g->chain_rep[id];
	return g->chain_rep[id] - 1;
}

/* A frame as chains show it: the name, with -g srcline its line, and perf's " (inlined)". */
static void print_frame(const struct cgview *g, uint32_t f, FILE *out)
{
	struct xpp_hist_key k = stdio_frame_key(g->c, 0, f);
	const char *line = g->c->cg.srcline ? xpp_profile_srcline(g->c->p, &k, true) : NULL;
	char buf[64];

	fputs(frame_name(g, f, buf, sizeof(buf)), out);
	if (line)
		fprintf(out, " %s", line);
	if (k.inl)
		fputs(" (inlined)", out);
}

/* The chains of entry e into the scratch tree, in the order perf shows them. */
static int build_chains(struct cgview *g, uint32_t e)
{
	bool caller = g->c->cg.order != 0;

	xpp_cg_reset(g->scratch);
	for (size_t j = g->pair_off[e]; j < g->pair_off[e + 1]; j++) {
		const struct pair *pr = &g->pairs[g->order[j]];
		const struct path *pa = &g->paths[pr->path];
		const uint32_t *f = g->frames + pa->off;
		uint32_t n = 0, from;

		if (!g->c->children && !pr->leaf)
			continue;
		/* a leaf keeps its whole chain: perf's self entry holds the full callchain */
		if (caller) {
			from = pr->leaf ? 0 : pr->first;
			for (uint32_t i = from; i < pa->len; i++)
				g->seq[n++] = f[i];
		} else {
			from = pr->leaf ? pa->len - 1 : pr->last;
			for (uint32_t i = from + 1; i-- > 0;)
				g->seq[n++] = f[i];
		}
		for (uint32_t i = 0; i < n; i++) {
			int64_t r = chain_frame(g, g->seq[i]);

			if (r < 0)
				return (int)r;
			g->seq[i] = (uint32_t)r;
		}
		if (xpp_cg_add_path(g->scratch, g->seq, n, pa->period, pa->count) < 0)
			return -ENOMEM;
	}
	return 0;
}

static void print_value(const struct cgview *g, uint64_t period, uint64_t count, FILE *out)
{
	if (g->c->cg.value == CG_COUNT)
		fprintf(out, "%" PRIu64, count);
	else if (g->c->cg.value == CG_PERIOD)
		fprintf(out, "%" PRIu64, period);
	else
		fprintf(out, "%.2f%%", g->ev->total_period ?
			period * 100.0 / (double)g->ev->total_period : 0.0);
}

static int cmp_self(const void *pa, const void *pb, void *arg)
{
	const struct xpp_cg_node *a = xpp_cg_node(arg, *(const uint32_t *)pa);
	const struct xpp_cg_node *b = xpp_cg_node(arg, *(const uint32_t *)pb);

	if (a->self_period != b->self_period)
		return a->self_period > b->self_period ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

struct kid_sort {
	const struct cgview *g;
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
	return strcmp(frame_name(ks->g, b->key, bb, sizeof(bb)),
		      frame_name(ks->g, a->key, ba, sizeof(ba)));
}

/* The children of node id with at least min_hit, most first: a new array (*nr of them). */
static uint32_t *kids_of(const struct cgview *g, uint32_t id, uint32_t *nr)
{
	const xpp_callgraph *t = g->scratch;
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

/*
 * perf's callchain nodes hold runs of entries: a run goes on through nodes with one child
 * and no samples of their own. The last node of the run starting at id.
 */
static uint32_t run_end(const xpp_callgraph *t, uint32_t id)
{
	const struct xpp_cg_node *n = xpp_cg_node(t, id);

	while (!n->self_count && n->first_child && !xpp_cg_node(t, n->first_child)->next_sibling) {
		id = n->first_child;
		n = xpp_cg_node(t, id);
	}
	return id;
}

static void margin(int left, FILE *out)
{
	fprintf(out, "            %*s", left, "");
}

static bool bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

/* perf's __callchain__fprintf_graph (absolute percentages): the branches below node id */
static size_t graph_level(struct cgview *g, uint32_t id, int depth, uint64_t mask, int left,
			  FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint64_t new_mask = mask;
	uint32_t nr, *k = kids_of(g, id, &nr);
	size_t lines = 0;

	for (uint32_t j = 0; k && j < nr; j++) {
		uint32_t end = run_end(t, k[j]), i = 0;

		if (j + 1 == nr && depth - 1 < 64)
			new_mask &= ~(1ULL << (depth - 1));
		margin(left, out);
		for (int d = 0; d < depth; d++)
			fputs(bit(mask, d) ? "|          " : "           ", out);
		fputc('\n', out);
		for (uint32_t x = k[j];; x = xpp_cg_node(t, x)->first_child, i++) {
			margin(left, out);
			for (int d = 0; d < depth; d++) {
				fputc(bit(new_mask, d) ? '|' : ' ', out);
				if (!i && d == depth - 1) {
					fputs("--", out);
					print_value(g, xpp_cg_node(t, k[j])->period,
						    xpp_cg_node(t, k[j])->count, out);
					fputs("--", out);
				} else {
					fputs("          ", out);
				}
			}
			print_frame(g, xpp_cg_node(t, x)->key, out);
			fputc('\n', out);
			lines += 2;
			if (x == end)
				break;
		}
		lines += graph_level(g, end, depth + 1,
				     new_mask | (depth < 64 ? 1ULL << depth : 0), left, out);
	}
	free(k);
	return lines;
}

/* perf's callchain__fprintf_graph: a single root holding all of the entry opens the graph */
static void print_graph(struct cgview *g, uint64_t parent, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint32_t nr, *k = kids_of(g, 0, &nr), root = 0;
	const char *sort = g->c->o->sort;
	bool skip_first = sort && !strncmp(sort, "sym", 3);
	size_t lines = 0;
	int left = 0;

	if (k && nr == 1 && xpp_cg_node(t, k[0])->period == parent) {
		uint32_t end = run_end(t, k[0]);
		bool printed = false;

		for (uint32_t x = k[0], i = 0;; x = xpp_cg_node(t, x)->first_child, i++) {
			if (!(i == 0 && skip_first)) {
				if (!printed) {
					margin(left, out);
					fputs("|\n", out);
					margin(left, out);
					fputs("---", out);
					left += 3;
					printed = true;
				} else {
					margin(left, out);
				}
				print_frame(g, xpp_cg_node(t, x)->key, out);
				fputc('\n', out);
				lines++;
			}
			if (x == end)
				break;
		}
		root = end;
	}
	free(k);
	lines += graph_level(g, root, 1, 1, left, out);
	if (lines)
		fputc('\n', out);
}

static void print_folded(struct cgview *g, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint32_t nr = xpp_cg_nr_nodes(t), *ids = malloc(nr * sizeof(*ids)), n = 0;

	if (!ids)
		return;
	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *x = xpp_cg_node(t, i);

		if (x->self_count && x->self_period >= g->min_hit)
			ids[n++] = i;
	}
	qsort_r(ids, n, sizeof(*ids), cmp_self, (void *)t);
	for (uint32_t i = 0; i < n; i++) {
		const struct xpp_cg_node *x = xpp_cg_node(t, ids[i]);
		uint32_t d = x->depth;

		print_value(g, x->self_period, x->self_count, out);
		fputc(' ', out);
		for (uint32_t j = 0; j < d; j++)
			g->seq[d - 1 - j] = x->key, x = xpp_cg_node(t, x->parent);
		for (uint32_t j = 0; j < d; j++) {
			if (j)
				fputc(';', out);
			print_frame(g, g->seq[j], out);
		}
		fputc('\n', out);
	}
	free(ids);
}

static bool dso_shown(const struct cgview *g, const struct xpp_hist_key *k)
{
	const struct xpp_name_list *f = g->c->dso_filter;
	const char *name = stdio_dso_name(g->c, k);

	for (uint32_t i = 0; i < f->nr; i++)
		if (!strcmp(f->names[i], name))
			return true;
	return !f->nr;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct cgview *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	size_t n;
	const struct xpp_hist_entry *e = xpp_hist_entries(g->entries, &n);
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
	return stdio_cmp_keys(&e[a].key, &e[b].key, &g->v);
}

static int print_rows(struct cgview *g, FILE *out)
{
	const struct report_stdio_opts *o = g->c->o;
	double total = (double)g->ev->total_period;
	size_t n, nrows = 0;
	struct xpp_hist_entry *e = xpp_hist_entries(g->entries, &n), *shown;
	uint32_t *rows = malloc((n + 1) * sizeof(*rows));

	shown = malloc((n + 1) * sizeof(*shown));
	if (!rows || !shown) {
		free(rows);
		free(shown);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if ((!g->c->children && !g->self[i]) || !dso_shown(g, &e[i].key))
			continue;
		shown[nrows] = e[i];
		rows[nrows++] = (uint32_t)i;
	}
	stdio_widths(&g->v, shown, nrows);
	qsort_r(rows, nrows, sizeof(*rows), cmp_rows, g);
	if (!o->quiet) {
		stdio_print_event_head(g->c, (uint32_t)(g->ev - g->c->ev), out);
		stdio_print_titles(&g->v, o->show_nr_samples, out);
	}
	for (size_t r = 0; r < nrows; r++) {
		uint32_t i = rows[r];
		struct xpp_hist_key key;
		double children = total ? 100.0 * (double)e[i].period / total : 0;
		double self = total ? 100.0 * (double)g->self[i] / total : 0;

		if ((g->c->children ? children : self) < o->percent_limit)
			continue;
		if (g->c->children)
			fprintf(out, "  %7.2f%%", children);
		fprintf(out, "  %7.2f%%", self);
		if (o->show_nr_samples)
			fprintf(out, "  %12" PRIu64,
				g->c->children ? e[i].nr_samples : g->self_count[i]);
		key = e[i].key;
		key.level = g->level[i];
		stdio_print_keys(&g->v, &key, out);
		if (g->c->cg.mode == CG_NONE)
			continue;
		if (build_chains(g, i) < 0)
			break;
		if (g->c->cg.mode == CG_FOLDED)
			print_folded(g, out);
		else
			print_graph(g, g->c->children ? e[i].period : g->self[i], out);
	}
	fputs("\n\n", out);
	free(rows);
	free(shown);
	return 0;
}

int stdio_print_callgraph_event(struct stdio_ctx *c, uint32_t idx, FILE *out)
{
	struct cgview g = { .c = c, .ev = &c->ev[idx] };
	uint32_t maxdepth = 1;
	int ret;

	stdio_view_init(&g.v, c);
	/* perf's min_callchain_hits: a u64 from the double */
	g.min_hit = (uint64_t)((double)g.ev->total_period * (c->cg.threshold / 100.0));
	ret = collect_paths(&g);
	for (uint32_t p = 0; p < g.nr_paths; p++)
		if (g.paths[p].len > maxdepth)
			maxdepth = g.paths[p].len;
	if (!ret)
		ret = aggregate(&g);
	if (!ret)
		ret = group_pairs(&g);
	if (!ret) {
		g.scratch = xpp_cg_create();
		g.seq = malloc((maxdepth + 1) * sizeof(*g.seq));
		if (!g.scratch || !g.seq)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = print_rows(&g, out);
	free(g.paths);
	free(g.frames);
	xpp_hist_free(g.entries);
	free(g.self);
	free(g.self_count);
	free(g.level);
	free(g.pairs);
	free(g.pair_off);
	free(g.order);
	xpp_cg_free(g.scratch);
	free(g.seq);
	xpp_hist_free(g.chain_keys);
	free(g.chain_rep);
	free(g.frame_rep);
	return ret;
}
