/* The call tree: nodes in one array, found by (parent, key) through open addressing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/tree/callgraph.h"

struct xpp_callgraph {
	struct xpp_cg_node *n;
	uint32_t nr, cap;
	uint32_t *slots;  /* node id per slot, 0 empty (the root is never looked up) */
	uint32_t nslots;  /* power of two */
};

static uint32_t slot_of(uint32_t parent, uint32_t key, uint32_t nslots)
{
	uint64_t h = ((uint64_t)parent << 32 | key) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 32) & (nslots - 1);
}

xpp_callgraph *xpp_cg_create(void)
{
	xpp_callgraph *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->cap = 256;
	g->n = calloc(g->cap, sizeof(*g->n));
	g->nslots = 1024;
	g->slots = calloc(g->nslots, sizeof(*g->slots));
	if (!g->n || !g->slots) {
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
	free(g->slots);
	free(g);
}

void xpp_cg_reset(xpp_callgraph *g)
{
	memset(g->slots, 0, g->nslots * sizeof(*g->slots));
	memset(&g->n[0], 0, sizeof(g->n[0]));
	g->nr = 1;
}

static int xpp_cg_grow_slots(xpp_callgraph *g)
{
	uint32_t n = g->nslots * 2;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s || n < g->nslots)
		return free(s), -ENOMEM;
	for (uint32_t i = 1; i < g->nr; i++) {
		uint32_t k = slot_of(g->n[i].parent, g->n[i].key, n);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = i;
	}
	free(g->slots);
	g->slots = s;
	g->nslots = n;
	return 0;
}

int64_t xpp_cg_child(xpp_callgraph *g, uint32_t parent, uint32_t key)
{
	struct xpp_cg_node *p;
	uint32_t s, id;

	if ((uint64_t)(g->nr + 1) * 2 > g->nslots && xpp_cg_grow_slots(g))
		return -ENOMEM;
	for (s = slot_of(parent, key, g->nslots); g->slots[s]; s = (s + 1) & (g->nslots - 1)) {
		const struct xpp_cg_node *c = &g->n[g->slots[s]];

		if (c->parent == parent && c->key == key)
			return g->slots[s];
	}
	if (g->nr == g->cap) {
		uint32_t cap = g->cap * 2;
		struct xpp_cg_node *n = cap > g->cap ? realloc(g->n, (size_t)cap * sizeof(*n)) : NULL;

		if (!n)
			return -ENOMEM;
		g->n = n;
		g->cap = cap;
	}
	id = g->nr++;
	p = &g->n[parent];
	g->n[id] = (struct xpp_cg_node){ .parent = parent, .key = key, .depth = p->depth + 1,
				     .next_sibling = p->first_child };
	p->first_child = id;
	g->slots[s] = id;
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
