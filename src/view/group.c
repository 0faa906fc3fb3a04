/* perf's event groups: which events a group holds, and the union of its members' entries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/group.h"

uint32_t rv_group_size(const struct rv_ctx *c, uint32_t idx, const char **name, bool *forced)
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

bool rv_group_view(const struct rv_ctx *c)
{
	return !c->o->wall &&
	       (c->o->group > 0 || (c->o->group < 0 && xpf_reader_features(c->r)->nr_groups));
}

const char *rv_group_desc(const struct rv_ctx *c, uint32_t lead, uint32_t n, char *buf,
			  size_t size)
{
	const char *name;
	bool forced;
	size_t at = 0;
	char ev[96];

	rv_group_size(c, lead, &name, &forced);
	buf[0] = 0;
	if (!forced)
		at += (size_t)snprintf(buf, size, "%s { ", name ? name : "anon group");
	for (uint32_t m = 0; m < n && at < size; m++)
		at += (size_t)snprintf(buf + at, size - at, "%s%s", m ? ", " : "",
				       rv_event_name(c, lead + m, ev, sizeof(ev)));
	if (!forced && at < size)
		snprintf(buf + at, size - at, " }");
	return buf;
}

struct xpp_hist_key rv_group_key(const struct rv_group *g, uint32_t e)
{
	return xpp_hist_key_at(g->u, e);
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct rv_group *g = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct rv_group_val *va = rv_group_vals(g, a), *vb = rv_group_vals(g, b);

	/* perf's sort with event_group: Children of the leader (perf's __hpp__sort_acc has
	 * no members), then the leader's Self and each member's in turn */
	if (g->children && va[0].acc != vb[0].acc)
		return va[0].acc > vb[0].acc ? -1 : 1;
	if (g->children && g->lead_en->chains && g->lead_entry[a] != UINT32_MAX &&
	    g->lead_entry[b] != UINT32_MAX) {
		int r = rv_entry_cmp_depth(g->lead_en, g->lead_entry[a], g->lead_entry[b]);

		if (r)
			return r;
	}
	for (uint32_t m = 0; m < g->n; m++)
		if (va[m].self != vb[m].self)
			return va[m].self > vb[m].self ? -1 : 1;
	struct xpp_hist_key ka = rv_group_key(g, a), kb = rv_group_key(g, b);

	return rv_cmp_keys(&ka, &kb, &g->v);
}

/* Member m's rows into the union (the leader's first, all its entries, so that the union's
 * ids below its number of entries are the leader's). */
static int add_member(struct rv_group *g, const struct rv_entries *en, uint32_t m)
{
	size_t nr;
	const struct xpp_hist_rec *e = xpp_hist_recs(en->h, &nr);

	for (size_t r = 0; r < (m ? en->nr_rows : nr); r++) {
		uint32_t i = m ? en->rows[r] : (uint32_t)r;
		struct xpp_hist_key k = rv_entry_key(en, i);
		int64_t id = xpp_hist_add_id(g->u, &k, 0, 0);
		struct rv_group_val *v;

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
		int64_t id = xpp_hist_add_id(g->u, &k, 0, 0);

		if (id < 0 || (size_t)id >= g->cap)
			return id < 0 ? (int)id : -EOVERFLOW;
		g->shown[id] = true;
	}
	return 0;
}

/* The union of the group's entries, the leader's from g->lead_en. */
static int collect(struct rv_group *g)
{
	const struct rv_ctx *c = g->c;
	int ret = 0;

	g->cap = 0;
	for (uint32_t m = 0; m < g->n; m++)
		if (c->ev[g->lead + m].h)
			g->cap += xpp_hist_nr(c->ev[g->lead + m].h);
	/* chain entries (callers included) can outnumber the sample entries */
	g->cap += xpp_hist_nr(g->lead_en->h);
	for (uint32_t m = 1; g->lead_en->chains && m < g->n; m++)
		if (c->ev[g->lead + m].cg)
			g->cap += xpp_cg_nr_nodes(c->ev[g->lead + m].cg);
	g->u = xpp_hist_create();
	g->val = calloc((g->cap + 1) * g->n, sizeof(*g->val));
	g->lead_entry = malloc((g->cap + 1) * sizeof(*g->lead_entry));
	g->shown = calloc(g->cap + 1, sizeof(*g->shown));
	if (!g->u || !g->val || !g->lead_entry || !g->shown)
		return -ENOMEM;
	memset(g->lead_entry, 0xff, (g->cap + 1) * sizeof(*g->lead_entry));
	for (uint32_t m = 0; m < g->n && !ret; m++) {
		struct rv_entries en;

		if (!m) {
			ret = add_member(g, g->lead_en, 0);
			continue;
		}
		if (!c->ev[g->lead + m].nr_samples)
			continue;
		ret = rv_entries_build(&en, c, g->lead + m);
		if (ret < 0)
			return ret;
		ret = add_member(g, &en, m);
		rv_entries_free(&en);
	}
	return ret;
}

/* The shown entries, their columns' widths, sorted as perf sorts a group's. */
static int sort_rows(struct rv_group *g)
{
	size_t nr = xpp_hist_nr(g->u);

	g->rows = malloc((nr + 1) * sizeof(*g->rows));
	if (!g->rows)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		if (g->shown[i])
			g->rows[g->nr_rows++] = (uint32_t)i;
	rv_cols_init(&g->v, g->c);
	rv_widths(&g->v, g->u, g->rows, g->nr_rows);
	qsort_r(g->rows, g->nr_rows, sizeof(*g->rows), cmp_rows, g);
	return 0;
}

int rv_group_build(struct rv_group *g, const struct rv_entries *lead_en, uint32_t n)
{
	const struct rv_ctx *c = lead_en->c;
	int ret;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->lead_en = lead_en;
	g->lead = (uint32_t)(lead_en->ev - c->ev);
	g->n = n ? n : 1;
	g->children = lead_en->chains && c->children;
	for (uint32_t m = 0; m < g->n; m++) {
		g->nr_samples += c->ev[g->lead + m].nr_samples;
		g->total_period += c->ev[g->lead + m].total_period;
	}
	ret = collect(g);
	if (!ret)
		ret = sort_rows(g);
	if (ret)
		rv_group_free(g);
	return ret;
}

void rv_group_free(struct rv_group *g)
{
	free(g->val);
	free(g->lead_entry);
	free(g->shown);
	free(g->rows);
	xpp_hist_free(g->u);
	memset(g, 0, sizeof(*g));
}
