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
	if (c->o->wall)
		return 1; /* its events are one already */
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
	return !c->o->wall &&
	       (c->o->group > 0 || (c->o->group < 0 && xpf_reader_features(c->r)->nr_groups));
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

/*
 * The union of the members' entries: per entry and member, the period with callees
 * (children) and without (self), and their samples.
 */
struct group {
	const struct rv_ctx *c;
	uint32_t lead, n;
	bool children;          /* the Children and Self columns */
	const struct rv_entries *lead_en; /* with call graphs: the leader's entries */
	xpp_hist *u;
	struct val { uint64_t acc, self, self_n; } *val; /* [entry * n + member] */
	uint32_t *lead_entry;   /* per entry: the leader's entry id, UINT32_MAX none */
	bool *shown;            /* per entry: a row of some member */
	size_t cap;
	struct rv_cols v;
};

/* perf's hpp__width_fn with event_group: each column as wide as its members together */
static void print_titles(const struct group *g, bool nr_samples, FILE *out)
{
	int w = (int)(8 * g->n);

	if (g->children)
		fprintf(out, "# %*s  %*s", w, "Children", w, "Self");
	else
		fprintf(out, "# %*s", w, "Overhead");
	if (nr_samples)
		fprintf(out, "  %*s", (int)(12 * g->n), "Samples");
	for (unsigned int i = 0; i < g->v.nr_cols; i++)
		fprintf(out, "  %-*s", g->v.width[i], rv_col_title(g->v.cols[i]));
	fputs("\n# ", out);
	dots(w, out);
	if (g->children)
		fputs("  ", out), dots(w, out);
	if (nr_samples)
		fputs("  ", out), dots((int)(12 * g->n), out);
	for (unsigned int i = 0; i < g->v.nr_cols; i++)
		fputs("  ", out), dots(g->v.width[i], out);
	fputs("\n#\n", out);
}

static int cmp_group_rows(const void *pa, const void *pb, void *arg)
{
	const struct group *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct val *va = &g->val[(size_t)a * g->n], *vb = &g->val[(size_t)b * g->n];
	size_t nr;
	const struct xpp_hist_entry *e = xpp_hist_entries(g->u, &nr);

	/* perf's sort with event_group: Children of the leader (perf's __hpp__sort_acc has
	 * no members), then the leader's Self and each member's in turn */
	if (g->children && va[0].acc != vb[0].acc)
		return va[0].acc > vb[0].acc ? -1 : 1;
	if (g->children && g->lead_en && g->lead_entry[a] != UINT32_MAX &&
	    g->lead_entry[b] != UINT32_MAX) {
		int r = rv_entry_cmp_depth(g->lead_en, g->lead_entry[a], g->lead_entry[b]);

		if (r)
			return r;
	}
	for (uint32_t m = 0; m < g->n; m++)
		if (va[m].self != vb[m].self)
			return va[m].self > vb[m].self ? -1 : 1;
	return rv_cmp_keys(&e[a].key, &e[b].key, &g->v);
}

/* Member m's rows into the union (the leader's first, all its entries, so that the union's
 * ids below its number of entries are the leader's). */
static int add_member(struct group *g, const struct rv_entries *en, uint32_t m)
{
	size_t nr;
	const struct xpp_hist_entry *e = xpp_hist_entries(en->h, &nr);

	for (size_t r = 0; r < (m ? en->nr_rows : nr); r++) {
		uint32_t i = m ? en->rows[r] : (uint32_t)r;
		struct xpp_hist_key k = rv_entry_key(en, i);
		int64_t id = xpp_hist_add_id(g->u, &k, 0, 0);
		struct val *v;

		if (id < 0 || (size_t)id >= g->cap)
			return id < 0 ? (int)id : -EOVERFLOW;
		v = &g->val[(size_t)id * g->n + m];
		v->acc += e[i].period;
		v->self += en->self[i];
		v->self_n += en->self_count[i];
		if (!m)
			g->lead_entry[id] = i;
	}
	for (size_t r = 0; r < en->nr_rows; r++) {
		struct xpp_hist_key k = rv_entry_key(en, en->rows[r]);

		g->shown[xpp_hist_add_id(g->u, &k, 0, 0)] = true;
	}
	return 0;
}

/* The union of the group's entries, the leader's from lead_en. */
static int collect(struct group *g, const struct rv_entries *lead_en)
{
	size_t nr;
	int ret = 0;

	g->cap = 0;
	for (uint32_t m = 0; m < g->n; m++)
		if (g->c->ev[g->lead + m].h && xpp_hist_entries(g->c->ev[g->lead + m].h, &nr))
			g->cap += nr;
	/* chain entries (callers included) can outnumber the sample entries */
	if (lead_en)
		g->cap += xpp_hist_entries(lead_en->h, &nr) ? nr : 0;
	for (uint32_t m = 1; lead_en && m < g->n; m++)
		if (g->c->ev[g->lead + m].cg)
			g->cap += xpp_cg_nr_nodes(g->c->ev[g->lead + m].cg);
	g->u = xpp_hist_create();
	g->val = calloc((g->cap + 1) * g->n, sizeof(*g->val));
	g->lead_entry = malloc((g->cap + 1) * sizeof(*g->lead_entry));
	g->shown = calloc(g->cap + 1, sizeof(*g->shown));
	if (!g->u || !g->val || !g->lead_entry || !g->shown)
		return -ENOMEM;
	memset(g->lead_entry, 0xff, (g->cap + 1) * sizeof(*g->lead_entry));
	for (uint32_t m = 0; m < g->n && !ret; m++) {
		struct rv_entries en;

		if (!m && lead_en) {
			ret = add_member(g, lead_en, 0);
			continue;
		}
		if (!g->c->ev[g->lead + m].nr_samples)
			continue;
		ret = rv_entries_build(&en, g->c, g->lead + m);
		if (ret < 0)
			return ret;
		ret = add_member(g, &en, m);
		rv_entries_free(&en);
	}
	return ret;
}

static void group_free(struct group *g)
{
	free(g->val);
	free(g->lead_entry);
	free(g->shown);
	xpp_hist_free(g->u);
}

/* Every row of g, sorted, printed; with cg, each followed by the leader's graph of it. */
static int print_rows(struct group *g, struct cgview *cg, FILE *out)
{
	const struct view_opts *o = g->c->o;
	uint64_t lead_total = g->c->ev[g->lead].total_period;
	struct xpp_hist_entry *e, *shown;
	uint32_t *rows;
	size_t nr, nrows = 0;
	int ret = 0;

	e = xpp_hist_entries(g->u, &nr);
	rows = malloc((nr + 1) * sizeof(*rows));
	shown = malloc((nr + 1) * sizeof(*shown));
	if (!rows || !shown) {
		free(rows);
		free(shown);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		if (g->shown[i])
			shown[nrows] = e[i], rows[nrows++] = (uint32_t)i;
	rv_cols_init(&g->v, g->c);
	rv_widths(&g->v, shown, nrows);
	free(shown);
	qsort_r(rows, nrows, sizeof(*rows), cmp_group_rows, g);
	if (!o->quiet) {
		print_head(g->c, g->lead, g->n, out);
		print_titles(g, o->show_nr_samples, out);
	}
	for (size_t r = 0; r < nrows && !ret; r++) {
		const struct val *v = &g->val[(size_t)rows[r] * g->n];
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
		stdio_print_keys(&g->v, &e[rows[r]].key, out);
		/* a member's entry the leader lacks has no chains, as perf's linked dummy */
		if (cg && g->lead_entry[rows[r]] != UINT32_MAX)
			ret = stdio_cg_entry(cg, g->lead_entry[rows[r]], out);
	}
	fputs("\n\n", out);
	free(rows);
	return ret;
}

int stdio_print_group(struct rv_ctx *c, uint32_t lead, uint32_t n, FILE *out)
{
	struct group g = { .c = c, .lead = lead, .n = n };
	int ret = collect(&g, NULL);

	if (!ret)
		ret = print_rows(&g, NULL, out);
	group_free(&g);
	return ret;
}

int stdio_print_group_rows(struct cgview *cg, uint32_t n, FILE *out)
{
	struct group g = { .c = cg->c, .lead = (uint32_t)(cg->ev - cg->c->ev), .n = n,
			   .children = cg->c->children, .lead_en = &cg->en };
	int ret = collect(&g, &cg->en);

	if (!ret)
		ret = print_rows(&g, cg, out);
	group_free(&g);
	return ret;
}
