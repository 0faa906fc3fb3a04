/* Printing the stdio report: perf's header lines, column titles, sorted entries. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt_num.h"
#include "report/stdio/stdio_int.h"
#include "view/group.h"

/* perf's column titles: "# " then the columns, two spaces apart, and a line of dots */
void stdio_print_titles(const struct rv_cols *v, FILE *out)
{
	fputs("#", out);
	for (unsigned int i = 0; i < v->nr_out; i++) {
		unsigned int col = v->out[i];
		int w = rv_out_width(v, col);

		fprintf(out, col >= RV_OUT_OVERHEAD ? "%s%*s" : "%s%-*s", i ? "  " : " ", w,
			rv_out_title(v, col));
	}
	fputs("\n#", out);
	for (unsigned int i = 0; i < v->nr_out; i++) {
		fputs(i ? "  " : " ", out);
		for (int j = rv_out_width(v, v->out[i]); j > 0; j--)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

/*
 * s (len bytes) padded with blanks to width, on the left unless `left`: printf's "%-*s"
 * and "%*s". An entry line has five such fields and a report a million lines; the callers
 * hold out's lock (unlocked writes).
 */
static void put_padded(const char *s, size_t len, int width, bool left, FILE *out)
{
	static const char blanks[] = "                                                                ";
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;

	if (left)
		fwrite_unlocked(s, 1, len, out);
	for (; pad > sizeof(blanks) - 1; pad -= sizeof(blanks) - 1)
		fwrite_unlocked(blanks, 1, sizeof(blanks) - 1, out);
	fwrite_unlocked(blanks, 1, pad, out);
	if (!left)
		fwrite_unlocked(s, 1, len, out);
}

/* s cut to width bytes, padded to it unless `last`: perf's "%-*.*s" */
static void put_cut(const char *s, int width, bool last, FILE *out)
{
	size_t len = strnlen(s, width > 0 ? (size_t)width : 0);

	put_padded(s, len, last ? 0 : width, true, out);
}

/*
 * One key column of an entry line; `last`: nothing follows it on the line; `prefix`: -v's
 * address before the symbol, or NULL.
 */
static void print_key(const struct rv_cols *v, unsigned int col, const struct xpp_hist_key *k,
		      bool last, const char *prefix, FILE *out)
{
	int width = rv_out_width(v, col);

	if (col == RV_KEY_SRCLINE) {
		put_cut(rv_srcline_name(v->c, k), width, last, out);
	} else if (col == RV_KEY_SYM) {
		char buf[64];
		const char *s = rv_sym_or_addr(v->c, k, buf, sizeof(buf));
		int w = last ? 0 : width - 4;
		size_t len = strlen(s);

		if (prefix) {
			fputs_unlocked(prefix, out);
			w -= RV_VERBOSE_SYM_WIDTH;
		}
		fputc_unlocked('[', out);
		fputc_unlocked((char)k->level, out);
		fputs_unlocked("] ", out);
		if (k->inl) {
			/* perf appends " (inlined)" past the name, uncounted in the width */
			fwrite_unlocked(s, 1, len, out);
			put_padded(" (inlined)", 10, w > (int)len ? w - (int)len : 0, true, out);
			return;
		}
		put_padded(s, len, w, true, out);
	} else {
		char buf[512];

		const char *s = rv_col_text(v->c, k, col, buf, sizeof(buf));

		if (rv_keys[col].align == RV_CUT) /* cut to the width, padded unless last */
			put_cut(s, width, last, out);
		else
			put_padded(s, strlen(s), width, rv_keys[col].align != RV_RIGHT, out);
	}
}

void stdio_print_keys(const struct rv_cols *v, const struct xpp_hist_key *k, FILE *out)
{
	for (unsigned int i = 0; i < v->nr_cols; i++) {
		fputs("  ", out);
		print_key(v, v->cols[i], k, i + 1 == v->nr_cols, NULL, out);
	}
	fputc('\n', out);
}

void stdio_print_row(const struct rv_cols *v, const struct rv_entries *g, uint32_t e,
		     const struct xpp_hist_key *k, FILE *out)
{
	double total = (double)g->ev->total_period;

	for (unsigned int i = 0; i < v->nr_out; i++) {
		unsigned int col = v->out[i];
		int w = rv_out_width(v, col);
		char num[XB_FMT_NUM_MAX + 1];
		uint64_t val;
		size_t n;

		fputs_unlocked("  ", out);
		if (col < RV_OUT_OVERHEAD) {
			char buf[64];
			/* perf's -v prints the address and origin of unresolved entries too */
			const char *prefix = col == RV_KEY_SYM ?
					     rv_entry_sym_prefix(g, e, buf, sizeof(buf)) : NULL;

			print_key(v, col, k, i + 1 == v->nr_out, prefix, out);
			continue;
		}
		val = rv_entry_metric(g, e, col);
		if (col == RV_OUT_SAMPLE || col == RV_OUT_PERIOD) {
			n = xb_fmt_u64(num, val);
		} else { /* "%*.2f%%" of w - 1 */
			n = xb_fmt_fixed2(num, total ? 100.0 * (double)val / total : 0.0);
			num[n++] = '%';
		}
		put_padded(num, n, w, false, out);
	}
	fputc_unlocked('\n', out);
}

/* "# Samples: ..." and the event count lines of one event (not with -q). */
void stdio_print_event_head(struct rv_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	char buf[96], count[32];
	const char *name;
	bool forced;

	rv_count_str(ev->nr_samples, count, sizeof(count));
	/* perf says "events" for a group's leader even when it shows it alone */
	fprintf(out, "# Samples: %s of event%s '%s'\n", count,
		rv_group_size(c, idx, &name, &forced) > 1 ? "s" : "",
		rv_event_name(c, idx, buf, sizeof(buf)));
	stdio_print_count(c, ev->total_period, out);
}

/* perf's hists__fprintf_nr_sample_events(): the event count, or --mem-mode's weight */
void stdio_print_count(const struct rv_ctx *c, uint64_t period, FILE *out)
{
	if (c->o->mem_mode)
		fprintf(out, "# Total weight : %" PRIu64 "\n# Sort order   : %s\n#\n", period,
			c->sort_order);
	else
		fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", period);
}

static int print_event(struct rv_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	const struct view_opts *o = c->o;
	struct rv_entries g;
	struct rv_cols v;
	int ret;

	if (rv_event_chains(c, idx))
		return stdio_print_callgraph_event(c, idx, 1, out);
	ret = rv_entries_build(&g, c, idx);
	if (ret < 0)
		return ret;
	rv_cols_init(&v, c);
	rv_widths(&v, g.h, NULL, xpp_hist_nr(g.h));

	if (!o->quiet) {
		stdio_print_event_head(c, idx, out);
		stdio_print_titles(&v, out);
	}
	for (size_t i = 0; i < g.nr_rows; i++) {
		struct xpp_hist_entry x = xpp_hist_entry_at(g.h, g.rows[i]);
		double pct = ev->total_period ? 100.0 * (double)x.period /
						(double)ev->total_period : 0;

		if (pct < o->percent_limit)
			continue;
		stdio_print_row(&v, &g, g.rows[i], &x.key, out);
	}
	fputs("\n\n", out);
	rv_entries_free(&g);
	return 0;
}

int stdio_print(struct rv_ctx *c, FILE *out)
{
	bool group = rv_group_view(c);
	int ret;

	if (!c->o->quiet && !c->o->header_shown)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", out);
	/* perf's sort__setup_elide(): the columns a filter leaves one name, in column order,
	   with -q too */
	for (unsigned int i = 0; i < (c->nr_fields ? c->nr_fields : c->nr_cols); i++) {
		const char *what, *name = rv_col_filtered_to(c, c->nr_fields ? c->fields[i] :
								 c->cols[i], &what);

		if (name)
			fprintf(out, "# %s: %s\n", what, name);
	}
	if (!c->o->quiet)
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", c->lost_samples);
	for (uint32_t i = 0, next = 0; i < c->nr_ev; i++) {
		const char *name;
		bool forced;
		uint32_t n = rv_group_size(c, i, &name, &forced);

		/* a group's members are in its leader's section (perf skips an empty leader
		 * with its members) */
		bool lead = group && n > 1;

		if (lead)
			next = i + n;
		else if (i < next)
			continue;
		if (!c->ev[i].nr_samples)
			continue;
		if (c->o->hierarchy)
			ret = stdio_print_hier(c, i, lead ? n : 1, out);
		else if (lead && rv_event_chains(c, i))
			ret = stdio_print_callgraph_event(c, i, n, out);
		else if (lead)
			ret = stdio_print_group(c, i, n, out);
		else
			ret = print_event(c, i, out);
		if (ret < 0)
			return ret;
	}
	if (!c->o->quiet)
		fputs("#\n# (Tip: --sort dso,sym groups by shared object and symbol only)\n#\n", out);
	return 0;
}
