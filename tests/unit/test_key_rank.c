/*
 * Unit tests of the key ranks (view/key_rank.c): the numbers the sort of a view's entries
 * compares in place of their keys order the rows as the keys' comparison does
 * (rv_sort_keys(), with collapse rv_cmp_keys()), ties included, or say they cannot (1).
 */
#include <stdio.h>
#include <unistd.h>

#include "unit.h"

#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "profile/symbols/dso.h"
#include "view/rv.h"

#define FILE_PLAIN unit_src_path("tests/fuzz/corpus-pass/plain.bin")

/* JIT maps of known symbols: two named alike in one DSO (a tie by name, not by start),
 * one named as another DSO's */
static const char MAP_A[] = "1000 10 beta\n1010 10 alpha\n1020 10 alpha\n1030 10 gamma\n";
static const char MAP_B[] = "5000 10 alpha\n5010 10 delta\n";

/* what the rows are made of: a profile (the DSO table names are read through), commands */
struct fix {
	xpf_reader *r;
	xpp_profile *p;
	xpp_intern *comms;
	struct view_opts o;
	struct rv_ctx c;
	char map[2][64];
	uint32_t dso[4]; /* enum dso's */
	uint32_t comm[3];
	int32_t sym[6];  /* the maps' symbols, as listed: MAP_A's, then MAP_B's */
};

/* the rows' DSOs: the two maps, two files of one short name without symbols, none */
enum dso { JA, JB, LIB1, LIB2, NODSO };
/* the rows' symbols: MAP_A's four (A1 and A2 both alpha), MAP_B's two, none */
enum sym { A0, A1, A2, A3, B0, B1, NOSYM = -1 };

static int write_map(char *path, size_t size, int pid, const char *text)
{
	FILE *f;

	snprintf(path, size, "/tmp/perf-%d.map", pid);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int fix_init(struct fix *f)
{
	static const char *const names[] = { "zsh", "bash", "make" };
	const char *dsos[] = { f->map[0], f->map[1], "/nonexistent/a/libx.so",
			       "/nonexistent/b/libx.so" };
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };
	xpp_dso_table *t;
	int64_t id;

	memset(f, 0, sizeof(*f));
	po.order = -1;
	po.inlines = -1;
	/* a pid no process has (above any pid_max) for the second map: two DSOs, each its own */
	if (write_map(f->map[0], sizeof(f->map[0]), getpid(), MAP_A) ||
	    write_map(f->map[1], sizeof(f->map[1]), getpid() + (1 << 22), MAP_B))
		return -1;
	if (xpf_reader_open(&f->r, FILE_PLAIN, &err) < 0 ||
	    xpp_profile_create(&f->p, f->r, &po, &err) < 0 || !(f->comms = xpp_intern_create())) {
		printf("# %s\n", err.msg);
		return -1;
	}
	t = xpp_profile_dsos(f->p);
	for (int i = 0; i < 4; i++) {
		if ((id = xpp_dso_table_findnew(t, dsos[i], false)) < 0)
			return -1;
		f->dso[i] = (uint32_t)id;
	}
	for (int i = 0; i < 6; i++) {
		/* an address inside each: MAP_A's symbols from 0x1000, MAP_B's from 0x5000 */
		uint64_t addr = i < 4 ? 0x1004 + 0x10 * (uint64_t)i : 0x5004 + 0x10 * (uint64_t)(i - 4);

		f->sym[i] = (int32_t)xpp_dso_table_resolve(t, f->dso[i < 4 ? JA : JB], addr);
		if (f->sym[i] < 0)
			return -1;
	}
	for (int i = 0; i < 3; i++) {
		if ((id = xpp_intern_id(f->comms, names[i], strlen(names[i]))) < 0)
			return -1;
		f->comm[i] = (uint32_t)id;
	}
	view_opts_init(&f->o);
	rv_ctx_take(&f->c, f->p, f->r);
	f->c.o = &f->o;
	f->c.comms = f->comms;
	return 0;
}

static void fix_free(struct fix *f)
{
	xpp_profile_free(f->p);
	xpf_reader_close(f->r);
	xpp_intern_free(f->comms);
	for (int i = 0; i < 2; i++)
		if (f->map[i][0])
			unlink(f->map[i]);
}

/* A row: its command (of three), DSO, symbol, address, pid and tid. */
struct row {
	int comm;
	enum dso dso;
	enum sym sym;
	uint64_t addr;
	int32_t pid, tid;
};

static int add_rows(xpp_hist *h, const struct fix *f, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key k;

		xpp_hist_key_init(&k);
		memset(k.val, 0, sizeof(k.val));
		k.comm = f->comm[rows[i].comm];
		k.dso = rows[i].dso == NODSO ? XPP_HIST_NO_DSO : f->dso[rows[i].dso];
		k.sym = rows[i].sym == NOSYM ? -1 : f->sym[rows[i].sym];
		k.addr = rows[i].addr;
		k.val[XPP_VAL_THREAD] = (uint64_t)(uint32_t)rows[i].pid << 32 | (uint32_t)rows[i].tid;
		if (xpp_hist_add(h, &k, 1 + i, 1) < 0)
			return -1;
	}
	return 0;
}

static int sign(int64_t x)
{
	return (x > 0) - (x < 0);
}

/*
 * The ranks of h's rows (every other one, last first: rows are not the hist's order) under
 * the keys cols: rv_key_ranks()'s result; where 0, each pair of rows checked against the
 * comparison they stand for, and how many distinct ranks and ties there were.
 */
static int ranks_match(const struct fix *f, const xpp_hist *h, const unsigned int *cols,
		       unsigned int nr_cols, bool collapse, size_t *ranks, size_t *ties)
{
	struct rv_cols v = { .c = &f->c };
	size_t nh = xpp_hist_nr(h), n = 0, bad = 0;
	uint32_t *rows = malloc((nh + 1) * sizeof(*rows));
	uint64_t *rank = malloc((nh + 1) * sizeof(*rank));
	int ret = -1;

	*ranks = *ties = 0;
	if (!rows || !rank)
		goto out;
	for (unsigned int i = 0; i < nr_cols; i++)
		v.cols[v.nr_cols++] = cols[i];
	for (size_t i = nh; i-- > 0;)
		if (i % 3 != 1) /* a subset, in another order than the hist's */
			rows[n++] = (uint32_t)i;
	ret = rv_key_ranks(&v, h, rows, n, collapse, rank);
	if (ret)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key a = xpp_hist_key_at(h, rows[i]);
		bool first = true;

		if (!collapse && rank[i] >> 32)
			bad++;
		for (size_t j = 0; j < n; j++) {
			struct xpp_hist_key b = xpp_hist_key_at(h, rows[j]);
			int want = sign(collapse ? rv_cmp_keys(&a, &b, &v) : rv_sort_keys(&a, &b, &v));
			int got = rank[i] < rank[j] ? -1 : rank[i] > rank[j];

			if (want != got && bad++ < 5)
				printf("# rows %u and %u: ranks %" PRIu64 ", %" PRIu64 " say %d, the keys %d\n",
				       rows[i], rows[j], rank[i], rank[j], got, want);
			if (j < i && rank[j] == rank[i])
				first = false;
			*ties += j > i && rank[j] == rank[i];
		}
		*ranks += first;
	}
	ret = bad ? 2 : 0;
out:
	free(rows);
	free(rank);
	return ret;
}

#define COLS(...) (const unsigned int[]){ __VA_ARGS__ }, \
	sizeof((const unsigned int[]){ __VA_ARGS__ }) / sizeof(unsigned int)

/* every view of the keys (each key alone, in several orders, both comparisons) */
static const struct view {
	const unsigned int *cols;
	unsigned int nr;
} views[] = {
	{ COLS(RV_KEY_SYM) },
	{ COLS(RV_KEY_COMM) },
	{ COLS(RV_KEY_DSO) },
	{ COLS(RV_KEY_PID) },
	{ COLS(RV_KEY_DSO, RV_KEY_SYM) },
	{ COLS(RV_KEY_SYM, RV_KEY_DSO) },
	{ COLS(RV_KEY_COMM, RV_KEY_DSO, RV_KEY_SYM) },
	{ COLS(RV_KEY_PID, RV_KEY_SYM) },
	{ COLS(RV_KEY_SYM, RV_KEY_PID, RV_KEY_COMM) },
};

static bool has(const struct view *w, unsigned int key)
{
	for (unsigned int i = 0; i < w->nr; i++)
		if (w->cols[i] == key)
			return true;
	return false;
}

/*
 * Every view over rows: ranks (0) where want_rank(view, collapse) says so and they order
 * as the keys, else 1; enough distinct ranks and ties that the order was tested.
 */
static void check_views(const struct row *rows, size_t n,
			bool (*want_rank)(const struct view *w, bool collapse))
{
	struct fix f;
	xpp_hist *h = xpp_hist_create();
	size_t all_ranks = 0, all_ties = 0;

	if (fix_init(&f) || !h || add_rows(h, &f, rows, n)) {
		UNIT_FAIL("the fixture (profile, JIT maps in /tmp, rows) could not be made");
		goto out;
	}
	for (size_t w = 0; w < sizeof(views) / sizeof(views[0]); w++) {
		for (int collapse = 0; collapse < 2; collapse++) {
			size_t ranks, ties;
			int ret = ranks_match(&f, h, views[w].cols, views[w].nr, collapse, &ranks,
					      &ties);
			int want = want_rank(&views[w], collapse) ? 0 : 1;

			if (ret != want)
				UNIT_FAIL("view %zu (%u keys), collapse %d: %d, expected %d", w,
					  views[w].nr, collapse, ret, want);
			all_ranks += ranks;
			all_ties += ties;
		}
	}
	/* not a test of nothing: the rows have distinct ranks and ties in the views */
	CHECK(all_ranks > 2 * n);
	CHECK(all_ties > 0);
out:
	xpp_hist_free(h);
	fix_free(&f);
}

static bool always(const struct view *w, bool collapse)
{
	(void)w, (void)collapse;
	return true;
}

/* addresses 2^63 apart in one DSO: no order by their signed difference */
static bool never_collapsed_sym(const struct view *w, bool collapse)
{
	return !collapse || !has(w, RV_KEY_SYM);
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* rows of named symbols: ties of one name in two places, in two DSOs */
static const struct row named[] = {
	{ 0, JA, A0, 0, 10, 10 },      /* beta */
	{ 0, JA, A1, 0, 10, 11 },      /* alpha */
	{ 1, JA, A2, 0, 10, 11 },      /* alpha, another */
	{ 1, JA, A3, 0, 20, 20 },      /* gamma */
	{ 2, JB, B0, 0, 20, 21 },      /* alpha in B */
	{ 2, JB, B1, 0, -1, -1 },      /* delta */
	{ 0, JA, A1, 0x1014, 30, 11 }, /* alpha again, another pid of one tid */
	{ 1, JB, B0, 0, 10, 10 },
	{ 2, JA, A0, 0, 7, 7 },
	{ 0, JB, B1, 0, 10, 12 },
	{ 1, JA, A2, 0, 10, 12 },
	{ 2, JA, A3, 0, 10, 12 },
};

/* rows without a symbol: addresses, in files of one short name, and in no DSO */
static const struct row unnamed[] = {
	{ 0, LIB1, NOSYM, 0x400000, 10, 10 },
	{ 0, LIB2, NOSYM, 0x400000, 10, 10 }, /* another DSO of the same name */
	{ 0, LIB1, NOSYM, 0x400010, 10, 11 },
	{ 1, LIB2, NOSYM, 0x3ffff0, 20, 20 },
	{ 1, NODSO, NOSYM, 0x7fff0000, 20, 21 },
	{ 2, NODSO, NOSYM, 0x10, -1, -1 },
	{ 2, LIB1, NOSYM, 0, 5, 5 },
	{ 0, NODSO, NOSYM, 0x10, 10, 12 },
	{ 1, LIB1, NOSYM, 0x400010, 10, 12 },
	{ 2, JA, NOSYM, 0x2000, 10, 12 }, /* past the map's symbols */
	{ 2, JA, NOSYM, 0x900, 30, 30 },
	{ 0, LIB2, NOSYM, 0x400000, 30, 31 },
};

/* by name, then (collapsed) start and end */
static void named_rows(void)
{
	check_views(named, NR(named), always);
}

/* by address (collapsed: its signed difference), the names of DSOs and commands, tids */
static void address_rows(void)
{
	check_views(unnamed, NR(unnamed), always);
}

/*
 * both kinds: collapsed by symbol, rows with a symbol compare by DSO and symbol, rows
 * without one by address whatever their DSO (sym_collapse_check()); the sort of sym sets
 * the two kinds apart before, so they have ranks with or without the DSO key
 */
static void mixed_rows(void)
{
	struct row rows[NR(named) + NR(unnamed)];

	memcpy(rows, named, sizeof(named));
	memcpy(rows + NR(named), unnamed, sizeof(unnamed));
	check_views(rows, NR(rows), always);
}

/* addresses more than 2^63 apart in one DSO (kernel and user, say): the collapse of sym
 * compares them by their signed difference, no order, so no ranks */
static void wide_rows(void)
{
	static const struct row rows[] = {
		{ 0, LIB1, NOSYM, 0x10, 10, 10 },
		{ 0, LIB1, NOSYM, 0xffffffff81000000ULL, 10, 10 },
		{ 1, LIB1, NOSYM, 0x400000, 20, 20 },
		{ 1, LIB1, NOSYM, 0xffffffff81000010ULL, 20, 21 },
		{ 2, LIB1, NOSYM, 0x7fff00000000ULL, 10, 11 },
		{ 2, LIB1, NOSYM, 0xffffffff81000020ULL, 10, 11 },
		{ 0, LIB1, NOSYM, 0x20, 30, 30 },
		{ 0, LIB1, NOSYM, 0x30, 30, 31 },
		{ 1, LIB1, NOSYM, 0x40, 40, 40 },
	};

	check_views(rows, NR(rows), never_collapsed_sym);
}

/* a key without ranks (cpu): the sort compares the keys themselves */
static void unranked_key(void)
{
	static const struct row rows[] = {
		{ 0, LIB1, NOSYM, 0x10, 10, 10 },
		{ 1, LIB1, NOSYM, 0x20, 10, 10 },
		{ 2, JA, A0, 0, 20, 20 },
	};
	struct fix f;
	xpp_hist *h = xpp_hist_create();
	size_t ranks, ties;

	if (fix_init(&f) || !h || add_rows(h, &f, rows, NR(rows))) {
		UNIT_FAIL("the fixture (profile, JIT maps in /tmp, rows) could not be made");
		goto out;
	}
	for (int collapse = 0; collapse < 2; collapse++) {
		CHECK_EQ_U64(ranks_match(&f, h, COLS(RV_KEY_CPU), collapse, &ranks, &ties), 1);
		CHECK_EQ_U64(ranks_match(&f, h, COLS(RV_KEY_SYM, RV_KEY_CPU), collapse, &ranks,
					 &ties), 1);
	}
out:
	xpp_hist_free(h);
	fix_free(&f);
}

/* rv_rank_few(): values as their ranks, where they are few */
static void rank_few(void)
{
	uint64_t v[] = { 70, UINT64_MAX, 3, 70, 0, 3, 1ULL << 40 }, want[] = { 2, 4, 1, 2, 0, 1, 3 };
	uint64_t *many = malloc(70000 * sizeof(*many));

	CHECK_EQ_U64(rv_rank_few(v, 7), 0);
	for (int i = 0; i < 7; i++)
		CHECK_EQ_U64(v[i], want[i]);
	REQUIRE(many);
	/* more than 65536 values: 1, and the values as they were */
	for (uint64_t i = 0; i < 70000; i++)
		many[i] = (i * 7919) % 70001;
	CHECK_EQ_U64(rv_rank_few(many, 70000), 1);
	CHECK_EQ_U64(many[69999], (69999ULL * 7919) % 70001);
	/* 65536 values (many rows each): ranked */
	for (uint64_t i = 0; i < 70000; i++)
		many[i] = ((i * 7919) % 65536) << 20;
	CHECK_EQ_U64(rv_rank_few(many, 70000), 0);
	for (uint64_t i = 0; i < 70000; i++)
		if (many[i] != (i * 7919) % 65536) {
			CHECK_EQ_U64(many[i], (i * 7919) % 65536);
			break;
		}
	free(many);
}

int main(void)
{
	RUN(named_rows);
	RUN(address_rows);
	RUN(mixed_rows);
	RUN(wide_rows);
	RUN(unranked_key);
	RUN(rank_few);
	UNIT_MAIN_END();
}
