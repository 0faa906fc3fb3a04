/* The call tree: nodes in one array, found by (parent, key) through the base slot table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/tree/callgraph.h"

struct xpp_callgraph {
	struct xpp_cg_node *n;
	uint32_t nr, cap;
	struct xb_slots index;  /* node id (the root, 0, is never looked up) */
};

static uint64_t edge_hash(uint32_t parent, uint32_t key)
{
	return xb_hash_u64((uint64_t)parent << 32 | key);
}

static uint64_t hash_of(const void *ctx, uint32_t id)
{
	const struct xpp_cg_node *n = &((const xpp_callgraph *)ctx)->n[id];

	return edge_hash(n->parent, n->key);
}

/* key: the node's parent and key, as two u32 */
static bool edge_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct xpp_cg_node *n = &((const xpp_callgraph *)ctx)->n[id];
	const uint32_t *k = key;

	return n->parent == k[0] && n->key == k[1];
}

xpp_callgraph *xpp_cg_create(void)
{
	xpp_callgraph *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->cap = 256;
	g->n = calloc(g->cap, sizeof(*g->n));
	if (!g->n) {
		xpp_cg_free(g);
		return NULL;
	}
	g->nr = 1;
	return g;
}

void xpp_cg_free(xpp_callgraph *g)
{
	if (!g)
		return;
	free(g->n);
	xb_slots_free(&g->index);
	free(g);
}

void xpp_cg_reset(xpp_callgraph *g)
{
	xb_slots_clear(&g->index);
	memset(&g->n[0], 0, sizeof(g->n[0]));
	g->nr = 1;
}

int64_t xpp_cg_child(xpp_callgraph *g, uint32_t parent, uint32_t key)
{
	const uint32_t edge[2] = { parent, key };
	struct xpp_cg_node *p;
	uint32_t *slot, id;

	if (xb_slots_reserve(&g->index, g->nr, hash_of, g))
		return -ENOMEM;
	slot = xb_slots_find(&g->index, edge_hash(parent, key), edge_eq, g, edge);
	if (*slot)
		return *slot;
	if (g->nr == g->cap && XB_ARRAY_RESERVE(g->n, g->cap, (size_t)g->nr + 1, 256))
		return -ENOMEM;
	id = g->nr++;
	p = &g->n[parent];
	g->n[id] = (struct xpp_cg_node){ .parent = parent, .key = key, .depth = p->depth + 1,
				     .next_sibling = p->first_child };
	p->first_child = id;
	*slot = id;
	return id;
}

int64_t xpp_cg_add_path(xpp_callgraph *g, const uint32_t *keys, size_t n, uint64_t period,
		    uint64_t count)
{
	uint32_t cur = 0;

	g->n[0].period += period;
	g->n[0].count += count;
	for (size_t i = 0; i < n; i++) {
		int64_t c = xpp_cg_child(g, cur, keys[i]);

		if (c < 0)
			return c;
		cur = (uint32_t)c;
		g->n[cur].period += period;
		g->n[cur].count += count;
	}
	g->n[cur].self_period += period;
	g->n[cur].self_count += count;
	return cur;
}

uint32_t xpp_cg_nr_nodes(const xpp_callgraph *g)
{
	return g->nr;
}

const struct xpp_cg_node *xpp_cg_node(const xpp_callgraph *g, uint32_t id)
{
	return id < g->nr ? &g->n[id] : NULL;
}
