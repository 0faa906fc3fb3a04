/* Pairing the files' entries by what they show (perf's hists__match / hists__link), perf diff's values and order. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "diff/diff.h"

/*
 * Entries pair by the text of their key columns (the DSO's name, the symbol's name), not
 * by ids or addresses: ids are each file's own, and two builds of a program put the same
 * function at different addresses. As perf diff, the unresolved samples of a DSO are one
 * entry (their symbol's text is empty), shown with the lowest address.
 */
static char *key_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
		      size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned int i = 0; i < c->nr_cols && n < size; i++) {
		char tmp[64];
		const char *s;

		if (c->cols[i] == RV_KEY_SYM)
			s = (s = rv_sym_name(c, k)) ? s : "";
		else
			s = rv_col_text(c, k, c->cols[i], tmp, sizeof(tmp));
		n += (size_t)snprintf(buf + n, size - n, "%s%c%s", i ? "\x1f" : "",
				      c->cols[i] == RV_KEY_SYM ? (char)k->level : ' ', s);
	}
	return buf;
}

/* text -> row: open addressing, the texts owned */
struct name_map {
	char **key;
	uint32_t *row;
	size_t nslots, nr;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int map_grow(struct name_map *m)
{
	size_t ns = m->nslots ? m->nslots * 2 : 1024;
	char **k = calloc(ns, sizeof(*k));
	uint32_t *r = calloc(ns, sizeof(*r));

	if (!k || !r) {
		free(k);
		free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->nslots; i++) {
		size_t j;

		if (!m->key[i])
			continue;
		for (j = hash_str(m->key[i]) & (ns - 1); k[j]; j = (j + 1) & (ns - 1))
			;
		k[j] = m->key[i];
		r[j] = m->row[i];
	}
	free(m->key);
	free(m->row);
	m->key = k;
	m->row = r;
	m->nslots = ns;
	return 0;
}

/* The slot of text s: its row in *row (1), or the empty slot it goes to (0). */
static size_t map_find(const struct name_map *m, const char *s, bool *found)
{
	size_t j = hash_str(s) & (m->nslots - 1);

	while (m->key[j] && strcmp(m->key[j], s))
		j = (j + 1) & (m->nslots - 1);
	*found = m->key[j] != NULL;
	return j;
}

static void map_free(struct name_map *m)
{
	for (size_t i = 0; i < m->nslots; i++)
		free(m->key[i]);
	free(m->key);
	free(m->row);
}

uint64_t diff_period(const struct diff_table *t, const struct diff_row *r, uint32_t f)
{
	(void)t;
	return r->period[f];
}

bool diff_has(const struct diff_row *r, uint32_t f)
{
	return r->ent[f] != 0;
}

bool diff_dummy(const struct diff_row *r)
{
	return r->ent[0] == 0;
}

struct xpp_hist_key diff_row_key(const struct diff_table *t, const struct diff_row *r)
{
	return rv_entry_key(&t->f[r->key_file].g, r->ent[r->key_file] - 1);
}

const struct rv_ctx *diff_row_ctx(const struct diff_table *t, const struct diff_row *r)
{
	return &t->f[r->key_file].c;
}

/*
 * perf's period_percent(): of the total the file's hists had when the values were computed.
 * Not guarded, as perf's: a file whose samples the filters all dropped gives NaN, which
 * perf prints as -nan%.
 */
static double percent(const struct diff_table *t, const struct diff_row *r, uint32_t f)
{
	return (double)diff_period(t, r, f) * 100.0 / t->f[f].total;
}

double diff_delta(const struct diff_table *t, const struct diff_row *r, uint32_t f)
{
	return percent(t, r, f) - percent(t, r, 0);
}

double diff_ratio(const struct diff_table *t, const struct diff_row *r, uint32_t f)
{
	uint64_t old = diff_period(t, r, 0);

	return (double)diff_period(t, r, f) / (double)(old ? old : 1);
}

int64_t diff_wdiff(const struct diff_table *t, const struct diff_row *r, uint32_t f)
{
	return (int64_t)diff_period(t, r, f) * t->o->w2 - (int64_t)diff_period(t, r, 0) * t->o->w1;
}

static bool has_pairs(const struct diff_table *t, const struct diff_row *r)
{
	for (uint32_t f = 1; f < t->nf; f++)
		if (r->ent[f])
			return true;
	return false;
}

/* larger values first, as perf's cmp_doubles */
static int cmp_value(const struct diff_table *t, const struct diff_row *a,
		     const struct diff_row *b, uint32_t f)
{
	double x, y;

	switch (t->o->compute) {
	case DIFF_WDIFF: {
		int64_t l = diff_wdiff(t, a, f), r = diff_wdiff(t, b, f);

		return l > r ? -1 : l < r;
	}
	case DIFF_RATIO:
		x = diff_ratio(t, a, f);
		y = diff_ratio(t, b, f);
		break;
	case DIFF_DELTA_ABS:
		x = fabs(diff_delta(t, a, f));
		y = fabs(diff_delta(t, b, f));
		break;
	default:
		x = diff_delta(t, a, f);
		y = diff_delta(t, b, f);
		break;
	}
	return x > y ? -1 : x < y;
}

/* perf's hist_entry__cmp_compute_idx: -o's file first; rows without its pair last */
static int cmp_idx(const struct diff_table *t, const struct diff_row *a,
		   const struct diff_row *b, uint32_t f)
{
	bool pa = diff_has(a, f), pb = diff_has(b, f);

	if (!pa && !pb)
		return 0;
	if (pa != pb)
		return pa ? -1 : 1;
	/* a ratio or weighted diff has no value without a baseline: those rows go last */
	if (t->o->compute != DIFF_DELTA && t->o->compute != DIFF_DELTA_ABS) {
		bool da = diff_dummy(a), db = diff_dummy(b);

		if (da && db)
			return 0;
		if (da != db)
			return da ? 1 : -1;
	}
	return cmp_value(t, a, b, f);
}

/* perf's hist_entry__cmp_compute: each file's column, rows with pairs first */
static int cmp_compute(const struct diff_table *t, const struct diff_row *a,
		       const struct diff_row *b, uint32_t f)
{
	bool pa = has_pairs(t, a), pb = has_pairs(t, b);

	if (!pa && !pb)
		return 0;
	if (pa != pb)
		return pa ? -1 : 1;
	pa = diff_has(a, f);
	pb = diff_has(b, f);
	if (!pa && !pb)
		return 0;
	if (pa != pb)
		return pa ? -1 : 1;
	return cmp_value(t, a, b, f);
}

/* the sort keys last: as report orders equal entries, by text across files */
static int cmp_keys(const struct diff_table *t, const struct diff_row *a,
		    const struct diff_row *b)
{
	const struct rv_ctx *ca = diff_row_ctx(t, a), *cb = diff_row_ctx(t, b);
	struct xpp_hist_key ka = diff_row_key(t, a), kb = diff_row_key(t, b);

	for (unsigned int i = 0; i < ca->nr_cols; i++) {
		unsigned int col = ca->cols[i];
		char x[64], y[64];
		const char *sa, *sb;
		int r;

		if (ca == cb) {
			r = rv_cmp_col(ca, &ka, &kb, col);
		} else {
			sa = col == RV_KEY_SYM ? rv_sym_or_addr(ca, &ka, x, sizeof(x)) :
			     rv_col_text(ca, &ka, col, x, sizeof(x));
			sb = col == RV_KEY_SYM ? rv_sym_or_addr(cb, &kb, y, sizeof(y)) :
			     rv_col_text(cb, &kb, col, y, sizeof(y));
			r = strcmp(sa, sb);
		}
		if (r)
			return r;
	}
	return 0;
}

static const struct diff_table *sort_table;

static int cmp_rows(const void *x, const void *y)
{
	const struct diff_table *t = sort_table;
	const struct diff_row *a = x, *b = y;
	uint64_t pa, pb;
	int r;

	if (t->o->order && (r = cmp_idx(t, a, b, t->o->order)))
		return r;
	pa = diff_period(t, a, 0);
	pb = diff_period(t, b, 0);
	if (pa != pb)
		return pa > pb ? -1 : 1;
	for (uint32_t f = 1; f < t->nf; f++)
		if ((r = cmp_compute(t, a, b, f)))
			return r;
	if ((r = cmp_keys(t, a, b)))
		return r;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* A file's entry with what address order reads of its key (cmp_addr()). */
struct addr_order {
	uint64_t addr;
	int32_t sym;
	uint32_t dso;
	uint32_t entry;
};

/* A file's entries in address order (of their DSO, then symbol), so that the first entry
 * of a line is the lowest address of its names, as perf diff shows it. */
static int cmp_addr(const void *x, const void *y)
{
	const struct addr_order *a = x, *b = y;

	if (a->dso != b->dso)
		return a->dso < b->dso ? -1 : 1;
	if (a->sym != b->sym)
		return a->sym < b->sym ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

static int add_row(struct diff_table *t, uint32_t key_file, uint32_t entry)
{
	struct diff_row *r;
	uint32_t *ent;

	if (XB_ARRAY_RESERVE(t->rows, t->cap, t->nr + 1, 256))
		return -ENOMEM;
	/* one allocation: the entries, then the periods */
	ent = calloc(1, (t->nf + 1) * sizeof(*ent) + t->nf * sizeof(uint64_t));
	if (!ent)
		return -ENOMEM;
	r = &t->rows[t->nr];
	r->seq = (uint32_t)t->nr++;
	r->key_file = key_file;
	r->ent = ent;
	r->period = (uint64_t *)(void *)(ent + t->nf + (t->nf & 1));
	ent[key_file] = entry + 1;
	return 0;
}

/* The sum of the file's entries: perf's total of the samples the filters kept. */
static double kept_total(const struct diff_file *d)
{
	double sum = 0;

	for (size_t i = 0; i < d->g.nr_rows; i++)
		sum += (double)rv_entry_period(&d->g, d->g.rows[i]);
	return sum;
}

/*
 * Entry e of file f into the rows: onto the line of the same names, the baseline's or an
 * earlier newer file's (perf's hists__match; the file's entries of the same names add
 * up), else onto a line of its own (the baseline's, or perf's hists__link of a newer
 * file's entry the baseline lacks; not with -b).
 */
static int add_entry(struct diff_table *t, struct name_map *m, uint32_t f, uint32_t e,
		     char *buf, size_t size)
{
	struct diff_file *d = &t->f[f];
	struct xpp_hist_key k = rv_entry_key(&d->g, e);
	uint64_t period = rv_entry_period(&d->g, e);
	bool found;
	size_t slot = map_find(m, key_text(&d->c, &k, buf, size), &found);
	struct diff_row *r;
	int ret;

	if (found) {
		r = &t->rows[m->row[slot]];
		if (!r->ent[f])
			r->ent[f] = e + 1;
		r->period[f] += period;
		return 0;
	}
	if (f && t->o->baseline_only)
		return 0;
	if ((ret = add_row(t, f, e)) < 0)
		return ret;
	t->rows[t->nr - 1].period[f] = period;
	if (!(m->key[slot] = strdup(buf)))
		return -ENOMEM;
	m->row[slot] = (uint32_t)(t->nr - 1);
	return ++m->nr * 2 > m->nslots ? map_grow(m) : 0;
}

int diff_table_build(struct diff_table *t)
{
	struct name_map m = { 0 };
	char buf[1024];
	int ret = map_grow(&m);

	for (uint32_t f = 0; f < t->nf && ret == 0; f++) {
		struct diff_file *d = &t->f[f];

		if (!d->built)
			continue;
		d->total = t->o->absolute ? (double)d->g.ev->total_period : kept_total(d);
		{
			/* each key read once, not twice a comparison: a profile of unresolved
			   addresses has a million entries a file (issue 20) */
			struct addr_order *ids = malloc((d->g.nr_rows + 1) * sizeof(*ids));

			if (!ids) {
				ret = -ENOMEM;
				break;
			}
			for (size_t i = 0; i < d->g.nr_rows; i++) {
				struct xpp_hist_key k = rv_entry_key(&d->g, d->g.rows[i]);

				ids[i] = (struct addr_order){ k.addr, k.sym, k.dso, d->g.rows[i] };
			}
			qsort(ids, d->g.nr_rows, sizeof(*ids), cmp_addr);
			for (size_t i = 0; i < d->g.nr_rows && ret == 0; i++)
				ret = add_entry(t, &m, f, ids[i].entry, buf, sizeof(buf));
			free(ids);
		}
	}
	map_free(&m);
	if (ret < 0)
		return ret;
	/* -b: only the baseline's rows with a pair; the Baseline column is then of those */
	if (t->o->baseline_only) {
		size_t n = 0;

		for (size_t i = 0; i < t->nr; i++) {
			if (has_pairs(t, &t->rows[i]))
				t->rows[n++] = t->rows[i];
			else
				free(t->rows[i].ent);
		}
		t->nr = n;
	}
	/* perf's output resort counts the baseline's total again, from the rows left */
	t->base_shown = t->f[0].total;
	if (t->o->baseline_only) {
		t->base_shown = 0;
		for (size_t i = 0; i < t->nr; i++)
			t->base_shown += (double)diff_period(t, &t->rows[i], 0);
	}
	sort_table = t;
	if (t->nr)
		qsort(t->rows, t->nr, sizeof(*t->rows), cmp_rows);
	return 0;
}

void diff_table_free(struct diff_table *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->rows[i].ent);
	free(t->rows);
	t->rows = NULL;
	t->nr = t->cap = 0;
}
