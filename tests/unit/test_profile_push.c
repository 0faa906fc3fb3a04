/* Unit tests of records pushed to a profile (xpp_profile_push(), a live source) and decay. */
#include <errno.h>
#include <string.h>

#include "config.h"
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

/* What the stream test's subscriber saw. */
struct seen {
	xpp_profile *p;
	uint64_t samples, frames, wrong;
	uint32_t max_id;
};

static void seen_frame(struct seen *sn, uint32_t comm, const struct xpp_view_frame *f)
{
	struct xpp_hist_key k = xpp_profile_frame_key(sn->p, comm, f->frame);

	/* an unmapped ip is its own frame, keyed by its address */
	sn->wrong += k.addr != f->ip || k.dso != XPP_HIST_NO_DSO;
	if (f->frame > sn->max_id)
		sn->max_id = f->frame;
	sn->frames++;
}

static int stream_sample(void *ctx, const struct xpp_sample_view *v)
{
	struct seen *sn = ctx;

	seen_frame(sn, v->comm, &v->self);
	for (uint32_t i = 0; i < v->nr_frames; i++)
		seen_frame(sn, v->comm, &v->frames[i]);
	sn->samples++;
	return 0;
}

/*
 * opts.stream (xperf script): samples whose frames are each at an address of its own
 * (issue 20's unresolved profiles), more than XPP_STREAM_FRAMES of them: the frame ids
 * stay under the bound, and the ids the subscriber is handed name its frames all the same.
 * The frames of every sample were kept before (each id its own: 11 a sample).
 */
static void test_stream_frames_bounded(void)
{
	enum { SAMPLES = 20000, DEPTH = 10 };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.size = sizeof(attr), .sample_period = 1,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
						       PERF_SAMPLE_CALLCHAIN };
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period, nr, ips[1 + DEPTH];
	} rec = { .h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(rec) },
		  .pid = 7, .tid = 7, .period = 1, .nr = 1 + DEPTH };
	struct xb_error err = { 0 };
	struct xpp_opts o = opts();
	struct seen sn = { 0 };
	xpf_reader *live = NULL;
	xpp_profile *p = NULL;
	const struct xpp_event *ev;
	uint32_t nev;

	REQUIRE(xpf_reader_open_live(&live, "live", &err) == 0);
	REQUIRE(xpf_reader_live_add_attr(live, &attr, NULL, 0, NULL, &err) == 0);
	/* a stream keeps nothing: a view that would read its entries cannot have one */
	o.stream = true;
	CHECK(xpp_profile_create(&p, live, &o, &err) == -EINVAL && !p);
	o.children = 0;
	o.no_chains = true;
	o.on_sample = stream_sample;
	o.hook_ctx = &sn;
	o.keep_samples = true;
	CHECK(xpp_profile_create(&p, live, &o, &err) == -EINVAL && !p);
	o.keep_samples = false;
	REQUIRE(xpp_profile_create(&p, live, &o, &err) == 0);
	sn.p = p;
	for (uint64_t i = 0; i < SAMPLES; i++) {
		uint64_t base = 0x7f0000000000ull + i * 0x100;

		rec.time = 1000 + i;
		rec.ip = base;
		rec.ips[0] = PERF_CONTEXT_USER;
		for (int d = 0; d < DEPTH; d++)
			rec.ips[1 + d] = base + (uint64_t)d * 8;
		REQUIRE(xpp_profile_push(p, &rec.h, &err) == 0);
	}
	REQUIRE(xpp_profile_settle(p, &err) == 0);
	CHECK_EQ_U64(sn.samples, SAMPLES);
	CHECK_EQ_U64(sn.frames, SAMPLES * (1 + DEPTH));
	CHECK_EQ_U64(sn.wrong, 0);
	/* (a sample's frames may take the table past the bound before it starts over) */
	CHECK(sn.max_id < XPP_STREAM_FRAMES + 2 * (1 + DEPTH));
	ev = xpp_profile_events(p, &nev);
	REQUIRE(nev == 1);
	CHECK_EQ_U64(ev[0].nr_samples, SAMPLES);
	CHECK_EQ_U64(ev[0].total_period, SAMPLES);
	xpp_profile_free(p);
	xpf_reader_close(live);
}

/*
 * Source lines of samples in a binary no longer on disk (no DWARF, no symbol): perf's
 * stand-in "dso[address]", a string each, or with no_line_fallbacks the bare marker, which
 * reads as "??:0" (pprof made 10M such strings of a profile of 1M samples: issue 20).
 */
static void line_fallbacks(bool none, const char **line, uint32_t *srcline)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.size = sizeof(attr), .sample_period = 1,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						       PERF_SAMPLE_PERIOD };
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		char name[32];
	} mm = { .h = { PERF_RECORD_MMAP, PERF_RECORD_MISC_USER, sizeof(mm) }, .pid = 7,
		 .tid = 7, .addr = 0x400000, .len = 0x10000, .name = "/nonexistent/gone.so" };
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t period;
	} rec = { .h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(rec) },
		  .ip = 0x401234, .pid = 7, .tid = 7, .period = 1 };
	struct xb_error err = { 0 };
	struct xpp_opts o = opts();
	xpf_reader *live = NULL;
	xpp_profile *p = NULL;
	const struct xpp_event *ev;
	const struct xpp_hist_rec *e;
	struct xpp_hist_key k;
	uint32_t nev;
	size_t n;

	*line = NULL;
	*srcline = 0;
	REQUIRE(xpf_reader_open_live(&live, "live", &err) == 0);
	REQUIRE(xpf_reader_live_add_attr(live, &attr, NULL, 0, NULL, &err) == 0);
	o.children = 0;
	o.srclines = true;
	o.no_line_fallbacks = none;
	REQUIRE(xpp_profile_create(&p, live, &o, &err) == 0);
	REQUIRE(xpp_profile_push(p, &mm.h, &err) == 0);
	REQUIRE(xpp_profile_push(p, &rec.h, &err) == 0);
	REQUIRE(xpp_profile_settle(p, &err) == 0);
	ev = xpp_profile_events(p, &nev);
	REQUIRE(nev == 1 && ev[0].h);
	e = xpp_hist_recs(ev[0].h, &n);
	REQUIRE(n == 1 && e[0].period == 1);
	k = xpp_hist_key_at(ev[0].h, 0);
	*srcline = k.srcline;
	*line = xpp_profile_srcline(p, &k, false);
	/* the caller's copy outlives the profile */
	*line = *line ? strdup(*line) : NULL;
	xpp_profile_free(p);
	xpf_reader_close(live);
}

static void test_no_line_fallbacks(void)
{
	const char *line;
	uint32_t srcline;

#if !HAVE_LIBDW
	UNIT_SKIP("xperf was built without libdw: no source lines");
#endif
	line_fallbacks(false, &line, &srcline);
	CHECK(srcline & XPP_SRCLINE_FALLBACK);
	CHECK(srcline != XPP_SRCLINE_FALLBACK);
	CHECK_STR(line, "gone.so[1234]");
	free((void *)line);
	line_fallbacks(true, &line, &srcline);
	CHECK_EQ_U64(srcline, XPP_SRCLINE_FALLBACK);
	CHECK_STR(line, "??:0");
	free((void *)line);
}

int main(void)
{
	RUN(test_push_fp);
	RUN(test_push_two_events);
	RUN(test_stream_frames_bounded);
	RUN(test_no_line_fallbacks);
	return unit_failed_cases ? 1 : 0;
}
