/*
 * perf report --hierarchy in the stdio view (perf's print_hierarchy_header() and
 * hist_entry__hierarchy_fprintf()): the sort keys as levels of a tree (view/hier.h), one
 * column titled "Command / Shared Object / Symbol", each level indented by 3 more columns,
 * with call graphs below the last level's entries.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt_num.h"
#include "report/stdio/stdio_int.h"
#include "view/group.h"
#include "view/hier.h"

#define INDENT 3 /* perf's HIERARCHY_INDENT */

static void blanks(size_t n, FILE *out)
{
	while (n--)
		fputc_unlocked(' ', out);
}

static void dots(size_t n, FILE *out)
{
	while (n--)
		fputc_unlocked('.', out);
}

/* What one section prints: its keys, members and the metrics beside the key column. */
struct hview {
	const struct rv_ctx *c;
	const struct rv_cols *v;
	uint32_t lead, n;
	const struct rv_entries *en; /* an event's entries (-v's prefix), NULL for a group */
};

static void print_titles(const struct hview *h, FILE *out)
{
	const struct view_opts *o = h->c->o;
	size_t ind = (h->v->nr_cols - 1) * INDENT, hw = 0, jw = 0;
	int ow = (int)(8 * h->n), cw = (int)(12 * h->n);

	fputs_unlocked("# ", out);
	blanks(ind, out);
	fprintf(out, "%*s  ", ow, "Overhead");
	if (o->show_nr_samples)
		fprintf(out, "%*s  ", cw, "Samples");
	if (o->show_total_period)
		fprintf(out, "%*s  ", cw, "Period");
	/* the levels' titles joined by " / " */
	for (unsigned int i = 0; i < h->v->nr_cols; i++) {
		const char *t = rv_col_title(h->v->cols[i]);
		size_t lw = i * INDENT + (size_t)rv_out_width(h->v, h->v->cols[i]), tl;

		/* perf strims the titles ("    Pid:Command" is Pid's) */
		while (*t == ' ')
			t++;
		for (tl = strlen(t); tl && t[tl - 1] == ' '; tl--)
			;
		jw += (i ? 3 : 0) + tl;
		fprintf(out, "%s%.*s", i ? " / " : "", (int)tl, t);
		if (lw > hw)
			hw = lw;
	}
	if (jw > hw)
		hw = jw;
	fputs_unlocked("\n# ", out);
	dots(ind + (size_t)ow, out);
	if (o->show_nr_samples)
		fputs_unlocked("..", out), dots((size_t)cw, out);
	if (o->show_total_period)
		fputs_unlocked("..", out), dots((size_t)cw, out);
	fputs_unlocked("  ", out);
	dots(hw, out);
	fputs_unlocked("\n#\n", out);
}

/*
 * A level's value as perf's se_snprintf() writes it at the column's width, its leading
 * blanks skipped: left-aligned keys keep their padding, the symbol and cut keys have none.
 */
static void print_key(const struct rv_cols *v, unsigned int col, const struct xpp_hist_key *k,
		      const char *prefix, FILE *out)
{
	size_t width = (size_t)rv_out_width(v, col), len;
	char buf[512];
	const char *s;

	if (col == RV_KEY_SYM) {
		s = rv_sym_or_addr(v->c, k, buf, sizeof(buf));
		if (prefix)
			fputs_unlocked(prefix, out);
		fputc_unlocked('[', out);
		fputc_unlocked((char)k->level, out);
		fputs_unlocked("] ", out);
		fputs_unlocked(s, out);
		if (k->inl)
			fputs_unlocked(" (inlined)", out);
		return;
	}
	s = col == RV_KEY_SRCLINE ? rv_srcline_name(v->c, k) : rv_col_text(v->c, k, col, buf,
									      sizeof(buf));
	len = col == RV_KEY_SRCLINE || rv_keys[col].align == RV_CUT ? strnlen(s, width) :
								      strlen(s);
	size_t pad = col != RV_KEY_SRCLINE && rv_keys[col].align == RV_LEFT && width > len ?
		     width - len : 0;

	while (len && *s == ' ')
		s++, len--;
	fwrite_unlocked(s, 1, len, out);
	blanks(pad, out);
}

static void print_item(const struct hview *h, const struct rv_hier_item *it,
		       const struct xpp_hist_key *k, uint32_t entry, FILE *out)
{
	const struct view_opts *o = h->c->o;
	unsigned int col = h->v->cols[it->depth];
	char num[XB_FMT_NUM_MAX + 1], pbuf[64];
	/* -v: perf's address and origin before the symbol, as in the flat view */
	const char *prefix = col == RV_KEY_SYM && h->en ?
			     rv_entry_sym_prefix(h->en, entry, pbuf, sizeof(pbuf)) : NULL;
	size_t n;

	blanks(it->depth * INDENT, out);
	fputs_unlocked("  ", out);
	for (uint32_t m = 0; m < h->n; m++) {
		uint64_t total = h->c->ev[h->lead + m].total_period;

		n = xb_fmt_fixed2(num, total ? 100.0 * (double)it->val[2 * m] / (double)total : 0);
		num[n++] = '%';
		blanks(n < 8 ? 8 - n : 0, out);
		fwrite_unlocked(num, 1, n, out);
	}
	for (int col = 0; col < 2; col++) {
		if (!(col ? o->show_total_period : o->show_nr_samples))
			continue;
		fputs_unlocked("  ", out);
		for (uint32_t m = 0; m < h->n; m++) {
			n = xb_fmt_u64(num, it->val[2 * m + (col ? 0 : 1)]);
			blanks(n < 12 ? 12 - n : 0, out);
			fwrite_unlocked(num, 1, n, out);
		}
	}
	blanks((h->v->nr_cols - 1) * INDENT, out);
	fputs_unlocked("  ", out);
	print_key(h->v, col, k, prefix, out);
	fputc_unlocked('\n', out);
}

static double share(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

/* perf's hists__overhead_width(): the metric columns, 2 apart */
static size_t overhead_width(const struct hview *h)
{
	size_t w = 8 * h->n;

	if (h->c->o->show_nr_samples)
		w += 2 + 12 * h->n;
	if (h->c->o->show_total_period)
		w += 2 + 12 * h->n;
	return w;
}

/*
 * The tree of nr rows (keys[i], vals[i * 2n ..]: each member's period and samples) and its
 * lines; below each last-level line the graph of its entry (entry[i], UINT32_MAX none).
 */
static int print_tree(const struct hview *h, const struct xpp_hist_key *keys,
		      const uint64_t *vals, const uint32_t *entry, size_t nr, struct rv_cgview *cg,
		      FILE *out)
{
	uint64_t lead_total = h->c->ev[h->lead].total_period;
	struct rv_hier t;
	int ret = rv_hier_build(&t, h->v, keys, vals, 2 * h->n, nr);

	for (size_t i = 0; !ret && i < t.nr; i++) {
		const struct rv_hier_item *it = &t.items[i];

		/* the limit reads the leader's share; a level's entries hold no more than it */
		if (share(it->val[0], lead_total) < h->c->o->percent_limit)
			continue;
		print_item(h, it, &keys[it->row], entry[it->row], out);
		/* perf's line for an entry whose children are all under the limit (its
		 * first, the largest, is the next item) */
		if (it->depth + 1 < h->v->nr_cols && h->c->o->percent_limit > 0 &&
		    (i + 1 == t.nr || t.items[i + 1].depth <= it->depth ||
		     share(t.items[i + 1].val[0], lead_total) < h->c->o->percent_limit)) {
			blanks((h->v->nr_cols + it->depth) * INDENT + overhead_width(h) + 4,
			       out);
			fprintf(out, "no entry >= %.2f%%\n", h->c->o->percent_limit);
		}
		if (cg && it->depth + 1 == h->v->nr_cols && entry[it->row] != UINT32_MAX)
			ret = rv_cg_print_entry(cg, entry[it->row], out);
	}
	fputs_unlocked("\n\n", out);
	rv_hier_free(&t);
	return ret;
}

/* The section of event idx, or of the group of n it leads, from its entries en. */
static int print_section(struct rv_ctx *c, uint32_t idx, uint32_t n, struct rv_entries *en,
			 struct rv_cols *v, struct rv_cgview *cg, FILE *out)
{
	struct hview h = { .c = c, .v = v, .lead = idx, .n = 1, .en = en };
	struct rv_group g = { 0 };
	const uint32_t *rows = en->rows;
	size_t nr = en->nr_rows;
	struct xpp_hist_key *keys;
	uint32_t *entry;
	uint64_t *vals;
	int ret = 0;

	if (n > 1) {
		ret = rv_group_build(&g, en, n);
		if (ret < 0)
			return ret;
		h.n = n;
		h.v = &g.v;
		h.en = NULL;
		rows = g.rows;
		nr = g.nr_rows;
	}
	keys = malloc((nr ? nr : 1) * sizeof(*keys));
	entry = malloc((nr ? nr : 1) * sizeof(*entry));
	vals = malloc((nr ? nr : 1) * 2 * h.n * sizeof(*vals));
	if (!keys || !entry || !vals) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		uint32_t e = rows[i];
		uint64_t *val = &vals[i * 2 * h.n];

		if (n > 1) {
			const struct rv_group_val *gv = rv_group_vals(&g, e);

			keys[i] = rv_group_key(&g, e);
			entry[i] = g.lead_entry[e];
			for (uint32_t m = 0; m < n; m++)
				val[2 * m] = gv[m].self, val[2 * m + 1] = gv[m].self_n;
		} else {
			keys[i] = rv_entry_key(en, e);
			entry[i] = e;
			val[0] = rv_entry_metric(en, e, RV_OUT_OVERHEAD);
			val[1] = rv_entry_metric(en, e, RV_OUT_SAMPLE);
		}
	}
	if (!c->o->quiet) {
		if (n > 1)
			stdio_print_group_head(&g, out);
		else
			stdio_print_event_head(c, idx, out);
		print_titles(&h, out);
	}
	ret = print_tree(&h, keys, vals, entry, nr, cg, out);
out:
	free(keys);
	free(entry);
	free(vals);
	if (n > 1)
		rv_group_free(&g);
	return ret;
}

int stdio_print_hier(struct rv_ctx *c, uint32_t idx, uint32_t n, FILE *out)
{
	int ret;

	flockfile(out);
	if (rv_event_chains(c, idx)) {
		struct rv_cgview cg;

		ret = rv_cgview_init(&cg, c, idx, 0);
		if (!ret) {
			rv_widths(&cg.v, cg.en.h, cg.en.rows, cg.en.nr_rows);
			ret = print_section(c, idx, n, &cg.en, &cg.v, &cg, out);
			rv_cgview_free(&cg);
		}
	} else {
		struct rv_entries en;
		struct rv_cols v;

		ret = rv_entries_build(&en, c, idx);
		if (!ret) {
			rv_cols_init(&v, c);
			rv_widths(&v, en.h, NULL, xpp_hist_nr(en.h));
			ret = print_section(c, idx, n, &en, &v, NULL, out);
			rv_entries_free(&en);
		}
	}
	funlockfile(out);
	return ret;
}
