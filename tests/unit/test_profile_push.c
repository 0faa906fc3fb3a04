/* Unit tests of records pushed to a profile (xpp_profile_push(), a live source) and decay. */
#include "unit.h"

#include "format/xpf_abi.h"
#include "format/xpf_reader.h"
#include "profile/profile.h"

#define FILE_FP unit_src_path("tests/fuzz/corpus-pass/fp.bin")
#define FILE_TWO unit_src_path("tests/fuzz/corpus-pass/two-events.bin")

static struct xpp_opts opts(void)
{
	struct xpp_opts o = { 0 };

	o.children = -1;
	o.order = -1;
	o.inlines = -1;
	return o;
}

/* sum of an event's entries, and how many have a period */
static uint64_t hist_sum(const struct xpp_event *e, size_t *shown)
{
	size_t n = 0;
	uint64_t sum = 0;
	const struct xpp_hist_rec *h = e->h ? xpp_hist_recs(e->h, &n) : NULL;

	*shown = 0;
	for (size_t i = 0; i < n; i++) {
		sum += h[i].period;
		*shown += h[i].period > 0;
	}
	return sum;
}

/* The file read by the pass, and its records pushed into a profile of a live reader. */
static void same_results(const char *path)
{
	struct xb_error err = { 0 };
	xpf_reader *r = NULL, *r2 = NULL, *live = NULL;
	xpp_profile *a = NULL, *b = NULL;
	struct xpp_opts o = opts();
	struct xpf_record rec;
	uint32_t na, nb;
	int ret;

	REQUIRE(xpf_reader_open(&r, path, &err) == 0);
	REQUIRE(xpp_profile_create(&a, r, &o, &err) == 0);
	REQUIRE(xpp_profile_run(a, &err) == 0);

	REQUIRE(xpf_reader_open(&r2, path, &err) == 0);
	REQUIRE(xpf_reader_open_live(&live, "live", &err) == 0);
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r2); i++) {
		const struct xpf_attr *at = xpf_reader_attr(r2, i);

		REQUIRE(xpf_reader_live_add_attr(live, &at->attr, at->ids, at->nr_ids, at->name,
						 &err) == 0);
	}
	REQUIRE(xpf_reader_nr_attrs(live) == xpf_reader_nr_attrs(r2));
	CHECK(xpf_reader_next(live, &rec, &err) == 0);
	REQUIRE(xpp_profile_create(&b, live, &o, &err) == 0);
	while ((ret = xpf_reader_next(r2, &rec, &err)) > 0) {
		if (rec.hdr->type == XPF_RECORD_FINISHED_ROUND)
			CHECK(xpp_profile_round(b, &err) == 0);
		else if (rec.hdr->type < PERF_RECORD_MAX)
			CHECK(xpp_profile_push(b, rec.hdr, &err) == 0);
	}
	CHECK(ret == 0);
	REQUIRE(xpp_profile_settle(b, &err) == 0);

	const struct xpp_event *ea = xpp_profile_events(a, &na), *eb = xpp_profile_events(b, &nb);

	CHECK_EQ_U64(nb, na);
	for (uint32_t i = 0; i < na && i < nb; i++) {
		size_t sa, sb;

		CHECK_EQ_U64(eb[i].nr_samples, ea[i].nr_samples);
		CHECK_EQ_U64(eb[i].total_period, ea[i].total_period);
		CHECK_EQ_U64(hist_sum(&eb[i], &sb), hist_sum(&ea[i], &sa));
		/* the file's kernel is not this one (its samples stay addresses there); live,
		   the running kernel's symbols may merge some: never more entries */
		CHECK(sb <= sa && sb > 0);
	}
	CHECK_EQ_U64(xpp_profile_records(b)->samples, xpp_profile_records(a)->samples);

	/* perf top's decay: 7/8 of every count, rounded down; -z: all zero */
	if (nb && eb[0].h) {
		uint64_t before = eb[0].total_period;
		size_t shown;

		xpp_profile_decay(b, 7, 8);
		CHECK_EQ_U64(eb[0].total_period, before * 7 / 8);
		xpp_profile_decay(b, 0, 1);
		CHECK_EQ_U64(eb[0].total_period, 0);
		CHECK_EQ_U64(hist_sum(&eb[0], &shown), 0);
		CHECK_EQ_U64(shown, 0);
	}
	xpp_profile_free(a);
	xpp_profile_free(b);
	xpf_reader_close(r);
	xpf_reader_close(r2);
	xpf_reader_close(live);
}

static void test_push_fp(void)
{
	same_results(FILE_FP);
}

static void test_push_two_events(void)
{
	same_results(FILE_TWO);
}

int main(void)
{
	RUN(test_push_fp);
	RUN(test_push_two_events);
	return unit_failed_cases ? 1 : 0;
}
