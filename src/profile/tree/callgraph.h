/* The call tree of a report: one node per distinct call path, keyed by interned ids. */
#ifndef XPERF_REPORT_CALLGRAPH_H
#define XPERF_REPORT_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

/*
 * A tree of uint32_t keys: node 0 is the root, every other node is (parent, key) and is
 * stored once, so memory grows with the number of distinct paths, not with the samples.
 * A node's self period/count are the samples whose path ends there. Callers choose what a
 * key means (the stdio report puts a comm id under the root, then frame ids, outermost
 * caller first).
 */
struct xpp_cg_node {
	uint32_t parent, key;
	uint32_t first_child, next_sibling; /* 0: none (the root is nobody's child) */
	uint32_t depth;                     /* the root is 0 */
	uint64_t self_period, self_count;
	uint64_t period, count;             /* self plus every descendant's (cg_add_path) */
};

typedef struct xpp_callgraph xpp_callgraph;

xpp_callgraph *xpp_cg_create(void);
void xpp_cg_free(xpp_callgraph *g);

/* The child of parent with this key, added if new: its id, or -ENOMEM. */
int64_t xpp_cg_child(xpp_callgraph *g, uint32_t parent, uint32_t key);

/*
 * Add one path of n keys below the root, charging period and one sample to every node on
 * it and to the last node's self. Returns the last node's id (0 for n == 0) or -ENOMEM.
 */
int64_t xpp_cg_add_path(xpp_callgraph *g, const uint32_t *keys, size_t n, uint64_t period,
		    uint64_t count);

uint32_t xpp_cg_nr_nodes(const xpp_callgraph *g);
const struct xpp_cg_node *xpp_cg_node(const xpp_callgraph *g, uint32_t id);

/* Forget every node but the root, keeping the memory (for per-entry scratch trees). */
void xpp_cg_reset(xpp_callgraph *g);

#endif
