/* Unit tests of the report's call tree: one node per distinct path, sums, reset, interning ids. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "profile/tree/callgraph.h"
#include "profile/tree/hist.h"

/* the node of a path from the root, or 0 when absent (walks the child lists) */
static uint32_t find_path(const xpp_callgraph *g, const uint32_t *k, size_t n)
{
	uint32_t cur = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t c = xpp_cg_node(g, cur)->first_child;

		while (c && xpp_cg_node(g, c)->key != k[i])
			c = xpp_cg_node(g, c)->next_sibling;
		if (!c)
			return 0;
		cur = c;
	}
	return cur;
}

static void test_paths_merge(void)
{
	xpp_callgraph *g = xpp_cg_create();
	const uint32_t a[] = { 7, 1, 2, 3 }, b[] = { 7, 1, 2, 4 }, c[] = { 7, 1 };
	uint32_t na, nb, nc;

	REQUIRE(g);
	/* many samples on three paths: the tree holds the 5 distinct nodes, not the samples */
	for (int i = 0; i < 100000; i++) {
		CHECK(xpp_cg_add_path(g, a, 4, 10, 1) > 0);
		if (i % 2)
			CHECK(xpp_cg_add_path(g, b, 4, 5, 1) > 0);
		if (i % 4 == 0)
			CHECK(xpp_cg_add_path(g, c, 2, 1, 1) > 0);
	}
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 6); /* root + 7, 1, 2, 3, 4 */
	na = find_path(g, a, 4);
	nb = find_path(g, b, 4);
	nc = find_path(g, c, 2);
	REQUIRE(na && nb && nc);
	CHECK_EQ_U64(xpp_cg_node(g, na)->self_period, 1000000);
	CHECK_EQ_U64(xpp_cg_node(g, na)->self_count, 100000);
	CHECK_EQ_U64(xpp_cg_node(g, nb)->self_count, 50000);
	/* an inner node: its own samples, and all below it */
	CHECK_EQ_U64(xpp_cg_node(g, nc)->self_count, 25000);
	CHECK_EQ_U64(xpp_cg_node(g, nc)->count, 175000);
	CHECK_EQ_U64(xpp_cg_node(g, nc)->period, 1000000 + 250000 + 25000);
	CHECK_EQ_U64(xpp_cg_node(g, 0)->count, 175000);
	CHECK_EQ_U64(xpp_cg_node(g, na)->depth, 4);
	CHECK_EQ_U64(xpp_cg_node(g, xpp_cg_node(g, na)->parent)->key, 2);
	/* the same key under different parents is a different node */
	CHECK(xpp_cg_child(g, 0, 3) != (int64_t)na);
	xpp_cg_free(g);
}

static void test_many_nodes_and_reset(void)
{
	xpp_callgraph *g = xpp_cg_create();
	uint32_t k[3];

	REQUIRE(g);
	/* enough distinct paths to grow the array and the hash several times */
	for (uint32_t i = 0; i < 20000; i++) {
		k[0] = i % 7;
		k[1] = i;
		k[2] = i % 3;
		CHECK(xpp_cg_add_path(g, k, 3, 1, 1) > 0);
	}
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1 + 7 + 20000 + 20000);
	for (uint32_t i = 0; i < 20000; i += 997) {
		k[0] = i % 7;
		k[1] = i;
		k[2] = i % 3;
		CHECK(find_path(g, k, 3) != 0);
		CHECK_EQ_U64(xpp_cg_child(g, find_path(g, k, 2), i % 3), find_path(g, k, 3));
	}
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1 + 7 + 20000 + 20000); /* lookups added nothing */
	xpp_cg_reset(g);
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1);
	CHECK_EQ_U64(xpp_cg_node(g, 0)->count, 0);
	CHECK(xpp_cg_node(g, 0)->first_child == 0);
	k[0] = 5;
	CHECK_EQ_U64(xpp_cg_add_path(g, k, 1, 3, 1), 1);
	CHECK_EQ_U64(xpp_cg_node(g, 1)->self_period, 3);
	CHECK(xpp_cg_node(g, 2) == NULL);
	xpp_cg_free(g);
	xpp_cg_free(NULL);
}

static void test_empty_path(void)
{
	xpp_callgraph *g = xpp_cg_create();

	REQUIRE(g);
	CHECK_EQ_U64(xpp_cg_add_path(g, NULL, 0, 4, 1), 0);
	CHECK_EQ_U64(xpp_cg_node(g, 0)->self_period, 4);
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1);
	xpp_cg_free(g);
}

/*
 * Descendants left out (a graph printed above a threshold): their sums count in the totals
 * of the node they hang from and of its callers, not in its self, and it says it has them,
 * until a reset.
 */
static void test_hidden(void)
{
	xpp_callgraph *g = xpp_cg_create();
	const uint32_t a[] = { 1, 2 };

	REQUIRE(g);
	CHECK_EQ_U64(xpp_cg_add_path(g, a, 2, 10, 2), 2);
	CHECK_EQ_U64(xpp_cg_add_hidden(g, 1, 5, 1), 0);
	CHECK_EQ_U64(xpp_cg_add_hidden(g, 1, 3, 1), 0);
	CHECK_EQ_U64(xpp_cg_node(g, 1)->period, 18);
	CHECK_EQ_U64(xpp_cg_node(g, 1)->count, 4);
	CHECK_EQ_U64(xpp_cg_node(g, 1)->self_period, 0);
	CHECK(xpp_cg_node(g, 1)->hidden);
	CHECK(!xpp_cg_node(g, 2)->hidden);
	CHECK(!xpp_cg_node(g, 0)->hidden);
	CHECK_EQ_U64(xpp_cg_node(g, 0)->period, 18);
	xpp_cg_reset(g);
	CHECK_EQ_U64(xpp_cg_add_path(g, a, 2, 10, 2), 2);
	CHECK(!xpp_cg_node(g, 1)->hidden);
	CHECK_EQ_U64(xpp_cg_node(g, 1)->period, 10);
	xpp_cg_free(g);
}

/*
 * The lean reads of a big tree agree with the full nodes; freezing drops the lookup table,
 * and adding after it finds the nodes there are.
 */
static void test_lean_reads_and_freeze(void)
{
	xpp_callgraph *g = xpp_cg_create();
	uint32_t k[6], got[8];
	uint64_t period, count;
	int64_t leaf1 = 0;

	REQUIRE(g);
	/* distinct 6-key paths sharing only their first key: the shape of issue 11's files */
	for (uint32_t i = 0; i < 30000; i++) {
		int64_t id;

		for (uint32_t j = 0; j < 6; j++)
			k[j] = j ? i * 7 + j : i % 3;
		id = xpp_cg_add_path(g, k, 6, 2, 1);
		CHECK(id > 0);
		if (i == 1)
			leaf1 = id;
	}
	CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1 + 3 + 30000 * 5);
	xpp_cg_freeze(g);
	for (uint32_t id = 1; id < xpp_cg_nr_nodes(g); id += 313) {
		const struct xpp_cg_node *n = xpp_cg_node(g, id);
		uint32_t d = xpp_cg_path(g, id, got, 8);

		REQUIRE(n);
		CHECK_EQ_U64(xpp_cg_parent(g, id), n->parent);
		CHECK_EQ_U64(xpp_cg_key(g, id), n->key);
		CHECK_EQ_U64(d, n->depth);
		CHECK_EQ_U64(got[d - 1], n->key);
		CHECK(xpp_cg_self(g, id, &period, &count) == (n->self_count != 0));
		CHECK_EQ_U64(period, n->self_period);
		CHECK_EQ_U64(count, n->self_count);
		CHECK_EQ_U64(xpp_cg_path(g, id, got, d - 1), 0); /* no room: nothing */
	}
	/* after the freeze, a known path is found again, a new one added */
	k[0] = 1;
	for (uint32_t j = 1; j < 6; j++)
		k[j] = 7 + j;
	CHECK_EQ_U64(xpp_cg_add_path(g, k, 6, 2, 1), leaf1);
	CHECK(xpp_cg_self(g, (uint32_t)leaf1, &period, &count));
	CHECK_EQ_U64(count, 2);
	k[5] = 999999;
	CHECK_EQ_U64(xpp_cg_add_path(g, k, 6, 1, 1), 1 + 3 + 30000 * 5);
	CHECK_EQ_U64(xpp_cg_node(g, 0)->count, 30002);
	xpp_cg_free(g);
}

/*
 * Keys under nodes of another tree (a graph built level by level keeps its level's
 * (node there, frame) pairs so): parents past this tree's last node. After a big tree
 * made the lookup table large, a reset clears only the slots of the nodes there are,
 * each found again: every pair must be in the table then, and found again after it.
 */
static void test_foreign_parents_and_reset(void)
{
	xpp_callgraph *g = xpp_cg_create();
	int64_t id[64];

	REQUIRE(g);
	for (uint32_t i = 0; i < 100000; i++)
		CHECK(xpp_cg_child(g, i % 1000, i) > 0);
	for (int round = 0; round < 3; round++) {
		xpp_cg_reset(g);
		for (uint32_t i = 0; i < 64; i++) {
			/* parents 5000 and up: no node of g; 0..3 and 20..27: nodes of g, or to be
			   (a pair of parent 20 comes before g has a node 20, and after) */
			uint32_t parent = i % 2 ? 5000 + i / 4 : i % 8 / 2 + (i >= 16 ? 20 : 0);

			id[i] = xpp_cg_child(g, parent, i % 4 + (uint32_t)round);
			REQUIRE(id[i] > 0);
		}
		/* 32 pairs of odd i, 4 + 4 of even i (each twice or more): no pair twice */
		CHECK_EQ_U64(xpp_cg_nr_nodes(g), 1 + 32 + 4 + 4);
		for (uint32_t i = 0; i < 64; i++) {
			uint32_t parent = i % 2 ? 5000 + i / 4 : i % 8 / 2 + (i >= 16 ? 20 : 0);

			CHECK_EQ_U64(xpp_cg_child(g, parent, i % 4 + (uint32_t)round), id[i]);
			CHECK_EQ_U64(xpp_cg_parent(g, (uint32_t)id[i]), parent);
		}
	}
	xpp_cg_free(g);
}

/* frames are interned through hist_add_id: same key, same id, ids dense and stable */
static void test_intern_ids(void)
{
	xpp_hist *h = xpp_hist_create();
	struct xpp_hist_key k;
	size_t n;

	REQUIRE(h);
	for (int round = 0; round < 2; round++)
		for (uint32_t i = 0; i < 5000; i++) {
			xpp_hist_key_init(&k);
			k.dso = i % 10;
			k.sym = (int32_t)i;
			CHECK_EQ_U64(xpp_hist_add_id(h, &k, 0, 0), i);
		}
	n = xpp_hist_nr(h);
	CHECK_EQ_U64(n, 5000);
	xpp_hist_free(h);
}

int main(void)
{
	RUN(test_paths_merge);
	RUN(test_many_nodes_and_reset);
	RUN(test_empty_path);
	RUN(test_hidden);
	RUN(test_lean_reads_and_freeze);
	RUN(test_foreign_parents_and_reset);
	RUN(test_intern_ids);
	UNIT_MAIN_END();
}
