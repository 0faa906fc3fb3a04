/* Printing the stdio report: perf's header lines, column widths, sorted entries. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

#define UNRESOLVED_WIDTH 16 /* hex digits of an unresolved address, as perf prints them */

static const char *comm_name(const struct stdio_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = xpp_intern_str(c->comms, k->comm);

	return s ? s : "";
}

const char *stdio_dso_name(const struct stdio_ctx *c, const struct xpp_hist_key *k)
{
	return xpp_profile_dso_name(c->p, k);
}

const char *stdio_sym_name(const struct stdio_ctx *c, const struct xpp_hist_key *k)
{
	return xpp_profile_sym_name(c->p, k);
}

static const char *srcline_name(const struct stdio_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = xpp_profile_srcline(c->p, k, false);

	return s ? s : "??:0";
}

/* perf's convert_unit(): 1696 -> "1K", 500 -> "500 " */
static void print_count(FILE *out, uint64_t v)
{
	char unit = ' ';

	if (v > 1000)
		v /= 1000, unit = 'K';
	if (v > 1000)
		v /= 1000, unit = 'M';
	if (v > 1000)
		v /= 1000, unit = 'G';
	fprintf(out, "%" PRIu64 "%c", v, unit);
}

static const char *col_title(unsigned int key)
{
	return key == XPP_HIST_KEY_COMM ? "Command" : key == XPP_HIST_KEY_DSO ? "Shared Object" :
	       key == XPP_HIST_KEY_SRCLINE ? "Source:Line" : "Symbol";
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct xpp_hist_entry *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return stdio_cmp_keys(&a->key, &b->key, arg);
}

/* The tie-break between entries of equal overhead: by each column's text, as perf sorts. */
int stdio_cmp_keys(const struct xpp_hist_key *ka, const struct xpp_hist_key *kb, const struct view *v)
{
	int r;

	for (unsigned int i = 0; i < v->nr_cols; i++) {
		switch (v->cols[i]) {
		case XPP_HIST_KEY_COMM:
			r = strcmp(comm_name(v->c, ka), comm_name(v->c, kb));
			break;
		case XPP_HIST_KEY_DSO:
			r = strcmp(stdio_dso_name(v->c, ka), stdio_dso_name(v->c, kb));
			break;
		case XPP_HIST_KEY_SRCLINE:
			r = strcmp(srcline_name(v->c, ka), srcline_name(v->c, kb));
			break;
		default: {
			const char *na = stdio_sym_name(v->c, ka), *nb = stdio_sym_name(v->c, kb);

			if (na && nb)
				r = strcmp(na, nb);
			else if (na || nb)
				r = na ? -1 : 1;
			else
				r = ka->addr < kb->addr ? -1 : ka->addr > kb->addr;
			break;
		}
		}
		if (r)
			return r;
	}
	return 0;
}

/*
 * perf computes an entry's source line only when it compares two entries whose earlier
 * sort keys are equal (or prints it), so only the lines of entries sharing those keys with
 * another sample count for the column's width; the others are cut to it. Marks in
 * `counted` which entries count.
 */
static int srcline_counted(const struct view *v, const struct xpp_hist_entry *e, size_t n,
			   bool *counted)
{
	unsigned int prefix = 0;
	xpp_hist *g = xpp_hist_create();
	struct xpp_hist_entry *ge;
	size_t ng;

	if (!g)
		return -ENOMEM;
	for (unsigned int i = 0; i < v->nr_cols && v->cols[i] != XPP_HIST_KEY_SRCLINE; i++)
		prefix |= v->cols[i];
	for (size_t j = 0; j < n; j++) {
		struct xpp_hist_key k = e[j].key;

		xpp_hist_key_mask(&k, prefix);
		if (xpp_hist_add(g, &k, 0, e[j].nr_samples)) {
			xpp_hist_free(g);
			return -ENOMEM;
		}
	}
	for (size_t j = 0; j < n; j++) {
		struct xpp_hist_key k = e[j].key;
		int64_t id;

		xpp_hist_key_mask(&k, prefix);
		id = xpp_hist_add_id(g, &k, 0, 0);
		ge = xpp_hist_entries(g, &ng);
		counted[j] = id < 0 || ge[id].nr_samples >= 2;
	}
	xpp_hist_free(g);
	return 0;
}

void stdio_widths(struct view *v, const struct xpp_hist_entry *e, size_t n)
{
	bool unresolved = false, *counted = NULL;

	for (unsigned int i = 0; i < v->nr_cols; i++) {
		v->width[i] = (int)strlen(col_title(v->cols[i]));
		if (v->cols[i] == XPP_HIST_KEY_SRCLINE && !counted &&
		    (counted = malloc((n + 1) * sizeof(*counted))) &&
		    srcline_counted(v, e, n, counted) < 0) {
			free(counted);
			counted = NULL;
		}
	}
	for (size_t j = 0; j < n; j++) {
		for (unsigned int i = 0; i < v->nr_cols; i++) {
			int w;

			if (v->cols[i] == XPP_HIST_KEY_SRCLINE) {
				w = !counted || counted[j] ?
				    (int)strlen(srcline_name(v->c, &e[j].key)) : 0;
			} else if (v->cols[i] == XPP_HIST_KEY_COMM) {
				w = (int)strlen(comm_name(v->c, &e[j].key));
			} else if (v->cols[i] == XPP_HIST_KEY_DSO) {
				w = (int)strlen(stdio_dso_name(v->c, &e[j].key));
			} else {
				const char *s = stdio_sym_name(v->c, &e[j].key);

				w = s ? (int)strlen(s) + 4 : UNRESOLVED_WIDTH + 4 + 2;
				unresolved |= !s;
			}
			if (w > v->width[i])
				v->width[i] = w;
		}
	}
	free(counted);
	/* perf widens the Shared Object column for unresolved entries (no --dsos given) */
	for (unsigned int i = 0; i < v->nr_cols; i++)
		if (unresolved && v->cols[i] == XPP_HIST_KEY_DSO && !v->c->dso_filter->nr &&
		    v->width[i] < UNRESOLVED_WIDTH)
			v->width[i] = UNRESOLVED_WIDTH;
}

static void print_titles(const struct view *v, bool nr_samples, FILE *out)
{
	if (v->c->children)
		fputs("# Children      Self", out);
	else
		fputs("# Overhead", out);
	if (nr_samples)
		fprintf(out, "  %12s", "Samples");
	for (unsigned int i = 0; i < v->nr_cols; i++)
		fprintf(out, "  %-*s", v->width[i], col_title(v->cols[i]));
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

static void print_entry(const struct view *v, const struct xpp_hist_entry *e, double pct,
			bool nr_samples, FILE *out)
{
	fprintf(out, "  %7.2f%%", pct);
	if (nr_samples)
		fprintf(out, "  %12" PRIu64, e->nr_samples);
	stdio_print_keys(v, &e->key, out);
}

/* The key columns of one entry line, each after two spaces, then the newline. */
void stdio_print_keys(const struct view *v, const struct xpp_hist_key *k, FILE *out)
{
	for (unsigned int i = 0; i < v->nr_cols; i++) {
		bool last = i + 1 == v->nr_cols;

		if (v->cols[i] == XPP_HIST_KEY_COMM) {
			fprintf(out, "  %-*s", v->width[i], comm_name(v->c, k));
		} else if (v->cols[i] == XPP_HIST_KEY_DSO) {
			fprintf(out, "  %-*s", v->width[i], stdio_dso_name(v->c, k));
		} else if (v->cols[i] == XPP_HIST_KEY_SRCLINE) {
			/* cut to the column, as perf's "%-.*s" does */
			fprintf(out, "  %-*.*s", last ? 0 : v->width[i], v->width[i],
				srcline_name(v->c, k));
		} else {
			const char *s = stdio_sym_name(v->c, k);
			char buf[64];
			int w = last ? 0 : v->width[i] - 4;

			if (!s) {
				/* perf's "%#.*llx": no 0x for zero */
				snprintf(buf, sizeof(buf), "%s%0*" PRIx64, k->addr ? "0x" : "",
					 UNRESOLVED_WIDTH, k->addr);
				s = buf;
			}
			if (k->inl) {
				/* perf appends " (inlined)" past the name, uncounted in the width */
				int len = (int)strlen(s) + 10;

				fprintf(out, "  [%c] %s (inlined)%*s", (char)k->level, s,
					w > len ? w - len : 0, "");
				continue;
			}
			fprintf(out, "  [%c] %-*s", (char)k->level, w > 0 ? w : 0, s);
		}
	}
	fputc('\n', out);
}

static const char *event_name(const struct xpf_attr *a, char *buf, size_t size)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles",
	};

	if (a->name && a->name[0])
		return a->name;
	if (a->attr.type == PERF_TYPE_SOFTWARE && a->attr.config < sizeof(sw) / sizeof(sw[0]))
		return sw[a->attr.config];
	if (a->attr.type == PERF_TYPE_HARDWARE && a->attr.config < sizeof(hw) / sizeof(hw[0]))
		return hw[a->attr.config];
	snprintf(buf, size, "%u:0x%llx", a->attr.type, (unsigned long long)a->attr.config);
	return buf;
}

void stdio_view_init(struct view *v, struct stdio_ctx *c)
{
	memset(v, 0, sizeof(*v));
	v->c = c;
	for (unsigned int i = 0; i < c->nr_cols; i++) {
		/* a filter down to one name makes its column say nothing: perf drops it */
		if ((c->cols[i] == XPP_HIST_KEY_COMM && c->comm_filter->nr == 1) ||
		    (c->cols[i] == XPP_HIST_KEY_DSO && c->dso_filter->nr == 1))
			continue;
		v->cols[v->nr_cols++] = c->cols[i];
	}
}

/* "# Samples: ..." and the event count lines of one event (not with -q). */
void stdio_print_event_head(struct stdio_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	const struct xpf_attr *a = xpf_reader_attr(c->r, idx);
	char buf[64];

	fputs("# Samples: ", out);
	print_count(out, ev->nr_samples);
	fprintf(out, " of event '%s'\n", a ? event_name(a, buf, sizeof(buf)) : "");
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", ev->total_period);
}

void stdio_print_titles(const struct view *v, bool nr_samples, FILE *out)
{
	print_titles(v, nr_samples, out);
}

static int print_event(struct stdio_ctx *c, uint32_t idx, FILE *out)
{
	const struct xpp_event *ev = &c->ev[idx];
	const struct report_stdio_opts *o = c->o;
	unsigned int mask = 0;
	struct view v;
	struct xpp_hist_entry *e;
	size_t n;
	xpp_hist *h;

	if (c->callchains && ev->cg && (c->children || c->cg.mode != CG_NONE))
		return stdio_print_callgraph_event(c, idx, out);
	stdio_view_init(&v, c);
	for (unsigned int i = 0; i < c->nr_cols; i++)
		mask |= c->cols[i];
	h = xpp_hist_collapse(ev->h, mask);
	if (!h)
		return -ENOMEM;
	e = xpp_hist_entries(h, &n);
	stdio_widths(&v, e, n);
	qsort_r(e, n, sizeof(*e), cmp_entries, &v);

	if (!o->quiet) {
		stdio_print_event_head(c, idx, out);
		print_titles(&v, o->show_nr_samples, out);
	}
	for (size_t i = 0; i < n; i++) {
		double pct = ev->total_period ? 100.0 * (double)e[i].period /
						(double)ev->total_period : 0;

		if (pct < o->percent_limit)
			continue;
		print_entry(&v, &e[i], pct, o->show_nr_samples, out);
	}
	fputs("\n\n", out);
	xpp_hist_free(h);
	return 0;
}

int stdio_print(struct stdio_ctx *c, FILE *out)
{
	int ret;

	if (!c->o->quiet) {
		fputs("# To display the perf.data header info, please use --header/--header-only "
		      "options.\n#\n", out);
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
