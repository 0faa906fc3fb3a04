/* perf's event groups in the views: which events a group holds, and its entries side by side. */
#ifndef XPERF_VIEW_GROUP_H
#define XPERF_VIEW_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "view/rv.h"

/*
 * The size of the group event idx leads: 1 alone, 0 when it is a member of another's; *name
 * its group's name (NULL: perf's "anon group"), *forced when --group or --no-group made all
 * events one group (perf's evlist__force_leader).
 */
uint32_t rv_group_size(const struct rv_ctx *c, uint32_t idx, const char **name, bool *forced);
/* Whether groups are shown side by side: --group, or by default when the file has groups. */
bool rv_group_view(const struct rv_ctx *c);
/*
 * The events of the group of n from lead as perf's titles name them: "anon group { a, b }"
 * (a forced group: "a, b"), in buf.
 */
const char *rv_group_desc(const struct rv_ctx *c, uint32_t lead, uint32_t n, char *buf,
			  size_t size);

/* One member's values of an entry of a group. */
struct rv_group_val {
	uint64_t acc;           /* with its callees (children) */
	uint64_t self;          /* its own */
	uint64_t self_n;        /* its own samples */
};

/*
 * A group's entries side by side, as perf's event_group view: the union of its members'
 * entries (the leader's first, all of them, so that an entry id below the leader's number
 * of entries is the leader's entry of that id: its chains are the leader's), each with every
 * member's values, sorted as perf sorts them. Read-only once built.
 */
struct rv_group {
	const struct rv_ctx *c;
	const struct rv_entries *lead_en; /* borrowed: the leader's entries */
	uint32_t lead, n;
	bool children;          /* the Children and Self columns */
	xpp_hist *u;            /* the union's keys, an entry id each */
	struct rv_group_val *val; /* [entry * n + member] */
	uint32_t *lead_entry;   /* per entry: the leader's entry id, UINT32_MAX none */
	bool *shown;            /* per entry: a row of some member */
	size_t cap;
	struct rv_cols v;       /* the columns, widths over the shown entries */
	uint32_t *rows;         /* the shown entries in perf's order */
	size_t nr_rows;
	uint64_t nr_samples, total_period; /* the members' together */
};

/*
 * The group of n events led by the event of lead_en (its entries, borrowed: they must
 * outlive g). 0 or -ENOMEM (g is then freed).
 */
int rv_group_build(struct rv_group *g, const struct rv_entries *lead_en, uint32_t n);
void rv_group_free(struct rv_group *g);

/* Entry e's values, n of them (member order). */
static inline const struct rv_group_val *rv_group_vals(const struct rv_group *g, uint32_t e)
{
	return &g->val[(size_t)e * g->n];
}

/* Entry e's key, as the views show it (with its level). */
struct xpp_hist_key rv_group_key(const struct rv_group *g, uint32_t e);

#endif
