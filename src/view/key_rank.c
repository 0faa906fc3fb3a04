/*
 * Entries' keys as numbers that order as perf's comparisons of them do: the sorts of a
 * view's entries compare numbers, not keys (issue 20: a million entries of unresolved
 * addresses tie on every value and reach their keys in 20 million comparisons, each
 * loading two keys from a hist of a million and comparing them a column at a time).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "view/rv.h"

#define HALF (1ULL << 63)

/* a row's values, sorted by them */
struct vrow {
	uint64_t a, b;
	uint32_t i;
};

static int cmp_vrow(const void *pa, const void *pb)
{
	const struct vrow *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

/* r[0..n) sorted, and each row's pair (a, b) ranked: equal pairs one rank, 0 first, in
 * out[r[j].i]. */
static void rank_pairs(struct vrow *r, size_t n, uint64_t *out)
{
	uint64_t k = 0;

	qsort(r, n, sizeof(*r), cmp_vrow);
	for (size_t j = 0; j < n; j++) {
		if (j && (r[j].a != r[j - 1].a || r[j].b != r[j - 1].b))
			k++;
		out[r[j].i] = k;
	}
}

static int bits_of(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

#define FEW_GROUPS 65536

/*
 * Where cur holds few values (below FEW_GROUPS: a few DSOs), the pairs (cur[i], nxt[i])
 * as offsets: each value of cur a range as wide as its rows' nxt span, one after the
 * other. Whether they fit `width` bits (done then), or -ENOMEM.
 */
static int offsets(uint64_t *cur, const uint64_t *nxt, size_t n, uint64_t mc, int width)
{
	uint64_t *lo = malloc((mc + 1) * sizeof(*lo)), *base = malloc((mc + 1) * sizeof(*base));
	uint64_t end = 0, lim = width == 64 ? UINT64_MAX : (1ULL << width) - 1;
	bool fit = true;

	if (!lo || !base)
		return free(lo), free(base), -ENOMEM;
	for (uint64_t g = 0; g <= mc; g++)
		lo[g] = UINT64_MAX, base[g] = 0; /* base: the span's top, for now */
	for (size_t i = 0; i < n; i++) {
		lo[cur[i]] = nxt[i] < lo[cur[i]] ? nxt[i] : lo[cur[i]];
		base[cur[i]] = nxt[i] > base[cur[i]] ? nxt[i] : base[cur[i]];
	}
	/* group g's rows from end on: end + (nxt - lo[g]), its last at end + span */
	for (uint64_t g = 0; g <= mc && fit; g++) {
		uint64_t span;

		if (lo[g] == UINT64_MAX && !base[g])
			continue;
		span = base[g] - lo[g];
		fit = span <= lim - end;
		base[g] = end;
		end += span;
		fit &= end < lim;
		end += fit;
	}
	for (size_t i = 0; i < n && fit; i++)
		cur[i] = base[cur[i]] + (nxt[i] - lo[cur[i]]);
	free(lo);
	free(base);
	return fit;
}

/* cur and nxt side by side in cur where they fit `width` bits: 0, 1 where not, -ENOMEM. */
static int pack(uint64_t *cur, const uint64_t *nxt, size_t n, int width)
{
	uint64_t mc = 0, lo = UINT64_MAX, hi = 0;
	int bits, nbits, ret;

	for (size_t i = 0; i < n; i++) {
		mc = cur[i] > mc ? cur[i] : mc;
		lo = nxt[i] < lo ? nxt[i] : lo;
		hi = nxt[i] > hi ? nxt[i] : hi;
	}
	bits = bits_of(mc);
	nbits = bits_of(hi - lo);
	if (bits + nbits <= width) {
		for (size_t i = 0; i < n; i++)
			cur[i] = (bits ? cur[i] << nbits : 0) | (nxt[i] - lo);
		return 0;
	}
	if (mc < FEW_GROUPS && (ret = offsets(cur, nxt, n, mc, width)) != 0)
		return ret < 0 ? ret : 0;
	return 1;
}

int rv_rank_pack(uint64_t *cur, const uint64_t *nxt, size_t n)
{
	return pack(cur, nxt, n, 64);
}

/*
 * In cur[0..n), a number a pair (cur[i], nxt[i]) orders by: both side by side where they
 * fit `width` bits (a few DSOs, then addresses), else its rank (equal pairs one rank, 0
 * first, below n).
 */
static int combine(uint64_t *cur, const uint64_t *nxt, size_t n, int width)
{
	struct vrow *r;
	int ret = pack(cur, nxt, n, width);

	if (ret <= 0)
		return ret;
	r = malloc((n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct vrow){ cur[i], nxt[i], (uint32_t)i };
	rank_pairs(r, n, cur);
	free(r);
	return 0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The distinct values rv_rank_few() met, in the project's slot table: a value's slot is
 * its place in d + 1, then (d sorted) its rank + 1. */
struct few {
	uint64_t *d;
	size_t cap;
	struct xb_slots index;
};

static uint64_t few_hash_of(const void *ctx, uint32_t v)
{
	return xb_hash_u64(((const struct few *)ctx)->d[v - 1]);
}

static bool few_eq(const void *ctx, uint32_t v, const void *key)
{
	return ((const struct few *)ctx)->d[v - 1] == *(const uint64_t *)key;
}

static uint32_t *few_slot(const struct few *f, uint64_t x)
{
	return xb_slots_find(&f->index, xb_hash_u64(x), few_eq, f, &x);
}

int rv_rank_few(uint64_t *v, size_t n)
{
	struct few f = { NULL, 0, { 0 } };
	uint32_t nd = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; i < n; i++) {
		uint32_t *s;

		if (xb_slots_reserve(&f.index, nd + 1, few_hash_of, &f))
			goto out;
		s = few_slot(&f, v[i]);
		if (*s)
			continue;
		if (nd == FEW_GROUPS) {
			ret = 1;
			goto out;
		}
		if (XB_ARRAY_RESERVE(f.d, f.cap, (size_t)nd + 1, 64))
			goto out;
		f.d[nd] = v[i];
		*s = ++nd;
	}
	/* d sorted, its values put back in order: each one's slot its rank + 1 */
	if (nd > 1)
		qsort(f.d, nd, sizeof(*f.d), cmp_u64);
	xb_slots_clear(&f.index);
	for (uint32_t j = 0; j < nd; j++)
		*few_slot(&f, f.d[j]) = j + 1;
	for (size_t i = 0; i < n; i++)
		v[i] = *few_slot(&f, v[i]) - 1;
	ret = 0;
out:
	free(f.d);
	xb_slots_free(&f.index);
	return ret;
}

/* a name, and the rows [from, to) of a vrow array that have it */
struct named {
	const char *s;
	size_t from, to;
};

static int cmp_named(const void *pa, const void *pb)
{
	return strcmp(((const struct named *)pa)->s, ((const struct named *)pb)->s);
}

/*
 * The ranks of names: r[0..n) the rows, each with its name's pointer in a (one string
 * may have several); out[r[j].i] its name's rank by strcmp, equal names one rank. How
 * many ranks, or -ENOMEM.
 */
static int64_t rank_names(struct vrow *r, size_t n, uint64_t *out)
{
	struct named *u;
	size_t nu = 0;
	uint64_t k = 0;

	/* r is NULL where no row had a name (a view filtered to nothing, a DSO column of
	   unmapped frames only): qsort's array must not be */
	if (n > 1)
		qsort(r, n, sizeof(*r), cmp_vrow);
	u = malloc((n + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	for (size_t j = 0; j < n; j++) {
		if (j && r[j].a == r[j - 1].a) {
			u[nu - 1].to = j + 1;
			continue;
		}
		u[nu++] = (struct named){ (const char *)(uintptr_t)r[j].a, j, j + 1 };
	}
	qsort(u, nu, sizeof(*u), cmp_named);
	for (size_t j = 0; j < nu; j++) {
		if (j && strcmp(u[j].s, u[j - 1].s))
			k++;
		for (size_t x = u[j].from; x < u[j].to; x++)
			out[r[x].i] = k;
	}
	free(u);
	return nu ? (int64_t)k + 1 : 0;
}

/* What a column's values are read from: the hist and its rows. */
struct src {
	const struct rv_ctx *c;
	const xpp_hist *h;
	const struct xpp_hist_rec *e;
	const uint32_t *rows;
	size_t n;
	struct xpp_hist_key k; /* a key of the fields names are read from */
};

static const struct xpp_hist_key *key_of(struct src *s, size_t i)
{
	const struct xpp_hist_rec *r = &s->e[s->rows[i]];

	s->k.addr = r->addr;
	s->k.comm = r->comm;
	s->k.dso = r->dso;
	s->k.sym = r->sym;
	s->k.inl = r->inl;
	s->k.srcline = r->srcline;
	s->k.level = r->level;
	return &s->k;
}

/*
 * comm_cmp and dso_cmp: ids of one name equal, else by name (no DSO last). The ids are
 * few (interned commands, the DSO table): each is ranked once, a row reads its id's.
 */
static int id_ranks(struct src *s, bool dso, uint64_t *out)
{
	uint8_t *seen = NULL;
	uint64_t *rank = NULL;
	struct vrow *r = NULL;
	size_t m = 0, cap = 0, rcap = 0;
	int64_t nr = -ENOMEM;

	/* one read of the rows: each row's id in out, each id's name at its first row */
	for (size_t i = 0; i < s->n; i++) {
		const struct xpp_hist_rec *e = &s->e[s->rows[i]];
		uint32_t id = dso ? e->dso : e->comm;
		const struct xpp_hist_key *k;

		out[i] = id;
		if (id == XPP_HIST_NO_DSO || (id < cap && seen[id]))
			continue;
		if (XB_ARRAY_RESERVE0(seen, cap, (size_t)id + 1, 64) ||
		    XB_ARRAY_RESERVE(r, rcap, m + 1, 16))
			goto out;
		seen[id] = 1;
		k = key_of(s, i);
		r[m++] = (struct vrow){ (uintptr_t)(dso ? rv_dso_name(s->c, k) : rv_comm_name(s->c, k)),
					0, id };
	}
	/* each id's rank in rank[id], then each row's (no DSO after the last) */
	rank = malloc((cap + 1) * sizeof(*rank));
	if (!rank)
		goto out;
	nr = rank_names(r, m, rank);
	for (size_t i = 0; nr >= 0 && i < s->n; i++)
		out[i] = out[i] == XPP_HIST_NO_DSO ? (uint64_t)nr : rank[out[i]];
out:
	free(seen);
	free(rank);
	free(r);
	return nr < 0 ? (int)nr : 0;
}

/* sym_sort: by name, the rows without one last */
static int sym_sort_ranks(struct src *s, uint64_t *out)
{
	struct vrow *r = malloc((s->n + 1) * sizeof(*r));
	size_t m = 0;
	int64_t nr;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const char *name = rv_sym_name(s->c, key_of(s, i));

		if (name)
			r[m++] = (struct vrow){ (uintptr_t)name, 0, (uint32_t)i };
		else
			out[i] = UINT64_MAX;
	}
	nr = rank_names(r, m, out);
	free(r);
	for (size_t i = 0; nr >= 0 && i < s->n; i++)
		if (out[i] == UINT64_MAX)
			out[i] = (uint64_t)nr;
	return nr < 0 ? (int)nr : 0;
}

/* numbers all within 2^63 of each other compare by signed difference as by value */
struct span {
	uint64_t lo, hi;
};

static void span_add(struct span *w, uint64_t v)
{
	w->lo = v < w->lo ? v : w->lo;
	w->hi = v > w->hi ? v : w->hi;
}

static bool span_ok(const struct span *w)
{
	return w->lo > w->hi || w->hi - w->lo < HALF;
}

/* per group of rows that compare: the spans of their addresses, starts and ends */
struct spans {
	struct span addr, start, end;
};

/* A row's symbol, NULL without one. */
static const struct xpp_sym *sym_of(const struct src *s, const struct xpp_hist_key *k)
{
	const struct xpp_dso *d;

	if (k->inl || k->sym < 0 || k->dso == XPP_HIST_NO_DSO ||
	    !(d = xpp_dso_table_get(s->c->dsos, k->dso)) || (uint32_t)k->sym >= d->syms.nr)
		return NULL;
	return &d->syms.syms[k->sym];
}

/*
 * Whether sym_collapse is an order over the rows that two numbers a row can say
 * (sym_collapse_part()): a row without a symbol compares to another by address (signed
 * difference); one with, by DSO then the symbol's start and end (signed differences); one
 * of each by DSO, then the one with first. Where the view sorts by DSO, rows reaching
 * this compare have DSOs of one name: only theirs compare, so only theirs need be within
 * 2^63 (kernel and user symbols are not). 0, 1 where it is not (inlined names, a symbol
 * not in its table, values of rows that compare wider than 2^63, rows of each kind
 * without the DSO key), -ENOMEM. Without the DSO key, out: each row's DSO rank.
 */
static int sym_collapse_check(struct src *s, bool dso_key, uint64_t *out)
{
	uint64_t *grp = out, ng = 1;
	struct spans *sp = NULL;
	size_t named = 0;
	int ret;

	for (size_t i = 0; i < s->n; i++)
		named += rv_sym_name(s->c, key_of(s, i)) != NULL;
	/* the rows that compare: of one DSO name where the DSO compares first */
	if (dso_key || named) {
		if ((ret = id_ranks(s, true, grp)) < 0)
			return ret;
		for (size_t i = 0; i < s->n; i++)
			ng = grp[i] + 1 > ng ? grp[i] + 1 : ng;
	} else {
		memset(grp, 0, s->n * sizeof(*grp));
	}
	/*
	 * Without the DSO key, rows with a symbol compare by DSO first (sort__sym_cmp), rows
	 * without one by address alone, whatever their DSOs: those are one more group. (Rows
	 * reaching the collapse order are equal by every key's sort, so a row with a symbol
	 * never meets one without there: sym_sort puts those last.)
	 */
	if (!dso_key && named && named < s->n) {
		for (size_t i = 0; i < s->n; i++)
			if (!rv_sym_name(s->c, key_of(s, i)))
				grp[i] = ng;
		ng++;
	}
	sp = malloc(ng * sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (uint64_t j = 0; j < ng; j++)
		sp[j].addr = sp[j].start = sp[j].end = (struct span){ UINT64_MAX, 0 };
	ret = 0;
	for (size_t i = 0; i < s->n && !ret; i++) {
		const struct xpp_hist_key *k = key_of(s, i);
		struct spans *w = &sp[grp[i]];
		const struct xpp_sym *sy;

		if (!rv_sym_name(s->c, k)) {
			span_add(&w->addr, k->addr);
		} else if (!(sy = sym_of(s, k))) {
			ret = 1;
		} else {
			span_add(&w->start, sy->start);
			span_add(&w->end, sy->end);
		}
	}
	for (uint64_t j = 0; j < ng && !ret; j++)
		if (!span_ok(&sp[j].addr) || !span_ok(&sp[j].start) || !span_ok(&sp[j].end))
			ret = 1;
	free(sp);
	/* part 0: with the DSO key, rows reaching sym_collapse have DSOs of one name, and
	 * those with a symbol go first; without, rows with one compare by DSO first, and
	 * those without one, a group of their own, by address alone */
	for (size_t i = 0; i < s->n && dso_key; i++)
		out[i] = !rv_sym_name(s->c, key_of(s, i));
	if (!dso_key && !named)
		memset(out, 0, s->n * sizeof(*out));
	return ret;
}

/*
 * sym_collapse's part 1 (part 0: sym_collapse_check()): a row without a symbol its
 * address, one with the rank of its symbol's start and end among those (the rows of one
 * part 0 value are of one kind). 0 or -ENOMEM.
 */
static int sym_collapse_part(struct src *s, uint64_t *out)
{
	struct vrow *r = malloc((s->n + 1) * sizeof(*r));
	size_t m = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		const struct xpp_hist_key *k = key_of(s, i);
		const struct xpp_sym *sy;

		if (!rv_sym_name(s->c, k))
			out[i] = k->addr;
		else if ((sy = sym_of(s, k)))
			r[m++] = (struct vrow){ sy->start, sy->end, (uint32_t)i };
	}
	rank_pairs(r, m, out);
	free(r);
	return 0;
}

/* A pid's tid as perf's sort__thread_cmp compares it (an int). */
static void tid_values(struct src *s, uint64_t *out)
{
	for (size_t i = 0; i < s->n; i++)
		out[i] = (uint32_t)xpp_hist_val_at(s->h, s->rows[i], XPP_VAL_THREAD) ^ 0x80000000u;
}

static bool all_equal(const uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return true;
}

int rv_key_ranks(const struct rv_cols *v, const xpp_hist *h, const uint32_t *rows, size_t n,
		 bool collapse, uint64_t *rank)
{
	struct src s = { v->c, h, NULL, rows, n, { 0 } };
	uint64_t *comp = malloc((n + 1) * sizeof(*comp));
	bool have = false, dso_key = false;
	size_t nr;
	int ret = 0;

	if (!comp)
		return -ENOMEM;
	s.e = xpp_hist_recs(h, &nr);
	xpp_hist_key_init(&s.k);
	for (unsigned int i = 0; i < v->nr_cols; i++)
		dso_key |= v->cols[i] == RV_KEY_DSO;
	/* each key's sort, then each key's collapse order: a part at a time */
	for (unsigned int phase = 0; phase < (collapse ? 2u : 1u) && !ret; phase++) {
		for (unsigned int i = 0; i < v->nr_cols && !ret; i++) {
			unsigned int col = v->cols[i];
			int nparts = col == RV_KEY_SYM && phase ? 2 : 1;

			/* a key whose collapse order is its sort's was compared in the first
			 * phase: rows reaching the second are equal by it */
			if (phase && col != RV_KEY_SYM)
				continue;

			for (int part = 0; part < nparts && !ret; part++) {
				switch (col) {
				case RV_KEY_COMM:
				case RV_KEY_DSO:
					/* no sort or collapse of their own: cmp's */
					ret = id_ranks(&s, col == RV_KEY_DSO, comp);
					break;
				case RV_KEY_SYM:
					if (!phase)
						ret = sym_sort_ranks(&s, comp);
					else if (part == 0)
						ret = sym_collapse_check(&s, dso_key, comp);
					else
						ret = sym_collapse_part(&s, comp);
					break;
				case RV_KEY_PID:
					tid_values(&s, comp);
					break;
				default:
					ret = 1;
				}
				if (ret || all_equal(comp, n))
					continue;
				if (have) {
					ret = combine(rank, comp, n, collapse ? 64 : 32);
				} else {
					memcpy(rank, comp, n * sizeof(*rank));
					have = true;
				}
			}
		}
	}
	if (!ret && !have)
		memset(rank, 0, n * sizeof(*rank));
	free(comp);
	return ret;
}
