/* Call-graph views of the stdio report: entries, each with its chains (view/cg_print.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

static int print_rows(struct rv_cgview *g, FILE *out)
{
	const struct view_opts *o = g->c->o;
	struct rv_entries *en = &g->en;
	double total = (double)g->ev->total_period;
	size_t n;
	struct xpp_hist_rec *e;

	rv_widths(&g->v, en->h, en->rows, en->nr_rows);
	e = xpp_hist_recs(en->h, &n);
	if (!o->quiet) {
		stdio_print_event_head(g->c, (uint32_t)(g->ev - g->c->ev), out);
		stdio_print_titles(&g->v, out);
	}
	for (size_t r = 0; r < en->nr_rows; r++) {
		uint32_t i = en->rows[r];
		struct xpp_hist_key key = rv_entry_key(en, i);
		double children = total ? 100.0 * (double)e[i].period / total : 0;
		double self = total ? 100.0 * (double)en->self[i] / total : 0;

		if ((g->c->children ? children : self) < o->percent_limit)
			continue;
		stdio_print_row(&g->v, en, i, &key, out);
		if (rv_cg_print_entry(g, i, out) < 0)
			break;
	}
	fputs("\n\n", out);
	return 0;
}

int stdio_print_callgraph_event(struct rv_ctx *c, uint32_t idx, uint32_t nr_members, FILE *out)
{
	struct rv_cgview g;
	int ret = rv_cgview_init(&g, c, idx, 0);

	if (ret < 0)
		return ret;
	/* a million graph lines are output-bound: the printers write unlocked, under one lock */
	flockfile(out);
	if (nr_members > 1)
		ret = stdio_print_group_rows(&g, nr_members, out);
	else
		ret = print_rows(&g, out);
	funlockfile(out);
	rv_cgview_free(&g);
	return ret;
}
