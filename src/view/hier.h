/* perf's --hierarchy: the sort keys as levels of a tree, each level's entries summed. */
#ifndef XPERF_VIEW_HIER_H
#define XPERF_VIEW_HIER_H

#include <stddef.h>
#include <stdint.h>

#include "view/rv.h"

/* One line of the tree: a level's entry, in the order perf prints them (depth first). */
struct rv_hier_item {
	uint32_t row;        /* a row of the level's entry (its key shows the level's value) */
	uint32_t depth;      /* 0: the first key's level */
	const uint64_t *val; /* its rows' values summed (nr_vals of them) */
};

struct rv_hier {
	struct rv_hier_item *items;
	size_t nr;
	uint64_t *vals;
};

/*
 * The tree of nr rows (keys[i] the key of row i, vals[i * nr_vals ..] its values) by the
 * keys of v->cols, a level each; siblings by their first value (most first), then values
 * 2, 4, ... (a group's members' periods, as perf's __hpp__sort), then the level's key as
 * perf's se_sort. Each row is a distinct entry of the last level. The cost is one sort of
 * the rows and one of each level's siblings, nothing per entry beyond its levels. 0 or
 * -ENOMEM.
 */
int rv_hier_build(struct rv_hier *h, const struct rv_cols *v, const struct xpp_hist_key *keys,
		  const uint64_t *vals, uint32_t nr_vals, size_t nr);
void rv_hier_free(struct rv_hier *h);

#endif
