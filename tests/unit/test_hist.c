/* Unit tests of xperf-report's aggregation: keys, sums, collapsing by sort keys, filters, ordering
 * queue, the stash and the sample cache. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "profile/filter.h"
#include "profile/tree/hist.h"
#include "profile/session/intern.h"
#include "profile/session/ordered.h"
#include "profile/session/stash.h"
#include "profile/sample_cache.h"
#include "profile/time_range.h"

static struct xpp_hist_key key(uint32_t comm, uint32_t dso, int32_t sym, uint64_t addr)
{
	struct xpp_hist_key k;

	xpp_hist_key_init(&k);
	k.comm = comm;
	k.dso = dso;
	k.sym = sym;
	k.addr = addr;
	return k;
}

static const struct xpp_hist_rec *find(const xpp_hist *h, const struct xpp_hist_key *k)
{
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(h, &n);

	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key ki = xpp_hist_key_at(h, i);

		if (!memcmp(&ki, k, sizeof(*k)))
			return &e[i];
	}
	return NULL;
}

static void test_sums(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key a = key(1, 2, 3, 0), b = key(1, 2, -1, 0x1234), c = key(2, 2, 3, 0);
	size_t n;

	REQUIRE(h);
	/* many samples, few keys: one entry per key */
	for (int i = 0; i < 100000; i++) {
		CHECK(xpp_hist_add(h, &a, 10, 1) == 0);
		if (i % 2)
			CHECK(xpp_hist_add(h, &b, 5, 1) == 0);
		if (i % 4 == 0)
			CHECK(xpp_hist_add(h, &c, 1, 1) == 0);
	}
	n = xpp_hist_nr(h);
	CHECK_EQ_U64(n, 3);
	CHECK_EQ_U64(find(h, &a)->period, 1000000);
	CHECK_EQ_U64(find(h, &a)->nr_samples, 100000);
	CHECK_EQ_U64(find(h, &b)->period, 250000);
	CHECK_EQ_U64(find(h, &c)->nr_samples, 25000);
	/* unresolved addresses are separate entries */
	struct xpp_hist_key b2 = key(1, 2, -1, 0x1238);

	CHECK(xpp_hist_add(h, &b2, 1, 1) == 0);
	n = xpp_hist_nr(h);
	CHECK_EQ_U64(n, 4);
	xpp_hist_free(h);
}

static void test_many_keys(void)
{
	xpp_hist *h = xpp_hist_create();
	size_t n;

	REQUIRE(h);
	for (uint32_t i = 0; i < 50000; i++) {
		struct xpp_hist_key k = key(i % 7, i % 13, (int32_t)i, 0);

		CHECK(xpp_hist_add(h, &k, i, 1) == 0);
		CHECK(xpp_hist_add(h, &k, 1, 1) == 0);
	}
	n = xpp_hist_nr(h);
	CHECK_EQ_U64(n, 50000);
	struct xpp_hist_key k = key(12345 % 7, 12345 % 13, 12345, 0);

	REQUIRE(find(h, &k));
	CHECK_EQ_U64(find(h, &k)->period, 12346);
	xpp_hist_free(h);
}

static void test_collapse(void)
{
	xpp_hist *h = xpp_hist_create(), *c;
	struct xpp_hist_key k1 = key(1, 5, 7, 0), k2 = key(2, 5, 7, 0), k3 = key(1, 6, 7, 0);
	struct xpp_hist_key want;
	size_t n;

	REQUIRE(h);
	xpp_hist_add(h, &k1, 10, 1);
	xpp_hist_add(h, &k2, 20, 2);
	xpp_hist_add(h, &k3, 40, 4);

	/* by comm only: 1 -> 50, 2 -> 20 */
	c = xpp_hist_collapse(h, XPP_HIST_KEY_COMM);
	REQUIRE(c);
	n = xpp_hist_nr(c);
	CHECK_EQ_U64(n, 2);
	want = key(1, XPP_HIST_NO_DSO, -1, 0);
	REQUIRE(find(c, &want));
	CHECK_EQ_U64(find(c, &want)->period, 50);
	CHECK_EQ_U64(find(c, &want)->nr_samples, 5);
	xpp_hist_free(c);

	/* by dso,sym: symbol 7 of dso 5 merges across comms; dso 6's symbol 7 stays apart */
	c = xpp_hist_collapse(h, XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM);
	REQUIRE(c);
	n = xpp_hist_nr(c);
	CHECK_EQ_U64(n, 2);
	want = key(0, 5, 7, 0);
	REQUIRE(find(c, &want));
	CHECK_EQ_U64(find(c, &want)->period, 30);
	xpp_hist_free(c);

	/* sym alone still keeps the dso (an index means nothing without it) */
	c = xpp_hist_collapse(h, XPP_HIST_KEY_SYM);
	REQUIRE(c);
	n = xpp_hist_nr(c);
	CHECK_EQ_U64(n, 2);
	xpp_hist_free(c);
	xpp_hist_free(h);
}

/* The context keys (pid, cpu, parent) split entries only while a collapse keeps them. */
static void test_context_keys(void)
{
	xpp_hist *h = xpp_hist_create(), *by_pid = NULL, *plain = NULL;
	struct xpp_hist_key a = key(1, 2, 3, 0), b = a, c = a;
	size_t n;

	REQUIRE(h);
	a.val[XPP_VAL_THREAD] = 10ull << 32 | 10;
	b.val[XPP_VAL_THREAD] = 10ull << 32 | 11;
	c.val[XPP_VAL_THREAD] = 12ull << 32 | 12;
	c.val[XPP_VAL_CPU] = 1, c.val[XPP_VAL_PARENT] = 5;
	CHECK(xpp_hist_add(h, &a, 100, 1) == 0);
	CHECK(xpp_hist_add(h, &b, 10, 1) == 0);
	CHECK(xpp_hist_add(h, &c, 1, 1) == 0);
	n = xpp_hist_nr(h);
	CHECK_EQ_U64(n, 3);
	CHECK(xpp_hist_find(h, &b) == 1);
	c.val[XPP_VAL_CPU] = 2;
	CHECK(xpp_hist_find(h, &c) == -1);
	c.val[XPP_VAL_CPU] = 1;
	c.val[XPP_VAL_TIME] = 7; /* any value splits: the hash and compare take them all */
	CHECK(xpp_hist_find(h, &c) == -1);
	by_pid = xpp_hist_collapse(h, XPP_HIST_KEY_PID | XPP_HIST_KEY_SYM);
	plain = xpp_hist_collapse(h, XPP_HIST_KEY_COMM | XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM);
	REQUIRE(by_pid && plain);
	n = xpp_hist_nr(by_pid);
	CHECK_EQ_U64(n, 3); /* one a thread */
	CHECK_EQ_U64(xpp_hist_recs(plain, &n)[0].period, 111);
	CHECK_EQ_U64(n, 1);
	xpp_hist_free(h);
	xpp_hist_free(by_pid);
	xpp_hist_free(plain);
}

/* Entries are stored compact (values in a row apart): every key reads back whole. */
static void test_compact_keys(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key k[4] = { key(1, 2, 3, 0), key(1, 2, -1, 0x1234), key(1, 2, 3, 0),
				     key(3, XPP_HIST_NO_DSO, -1, 0xffffffffffff0000ull) };

	REQUIRE(h);
	k[0].level = 'k', k[0].inl = 7, k[0].srcline = 9 | XPP_SRCLINE_FALLBACK;
	k[2].val[XPP_VAL_IP] = 0x400000;  /* apart from k[0] by a value only */
	k[3].val[XPP_VAL_SRCFILE] = 4, k[3].val[XPP_VAL_THREAD] = 1;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 4; i++)
			CHECK_EQ_U64(xpp_hist_add_id(h, &k[i], (uint64_t)i + 1, 1), i);
	CHECK_EQ_U64(xpp_hist_nr(h), 4);
	for (int i = 0; i < 4; i++) {
		struct xpp_hist_entry e = xpp_hist_entry_at(h, i);

		CHECK(!memcmp(&e.key, &k[i], sizeof(k[i])));
		CHECK_EQ_U64(e.period, 2 * ((uint64_t)i + 1));
		CHECK_EQ_U64(e.nr_samples, 2);
		CHECK_EQ_U64(xpp_hist_val_at(h, i, XPP_VAL_IP), k[i].val[XPP_VAL_IP]);
		CHECK_EQ_U64(xpp_hist_find(h, &k[i]), i);
	}
	k[2].val[XPP_VAL_IP] = 0;
	k[2].val[XPP_VAL_CPU] = 0x400000; /* the same value in another place is another key */
	CHECK(xpp_hist_find(h, &k[2]) == -1);
	xpp_hist_free(h);
}

/*
 * Keys known new are appended without a lookup while the hist has no index; the first add
 * or find after builds it from every entry, values and all, and finds each appended key.
 */
static void test_append(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key k[3] = { key(1, 2, 3, 0), key(1, 2, -1, 0x1234), key(1, 2, 3, 0) };
	struct xpp_hist_key more = key(4, 5, 6, 0);

	REQUIRE(h);
	k[2].val[XPP_VAL_IP] = 0x400000;
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(xpp_hist_append(h, &k[i]), i);
	for (int i = 0; i < 3; i++) {
		struct xpp_hist_key ki = xpp_hist_key_at(h, i);

		CHECK(!memcmp(&ki, &k[i], sizeof(ki)));
		CHECK_EQ_U64(xpp_hist_recs(h, &(size_t){ 0 })[i].period, 0);
	}
	CHECK_EQ_U64(xpp_hist_add_id(h, &k[2], 5, 1), 2); /* the index comes: found */
	CHECK_EQ_U64(xpp_hist_recs(h, &(size_t){ 0 })[2].period, 5);
	CHECK_EQ_U64(xpp_hist_find(h, &k[1]), 1);
	/* with an index an append is an add: the new key is found after */
	CHECK_EQ_U64(xpp_hist_append(h, &more), 3);
	CHECK_EQ_U64(xpp_hist_find(h, &more), 3);
	CHECK_EQ_U64(xpp_hist_nr(h), 4);
	xpp_hist_freeze(h);
	CHECK_EQ_U64(xpp_hist_find(h, &k[0]), 0);
	xpp_hist_free(h);
}

/*
 * A cleared hist starts its ids over and finds none of the keys it had, values included
 * (with rows made apart too: --sort addr's), and its memory serves the next keys.
 */
static void test_clear(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key k = key(1, 2, -1, 0);

	REQUIRE(h);
	for (int round = 0; round < 3; round++) {
		for (uint64_t i = 0; i < 10000; i++) {
			k.addr = (uint64_t)round << 32 | i;
			k.val[XPP_VAL_IP] = i & 1 ? 0 : 0x400000 + i;
			CHECK_EQ_U64(xpp_hist_add_id(h, &k, 1, 1), i);
		}
		CHECK_EQ_U64(xpp_hist_nr(h), 10000);
		CHECK_EQ_U64(xpp_hist_nr_val_rows(h), 5000);
		k.addr = (uint64_t)round << 32 | 4;
		k.val[XPP_VAL_IP] = 0x400000 + 4;
		CHECK_EQ_U64(xpp_hist_find(h, &k), 4);
		xpp_hist_clear(h);
		CHECK_EQ_U64(xpp_hist_nr(h), 0);
		CHECK_EQ_U64(xpp_hist_nr_val_rows(h), 0);
		CHECK(xpp_hist_find(h, &k) == -1);
	}
	/* the same key again: a new entry 0, with its count from 0 */
	CHECK_EQ_U64(xpp_hist_add_id(h, &k, 3, 1), 0);
	CHECK_EQ_U64(xpp_hist_recs(h, &(size_t){ 0 })[0].period, 3);
	CHECK_EQ_U64(xpp_hist_key_at(h, 0).val[XPP_VAL_IP], 0x400000 + 4);
	xpp_hist_free(h);
}

/*
 * Keys with one set of values share its row (a view by pid of one thread: one row, not one
 * a key), also after a copy (collapse) and a freeze; with thousands of rows none shared,
 * rows are made without a look (every frame's address: --sort addr). Keys read back whole.
 */
static void test_shared_values(void)
{
	xpp_hist *h = xpp_hist_create(), *c = NULL, *apart = xpp_hist_create();
	struct xpp_hist_key k = key(1, 2, -1, 0);
	size_t n;

	REQUIRE(h && apart);
	k.val[XPP_VAL_THREAD] = 7ull << 32 | 8;
	for (uint64_t a = 0; a < 10000; a++) {
		k.addr = a;
		CHECK_EQ_U64(xpp_hist_add_id(h, &k, 1, 1), a);
	}
	k.val[XPP_VAL_CPU] = 3;
	k.addr = 1;
	CHECK_EQ_U64(xpp_hist_add_id(h, &k, 1, 1), 10000); /* another set: another key */
	CHECK_EQ_U64(xpp_hist_nr_val_rows(h), 2);
	CHECK_EQ_U64(xpp_hist_val_at(h, 9999, XPP_VAL_THREAD), 7ull << 32 | 8);
	CHECK_EQ_U64(xpp_hist_val_at(h, 9999, XPP_VAL_CPU), 0);
	CHECK_EQ_U64(xpp_hist_val_at(h, 10000, XPP_VAL_CPU), 3);
	/* a copy keeps the rows, and a new key of a set it has takes that row */
	c = xpp_hist_collapse(h, XPP_HIST_KEY_PID | XPP_HIST_KEY_CPU | XPP_HIST_KEY_SYM);
	REQUIRE(c);
	xpp_hist_freeze(c);
	k.addr = 20000;
	CHECK_EQ_U64(xpp_hist_add_id(c, &k, 1, 1), 10001);
	CHECK_EQ_U64(xpp_hist_nr_val_rows(c), 2);
	CHECK_EQ_U64(xpp_hist_recs(c, &n)[10001].period, 1);
	/* a set of its own for each key: a row each, every key whole */
	for (uint64_t a = 0; a < 10000; a++) {
		struct xpp_hist_key o = key(1, 2, -1, a);

		o.val[XPP_VAL_IP] = a + 1;
		CHECK_EQ_U64(xpp_hist_add_id(apart, &o, 1, 1), a);
	}
	CHECK_EQ_U64(xpp_hist_nr_val_rows(apart), 10000);
	for (uint64_t a = 0; a < 10000; a += 999) {
		struct xpp_hist_key o = key(1, 2, -1, a), back = xpp_hist_key_at(apart, a);

		o.val[XPP_VAL_IP] = a + 1;
		CHECK(!memcmp(&o, &back, sizeof(o)));
		CHECK_EQ_U64(xpp_hist_find(apart, &o), a);
	}
	xpp_hist_free(h);
	xpp_hist_free(c);
	xpp_hist_free(apart);
}

/* Whether a mask leaves every key as it is: what it drops must be unset in each. */
static void test_mask_keeps(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key a = key(0, 2, 3, 0), b = key(0, XPP_HIST_NO_DSO, -1, 0x10);
	unsigned int sym = XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM;

	REQUIRE(h);
	CHECK(xpp_hist_add(h, &a, 1, 1) == 0);
	CHECK(xpp_hist_add(h, &b, 1, 1) == 0);
	CHECK(xpp_hist_mask_keeps(h, sym));
	CHECK(!xpp_hist_mask_keeps(h, XPP_HIST_KEY_DSO)); /* drops the symbol */
	b.val[XPP_VAL_IP] = 0x10;
	CHECK(xpp_hist_add(h, &b, 1, 1) == 0);
	CHECK(!xpp_hist_mask_keeps(h, sym));
	CHECK(xpp_hist_mask_keeps(h, sym | XPP_HIST_KEY_VAL(XPP_VAL_IP)));
	xpp_hist_free(h);
}

/* --pid/--tid lists and perf's cpu lists ("0-2,4"). */
static void test_int_lists(void)
{
	struct xpp_int_list l = { 0 };

	CHECK(xpp_int_list_has(&l, 7)); /* empty: everything */
	CHECK(xpp_int_list_parse(&l, "4,0-2", true) == 0);
	CHECK_EQ_U64(l.nr, 4);
	CHECK(xpp_int_list_has(&l, 0) && xpp_int_list_has(&l, 2) && xpp_int_list_has(&l, 4));
	CHECK(!xpp_int_list_has(&l, 3) && !xpp_int_list_has(&l, -1));
	xpp_int_list_free(&l);
	CHECK(xpp_int_list_parse(&l, "0-2", false) == -EINVAL); /* no ranges for pids */
	xpp_int_list_free(&l);
	CHECK(xpp_int_list_parse(&l, "3-1", true) == -EINVAL);
	xpp_int_list_free(&l);
	CHECK(xpp_int_list_parse(&l, "1,,2", false) == -EINVAL);
	xpp_int_list_free(&l);
	CHECK(xpp_int_list_parse(&l, "-5", false) == -EINVAL);
	xpp_int_list_free(&l);
	CHECK(xpp_int_list_parse(&l, "99999999999", false) == -EINVAL);
	xpp_int_list_free(&l);
}

/* perf's --time: absolute ranges, percent slices and perf's rounding at their edges. */
static void test_time_ranges(void)
{
	const uint64_t first = 1000000000000ULL, last = first + 1000; /* 1000 s, 1 us long */
	struct xpp_time_ranges t;
	struct xb_error err;

	CHECK(xpp_time_ranges_parse(&t, NULL, 0, 0, false, &err) == 0 && t.nr == 0);
	CHECK(!xpp_time_ranges_skip(&t, 5));
	REQUIRE(xpp_time_ranges_parse(&t, "1234.5,1235", 0, 0, false, &err) == 0);
	CHECK_EQ_U64(t.nr, 1);
	CHECK_EQ_U64(t.r[0].start, 1234500000000ULL);
	CHECK_EQ_U64(t.r[0].end, 1235000000000ULL);
	CHECK(xpp_time_ranges_skip(&t, 1234499999999ULL));
	CHECK(!xpp_time_ranges_skip(&t, 1234500000000ULL) && !xpp_time_ranges_skip(&t, 1235000000000ULL));
	CHECK(xpp_time_ranges_skip(&t, 1235000000001ULL));
	CHECK(!xpp_time_ranges_skip(&t, 0)); /* no time: kept */
	xpp_time_ranges_free(&t);
	/* open ends, and several ranges separated by spaces */
	REQUIRE(xpp_time_ranges_parse(&t, ",2.000000001", 0, 0, false, &err) == 0);
	CHECK_EQ_U64(t.r[0].start, 0);
	CHECK_EQ_U64(t.r[0].end, 2000000001ULL);
	xpp_time_ranges_free(&t);
	REQUIRE(xpp_time_ranges_parse(&t, "1,2 3,", 0, 0, false, &err) == 0);
	CHECK_EQ_U64(t.nr, 2);
	CHECK(!xpp_time_ranges_skip(&t, 1500000000ULL) && xpp_time_ranges_skip(&t, 2500000000ULL));
	CHECK(!xpp_time_ranges_skip(&t, 99000000000ULL));
	xpp_time_ranges_free(&t);
	/* what perf refuses: no comma, end before start, overlaps, 10 fraction digits */
	CHECK(xpp_time_ranges_parse(&t, "abc", 0, 0, false, &err) == -EINVAL);
	CHECK(strstr(err.msg, "invalid time string 'abc'"));
	CHECK(xpp_time_ranges_parse(&t, "5,3", 0, 0, false, &err) == -EINVAL);
	CHECK(xpp_time_ranges_parse(&t, "1,3 2,4", 0, 0, false, &err) == -EINVAL);
	CHECK(xpp_time_ranges_parse(&t, "1.0123456789,", 0, 0, false, &err) == -EINVAL);
	CHECK(xpp_time_ranges_parse(&t, "1,2,3", 0, 0, false, &err) == -EINVAL);
	/* percentages of first..last: the second 10% stops 1 ns short of the third */
	REQUIRE(xpp_time_ranges_parse(&t, "10%/2", first, last, true, &err) == 0);
	CHECK_EQ_U64(t.r[0].start, first + 100);
	CHECK_EQ_U64(t.r[0].end, first + 199);
	xpp_time_ranges_free(&t);
	REQUIRE(xpp_time_ranges_parse(&t, "0%-10%,90%-100%", first, last, true, &err) == 0);
	CHECK_EQ_U64(t.nr, 2);
	CHECK_EQ_U64(t.r[1].start, first + 900);
	CHECK_EQ_U64(t.r[1].end, last); /* the last slice keeps the last sample */
	CHECK(xpp_time_ranges_skip(&t, first + 500) && !xpp_time_ranges_skip(&t, last));
	xpp_time_ranges_free(&t);
	REQUIRE(xpp_time_ranges_parse(&t, "25%", first, last, true, &err) == 0);
	CHECK_EQ_U64(t.r[0].start, first);
	CHECK_EQ_U64(t.r[0].end, first + 249);
	xpp_time_ranges_free(&t);
	CHECK(xpp_time_ranges_parse(&t, "10%/11", first, last, true, &err) == -EINVAL);
	CHECK(xpp_time_ranges_parse(&t, "0%/1", first, last, true, &err) == -EINVAL);
	CHECK(xpp_time_ranges_parse(&t, "10%/x", first, last, true, &err) == -EINVAL);
	/* a percentage needs the file's first and last sample times */
	CHECK(xpp_time_ranges_parse(&t, "10%/1", 0, 0, false, &err) == -EINVAL);
	CHECK(strstr(err.msg, "no first and last sample time"));
}

static void test_intern(void)
{
	xpp_intern *in = xpp_intern_create();
	char buf[32];

	REQUIRE(in);
	CHECK_EQ_U64(xpp_intern_id(in, "shares", 6), 0);
	CHECK_EQ_U64(xpp_intern_id(in, "dd", 2), 1);
	CHECK_EQ_U64(xpp_intern_id(in, "sharesXYZ", 6), 0); /* by length */
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), ":%d", i);
		CHECK_EQ_U64(xpp_intern_id(in, buf, strlen(buf)), (uint64_t)i + 2);
	}
	CHECK_EQ_U64(xpp_intern_id(in, ":4999", 5), 5001);
	CHECK_STR(xpp_intern_str(in, 1), "dd");
	CHECK(xpp_intern_str(in, 999999) == NULL);
	xpp_intern_free(in);
}

/*
 * Strings are packed in blocks: across many blocks, with strings longer than a block's
 * share between them, each reads back as it was, where it was, and is found again.
 */
static void test_intern_blocks(void)
{
	xpp_intern *in = xpp_intern_create();
	enum { N = 40000, LONG = 100000 };
	const char *at[N];
	char *big = malloc(LONG + 1), buf[64];

	REQUIRE(in && big);
	for (int i = 0; i < N; i++) {
		int64_t id;

		if (i % 5000 == 17) { /* a long one now and then, of its own block */
			memset(big, 'a' + i % 26, LONG);
			big[LONG] = '\0';
			snprintf(big, 16, "%d", i);
			big[strlen(big)] = '-';
			id = xpp_intern_id(in, big, LONG - (size_t)i % 7000);
		} else {
			snprintf(buf, sizeof(buf), "frame %d at 0x%x", i, i * 977u);
			id = xpp_intern_id(in, buf, strlen(buf));
		}
		CHECK_EQ_U64(id, i);
		at[i] = xpp_intern_str(in, (uint32_t)i);
	}
	for (int i = 0; i < N; i++) {
		size_t len;

		CHECK(xpp_intern_str(in, (uint32_t)i) == at[i]); /* where it was */
		if (i % 5000 == 17) {
			len = LONG - (size_t)i % 7000;
			memset(big, 'a' + i % 26, LONG);
			snprintf(big, 16, "%d", i);
			big[strlen(big)] = '-';
			CHECK_EQ_U64(strlen(at[i]), len);
			CHECK(!strncmp(at[i], big, len));
			CHECK_EQ_U64(xpp_intern_id(in, big, len), i);
		} else {
			snprintf(buf, sizeof(buf), "frame %d at 0x%x", i, i * 977u);
			CHECK_STR(at[i], buf);
			CHECK_EQ_U64(xpp_intern_id(in, buf, strlen(buf)), i);
		}
	}
	CHECK_EQ_U64(xpp_intern_nr(in), N);
	free(big);
	xpp_intern_free(in);
}

/* The ordering queue: records come out by time per round, equal times in arrival order. */
struct rec {
	struct perf_event_header h;
	uint64_t time;
	uint64_t tag;
};

static uint64_t got[64];
static unsigned int nr_got;

static int collect(void *ctx, const struct perf_event_header *h, uint64_t pos)
{
	(void)ctx;
	CHECK_EQ_U64(pos, ((const struct rec *)h)->tag * 8);
	if (nr_got < 64)
		got[nr_got++] = ((const struct rec *)h)->tag;
	return 0;
}

static void queue(xpp_ordered *q, uint64_t time, uint64_t tag)
{
	struct rec r = { .h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(r) }, .time = time,
			 .tag = tag };

	CHECK(xpp_ordered_queue(q, time, &r.h, tag * 8, false) == 0);
}

static void test_ordered_rounds(void)
{
	xpp_ordered *q = xpp_ordered_create(collect, NULL);

	REQUIRE(q);
	nr_got = 0;
	/* round 1: two CPUs' buffers, each sorted */
	queue(q, 10, 1);
	queue(q, 30, 3);
	queue(q, 20, 2);
	queue(q, 40, 4);
	CHECK(xpp_ordered_round(q) == 0);
	CHECK_EQ_U64(nr_got, 0); /* the first round flushes nothing: times up to 0 */
	queue(q, 35, 5);
	queue(q, 50, 6);
	queue(q, 35, 7);         /* same time as tag 5: after it */
	CHECK(xpp_ordered_round(q) == 0);
	/* up to 40, the largest time before the previous round */
	CHECK_EQ_U64(nr_got, 6);
	uint64_t want1[] = { 1, 2, 3, 5, 7, 4 };

	for (unsigned int i = 0; i < 6 && i < nr_got; i++)
		CHECK_EQ_U64(got[i], want1[i]);
	queue(q, 45, 8);
	CHECK(xpp_ordered_flush_all(q) == 0);
	CHECK_EQ_U64(nr_got, 8);
	CHECK_EQ_U64(got[6], 8);
	CHECK_EQ_U64(got[7], 6);
	xpp_ordered_free(q);
}

/* Big records, counted as they come out, times going up: the queue's bound. */
struct big_rec {
	struct perf_event_header h;
	uint64_t time;
	uint8_t pad[65000];
};

static uint64_t big_got, big_last;
static bool big_in_order;

static int count_big(void *ctx, const struct perf_event_header *h, uint64_t pos)
{
	const struct big_rec *r = (const void *)h;

	(void)ctx;
	(void)pos;
	if (r->time < big_last)
		big_in_order = false;
	big_last = r->time;
	big_got++;
	return 0;
}

/*
 * A file without rounds is not held whole: past XPP_ORDERED_MAX_BYTES of copies the queue
 * delivers its earlier half, in order, and the end delivers the rest.
 */
static void test_ordered_bounded(void)
{
	xpp_ordered *q = xpp_ordered_create(count_big, NULL);
	static struct big_rec r;
	uint64_t n = 3 * (uint64_t)XPP_ORDERED_MAX_BYTES / 2 / sizeof(r), before_end;

	REQUIRE(q);
	big_got = big_last = 0;
	big_in_order = true;
	r.h = (struct perf_event_header){ .type = PERF_RECORD_SAMPLE, .size = sizeof(r) };
	for (uint64_t i = 0; i < n; i++) {
		r.time = i;
		if (xpp_ordered_queue(q, i, &r.h, i, false)) {
			UNIT_FAIL("queue failed at record %" PRIu64, i);
			break;
		}
		/* never more than the bound queued (its index counted too) */
		if ((i + 1 - big_got) * sizeof(r) > XPP_ORDERED_MAX_BYTES + sizeof(r)) {
			UNIT_FAIL("%" PRIu64 " records queued at once", i + 1 - big_got);
			break;
		}
	}
	before_end = big_got;
	CHECK(before_end >= n / 4);
	CHECK(xpp_ordered_flush_all(q) == 0);
	CHECK_EQ_U64(big_got, n);
	CHECK(big_in_order);
	xpp_ordered_free(q);
}

/*
 * Lasting records stay in the caller's memory until reusing() names it: then they are
 * copied, and what the caller writes there afterwards does not reach the queue's records.
 */
static void test_ordered_in_place(void)
{
	xpp_ordered *q = xpp_ordered_create(collect, NULL);
	struct rec buf[6];
	uint64_t times[6] = { 30, 10, 20, 60, 50, 40 }, want[6] = { 2, 3, 1, 6, 5, 4 };

	REQUIRE(q);
	nr_got = 0;
	for (unsigned int i = 0; i < 6; i++) {
		buf[i] = (struct rec){ .h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(buf[i]) },
				       .time = times[i], .tag = i + 1 };
		CHECK(xpp_ordered_queue(q, times[i], &buf[i].h, (i + 1) * 8, true) == 0);
	}
	/* the first three are copied, then their memory is written over */
	xpp_ordered_reusing(q, &buf[0], &buf[3]);
	CHECK_EQ_U64(xpp_ordered_failed(q), 0);
	memset(buf, 0xff, 3 * sizeof(buf[0]));
	CHECK(xpp_ordered_round(q) == 0);
	CHECK(xpp_ordered_flush_all(q) == 0);
	CHECK_EQ_U64(nr_got, 6);
	for (unsigned int i = 0; i < 6 && i < nr_got; i++)
		CHECK_EQ_U64(got[i], want[i]);
	xpp_ordered_free(q);
}

/* The stash hands records back in the order put, with their positions, and empties. */
static void test_stash(void)
{
	struct xpp_stash st = { 0 };

	nr_got = 0;
	for (uint64_t i = 1; i <= 3; i++) {
		struct rec r = { .h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(r) }, .time = i,
				 .tag = 4 - i };

		CHECK(xpp_stash_put(&st, &r.h, (4 - i) * 8) == 0);
	}
	CHECK(xpp_stash_drain(&st, collect, NULL) == 0);
	CHECK_EQ_U64(nr_got, 3);
	for (unsigned int i = 0; i < 3 && i < nr_got; i++)
		CHECK_EQ_U64(got[i], 3 - i);
	CHECK_EQ_U64(st.len, 0);
	xpp_stash_free(&st);
}

/* An answer holds for the same key in the same epoch only, every ip compared. */
static void test_sample_cache(void)
{
	xpp_sample_cache *c = xpp_sample_cache_create();
	uint64_t ips[3] = { 10, 20, 30 }, other[3] = { 10, 20, 31 };
	struct xpp_sample_key k = { .attr = &ips, .pid = 1, .tid = 2, .ip = 0x1000, .cpumode = 2,
				    .nr = 3, .ips = ips }, k2 = k;
	struct xpp_sample_answer a = { 5, 6, -1, 8 };
	const struct xpp_sample_answer *got_a;

	REQUIRE(c);
	CHECK(!xpp_sample_cache_find(c, 1, &k));
	xpp_sample_cache_put(c, 1, &k, &a);
	ips[2] = 99; /* the cache keeps its own copy of the chain */
	got_a = xpp_sample_cache_find(c, 1, &k2);
	CHECK(!got_a);
	ips[2] = 30;
	got_a = xpp_sample_cache_find(c, 1, &k2);
	CHECK(got_a && got_a->flat == 5 && got_a->leaf == 6 && got_a->own == -1 &&
	      got_a->addr_entry == 8);
	CHECK(!xpp_sample_cache_find(c, 2, &k));   /* another epoch */
	k2.ips = other;
	CHECK(!xpp_sample_cache_find(c, 1, &k2));  /* another chain */
	k2 = k;
	k2.tid = 3;
	CHECK(!xpp_sample_cache_find(c, 1, &k2));  /* another thread */
	k2 = k;
	k2.nr_vals = 1;
	k2.vals[0] = 2;
	CHECK(!xpp_sample_cache_find(c, 1, &k2));  /* another value of a sort key (a cpu) */
	xpp_sample_cache_put(c, 1, &k2, &a);
	k2.vals[0] = 3;
	CHECK(!xpp_sample_cache_find(c, 1, &k2));  /* the values are compared, not hashed only */
	k2.vals[0] = 2;
	CHECK(xpp_sample_cache_find(c, 1, &k2));
	k2 = k;
	k2.nr = XPP_SAMPLE_CACHE_MAX_IPS + 1;      /* too long: never cached */
	xpp_sample_cache_put(c, 1, &k2, &a);
	CHECK(!xpp_sample_cache_find(c, 1, &k2));
	xpp_sample_cache_free(c);
}

int main(void)
{
	RUN(test_sums);
	RUN(test_many_keys);
	RUN(test_collapse);
	RUN(test_context_keys);
	RUN(test_compact_keys);
	RUN(test_append);
	RUN(test_clear);
	RUN(test_shared_values);
	RUN(test_mask_keeps);
	RUN(test_int_lists);
	RUN(test_intern);
	RUN(test_intern_blocks);
	RUN(test_ordered_rounds);
	RUN(test_ordered_in_place);
	RUN(test_ordered_bounded);
	RUN(test_stash);
	RUN(test_sample_cache);
	RUN(test_time_ranges);
	UNIT_MAIN_END();
}
