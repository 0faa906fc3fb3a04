/* Columns of the symbolised views: names of a key's fields, widths, the tie-break order. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt_num.h"
#include "view/rv.h"

const char *rv_comm_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = xpp_intern_str(c->comms, k->comm);

	return s ? s : "";
}

const char *rv_dso_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const struct xpp_dso *d;

	/* perf shows (and sorts by) the long names of files with -v */
	if (c->o->verbose && k->dso != XPP_HIST_NO_DSO &&
	    (d = xpp_dso_table_get(c->dsos, k->dso)) && d->kind == XPP_DSO_USER)
		return d->long_name;
	return xpp_profile_dso_name(c->p, k);
}

const char *rv_sym_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	return xpp_profile_sym_name(c->p, k);
}

const char *rv_srcline_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = xpp_profile_srcline(c->p, k, false);

	return s ? s : "??:0";
}

const char *rv_sym_or_addr(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			   size_t size)
{
	const char *s = rv_sym_name(c, k);

	if (s)
		return s;
	/* perf's "%#.*llx": no 0x for zero (a report of unresolved addresses prints a million) */
	if (size >= XB_FMT_HEX_MAX + 2) {
		size_t n = k->addr ? 2 : 0;

		memcpy(buf, "0x", n);
		xb_fmt_hex(buf + n, k->addr, RV_UNRESOLVED_WIDTH);
		return buf;
	}
	snprintf(buf, size, "%s%0*" PRIx64, k->addr ? "0x" : "", RV_UNRESOLVED_WIDTH, k->addr);
	return buf;
}

struct xpp_hist_key rv_frame_key(const struct rv_ctx *c, uint32_t comm, uint32_t f)
{
	return xpp_profile_frame_key(c->p, comm, f);
}

const char *rv_frame_name(const struct rv_ctx *c, uint32_t f, char *buf, size_t size)
{
	/* the fields a name is read from, not the whole key: a graph prints one for each of
	   its lines, ten million of them for a profile of unresolved addresses (issue 20) */
	const struct xpp_hist_rec *r = xpp_profile_frame_rec(c->p, f);
	struct xpp_hist_key k;
	const char *s;

	k.dso = r->dso;
	k.sym = r->sym;
	k.inl = r->inl;
	if ((s = rv_sym_name(c, &k)))
		return s;
	snprintf(buf, size, "%#" PRIx64, r->addr);
	return buf;
}

const char *rv_col_title(unsigned int key)
{
	return key < RV_KEY_NR ? rv_keys[key].title : "";
}

const char *rv_col_text(const struct rv_ctx *c, const struct xpp_hist_key *k, unsigned int col,
			char *buf, size_t size)
{
	return col < RV_KEY_NR ? rv_keys[col].text(c, k, buf, size) : "";
}

const char *rv_col_filtered_to(const struct rv_ctx *c, unsigned int col, const char **what)
{
	const struct xpp_name_list *l = col == RV_KEY_COMM ? c->comm_filter :
					col == RV_KEY_DSO ? c->dso_filter :
					col == RV_KEY_SYM ? c->sym_filter : NULL;

	if (!l || l->nr != 1)
		return NULL;
	*what = col == RV_KEY_COMM ? "comm" : col == RV_KEY_DSO ? "dso" : "symbol";
	return l->names[0];
}

/* a filter down to one name makes its column say nothing: perf drops it (but for a level
 * of its --hierarchy) */
static bool col_dropped(const struct rv_ctx *c, unsigned int col)
{
	const char *what;

	return !c->o->hierarchy && rv_col_filtered_to(c, col, &what);
}

void rv_cols_init(struct rv_cols *v, const struct rv_ctx *c)
{
	memset(v, 0, sizeof(*v));
	v->c = c;
	for (unsigned int i = 0; i < c->nr_cols; i++)
		if (!col_dropped(c, c->cols[i]))
			v->cols[v->nr_cols++] = c->cols[i];
	if (c->nr_fields) {
		for (unsigned int i = 0; i < c->nr_fields; i++)
			if (!col_dropped(c, c->fields[i]))
				v->out[v->nr_out++] = c->fields[i];
		return;
	}
	/* perf's default fields: children, overhead, samples with -n, the period with
	   --show-total-period, then the keys */
	if (c->children)
		v->out[v->nr_out++] = RV_OUT_CHILDREN;
	v->out[v->nr_out++] = RV_OUT_OVERHEAD;
	if (c->o->show_nr_samples)
		v->out[v->nr_out++] = RV_OUT_SAMPLE;
	if (c->o->show_total_period)
		v->out[v->nr_out++] = RV_OUT_PERIOD;
	for (unsigned int i = 0; i < v->nr_cols; i++)
		v->out[v->nr_out++] = v->cols[i];
}

const char *rv_out_title(const struct rv_cols *v, unsigned int col)
{
	switch (col) {
	case RV_OUT_OVERHEAD: /* perf names it Self beside Children, unless -F says */
		return v->c->children && !v->c->nr_fields ? "Self" : "Overhead";
	case RV_OUT_SYS:
		return "sys";
	case RV_OUT_US:
		return "usr";
	case RV_OUT_GUEST_SYS:
		return "guest sys";
	case RV_OUT_GUEST_US:
		return "guest usr";
	case RV_OUT_CHILDREN:
		return "Children";
	case RV_OUT_SAMPLE:
		return "Samples";
	case RV_OUT_PERIOD:
		return "Period";
	default:
		return rv_col_title(col);
	}
}

int rv_out_width(const struct rv_cols *v, unsigned int col)
{
	if (col == RV_OUT_GUEST_SYS || col == RV_OUT_GUEST_US)
		return 9;
	if (col == RV_OUT_SAMPLE || col == RV_OUT_PERIOD)
		return 12;
	if (col >= RV_OUT_OVERHEAD)
		return 8;
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (v->cols[i] == col)
			return v->width[i];
	return 0;
}

int rv_cmp_col(const struct rv_ctx *c, const struct xpp_hist_key *ka,
	       const struct xpp_hist_key *kb, unsigned int col)
{
	return col < RV_KEY_NR ? rv_keys[col].cmp(c, ka, kb) : 0;
}

int rv_collapse_col(const struct rv_ctx *c, const struct xpp_hist_key *ka,
		    const struct xpp_hist_key *kb, unsigned int col)
{
	if (col >= RV_KEY_NR)
		return 0;
	return rv_keys[col].collapse ? rv_keys[col].collapse(c, ka, kb) : rv_keys[col].cmp(c, ka, kb);
}

int rv_sort_keys(const struct xpp_hist_key *ka, const struct xpp_hist_key *kb,
		 const struct rv_cols *v)
{
	for (unsigned int i = 0; i < v->nr_cols; i++) {
		const struct rv_key *k = v->cols[i] < RV_KEY_NR ? &rv_keys[v->cols[i]] : NULL;
		int r = k && k->sort ? k->sort(v->c, ka, kb) : rv_cmp_col(v->c, ka, kb, v->cols[i]);

		if (r)
			return r;
	}
	return 0;
}

int rv_cmp_keys(const struct xpp_hist_key *ka, const struct xpp_hist_key *kb,
		const struct rv_cols *v)
{
	/* perf's hist_entry__sort() by each key's se_sort, then the order entries were
	 * collapsed in (by se_cmp) */
	int r = rv_sort_keys(ka, kb, v);

	for (unsigned int i = 0; !r && i < v->nr_cols; i++)
		r = rv_collapse_col(v->c, ka, kb, v->cols[i]);
	return r;
}

/*
 * perf computes an entry's source line only when it compares two entries whose earlier
 * sort keys are equal (or prints it), so only the lines of entries sharing those keys with
 * another sample count for the column's width; the others are cut to it. Marks in
 * `counted` which entries count.
 */
static int srcline_counted(const struct rv_cols *v, const xpp_hist *h, const uint32_t *rows,
			   size_t n, bool *counted)
{
	unsigned int prefix = 0;
	xpp_hist *g = xpp_hist_create();
	struct xpp_hist_rec *ge, *e;
	size_t ng;

	if (!g)
		return -ENOMEM;
	for (unsigned int i = 0; i < v->nr_cols && v->cols[i] != RV_KEY_SRCLINE; i++)
		prefix |= rv_keys[v->cols[i]].fields;
	e = xpp_hist_recs(h, &ng);
	/* each key loaded in place (a million entries: no whole key made for each) */
	struct xpp_hist_key k;
	bool vals = true;

	for (size_t j = 0; j < n; j++) {
		vals = xpp_hist_key_load(h, rows ? rows[j] : j, &k, vals);
		xpp_hist_key_mask(&k, prefix);
		if (xpp_hist_add(g, &k, 0, e[rows ? rows[j] : j].nr_samples)) {
			xpp_hist_free(g);
			return -ENOMEM;
		}
	}
	for (size_t j = 0; j < n; j++) {
		int64_t id;

		vals = xpp_hist_key_load(h, rows ? rows[j] : j, &k, vals);
		xpp_hist_key_mask(&k, prefix);
		id = xpp_hist_add_id(g, &k, 0, 0);
		ge = xpp_hist_recs(g, &ng);
		counted[j] = id < 0 || ge[id].nr_samples >= 2;
	}
	xpp_hist_free(g);
	return 0;
}

void rv_widths(struct rv_cols *v, const xpp_hist *h, const uint32_t *rows, size_t n)
{
	bool unresolved = false, *counted = NULL, unres[RV_MAX_COLS] = { false };

	for (unsigned int i = 0; i < v->nr_cols; i++) {
		v->width[i] = (int)strlen(rv_col_title(v->cols[i]));
		if (rv_keys[v->cols[i]].width > v->width[i])
			v->width[i] = rv_keys[v->cols[i]].width;
		if (v->cols[i] == RV_KEY_SRCLINE && !counted &&
		    (counted = malloc((n + 1) * sizeof(*counted))) &&
		    srcline_counted(v, h, rows, n, counted) < 0) {
			free(counted);
			counted = NULL;
		}
	}
	struct xpp_hist_key k;
	bool vals = true;

	for (size_t j = 0; j < n; j++) {
		/* loaded in place: a view of a million entries reads each key once here */
		vals = xpp_hist_key_load(h, rows ? rows[j] : j, &k, vals);
		for (unsigned int i = 0; i < v->nr_cols; i++) {
			int w;

			if (v->cols[i] == RV_KEY_SRCLINE) {
				w = !counted || counted[j] ?
				    (int)strlen(rv_srcline_name(v->c, &k)) : 0;
			} else if (rv_keys[v->cols[i]].width) {
				w = 0; /* perf keeps the column's width: -1 prints wider */
			} else if (rv_keys[v->cols[i]].width_of) {
				w = rv_keys[v->cols[i]].width_of(v->c, &k);
				if (w == RV_WIDTH_UNRESOLVED)
					unres[i] = true;
			} else if (v->cols[i] != RV_KEY_SYM) {
				char buf[512];

				w = (int)strlen(rv_col_text(v->c, &k, v->cols[i], buf,
							    sizeof(buf)));
			} else {
				const char *s = rv_sym_name(v->c, &k);

				w = s ? (int)strlen(s) + 4 : RV_UNRESOLVED_WIDTH + 4 + 2;
				if (s && v->c->o->verbose)
					w += RV_VERBOSE_SYM_WIDTH;
				unresolved |= !s;
			}
			if (w > v->width[i])
				v->width[i] = w;
		}
	}
	free(counted);
	/* perf's hists__set_unres_dso_col_len(): the data DSO's [unknown] widens a column
	 * that no wide name widened (perf: none before it; taken here as none at all) */
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (unres[i] && v->width[i] < RV_UNRESOLVED_WIDTH)
			v->width[i] = RV_UNRESOLVED_WIDTH + 4 + 2;
	/* perf widens the Shared Object column for unresolved entries (no --dsos given) */
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (unresolved && v->cols[i] == RV_KEY_DSO && !v->c->dso_filter->nr &&
		    v->width[i] < RV_UNRESOLVED_WIDTH)
			v->width[i] = RV_UNRESOLVED_WIDTH;
}
