/* Unit tests of xperf-stat's event set-up against the fake sysfs tree: PMU terms, units, scales. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "events/xpe.h"
#include "events/xpe_open.h"
#include "stat/session.h"
#include "stat/stat.h"

/* tests/fake-sysfs from the cwd (tests/run.sh runs at the top), else beside BUILD/tests/ */
static xpe_ctx *fake_ctx(void)
{
	static char root[4096];

	if (!root[0]) {
		char exe[2048], *slash;
		ssize_t n;

		snprintf(root, sizeof(root), "tests/fake-sysfs");
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (access("tests/fake-sysfs/bus", F_OK) != 0 && n > 0) {
			int up;

			exe[n] = 0;
			/* BUILD/tests/test_stat_events -> BUILD/.. */
			for (up = 0; up < 3 && (slash = strrchr(exe, '/')); up++)
				*slash = 0;
			snprintf(root, sizeof(root), "%s/tests/fake-sysfs", exe);
		}
	}
	return xpe_ctx_create(root, "/nonexistent-tracefs");
}

static void test_pmu_terms_encoding(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl = xpe_evlist_create();
	struct xb_error err = { 0 };
	struct stat_session s;
	struct xpe_event *ev;

	REQUIRE(ctx && evl);
	REQUIRE(xpe_evlist_parse(evl, ctx, "cpu/event=0x3c,cmask=1,inv,edge/", &err) == 0);
	ev = xpe_evlist_event(evl, 0);
	REQUIRE(ev);
	CHECK_EQ_U64(ev->attr.type, 4);
	/* event 0-7, edge 18, inv 23, cmask 24-31 */
	CHECK_EQ_U64(ev->attr.config, 0x3c | 1ull << 18 | 1ull << 23 | 1ull << 24);
	REQUIRE(stat_session_init(&s, ctx, evl, STAT_AGGR_GLOBAL) == 0);
	CHECK(s.nr_ev == 1);
	CHECK(s.evs[0].kind == STAT_K_OTHER);
	CHECK(s.evs[0].scale == 1.0);
	CHECK_STR(s.evs[0].unit, "");
	stat_session_release(&s);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void test_units_and_scales(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl = xpe_evlist_create();
	struct xb_error err = { 0 };
	struct stat_session s;

	REQUIRE(ctx && evl);
	REQUIRE(xpe_evlist_parse(evl, ctx, "power/energy-pkg/,task-clock,{cpu-clock,page-faults}", &err) == 0);
	REQUIRE(stat_session_init(&s, ctx, evl, STAT_AGGR_GLOBAL) == 0);
	REQUIRE(s.nr_ev == 4);
	/* sysfs .unit/.scale for PMU events; perf's msec for the software clocks */
	CHECK_STR(s.evs[0].unit, "Joules");
	CHECK(fabs(s.evs[0].scale - 2.3283064365386962890625e-10) < 1e-20);
	CHECK_STR(s.evs[1].unit, "msec");
	CHECK(s.evs[1].scale == 1e-6);
	CHECK(s.evs[1].kind == STAT_K_CLOCK && s.evs[2].kind == STAT_K_CLOCK);
	CHECK_STR(s.evs[3].unit, "");
	CHECK(s.evs[3].ev->leader == s.evs[2].ev->idx);
	stat_session_release(&s);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

/* Counting attrs: leaders start disabled (enabled on exec), members follow; times are read */
static void test_counting_attrs(void)
{
	xpe_evlist *evl = xpe_evlist_create();
	xpe_ctx *ctx = fake_ctx();
	struct xb_error err = { 0 };
	struct stat_session s;

	REQUIRE(ctx && evl);
	REQUIRE(xpe_evlist_parse(evl, ctx, "{task-clock,page-faults}", &err) == 0);
	REQUIRE(stat_session_init(&s, ctx, evl, STAT_AGGR_GLOBAL) == 0);
	stat_session_set_attr(&s, s.evs[0].ev, true);
	stat_session_set_attr(&s, s.evs[1].ev, true);
	CHECK(s.evs[0].ev->attr.disabled && s.evs[0].ev->attr.enable_on_exec);
	CHECK(!s.evs[1].ev->attr.disabled && !s.evs[1].ev->attr.enable_on_exec);
	CHECK(s.evs[0].ev->attr.inherit);
	CHECK_EQ_U64(s.evs[1].ev->attr.read_format,
		     PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
	stat_session_release(&s);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

/*
 * A group holding an unsupported event is never scheduled: the unsupported one prints
 * "<not supported>", its group mates "<not counted>" (perf 6.1 prints the same).
 */
static void test_group_with_unsupported_member(void)
{
	xpe_evlist *evl = xpe_evlist_create();
	struct xb_error err = { 0 };
	struct stat_session s;
	int failed = -1;

	REQUIRE(evl);
	REQUIRE(xpe_evlist_parse(evl, NULL, "{task-clock,cycles},page-faults", &err) == 0);
	REQUIRE(stat_session_init(&s, NULL, evl, STAT_AGGR_GLOBAL) == 0);
	REQUIRE(xpe_cpus_any(&s.target.cpus) == 0);
	REQUIRE(xpe_threads_one(&s.target.threads, getpid()) == 0);
	REQUIRE(stat_session_open(&s, false, &failed, &err) == 0);
	if (s.evs[1].ev->unsupported) {
		/* no PMU here: the kernel path itself */
		CHECK(s.evs[0].ev->unsupported && s.evs[0].ev->group_failed);
		CHECK(!s.evs[1].ev->group_failed);
	} else {
		/* a PMU: pretend cycles failed, as the open would have marked it */
		s.evs[0].ev->unsupported = s.evs[1].ev->unsupported = 1;
		s.evs[0].ev->group_failed = 1;
	}
	CHECK(!s.evs[2].ev->unsupported);
	/* counters start disabled: run page-faults for a moment */
	xpe_evlist_ioctl(s.evl, PERF_EVENT_IOC_ENABLE);
	free(calloc(1, 1 << 20));
	xpe_evlist_ioctl(s.evl, PERF_EVENT_IOC_DISABLE);
	stat_session_read(&s);
	CHECK(s.evs[0].state[0] == STAT_NOT_COUNTED);
	CHECK(s.evs[1].state[0] == STAT_NOT_SUPPORTED);
	CHECK(s.evs[2].state[0] == STAT_OK);
	stat_session_release(&s);
	xpe_evlist_free(evl);
}

/* The advice printed on EACCES names perf_event_paranoid, as perf does */
static void test_permission_advice(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK };
	char buf[1024];

	CHECK(xpe_open_advice(&a, "cpu-clock", EACCES, buf, sizeof(buf)) == XPE_FAIL_PERMISSION);
	CHECK(strstr(buf, "perf_event_paranoid") != NULL);
}

int main(void)
{
	RUN(test_pmu_terms_encoding);
	RUN(test_units_and_scales);
	RUN(test_counting_attrs);
	RUN(test_permission_advice);
	RUN(test_group_with_unsupported_member);
	UNIT_MAIN_END();
}
