/* perf's call-graph text of one entry at a time (graph, fractal, flat, folded): the stdio views'. */
#ifndef XPERF_VIEW_CG_PRINT_H
#define XPERF_VIEW_CG_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "view/rv.h"

/*
 * An event's call-graph view: its entries (rv_entries_build_top()), the columns of c, and the
 * scratch that holds one entry's chains at a time.
 */
struct rv_cgview {
	struct rv_ctx *c;
	const struct xpp_event *ev;
	struct rv_entries en;
	struct rv_cols v;
	xpp_callgraph *scratch;      /* one entry's chains */
	uint32_t *seq;
};

/*
 * Event idx of c's view into g, its first `limit` rows only (rv_entries_build_top(); 0:
 * all). 0 or -ENOMEM (g is then freed).
 */
int rv_cgview_init(struct rv_cgview *g, struct rv_ctx *c, uint32_t idx, size_t limit);
void rv_cgview_free(struct rv_cgview *g);

/*
 * The graph (or chains) of entry i of g->en as c->cg asks, as perf's
 * hist_entry_callchain__fprintf() prints them below the entry's line (unlocked writes:
 * a caller printing many may hold out's lock); nothing for -g none. 0 or -ENOMEM.
 */
int rv_cg_print_entry(struct rv_cgview *g, uint32_t i, FILE *out);

#endif
