/* perf's event groups in the stdio report: a group's events side by side in one section. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"
#include "view/group.h"

/* "# Samples: ..." of a group: its events' samples and counts summed, its description */
void stdio_print_group_head(const struct rv_group *g, FILE *out)
{
	char count[32], desc[512];

	rv_count_str(g->nr_samples, count, sizeof(count));
	fprintf(out, "# Samples: %s of events '%s'\n", count,
		rv_group_desc(g->c, g->lead, g->n, desc, sizeof(desc)));
	stdio_print_count(g->c, g->total_period, out);
}

static void dots(int n, FILE *out)
{
	while (n-- > 0)
		fputc('.', out);
}

/* perf's hpp__width_fn with event_group: each column as wide as its members together */
static void print_titles(const struct rv_group *g, bool nr_samples, bool period, FILE *out)
{
	int w = (int)(8 * g->n);

	if (g->children)
		fprintf(out, "# %*s  %*s", w, "Children", w, "Self");
	else
		fprintf(out, "# %*s", w, "Overhead");
	if (nr_samples)
		fprintf(out, "  %*s", (int)(12 * g->n), "Samples");
	if (period)
		fprintf(out, "  %*s", (int)(12 * g->n), "Period");
	for (unsigned int i = 0; i < g->v.nr_cols; i++)
		fprintf(out, "  %-*s", g->v.width[i], rv_col_title(g->v.cols[i]));
	fputs("\n# ", out);
	dots(w, out);
	if (g->children)
		fputs("  ", out), dots(w, out);
	if (nr_samples)
		fputs("  ", out), dots((int)(12 * g->n), out);
	if (period)
		fputs("  ", out), dots((int)(12 * g->n), out);
	for (unsigned int i = 0; i < g->v.nr_cols; i++)
		fputs("  ", out), dots(g->v.width[i], out);
	fputs("\n#\n", out);
}

/* Every row of g, in its order; with cg, each followed by the leader's graph of it. */
static int print_rows(const struct rv_group *g, struct rv_cgview *cg, FILE *out)
{
	const struct view_opts *o = g->c->o;
	uint64_t lead_total = g->c->ev[g->lead].total_period;
	int ret = 0;

	if (!o->quiet) {
		stdio_print_group_head(g, out);
		print_titles(g, o->show_nr_samples, o->show_total_period, out);
	}
	for (size_t r = 0; r < g->nr_rows && !ret; r++) {
		uint32_t e = g->rows[r];
		const struct rv_group_val *v = rv_group_vals(g, e);
		uint64_t lead = g->children ? v[0].acc : v[0].self;

		/* perf's percent limit reads the leader's share */
		if ((lead_total ? 100.0 * (double)lead / (double)lead_total : 0) < o->percent_limit)
			continue;
		for (int col = g->children ? 0 : 1; col < 2; col++) {
			fputs("  ", out);
			for (uint32_t m = 0; m < g->n; m++) {
				uint64_t total = g->c->ev[g->lead + m].total_period;
				uint64_t p = col ? v[m].self : v[m].acc;

				fprintf(out, " %6.2f%%", total ? 100.0 * (double)p / (double)total : 0.0);
			}
		}
		if (o->show_nr_samples) {
			fputs("  ", out);
			/* perf counts an entry's own samples, with --children too */
			for (uint32_t m = 0; m < g->n; m++)
				fprintf(out, " %11" PRIu64, v[m].self_n);
		}
		if (o->show_total_period) {
			fputs("  ", out);
			/* perf's period column is the own period, with --children too */
			for (uint32_t m = 0; m < g->n; m++)
				fprintf(out, " %11" PRIu64, v[m].self);
		}
		struct xpp_hist_key k = rv_group_key(g, e);

		stdio_print_keys(&g->v, &k, out);
		/* a member's entry the leader lacks has no chains, as perf's linked dummy */
		if (cg && g->lead_entry[e] != UINT32_MAX)
			ret = rv_cg_print_entry(cg, g->lead_entry[e], out);
	}
	fputs("\n\n", out);
	return ret;
}

int stdio_print_group(struct rv_ctx *c, uint32_t lead, uint32_t n, FILE *out)
{
	struct rv_entries en;
	struct rv_group g;
	int ret = rv_entries_build(&en, c, lead);

	if (ret < 0)
		return ret;
	ret = rv_group_build(&g, &en, n);
	if (!ret)
		ret = print_rows(&g, NULL, out);
	rv_group_free(&g);
	rv_entries_free(&en);
	return ret;
}

int stdio_print_group_rows(struct rv_cgview *cg, uint32_t n, FILE *out)
{
	struct rv_group g;
	int ret = rv_group_build(&g, &cg->en, n);

	if (!ret)
		ret = print_rows(&g, cg, out);
	rv_group_free(&g);
	return ret;
}
