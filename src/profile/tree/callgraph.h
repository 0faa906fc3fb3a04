/* The call tree of a report: one node per distinct call path, keyed by interned ids. */
#ifndef XPERF_REPORT_CALLGRAPH_H
#define XPERF_REPORT_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A tree of uint32_t keys: node 0 is the root, every other node is (parent, key) and is
 * stored once, so memory grows with the number of distinct paths, not with the samples.
 * A node's self period/count are the samples whose path ends there. Callers choose what a
 * key means (the stdio report puts a comm id under the root, then frame ids, outermost
 * caller first).
 *
 * Stored lean (issue 11: a profile where every sample has its own path must stay near 200
 * bytes a path): per node its (parent, key) and where its own samples are, plus, while
 * paths are added, its first child and a lookup table of the other children. The full
 * nodes below (children lists, depth, totals) are built on first use by xpp_cg_node(),
 * at about 56 bytes a node: fine for the small trees of a view, costly for a profile's
 * event trees with millions of distinct paths, which the lean accessors (xpp_cg_parent(),
 * xpp_cg_key(), xpp_cg_self()) read as they are.
 * A parent's id is always lower than its children's.
 */
struct xpp_cg_node {
	uint32_t parent, key;
	uint32_t first_child, next_sibling; /* 0: none (the root is nobody's child); the
					       children in reverse order of creation */
	uint32_t depth;                     /* the root is 0 */
	bool hidden;                        /* children left out (xpp_cg_add_hidden()) */
	uint64_t self_period, self_count;
	uint64_t period, count;             /* self plus every descendant's */
};

typedef struct xpp_callgraph xpp_callgraph;

xpp_callgraph *xpp_cg_create(void);
void xpp_cg_free(xpp_callgraph *g);

/*
 * The child of parent with this key, added if new: its id, or -ENOMEM. parent may also be
 * no node of g (a caller keeping pairs of another tree's node and a key): such a node is
 * only found again, it is no tree's child.
 */
int64_t xpp_cg_child(xpp_callgraph *g, uint32_t parent, uint32_t key);

/*
 * Add one path of n keys below the root, charging period and count samples to the last
 * node's self (and so to the totals of every node on the path). Returns the last node's id
 * (0 for n == 0) or -ENOMEM.
 */
int64_t xpp_cg_add_path(xpp_callgraph *g, const uint32_t *keys, size_t n, uint64_t period,
		    uint64_t count);

/* Charge period and count samples to node id's self, as xpp_cg_add_path() to its last node
 * (a path found again). Returns id or -ENOMEM. */
int64_t xpp_cg_add_self(xpp_callgraph *g, uint32_t id, uint64_t period, uint64_t count);

/*
 * Charge period and count samples to node id's totals, not its self: descendants a reader
 * does not want (a graph printed above a threshold) left out, their sum kept, and the
 * node's full form says that it has children not shown (`hidden`). 0 or -ENOMEM.
 */
int xpp_cg_add_hidden(xpp_callgraph *g, uint32_t id, uint64_t period, uint64_t count);

uint32_t xpp_cg_nr_nodes(const xpp_callgraph *g);

/*
 * Node id in full, NULL past the last. The first call after a change builds every node
 * (see above); the pointers stay valid until the next change of g.
 */
const struct xpp_cg_node *xpp_cg_node(const xpp_callgraph *g, uint32_t id);

/* Lean reads of node id (< xpp_cg_nr_nodes()): no full nodes are built. */
uint32_t xpp_cg_parent(const xpp_callgraph *g, uint32_t id);
uint32_t xpp_cg_key(const xpp_callgraph *g, uint32_t id);
/*
 * The keys from the root's child down to node id into keys[] (room for cap), outermost
 * first: the node's depth, or 0 when it exceeds cap (nothing written then).
 */
uint32_t xpp_cg_path(const xpp_callgraph *g, uint32_t id, uint32_t *keys, uint32_t cap);
/* A hint: xpp_cg_path(g, id) comes soon (readers of many scattered paths hide the misses). */
void xpp_cg_prefetch(const xpp_callgraph *g, uint32_t id);
/*
 * The tag and sequence number kept with a node's own samples when their first one is
 * charged (0 and UINT64_MAX until then): the thread of the sample that made the path,
 * which perf's entries keep (hist_entry->thread) and compare to break ties, and its rank
 * among the samples in perf's order (its first sample's, whatever order they are charged
 * in). 12 bytes a path with samples.
 */
void xpp_cg_set_tag(xpp_callgraph *g, uint32_t tag, uint64_t seq);
/* Node id's tag (0 without own samples), and in *seq (may be NULL) its sequence number. */
uint32_t xpp_cg_self_tag(const xpp_callgraph *g, uint32_t id, uint64_t *seq);

/* Whether node id has samples of its own, and how many (either pointer may be NULL). */
bool xpp_cg_self(const xpp_callgraph *g, uint32_t id, uint64_t *period, uint64_t *count);

/*
 * No more paths for now: drop what finds a node (its first child per node, the table of the
 * others: a quarter of the tree's memory). Adding again rebuilds it.
 */
void xpp_cg_freeze(xpp_callgraph *g);

/*
 * Multiply every node's own period and count by num/den, rounding down (a live view's
 * decay; den 0 zeroes them). The nodes stay, with their ids.
 */
void xpp_cg_scale(xpp_callgraph *g, uint32_t num, uint32_t den);

/* Forget every node but the root, keeping the memory (for per-entry scratch trees). */
void xpp_cg_reset(xpp_callgraph *g);

#endif
