/* perf's event groups in the stdio report: a group's events side by side in one section. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

uint32_t stdio_group_size(const struct rv_ctx *c, uint32_t idx, const char **name, bool *forced)
{
	const struct xpf_features *f = xpf_reader_features(c->r);

	*name = NULL;
	*forced = false;
	if (f->nr_groups) {
		for (uint32_t i = 0; i < f->nr_groups; i++) {
			const struct xpf_group_desc *g = &f->groups[i];
			uint32_t n = g->nr_members ? g->nr_members : 1;

			if (g->leader_idx + n > c->nr_ev || g->leader_idx + n < g->leader_idx)
				continue; /* names events the file does not have */
			if (g->leader_idx == idx) {
				/* "{anon_group}" is perf's name for a group without one */
				if (g->name && strcmp(g->name, "{anon_group}"))
					*name = g->name;
				return n;
			}
			if (idx > g->leader_idx && idx < g->leader_idx + n)
				return 0;
		}
		return 1;
	}
	/* perf's evlist__force_leader: --group or --no-group on a file without groups makes
	 * its events one group, led by the first */
	if (c->o->group < 0 || c->nr_ev < 2)
		return 1;
	*forced = true;
	return idx ? 0 : c->nr_ev;
}

bool stdio_group_view(const struct rv_ctx *c)
{
	return c->o->group > 0 || (c->o->group < 0 && xpf_reader_features(c->r)->nr_groups);
}

/* "# Samples: ..." of a group: its events' samples and counts summed, its description */
static void print_head(const struct rv_ctx *c, uint32_t lead, uint32_t n, FILE *out)
{
	const char *name;
	bool forced;
	uint64_t samples = 0, period = 0;
	char count[32], buf[96];

	stdio_group_size(c, lead, &name, &forced);
	for (uint32_t m = 0; m < n; m++) {
		samples += c->ev[lead + m].nr_samples;
		period += c->ev[lead + m].total_period;
	}
	rv_count_str(samples, count, sizeof(count));
	fprintf(out, "# Samples: %s of events '", count);
	if (!forced)
		fprintf(out, "%s { ", name ? name : "anon group");
	for (uint32_t m = 0; m < n; m++)
		fprintf(out, "%s%s", m ? ", " : "",
			rv_event_name(c, lead + m, buf, sizeof(buf)));
	fprintf(out, "%s'\n# Event count (approx.): %" PRIu64 "\n#\n", forced ? "" : " }", period);
}

static void dots(int n, FILE *out)
{
	while (n-- > 0)
		fputc('.', out);
}

/* perf's hpp__width_fn with event_group: each column as wide as its members together */
static void print_titles(const struct rv_cols *v, uint32_t n, bool nr_samples, FILE *out)
{
	fprintf(out, "# %*s", (int)(8 * n), "Overhead");
	if (nr_samples)
		fprintf(out, "  %*s", (int)(12 * n), "Samples");
	for (unsigned int i = 0; i < v->nr_cols; i++)
		fprintf(out, "  %-*s", v->width[i], rv_col_title(v->cols[i]));
	fputs("\n# ", out);
	dots((int)(8 * n), out);
	if (nr_samples)
		fputs("  ", out), dots((int)(12 * n), out);
	for (unsigned int i = 0; i < v->nr_cols; i++)
		fputs("  ", out), dots(v->width[i], out);
	fputs("\n#\n", out);
}

/* The union of the members' entries: per entry and member, the period and samples. */
struct group {
	const struct rv_ctx *c;
	uint32_t n;
	xpp_hist *u;
	uint64_t *period, *samples; /* [entry * n + member] */
	struct rv_cols v;
};

static int cmp_group_rows(const void *pa, const void *pb, void *arg)
{
	const struct group *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	size_t nr;
	const struct xpp_hist_entry *e = xpp_hist_entries(g->u, &nr);

	/* perf's __hpp__sort with event_group: the leader, then each member in turn */
	for (uint32_t m = 0; m < g->n; m++) {
		uint64_t va = g->period[(size_t)a * g->n + m], vb = g->period[(size_t)b * g->n + m];

		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return rv_cmp_keys(&e[a].key, &e[b].key, &g->v);
}

static int collect(struct group *g, uint32_t lead)
{
	size_t cap = 0, nr;

	for (uint32_t m = 0; m < g->n; m++)
		if (g->c->ev[lead + m].h && xpp_hist_entries(g->c->ev[lead + m].h, &nr))
			cap += nr;
	g->u = xpp_hist_create();
	g->period = calloc((cap + 1) * g->n, sizeof(*g->period));
	g->samples = calloc((cap + 1) * g->n, sizeof(*g->samples));
	if (!g->u || !g->period || !g->samples)
		return -ENOMEM;
	for (uint32_t m = 0; m < g->n; m++) {
		struct rv_entries en;
		const struct xpp_hist_entry *e;
		int ret;

		if (!g->c->ev[lead + m].nr_samples)
			continue;
		ret = rv_entries_build(&en, g->c, lead + m);
		if (ret < 0)
			return ret;
		e = xpp_hist_entries(en.h, &nr);
		for (size_t r = 0; r < en.nr_rows; r++) {
			const struct xpp_hist_entry *x = &e[en.rows[r]];
			int64_t id = xpp_hist_add_id(g->u, &x->key, 0, 0);

			if (id < 0 || (size_t)id >= cap) {
				rv_entries_free(&en);
				return id < 0 ? (int)id : -EOVERFLOW;
			}
			g->period[(size_t)id * g->n + m] += x->period;
			g->samples[(size_t)id * g->n + m] += x->nr_samples;
		}
		rv_entries_free(&en);
	}
	return 0;
}

int stdio_print_group(struct rv_ctx *c, uint32_t lead, uint32_t n, FILE *out)
{
	const struct report_stdio_opts *o = c->o;
	struct group g = { .c = c, .n = n };
	struct xpp_hist_entry *e = NULL;
	uint32_t *rows = NULL;
	size_t nr = 0;
	int ret = collect(&g, lead);

	if (!ret) {
		e = xpp_hist_entries(g.u, &nr);
		rows = malloc((nr + 1) * sizeof(*rows));
		if (!rows)
			ret = -ENOMEM;
	}
	if (ret < 0)
		goto out;
	for (size_t i = 0; i < nr; i++)
		rows[i] = (uint32_t)i;
	rv_cols_init(&g.v, c);
	rv_widths(&g.v, e, nr);
	qsort_r(rows, nr, sizeof(*rows), cmp_group_rows, &g);
	if (!o->quiet) {
		print_head(c, lead, n, out);
		print_titles(&g.v, n, o->show_nr_samples, out);
	}
	for (size_t i = 0; i < nr; i++) {
		const uint64_t *p = &g.period[(size_t)rows[i] * n];
		const uint64_t *s = &g.samples[(size_t)rows[i] * n];

		/* perf's percent limit reads the leader's share */
		if ((c->ev[lead].total_period ? 100.0 * (double)p[0] /
		     (double)c->ev[lead].total_period : 0) < o->percent_limit)
			continue;
		fputs("  ", out);
		for (uint32_t m = 0; m < n; m++) {
			uint64_t total = c->ev[lead + m].total_period;

			fprintf(out, " %6.2f%%", total ? 100.0 * (double)p[m] / (double)total : 0.0);
		}
		if (o->show_nr_samples) {
			fputs("  ", out);
			for (uint32_t m = 0; m < n; m++)
				fprintf(out, " %11" PRIu64, s[m]);
		}
		stdio_print_keys(&g.v, &e[rows[i]].key, out);
	}
	fputs("\n\n", out);
out:
	free(rows);
	free(g.period);
	free(g.samples);
	xpp_hist_free(g.u);
	return ret;
}
