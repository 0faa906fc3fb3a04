/*
 * perf's --hierarchy (hists__hierarchy_insert_entry(), hierarchy_insert_output_entry()):
 * the rows sorted once by all the keys, so that each level's entries are runs of rows
 * within their parent's; then each level's siblings sorted as perf's output is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "view/hier.h"

struct node {
	uint32_t lo, hi;      /* its rows: idx[lo..hi) */
	uint32_t kid0, nkids; /* its children: nodes[kid0..kid0 + nkids) */
	uint32_t vi;          /* its rows' values summed: h->vals[vi * nr_vals ..] */
};

struct build {
	const struct rv_cols *v;
	const struct xpp_hist_key *keys;
	const uint64_t *vals;
	uint32_t nr_vals;
	uint32_t *idx;
	struct node *nodes;
	size_t nr_nodes;
	unsigned int level; /* of the siblings being sorted */
	struct rv_hier *h;
};

/* the rows as perf collapses them: by each key in turn */
static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct build *b = arg;
	uint32_t a = *(const uint32_t *)pa, c = *(const uint32_t *)pb;

	for (unsigned int i = 0; i < b->v->nr_cols; i++) {
		int r = rv_collapse_col(b->v->c, &b->keys[a], &b->keys[c], b->v->cols[i]);

		if (r)
			return r;
	}
	return a < c ? -1 : a > c;
}

/* value k of node n (its rows' summed) */
static uint64_t val(const struct build *b, const struct node *n, uint32_t k)
{
	return b->h->vals[(size_t)n->vi * b->nr_vals + k];
}

/* siblings as perf's output: the leader's value, most first, then the level's key */
static int cmp_sibs(const void *pa, const void *pb, void *arg)
{
	const struct build *b = arg;
	const struct node *x = pa, *y = pb;
	uint64_t vx = val(b, x, 0), vy = val(b, y, 0);
	unsigned int col = b->v->cols[b->level];
	const struct xpp_hist_key *kx = &b->keys[b->idx[x->lo]], *ky = &b->keys[b->idx[y->lo]];
	int r;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	/* a group's members next, in order (perf's __hpp__sort) */
	for (uint32_t k = 2; k < b->nr_vals; k += 2) {
		vx = val(b, x, k), vy = val(b, y, k);
		if (vx != vy)
			return vx > vy ? -1 : 1;
	}
	r = col < RV_KEY_NR && rv_keys[col].sort ? rv_keys[col].sort(b->v->c, kx, ky) :
						  rv_cmp_col(b->v->c, kx, ky, col);
	if (r)
		return r;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The level-`col` runs of idx[lo..hi) as new nodes; their count. */
static uint32_t split(struct build *b, uint32_t lo, uint32_t hi, unsigned int level)
{
	unsigned int col = b->v->cols[level];
	uint32_t n = 0;

	for (uint32_t i = lo; i < hi;) {
		uint32_t vi = (uint32_t)b->nr_nodes, j = i;
		uint64_t *sum = &b->h->vals[(size_t)vi * b->nr_vals];

		do {
			for (uint32_t k = 0; k < b->nr_vals; k++)
				sum[k] += b->vals[(size_t)b->idx[j] * b->nr_vals + k];
			j++;
		} while (j < hi && !rv_collapse_col(b->v->c, &b->keys[b->idx[i]],
						    &b->keys[b->idx[j]], col));
		b->nodes[b->nr_nodes++] = (struct node){ .lo = i, .hi = j, .vi = vi };
		n++;
		i = j;
	}
	return n;
}

/* Node id and its subtree into h's items, depth first. */
static void emit(struct build *b, uint32_t id, uint32_t depth)
{
	const struct node *n = &b->nodes[id];
	struct rv_hier_item *it = &b->h->items[b->h->nr];

	*it = (struct rv_hier_item){ .row = b->idx[n->lo], .depth = depth,
				     .val = &b->h->vals[(size_t)n->vi * b->nr_vals] };
	b->h->nr++;
	for (uint32_t k = 0; k < n->nkids; k++)
		emit(b, n->kid0 + k, depth + 1);
}

int rv_hier_build(struct rv_hier *h, const struct rv_cols *v, const struct xpp_hist_key *keys,
		  const uint64_t *vals, uint32_t nr_vals, size_t nr)
{
	struct build b = { .v = v, .keys = keys, .vals = vals, .nr_vals = nr_vals, .h = h };
	size_t cap = nr * (v->nr_cols ? v->nr_cols : 1);
	uint32_t level_start[RV_MAX_COLS + 1], nr_top;

	memset(h, 0, sizeof(*h));
	if (!nr || !v->nr_cols)
		return 0;
	b.idx = malloc(nr * sizeof(*b.idx));
	b.nodes = malloc(cap * sizeof(*b.nodes));
	h->items = malloc(cap * sizeof(*h->items));
	h->vals = calloc(cap * nr_vals, sizeof(*h->vals));
	if (!b.idx || !b.nodes || !h->items || !h->vals) {
		free(b.idx);
		free(b.nodes);
		rv_hier_free(h);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		b.idx[i] = (uint32_t)i;
	qsort_r(b.idx, nr, sizeof(*b.idx), cmp_rows, &b);

	level_start[0] = 0;
	nr_top = split(&b, 0, (uint32_t)nr, 0);
	level_start[1] = nr_top;
	for (unsigned int l = 1; l < v->nr_cols; l++) {
		for (uint32_t p = level_start[l - 1]; p < level_start[l]; p++) {
			struct node *pn = &b.nodes[p];

			pn->kid0 = (uint32_t)b.nr_nodes;
			pn->nkids = split(&b, pn->lo, pn->hi, l);
		}
		level_start[l + 1] = (uint32_t)b.nr_nodes;
	}
	/* each block of siblings sorted in place: a parent's kid0 names the block, which
	 * its children's own kid0 move with */
	b.level = 0;
	qsort_r(b.nodes, nr_top, sizeof(*b.nodes), cmp_sibs, &b);
	for (unsigned int l = 0; l + 1 < v->nr_cols; l++) {
		b.level = l + 1;
		for (uint32_t p = level_start[l]; p < level_start[l + 1]; p++)
			qsort_r(&b.nodes[b.nodes[p].kid0], b.nodes[p].nkids, sizeof(*b.nodes),
				cmp_sibs, &b);
	}
	for (uint32_t i = 0; i < nr_top; i++)
		emit(&b, i, 0);
	free(b.idx);
	free(b.nodes);
	return 0;
}

void rv_hier_free(struct rv_hier *h)
{
	free(h->items);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}
