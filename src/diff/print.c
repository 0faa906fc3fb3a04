/* perf diff's table: the Baseline and computed columns of each file, then the key columns. */
#include <inttypes.h>
#include <string.h>

#include "diff/diff.h"

enum col_kind { C_BASELINE, C_BASE_PERIOD, C_DELTA, C_DELTA_ABS, C_RATIO, C_WDIFF, C_FORMULA, C_PERIOD };

/* perf's header_column: titles and least widths */
static const struct { const char *name; int width; } kinds[] = {
	[C_BASELINE] = { "Baseline", 0 },     [C_BASE_PERIOD] = { "Base period", 14 },
	[C_DELTA] = { "Delta", 7 },           [C_DELTA_ABS] = { "Delta Abs", 7 },
	[C_RATIO] = { "Ratio", 14 },          [C_WDIFF] = { "Weighted diff", 14 },
	[C_FORMULA] = { "Formula", 70 },      [C_PERIOD] = { "Period", 14 },
};

struct dcol {
	enum col_kind kind;
	uint32_t file;
	char title[64];
	int width;
};

#define MAX_DCOLS 256

static const enum col_kind compute_col[] = {
	[DIFF_DELTA] = C_DELTA, [DIFF_RATIO] = C_RATIO, [DIFF_WDIFF] = C_WDIFF,
	[DIFF_DELTA_ABS] = C_DELTA_ABS,
};

static void add_col(struct dcol *c, unsigned int *n, const struct diff_table *t,
		    enum col_kind kind, uint32_t file)
{
	struct dcol *d;
	int len;

	if (*n == MAX_DCOLS)
		return;
	d = &c[(*n)++];
	d->kind = kind;
	d->file = file;
	/* more than two files: each title says its file's index */
	if (t->nf > 2)
		snprintf(d->title, sizeof(d->title), "%s/%u", kinds[kind].name, file);
	else
		snprintf(d->title, sizeof(d->title), "%s", kinds[kind].name);
	len = (int)strlen(d->title);
	d->width = kinds[kind].width > len ? kinds[kind].width : len;
}

/* perf's ui_init(): per file, its value column, then -F's formula and -p's period */
static unsigned int diff_cols(const struct diff_table *t, struct dcol *c)
{
	unsigned int n = 0;

	for (uint32_t f = 0; f < t->nf; f++) {
		add_col(c, &n, t, f ? compute_col[t->o->compute] : C_BASELINE, f);
		if (t->o->formula && f)
			add_col(c, &n, t, C_FORMULA, f);
		if (t->o->period)
			add_col(c, &n, t, f ? C_PERIOD : C_BASE_PERIOD, f);
	}
	return n;
}

/* A computed column's text for row r, unpadded ("" for perf's blank cell). */
static void cell(const struct diff_table *t, const struct dcol *c, const struct diff_row *r,
		 char *buf, size_t size)
{
	uint32_t f = c->file;
	uint64_t p0 = diff_period(t, r, 0), pf = diff_period(t, r, f);

	buf[0] = 0;
	switch (c->kind) {
	case C_BASELINE:
		if (!diff_dummy(r))
			snprintf(buf, size, t->o->sep ? "%.2f" : "%6.2f%%",
				 t->base_shown ? 100.0 * (double)p0 / t->base_shown : 0.0);
		return;
	case C_BASE_PERIOD:
		snprintf(buf, size, "%" PRIu64, p0);
		return;
	default:
		break;
	}
	if (!diff_has(r, f))
		return;
	switch (c->kind) {
	case C_DELTA:
	case C_DELTA_ABS:
		/* perf prints through its colour path, "%f": a file with no sample left
		 * by the filters gives "-nan%", not "-NAN%" */
		snprintf(buf, size, "%+4.2f%%", diff_delta(t, r, f));
		break;
	case C_RATIO: {
		double v = diff_ratio(t, r, f);

		if (diff_dummy(r))
			snprintf(buf, size, "N/A");
		else if (v > 0.0)
			snprintf(buf, size, "%14.6f", v);
		break;
	}
	case C_WDIFF: {
		int64_t v = diff_wdiff(t, r, f);

		/* perf 6.1 prints a zero too (older perfs left it blank) */
		if (diff_dummy(r))
			snprintf(buf, size, "N/A");
		else
			snprintf(buf, size, "%14" PRId64, v);
		break;
	}
	case C_FORMULA:
		if (t->o->compute == DIFF_RATIO)
			snprintf(buf, size, "%.0F / %.0F", (double)pf, (double)p0);
		else if (t->o->compute == DIFF_WDIFF)
			snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 pf, t->o->w2, p0, t->o->w1);
		else
			snprintf(buf, size, "(%" PRIu64 " * 100 / %.0f) - (%" PRIu64 " * 100 / %.0f)",
				 pf, t->f[f].total, p0, t->base_shown);
		break;
	case C_PERIOD:
		snprintf(buf, size, "%" PRIu64, pf);
		break;
	default:
		break;
	}
}

/* The key columns shown: report's (a filter to one comm or DSO drops its column), and -S
 * to one symbol drops the symbol's, as perf's sort__setup_elide. */
static void key_cols(const struct diff_table *t, struct rv_cols *v)
{
	const char *s = t->o->view.symbols;
	unsigned int n = 0;

	rv_cols_init(v, &t->f[0].c);
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (!(v->cols[i] == RV_KEY_SYM && s && *s && !strchr(s, ',')))
			v->cols[n++] = v->cols[i];
	v->nr_cols = n;
}

static int sym_width(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = rv_sym_name(c, k);

	if (!s)
		return RV_UNRESOLVED_WIDTH + 4 + 2;
	return (int)strlen(s) + 4 + (c->o->verbose ? RV_VERBOSE_SYM_WIDTH : 0);
}

/* perf's widths: each key column as wide as its title and its widest value shown */
static void key_widths(const struct diff_table *t, struct rv_cols *v)
{
	bool unresolved = false;

	for (unsigned int i = 0; i < v->nr_cols; i++) {
		v->width[i] = (int)strlen(rv_col_title(v->cols[i]));
		if (rv_keys[v->cols[i]].width > v->width[i])
			v->width[i] = rv_keys[v->cols[i]].width;
	}
	for (size_t j = 0; j < t->nr; j++) {
		const struct diff_row *r = &t->rows[j];
		const struct rv_ctx *c = diff_row_ctx(t, r);
		struct xpp_hist_key k = diff_row_key(t, r);

		for (unsigned int i = 0; i < v->nr_cols; i++) {
			unsigned int col = v->cols[i];
			char buf[64];
			int w;

			if (col == RV_KEY_SYM) {
				w = sym_width(c, &k);
				unresolved |= !rv_sym_name(c, &k);
			} else if (rv_keys[col].width) {
				w = 0;
			} else {
				w = (int)strlen(rv_col_text(c, &k, col, buf, sizeof(buf)));
			}
			if (w > v->width[i])
				v->width[i] = w;
		}
	}
	/* perf widens the Shared Object column for unresolved entries (no --dsos given) */
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (unresolved && v->cols[i] == RV_KEY_DSO && !t->f[0].c.dso_filter->nr &&
		    v->width[i] < RV_UNRESOLVED_WIDTH)
			v->width[i] = RV_UNRESOLVED_WIDTH;
}

/* One key column of a row; `last`: nothing follows it on the line (not padded). */
static void print_key(const struct diff_table *t, const struct diff_row *r, unsigned int col,
		      int width, bool last, FILE *out)
{
	const struct rv_ctx *c = diff_row_ctx(t, r);
	struct xpp_hist_key k = diff_row_key(t, r);
	char buf[64];

	if (col == RV_KEY_SYM) {
		const char *s = rv_sym_or_addr(c, &k, buf, sizeof(buf));
		int w = last ? 0 : width - 4;
		char pre[64];
		const char *prefix = rv_entry_sym_prefix(&t->f[r->key_file].g,
							 r->ent[r->key_file] - 1, pre, sizeof(pre));

		if (prefix) {
			fputs(prefix, out);
			w -= RV_VERBOSE_SYM_WIDTH;
		}
		fprintf(out, "[%c] %-*s", (char)k.level, w > 0 ? w : 0, s);
		return;
	}
	{
		const char *s = col == RV_KEY_SRCLINE ? rv_srcline_name(c, &k) :
				rv_col_text(c, &k, col, buf, sizeof(buf));

		if (rv_keys[col].align == RV_CUT || col == RV_KEY_SRCLINE)
			fprintf(out, "%-*.*s", last ? 0 : width, width, s);
		else
			fprintf(out, rv_keys[col].align == RV_RIGHT ? "%*s" : "%-*s", width, s);
	}
}

static void print_titles(const struct diff_table *t, const struct dcol *dc, unsigned int nd,
			 const struct rv_cols *v, FILE *out)
{
	const char *sep = t->o->sep ? t->o->sep : "  ";

	fputs("# ", out);
	for (unsigned int i = 0; i < nd; i++)
		fprintf(out, "%s%*s", i ? sep : "", dc[i].width, dc[i].title);
	for (unsigned int i = 0; i < v->nr_cols; i++)
		fprintf(out, "%s%-*s", nd || i ? sep : "", v->width[i], rv_col_title(v->cols[i]));
	fputc('\n', out);
	if (t->o->sep)
		return;
	fputs("#", out);
	for (unsigned int i = 0; i < nd + v->nr_cols; i++) {
		fputs(i ? "  " : " ", out);
		for (int j = i < nd ? dc[i].width : v->width[i - nd]; j > 0; j--)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

void diff_print_event(struct diff_table *t, const char *event, bool first, FILE *out)
{
	struct dcol dc[MAX_DCOLS];
	unsigned int nd = diff_cols(t, dc);
	const char *sep = t->o->sep ? t->o->sep : "  ";
	struct rv_cols v;
	bool quiet = t->o->view.quiet;

	key_cols(t, &v);
	key_widths(t, &v);
	if (!quiet)
		fprintf(out, "%s# Event '%s'\n#\n", first ? "" : "\n", event);
	if (t->o->view.verbose > 0 || (t->nf > 2 && !quiet)) {
		fputs("# Data files:\n", out);
		for (uint32_t f = 0; f < t->nf; f++)
			fprintf(out, "#  [%u] %s %s\n", f, t->f[f].path, f ? "" : "(Baseline)");
		fputs("#\n", out);
	}
	if (!quiet)
		print_titles(t, dc, nd, &v, out);
	for (size_t j = 0; j < t->nr; j++) {
		const struct diff_row *r = &t->rows[j];

		for (unsigned int i = 0; i < nd; i++) {
			char buf[160];

			cell(t, &dc[i], r, buf, sizeof(buf));
			/* perf's lines start with two spaces, under the titles' "# " */
			if (t->o->sep)
				fprintf(out, "%s%-*s", i ? sep : "", dc[i].width, buf);
			else
				fprintf(out, "  %*s", dc[i].width, buf);
		}
		for (unsigned int i = 0; i < v.nr_cols; i++) {
			fputs(t->o->sep ? (nd || i ? sep : "") : "  ", out);
			print_key(t, r, v.cols[i], v.width[i], i + 1 == v.nr_cols, out);
		}
		fputc('\n', out);
	}
}
