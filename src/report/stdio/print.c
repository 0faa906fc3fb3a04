/* Printing the stdio report: perf's header lines, column titles, sorted entries. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

static void print_titles(const struct rv_cols *v, bool nr_samples, FILE *out)
{
	if (v->c->children)
		fputs("# Children      Self", out);
	else
		fputs("# Overhead", out);
	if (nr_samples)
		fprintf(out, "  %12s", "Samples");
	for (unsigned int i = 0; i < v->nr_cols; i++)
		fprintf(out, "  %-*s", v->width[i], rv_col_title(v->cols[i]));
	fputs(v->c->children ? "\n# ........  ........" : "\n# ........", out);
	if (nr_samples)
		fputs("  ............", out);
	for (unsigned int i = 0; i < v->nr_cols; i++) {
		fputs("  ", out);
		for (int j = 0; j < v->width[i]; j++)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

static void print_entry(const struct rv_cols *v, const struct xpp_hist_entry *e, double pct,
			bool nr_samples, FILE *out)
{
	fprintf(out, "  %7.2f%%", pct);
	if (nr_samples)
		fprintf(out, "  %12" PRIu64, e->nr_samples);
	stdio_print_keys(v, &e->key, out);
}

/* The key columns of one entry line, each after two spaces, then the newline. */
void stdio_print_keys(const struct rv_cols *v, const struct xpp_hist_key *k, FILE *out)
{
	for (unsigned int i = 0; i < v->nr_cols; i++) {
		bool last = i + 1 == v->nr_cols;

		if (v->cols[i] == XPP_HIST_KEY_SRCLINE) {
			/* cut to the column, as perf's "%-.*s" does */
			fprintf(out, "  %-*.*s", last ? 0 : v->width[i], v->width[i],
				rv_srcline_name(v->c, k));
		} else if (v->cols[i] == XPP_HIST_KEY_SYM) {
			char buf[64];
			const char *s = rv_sym_or_addr(v->c, k, buf, sizeof(buf));
			int w = last ? 0 : v->width[i] - 4;

			if (k->inl) {
				/* perf appends " (inlined)" past the name, uncounted in the width */
				int len = (int)strlen(s) + 10;

				fprintf(out, "  [%c] %s (inlined)%*s", (char)k->level, s,
					w > len ? w - len : 0, "");
				continue;
			}
			fprintf(out, "  [%c] %-*s", (char)k->level, w > 0 ? w : 0, s);
		} else {
			char buf[64];

			fprintf(out, "  %-*s", v->width[i],
				rv_col_text(v->c, k, v->cols[i], buf, sizeof(buf)));
		}
	}
	fputc('\n', out);
}

/* "# Samples: ..." and the event count lines of one event (not with -q). */
void stdio_print_event_head(struct rv_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	char buf[96], count[32];

	rv_count_str(ev->nr_samples, count, sizeof(count));
	fprintf(out, "# Samples: %s of event '%s'\n", count,
		rv_event_name(c, idx, buf, sizeof(buf)));
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", ev->total_period);
}

void stdio_print_titles(const struct rv_cols *v, bool nr_samples, FILE *out)
{
	print_titles(v, nr_samples, out);
}

static int print_event(struct rv_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	const struct report_stdio_opts *o = c->o;
	struct rv_entries g;
	struct rv_cols v;
	struct xpp_hist_entry *e;
	size_t n;
	int ret;

	if (rv_event_chains(c, idx))
		return stdio_print_callgraph_event(c, idx, out);
	ret = rv_entries_build(&g, c, idx);
	if (ret < 0)
		return ret;
	rv_cols_init(&v, c);
	e = xpp_hist_entries(g.h, &n);
	rv_widths(&v, e, n);

	if (!o->quiet) {
		stdio_print_event_head(c, idx, out);
		print_titles(&v, o->show_nr_samples, out);
	}
	for (size_t i = 0; i < g.nr_rows; i++) {
		const struct xpp_hist_entry *x = &e[g.rows[i]];
		double pct = ev->total_period ? 100.0 * (double)x->period /
						(double)ev->total_period : 0;

		if (pct < o->percent_limit)
			continue;
		print_entry(&v, x, pct, o->show_nr_samples, out);
	}
	fputs("\n\n", out);
	rv_entries_free(&g);
	return 0;
}

int stdio_print(struct rv_ctx *c, FILE *out)
{
	int ret;

	if (!c->o->quiet) {
		if (!c->o->header_shown)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n", out);
		fprintf(out, "#\n# Total Lost Samples: %" PRIu64 "\n#\n", c->lost_samples);
	}
	for (uint32_t i = 0; i < c->nr_ev; i++) {
		if (!c->ev[i].nr_samples)
			continue;
		ret = print_event(c, i, out);
		if (ret < 0)
			return ret;
	}
	if (!c->o->quiet)
		fputs("#\n# (Tip: --sort dso,sym groups by shared object and symbol only)\n#\n", out);
	return 0;
}
