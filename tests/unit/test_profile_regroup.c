/* Unit tests of xpp_profile_regroup(): the logged samples counted again equal a new pass. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "profile/symbols/dso.h"

#define FILE_FP unit_src_path("tests/fuzz/corpus-pass/fp.bin")
#define FILE_TWO unit_src_path("tests/fuzz/corpus-pass/two-events.bin")
#define FILE_DWARF unit_src_path("tests/fuzz/corpus-pass/dwarf.bin")

#define V(v) XPP_HIST_KEY_VAL(v)

static struct xpp_opts opts(unsigned int keys, int children)
{
	struct xpp_opts o = { 0 };

	o.keys = keys;
	o.children = children;
	o.order = -1;
	o.inlines = -1;
	return o;
}

static int run(xpp_profile **p, xpf_reader **r, const char *path, const struct xpp_opts *o)
{
	struct xb_error err = { 0 };

	if (xpf_reader_open(r, path, &err) < 0 || xpp_profile_create(p, *r, o, &err) < 0 ||
	    xpp_profile_run(*p, &err) < 0) {
		printf("# %s: %s\n", path, err.msg);
		return -1;
	}
	return 0;
}

/* The key of node id of a tree: its context (first level) or frame, as views read it. */
static struct xpp_hist_key node_key(const xpp_profile *p, const xpp_callgraph *g, uint32_t id)
{
	const struct xpp_cg_node *n = xpp_cg_node(g, id);
	uint32_t top = id;

	if (n->depth == 1)
		return xpp_profile_root_key(p, n->key);
	while (xpp_cg_node(g, top)->depth > 1)
		top = xpp_cg_node(g, top)->parent;
	return xpp_profile_frame_key(p, xpp_cg_node(g, top)->key, n->key);
}

/* Event results of a and b alike: hists entry by entry, trees node by node. */
static void same_results(const xpp_profile *a, const xpp_profile *b, const char *what)
{
	uint32_t na, nb;
	const struct xpp_event *ea = xpp_profile_events(a, &na), *eb = xpp_profile_events(b, &nb);

	/* an event no sample reached may exist in one and not the other */
	while (na > nb && !ea[na - 1].nr_samples && !(ea[na - 1].h && xpp_hist_nr(ea[na - 1].h)))
		na--;
	while (nb > na && !eb[nb - 1].nr_samples && !(eb[nb - 1].h && xpp_hist_nr(eb[nb - 1].h)))
		nb--;
	CHECK_EQ_U64(nb, na);
	CHECK(xpp_profile_children(b) == xpp_profile_children(a));
	CHECK(xpp_profile_order(b) == xpp_profile_order(a));
	for (uint32_t i = 0; i < na && i < nb; i++) {
		size_t ha = ea[i].h ? xpp_hist_nr(ea[i].h) : 0, hb = eb[i].h ? xpp_hist_nr(eb[i].h) : 0;

		CHECK_EQ_U64(eb[i].nr_samples, ea[i].nr_samples);
		CHECK_EQ_U64(eb[i].total_period, ea[i].total_period);
		CHECK_EQ_U64(hb, ha);
		for (size_t j = 0; j < ha && j < hb; j++) {
			struct xpp_hist_entry xa = xpp_hist_entry_at(ea[i].h, j);
			struct xpp_hist_entry xb = xpp_hist_entry_at(eb[i].h, j);

			if (memcmp(&xa.key, &xb.key, sizeof(xa.key)) ||
			    xa.period != xb.period || xa.nr_samples != xb.nr_samples) {
				UNIT_FAIL("%s: event %u entry %zu differs: dso %u/%u sym %d/%d "
					  "period %llu/%llu vals %llx/%llx %llx/%llx", what, i, j,
					  xa.key.dso, xb.key.dso, xa.key.sym, xb.key.sym,
					  (unsigned long long)xa.period,
					  (unsigned long long)xb.period,
					  (unsigned long long)xa.key.val[XPP_VAL_TIME],
					  (unsigned long long)xb.key.val[XPP_VAL_TIME],
					  (unsigned long long)xa.key.val[XPP_VAL_SOCKET],
					  (unsigned long long)xb.key.val[XPP_VAL_SOCKET]);
				break;
			}
		}
		CHECK((ea[i].cg == NULL) == (eb[i].cg == NULL));
		if (!ea[i].cg || !eb[i].cg)
			continue;
		CHECK_EQ_U64(xpp_cg_nr_nodes(eb[i].cg), xpp_cg_nr_nodes(ea[i].cg));
		for (uint32_t j = 1; j < xpp_cg_nr_nodes(ea[i].cg) && j < xpp_cg_nr_nodes(eb[i].cg);
		     j++) {
			const struct xpp_cg_node *x = xpp_cg_node(ea[i].cg, j);
			const struct xpp_cg_node *y = xpp_cg_node(eb[i].cg, j);
			struct xpp_hist_key kx = node_key(a, ea[i].cg, j), ky = node_key(b, eb[i].cg, j);

			if (x->parent != y->parent || x->period != y->period ||
			    x->self_count != y->self_count || memcmp(&kx, &ky, sizeof(kx))) {
				UNIT_FAIL("%s: event %u node %u differs", what, i, j);
				break;
			}
		}
	}
}

/* Each of these keys and children, counted again from a pass with others, as a new pass. */
static void regroups_as_a_pass(const char *path)
{
	static const struct {
		unsigned int keys;
		int children;
	} to[] = {
		{ 0, 0 }, { 0, 1 }, { V(XPP_VAL_THREAD), 0 }, { V(XPP_VAL_CPU), 1 },
		{ V(XPP_VAL_TIME) | V(XPP_VAL_SOCKET), 0 },
		{ V(XPP_VAL_THREAD) | V(XPP_VAL_CPU), -1 }, { 0, -1 },
	};
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	struct xpp_opts o = opts(0, -1);

	o.keep_samples = true;
	REQUIRE(run(&p, &r, path, &o) == 0);
	for (size_t i = 0; i < sizeof(to) / sizeof(to[0]); i++) {
		struct xpp_opts n = opts(to[i].keys, to[i].children);
		xpf_reader *r2 = NULL;
		xpp_profile *fresh = NULL;
		char what[96];

		snprintf(what, sizeof(what), "%s, keys %#x, children %d", path, to[i].keys,
			 to[i].children);
		CHECK(xpp_profile_regroup(p, &n, &err) == 0);
		if (run(&fresh, &r2, path, &n) == 0)
			same_results(fresh, p, what);
		xpp_profile_free(fresh);
		if (r2)
			xpf_reader_close(r2);
	}
	xpp_profile_free(p);
	xpf_reader_close(r);
}

static void test_regroup_fp(void)
{
	regroups_as_a_pass(FILE_FP);
}

static void test_regroup_two_events(void)
{
	regroups_as_a_pass(FILE_TWO);
}

static void test_regroup_dwarf(void)
{
	regroups_as_a_pass(FILE_DWARF);
}

/* Every event's address hits (keep_addrs) alike in a and b. */
static void same_addrs(const xpp_profile *a, const xpp_profile *b, const char *what)
{
	uint32_t ne, nd = xpp_dso_table_nr(xpp_profile_dsos(a));

	xpp_profile_events(a, &ne);
	CHECK_EQ_U64(xpp_dso_table_nr(xpp_profile_dsos(b)), nd);
	for (uint32_t e = 0; e < ne; e++)
		for (uint32_t d = 0; d < nd; d++) {
			size_t na, nb;
			const struct xpp_addr_hits *x = xpp_profile_addr_hits(a, e, d, 0, UINT64_MAX,
									      &na);
			const struct xpp_addr_hits *y = xpp_profile_addr_hits(b, e, d, 0, UINT64_MAX,
									      &nb);

			CHECK_EQ_U64(nb, na);
			for (size_t k = 0; na == nb && k < na; k++)
				if (x[k].dso != y[k].dso || x[k].addr != y[k].addr ||
				    x[k].period != y[k].period || x[k].nr_samples != y[k].nr_samples) {
					UNIT_FAIL("%s: event %u dso %u: address hit %zu differs", what,
						  e, d, k);
					break;
				}
		}
}

struct bounds {
	uint64_t n;
};

static void count_one(void *ctx, const struct xpp_logged_sample *s)
{
	(void)s;
	((struct bounds *)ctx)->n++;
}

/*
 * A time range applied from the log (xpp_profile_regroup() with o.time) equals a pass with
 * that --time: entries, trees, totals, address hits, the filters' verdict; with filters that
 * keep the samples they drop in the totals (--symbols) and that take them out (--hide-
 * unresolved), and back to every sample again.
 */
static void retimes_as_a_pass(const char *path, const char *symbols, bool hide_unresolved)
{
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	struct xpp_opts o = opts(0, -1);
	struct bounds b = { 0 };
	uint64_t first, last, mid;
	char abs1[64], abs2[128], empty[64];
	const char *times[] = { "10%-60%", "25%/2", abs1, abs2, empty, NULL };

	o.keep_samples = true;
	o.keep_addrs = true;
	o.symbols = symbols;
	o.hide_unresolved = hide_unresolved;
	REQUIRE(run(&p, &r, path, &o) == 0);
	REQUIRE(xpp_profile_logged(p, count_one, &b, &first, &last, &err) == 1);
	CHECK(b.n > 0);
	CHECK(last > first);
	mid = first + (last - first) / 2;
	snprintf(abs1, sizeof(abs1), "%llu.%09llu,", (unsigned long long)(mid / 1000000000),
		 (unsigned long long)(mid % 1000000000));
	snprintf(abs2, sizeof(abs2), "%llu.%09llu,%llu.%09llu %llu.%09llu,",
		 (unsigned long long)(first / 1000000000), (unsigned long long)(first % 1000000000),
		 (unsigned long long)((first + (last - first) / 4) / 1000000000),
		 (unsigned long long)((first + (last - first) / 4) % 1000000000),
		 (unsigned long long)(mid / 1000000000), (unsigned long long)(mid % 1000000000));
	/* after the last sample: no sample is kept, and the filter is named */
	snprintf(empty, sizeof(empty), "%llu.%09llu,", (unsigned long long)((last + 1) / 1000000000),
		 (unsigned long long)((last + 1) % 1000000000));
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		struct xpp_opts n = o;
		xpf_reader *r2 = NULL;
		xpp_profile *fresh = NULL;
		enum xpp_filter_kind fa, fb;
		uint64_t ma, mb;
		char what[256];

		n.time = times[i];
		n.keep_samples = false;
		snprintf(what, sizeof(what), "%s, --time %s, symbols %s%s", path,
			 times[i] ? times[i] : "(none)", symbols ? symbols : "(all)",
			 hide_unresolved ? ", hide unresolved" : "");
		CHECK(xpp_profile_regroup(p, &n, &err) == 0);
		if (run(&fresh, &r2, path, &n) == 0) {
			same_results(fresh, p, what);
			same_addrs(fresh, p, what);
			CHECK(xpp_profile_filtered_all(fresh, &fa, &ma) ==
			      xpp_profile_filtered_all(p, &fb, &mb));
			CHECK_EQ_U64(fb, fa);
			CHECK_EQ_U64(mb, ma);
		}
		xpp_profile_free(fresh);
		if (r2)
			xpf_reader_close(r2);
	}
	xpp_profile_free(p);
	xpf_reader_close(r);
}

static void test_retime(void)
{
	retimes_as_a_pass(FILE_FP, NULL, false);
	retimes_as_a_pass(FILE_FP, "recurse", false);
	retimes_as_a_pass(FILE_TWO, NULL, true);
	retimes_as_a_pass(FILE_TWO, "main", false);
	retimes_as_a_pass(FILE_DWARF, "recurse", true);
}

/* A pass with its own --time logs its samples only: another range is refused. */
static void test_retime_refused(void)
{
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	struct xpp_opts o = opts(0, -1), n = opts(0, -1);
	struct bounds b = { 0 };
	uint64_t first, last;

	o.keep_samples = true;
	o.time = "10%-60%";
	REQUIRE(run(&p, &r, FILE_FP, &o) == 0);
	n.time = "20%-60%";
	CHECK(xpp_profile_regroup(p, &n, &err) == -EOPNOTSUPP);
	CHECK(strstr(err.msg, "--time 10%-60%") != NULL);
	n.time = o.time; /* its own is what it has */
	CHECK(xpp_profile_regroup(p, &n, &err) == 0);
	CHECK(xpp_profile_logged(p, count_one, &b, &first, &last, &err) == -EOPNOTSUPP);
	xpp_profile_free(p);
	xpf_reader_close(r);
	/* a range that does not parse */
	o.time = NULL;
	REQUIRE(run(&p, &r, FILE_FP, &o) == 0);
	n.time = "bogus";
	CHECK(xpp_profile_regroup(p, &n, &err) == -EINVAL);
	xpp_profile_free(p);
	xpf_reader_close(r);
}

/* What the log cannot tell is refused, and the results stay. */
static void test_regroup_refused(void)
{
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	struct xpp_opts o = opts(0, -1), n = opts(V(XPP_VAL_SRCFILE), -1);
	uint32_t nr;
	uint64_t before;

	REQUIRE(run(&p, &r, FILE_FP, &o) == 0);
	CHECK(xpp_profile_regroup(p, &n, &err) == -EOPNOTSUPP);
	CHECK(strstr(err.msg, "no log") != NULL);
	xpp_profile_free(p);
	xpf_reader_close(r);

	o.keep_samples = true;
	REQUIRE(run(&p, &r, FILE_FP, &o) == 0);
	before = xpp_profile_events(p, &nr)[0].total_period;
	CHECK(xpp_profile_regroup(p, &n, &err) == -EOPNOTSUPP);
	CHECK(strstr(err.msg, "srcfile") != NULL || strstr(err.msg, "source lines") != NULL);
	n = opts(V(XPP_VAL_CGROUP), -1);
	CHECK(xpp_profile_regroup(p, &n, &err) == -EOPNOTSUPP);
	CHECK(strstr(err.msg, "cgroup") != NULL);
	CHECK_EQ_U64(xpp_profile_events(p, &nr)[0].total_period, before);
	/* aged counts cannot be counted again */
	xpp_profile_decay(p, 7, 8);
	n = opts(0, 0);
	CHECK(xpp_profile_regroup(p, &n, &err) == -EOPNOTSUPP);
	xpp_profile_free(p);
	xpf_reader_close(r);
}

int main(void)
{
	RUN(test_regroup_fp);
	RUN(test_regroup_two_events);
	RUN(test_regroup_dwarf);
	RUN(test_regroup_refused);
	RUN(test_retime);
	RUN(test_retime_refused);
	return unit_failed_cases ? 1 : 0;
}
