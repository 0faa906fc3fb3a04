/* Unit tests of libxperf-events parsing: every -e syntax against perf's encoding rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>

#include "unit.h"
#include "events/xpe.h"
#include "events/xpe_open.h"
#include "events/xpe_target.h"
#include "events/xpe_internal.h" /* xpe_format_encode */

/* tests/fake-sysfs, found from the cwd (tests/run.sh runs at the top) or from the binary */
static char fake_root[4200];

static void find_fake_root(void)
{
	char exe[4096];
	ssize_t n;

	if (access("tests/fake-sysfs/bus", F_OK) == 0) {
		snprintf(fake_root, sizeof(fake_root), "tests/fake-sysfs");
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		n = 0;
	exe[n] = '\0';
	/* BUILD/tests/test_events -> BUILD/../tests/fake-sysfs */
	for (int i = 0; i < 3; i++) {
		char *sl = strrchr(exe, '/');

		if (sl)
			*sl = '\0';
	}
	snprintf(fake_root, sizeof(fake_root), "%s/tests/fake-sysfs", exe);
}

static xpe_ctx *fake_ctx(void)
{
	return xpe_ctx_create(fake_root, NULL);
}

/* Parse str into a fresh evlist; NULL (and the error printed into the case) on failure. */
static xpe_evlist *parse(xpe_ctx *ctx, const char *str)
{
	struct xb_error err = { 0 };
	xpe_evlist *evl = xpe_evlist_create();

	if (xpe_evlist_parse(evl, ctx, str, &err)) {
		UNIT_FAIL("parse '%s': %s", str, err.msg);
		xpe_evlist_free(evl);
		return NULL;
	}
	return evl;
}

static const struct perf_event_attr *attr0(xpe_evlist *evl)
{
	return &xpe_evlist_event(evl, 0)->attr;
}

/* Parse one event and check type/config and its name. */
static void check_one(xpe_ctx *ctx, const char *str, uint32_t type, uint64_t config)
{
	xpe_evlist *evl = parse(ctx, str);

	if (!evl)
		return;
	if (xpe_evlist_count(evl) != 1) {
		UNIT_FAIL("'%s' gave %zu events", str, xpe_evlist_count(evl));
	} else {
		if (attr0(evl)->type != type || attr0(evl)->config != config)
			UNIT_FAIL("'%s': type %u config %#llx, expected %u %#llx", str,
				  attr0(evl)->type, (unsigned long long)attr0(evl)->config, type,
				  (unsigned long long)config);
		CHECK_STR(xpe_evlist_event(evl, 0)->name, str);
		CHECK_EQ_U64(attr0(evl)->size, sizeof(struct perf_event_attr));
	}
	xpe_evlist_free(evl);
}

static void hardware_events(void)
{
	xpe_ctx *ctx = fake_ctx();
	static const struct { const char *n; uint64_t c; } t[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};
	size_t i;

	REQUIRE(ctx);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check_one(ctx, t[i].n, PERF_TYPE_HARDWARE, t[i].c);
	xpe_ctx_free(ctx);
}

static void software_events(void)
{
	xpe_ctx *ctx = fake_ctx();
	static const struct { const char *n; uint64_t c; } t[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK }, { "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS }, { "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY }, { "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
	};
	size_t i;

	REQUIRE(ctx);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check_one(ctx, t[i].n, PERF_TYPE_SOFTWARE, t[i].c);
	xpe_ctx_free(ctx);
}

#define CACHE(id, op, res) ((uint64_t)(PERF_COUNT_HW_CACHE_##id) | \
	((uint64_t)(PERF_COUNT_HW_CACHE_OP_##op) << 8) | ((uint64_t)(PERF_COUNT_HW_CACHE_RESULT_##res) << 16))

static void cache_events(void)
{
	xpe_ctx *ctx = fake_ctx();
	static const struct { const char *n; uint64_t c; } t[] = {
		{ "L1-dcache-load-misses", CACHE(L1D, READ, MISS) },
		{ "L1-dcache-loads", CACHE(L1D, READ, ACCESS) },
		{ "L1-dcache-stores", CACHE(L1D, WRITE, ACCESS) },
		{ "L1-dcache-prefetch-misses", CACHE(L1D, PREFETCH, MISS) },
		{ "L1-icache-load-misses", CACHE(L1I, READ, MISS) },
		{ "LLC-loads", CACHE(LL, READ, ACCESS) },
		{ "LLC-store-misses", CACHE(LL, WRITE, MISS) },
		{ "dTLB-load-misses", CACHE(DTLB, READ, MISS) },
		{ "iTLB-loads", CACHE(ITLB, READ, ACCESS) },
		{ "branch-loads", CACHE(BPU, READ, ACCESS) },
		{ "branch-load-misses", CACHE(BPU, READ, MISS) },
		{ "node-loads", CACHE(NODE, READ, ACCESS) },
		/* aliases, perf's parse_aliases(): any order, case-insensitive, defaults */
		{ "l1d-misses", CACHE(L1D, READ, MISS) },
		{ "L1-data-miss-store", CACHE(L1D, WRITE, MISS) },
		{ "LLC", CACHE(LL, READ, ACCESS) },
		{ "d-tlb-speculative-read", CACHE(DTLB, PREFETCH, ACCESS) },
	};
	xpe_evlist *evl;
	size_t i;

	REQUIRE(ctx);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check_one(ctx, t[i].n, PERF_TYPE_HW_CACHE, t[i].c);
	/* the instruction cache has no stores, the BPU no prefetches (perf refuses both) */
	evl = xpe_evlist_create();
	CHECK(xpe_evlist_parse(evl, ctx, "L1-icache-stores", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "branch-prefetches", NULL) < 0);
	CHECK_EQ_U64(xpe_evlist_count(evl), 0);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void raw_events(void)
{
	xpe_ctx *ctx = fake_ctx();

	REQUIRE(ctx);
	check_one(ctx, "r1a8", PERF_TYPE_RAW, 0x1a8);
	check_one(ctx, "r0", PERF_TYPE_RAW, 0);
	check_one(ctx, "rFFFF0000ffff", PERF_TYPE_RAW, 0xffff0000ffffULL);
	/* ref-cycles is a name, not raw "ef-cycles" */
	check_one(ctx, "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES);
	xpe_ctx_free(ctx);
}

struct mod_case {
	const char *ev;
	int eu, ek, eh, eH, eG, precise;
};

/* Expected bits from perf 6.1's get_event_modifier(), checked with perf stat -vv. */
static void modifiers(void)
{
	static const struct mod_case t[] = {
		{ "cycles", 0, 0, 0, 0, 1, 0 },     /* event_attr_init: exclude_guest */
		{ "cycles:u", 0, 1, 1, 0, 1, 0 },
		{ "cycles:k", 1, 0, 1, 0, 0, 0 },
		{ "cycles:h", 1, 1, 0, 0, 0, 0 },
		{ "cycles:uk", 0, 0, 1, 0, 1, 0 },
		{ "cycles:ku", 0, 0, 1, 0, 1, 0 },
		{ "cpu-clock:u", 0, 1, 1, 0, 1, 0 },
		{ "page-faults:k", 1, 0, 1, 0, 0, 0 },
		{ "cs:G", 0, 0, 0, 1, 0, 0 },
		{ "cs:H", 0, 0, 0, 0, 1, 0 },
		{ "cs:uS", 0, 1, 1, 0, 1, 0 },
		{ "cycles:p", 0, 0, 0, 0, 1, 1 },
		{ "cycles:pp", 0, 0, 0, 0, 1, 2 },
		{ "instructions:ppp", 0, 0, 0, 0, 1, 3 },
		{ "cycles:upp", 0, 1, 1, 0, 1, 2 },
		{ "cycles:kG", 1, 0, 1, 1, 0, 0 },
		{ "cycles:P", 0, 0, 0, 0, 0, 3 }, /* :P asks for the max, lowered at open */
		{ "cycles:D", 0, 0, 0, 0, 0, 0 },
	};
	xpe_ctx *ctx = fake_ctx();
	size_t i;

	REQUIRE(ctx);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		xpe_evlist *evl = parse(ctx, t[i].ev);
		const struct perf_event_attr *a;

		if (!evl)
			continue;
		a = attr0(evl);
		if (a->exclude_user != t[i].eu || a->exclude_kernel != t[i].ek ||
		    a->exclude_hv != t[i].eh || a->exclude_host != t[i].eH ||
		    a->exclude_guest != t[i].eG || a->precise_ip != t[i].precise)
			UNIT_FAIL("%s: u%d k%d h%d H%d G%d p%d, expected u%d k%d h%d H%d G%d p%d",
				  t[i].ev, a->exclude_user, a->exclude_kernel, a->exclude_hv,
				  a->exclude_host, a->exclude_guest, a->precise_ip, t[i].eu,
				  t[i].ek, t[i].eh, t[i].eH, t[i].eG, t[i].precise);
		CHECK_STR(xpe_evlist_event(evl, 0)->name, t[i].ev);
		xpe_evlist_free(evl);
	}
	{
		xpe_evlist *evl = parse(ctx, "cycles:P,cycles:S,cycles:D");

		if (evl) {
			CHECK(xpe_evlist_event(evl, 0)->precise_max);
			CHECK(xpe_evlist_event(evl, 1)->sample_read);
			CHECK(xpe_evlist_event(evl, 2)->attr.pinned);
			xpe_evlist_free(evl);
		}
	}
	{
		struct xb_error err;
		xpe_evlist *evl = xpe_evlist_create();

		CHECK(xpe_evlist_parse(evl, ctx, "cycles:pppp", &err) == -EINVAL);
		CHECK(xpe_evlist_parse(evl, ctx, "cycles:uu", &err) == -EINVAL);
		CHECK(xpe_evlist_parse(evl, ctx, "cycles:z", &err) == -EINVAL);
		CHECK(strstr(err.msg, "modifier") != NULL);
		xpe_evlist_free(evl);
	}
	xpe_ctx_free(ctx);
}

static void lists_and_groups(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl;
	struct xpe_event *e;

	REQUIRE(ctx);
	evl = parse(ctx, "cycles,{cs,faults,task-clock}:u,cpu-clock");
	REQUIRE(evl);
	REQUIRE(xpe_evlist_count(evl) == 5);
	CHECK_EQ_U64(xpe_evlist_nr_groups(evl), 1);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->leader, 0);
	CHECK_EQ_U64(e->group_size, 1);
	for (int i = 1; i <= 3; i++) {
		e = xpe_evlist_event(evl, i);
		CHECK_EQ_U64(e->leader, 1);
		CHECK_EQ_U64(e->group_size, 3);
		CHECK_EQ_U64(e->group_idx, i - 1);
		/* group :u as perf applies it to each member (perf stat -vv '{cs,faults}:u') */
		CHECK_EQ_U64(e->attr.exclude_user, 0);
		CHECK_EQ_U64(e->attr.exclude_kernel, 1);
		CHECK_EQ_U64(e->attr.exclude_hv, 1);
		CHECK_EQ_U64(e->attr.exclude_guest, 1);
	}
	CHECK_STR(xpe_evlist_event(evl, 1)->name, "cs");
	e = xpe_evlist_event(evl, 4);
	CHECK_EQ_U64(e->leader, 4);
	CHECK_EQ_U64(e->attr.exclude_kernel, 0);
	xpe_evlist_free(evl);

	/* a member's own modifier, then the group's: k then u -> user and kernel, no hv */
	evl = parse(ctx, "{cs:k,faults}:u");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->attr.exclude_user, 0);
	CHECK_EQ_U64(e->attr.exclude_kernel, 0);
	CHECK_EQ_U64(e->attr.exclude_hv, 1);
	xpe_evlist_free(evl);

	/* -e given twice appends; a failed parse appends nothing */
	evl = parse(ctx, "cycles");
	REQUIRE(evl);
	CHECK(xpe_evlist_parse(evl, ctx, "cs,cpu-clock", NULL) == 0);
	CHECK(xpe_evlist_parse(evl, ctx, "cs,nosuchevent", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "{cs,faults", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "{cs,{faults}}", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "cs,", NULL) < 0);
	CHECK_EQ_U64(xpe_evlist_count(evl), 3);
	CHECK_EQ_U64(xpe_evlist_event(evl, 2)->idx, 2);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

/* Fake cpu PMU formats: event=config:0-7 umask=config:8-15 edge=config:18 inv=config:23
 * cmask=config:24-31 ldlat=config1:0-15 split=config:32-35,40-43 filter=config2:0-63 */
static void pmu_terms(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl;
	const struct xpe_event *e;
	struct xb_error err;

	REQUIRE(ctx);
	evl = parse(ctx, "cpu/event=0x3c,cmask=1,inv,edge/");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->attr.type, 4);
	CHECK_EQ_U64(e->attr.config, 0x3cULL | (1ULL << 18) | (1ULL << 23) | (1ULL << 24));
	CHECK_EQ_U64(e->attr.config, 0x184003cULL);
	CHECK_STR(e->name, "cpu/event=0x3c,cmask=1,inv,edge/");
	CHECK_STR(e->pmu, "cpu");
	CHECK(e->kind == XPE_KIND_PMU);
	xpe_evlist_free(evl);

	evl = parse(ctx, "cpu/event=0xcd,umask=0x1,ldlat=3,config2=0x55,period=1000,name=myload/u");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->attr.config, 0x01cdULL);
	CHECK_EQ_U64(e->attr.config1, 3);
	CHECK_EQ_U64(e->attr.config2, 0x55);
	CHECK_EQ_U64(e->attr.sample_period, 1000);
	CHECK(e->period_set && !e->freq_set && !e->attr.freq);
	CHECK_STR(e->name, "myload");
	CHECK_EQ_U64(e->attr.exclude_kernel, 1);
	xpe_evlist_free(evl);

	/* split ranges: value bits 0-3 -> config 32-35, bits 4-7 -> config 40-43 */
	evl = parse(ctx, "cpu/split=0xa5,freq=99/");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->attr.config, (0x5ULL << 32) | (0xaULL << 40));
	CHECK(e->freq_set && e->attr.freq);
	CHECK_EQ_U64(e->attr.sample_freq, 99);
	xpe_evlist_free(evl);

	/* aliases from events/: cpu-cycles is event=0x3c,umask=0x00; mem-loads sets ldlat */
	evl = parse(ctx, "cpu/cpu-cycles/,cpu/ref-cycles/:k,cpu/mem-loads,ldlat=7/");
	REQUIRE(evl);
	CHECK_EQ_U64(xpe_evlist_event(evl, 0)->attr.config, 0x3c);
	CHECK_STR(xpe_evlist_event(evl, 0)->name, "cpu/cpu-cycles/");
	CHECK_EQ_U64(xpe_evlist_event(evl, 1)->attr.config, 0x013c);
	CHECK_EQ_U64(xpe_evlist_event(evl, 1)->attr.exclude_user, 1);
	CHECK_EQ_U64(xpe_evlist_event(evl, 2)->attr.config, 0x01cd);
	CHECK_EQ_U64(xpe_evlist_event(evl, 2)->attr.config1, 7);
	xpe_evlist_free(evl);

	/* .scale and .unit */
	evl = parse(ctx, "power/energy-pkg/");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK_EQ_U64(e->attr.type, 11);
	CHECK_EQ_U64(e->attr.config, 2);
	CHECK(e->scale > 2.3283e-10 && e->scale < 2.3284e-10);
	CHECK_STR(e->unit, "Joules");
	xpe_evlist_free(evl);

	/* a bare alias name finds its PMU(s), as perf does for "tsc" */
	evl = parse(ctx, "aperf");
	REQUIRE(evl);
	CHECK_EQ_U64(xpe_evlist_count(evl), 1);
	CHECK_EQ_U64(attr0(evl)->type, 9);
	CHECK_EQ_U64(attr0(evl)->config, 1);
	xpe_evlist_free(evl);

	/* errors name the term and the valid ones */
	evl = xpe_evlist_create();
	CHECK(xpe_evlist_parse(evl, ctx, "cpu/umsk=1/", &err) == -EINVAL);
	CHECK(strstr(err.msg, "'umsk'") && strstr(err.msg, "umask") && strstr(err.msg, "cmask"));
	CHECK(xpe_evlist_parse(evl, ctx, "cpu/event=0x100/", &err) == -EINVAL);
	CHECK(strstr(err.msg, "event") != NULL);
	CHECK(xpe_evlist_parse(evl, ctx, "cpu/event=zz/", &err) == -EINVAL);
	CHECK(xpe_evlist_parse(evl, ctx, "nopmu/event=1/", &err) == -ENOENT);
	CHECK(strstr(err.msg, "nopmu") && strstr(err.msg, "power"));
	CHECK(xpe_evlist_parse(evl, ctx, "msr/tcs/", &err) == -EINVAL);
	CHECK_STR(err.msg, "event 'tcs' not found in pmu 'msr', did you mean 'msr/tsc/'?");
	CHECK(xpe_evlist_parse(evl, ctx, "cpu/event=1", &err) == -EINVAL);
	CHECK_EQ_U64(xpe_evlist_count(evl), 0);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void format_encode(void)
{
	CHECK_EQ_U64(xpe_format_encode(0xff, 0x3c), 0x3c);
	CHECK_EQ_U64(xpe_format_encode(0xff00, 0x1), 0x100);
	CHECK_EQ_U64(xpe_format_encode(0xf0f00, 0xab), 0xa0b00);
	CHECK_EQ_U64(xpe_format_encode(~0ULL, 0x123456789abcdef0ULL),
		     0x123456789abcdef0ULL);
}

static void tracepoints_fake(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl;

	REQUIRE(ctx);
	evl = parse(ctx, "sched:sched_switch,irq:irq_handler_entry:u");
	REQUIRE(evl);
	CHECK_EQ_U64(attr0(evl)->type, PERF_TYPE_TRACEPOINT);
	CHECK_EQ_U64(attr0(evl)->config, 316);
	CHECK_EQ_U64(attr0(evl)->sample_period, 1);
	CHECK_STR(xpe_evlist_event(evl, 0)->name, "sched:sched_switch");
	CHECK_EQ_U64(xpe_evlist_event(evl, 1)->attr.config, 100);
	CHECK_EQ_U64(xpe_evlist_event(evl, 1)->attr.exclude_kernel, 1);
	xpe_evlist_free(evl);

	evl = parse(ctx, "sched:*");
	REQUIRE(evl);
	REQUIRE(xpe_evlist_count(evl) == 2);
	CHECK_STR(xpe_evlist_event(evl, 0)->name, "sched:sched_switch");
	CHECK_STR(xpe_evlist_event(evl, 1)->name, "sched:sched_wakeup");
	CHECK_EQ_U64(xpe_evlist_event(evl, 1)->attr.config, 317);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void breakpoints(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl;
	const struct perf_event_attr *a;

	REQUIRE(ctx);
	/* as perf stat -vv shows: default access rw, length 4; x defaults to sizeof(long) */
	evl = parse(ctx, "mem:0x1000:rw,mem:0x2000/8:w,mem:0x3000,mem:0x4000:x,mem:0x5000/2:r:u");
	REQUIRE(evl);
	REQUIRE(xpe_evlist_count(evl) == 5);
	a = &xpe_evlist_event(evl, 0)->attr;
	CHECK_EQ_U64(a->type, PERF_TYPE_BREAKPOINT);
	CHECK_EQ_U64(a->bp_type, HW_BREAKPOINT_R | HW_BREAKPOINT_W);
	CHECK_EQ_U64(a->bp_addr, 0x1000);
	CHECK_EQ_U64(a->bp_len, 4);
	CHECK_EQ_U64(a->sample_period, 1);
	CHECK_STR(xpe_evlist_event(evl, 0)->name, "mem:0x1000:rw");
	a = &xpe_evlist_event(evl, 1)->attr;
	CHECK_EQ_U64(a->bp_type, HW_BREAKPOINT_W);
	CHECK_EQ_U64(a->bp_len, 8);
	a = &xpe_evlist_event(evl, 2)->attr;
	CHECK_EQ_U64(a->bp_type, HW_BREAKPOINT_RW);
	a = &xpe_evlist_event(evl, 3)->attr;
	CHECK_EQ_U64(a->bp_type, HW_BREAKPOINT_X);
	CHECK_EQ_U64(a->bp_len, sizeof(long));
	a = &xpe_evlist_event(evl, 4)->attr;
	CHECK_EQ_U64(a->bp_type, HW_BREAKPOINT_R);
	CHECK_EQ_U64(a->bp_len, 2);
	CHECK_EQ_U64(a->exclude_kernel, 1);
	xpe_evlist_free(evl);

	evl = xpe_evlist_create();
	CHECK(xpe_evlist_parse(evl, ctx, "mem:0x1000/3", NULL) < 0);
	CHECK(xpe_evlist_parse(evl, ctx, "mem:zz", NULL) < 0);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void unknown_event_suggestions(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl = xpe_evlist_create();
	struct xb_error err;

	REQUIRE(ctx && evl);
	CHECK(xpe_evlist_parse(evl, ctx, "cpu-clok", &err) == -ENOENT);
	CHECK_STR(err.msg, "event 'cpu-clok' not found, did you mean 'cpu-clock'?");
	CHECK(xpe_evlist_parse(evl, ctx, "instrutions:u", &err) == -ENOENT);
	CHECK(strstr(err.msg, "'instructions'") != NULL);
	CHECK(xpe_evlist_parse(evl, ctx, "sched:sched_swich", &err) == -ENOENT);
	CHECK(strstr(err.msg, "did you mean 'sched:sched_switch'") != NULL);
	CHECK(xpe_evlist_parse(evl, ctx, "zzzzzzzzzzzzzz", &err) == -ENOENT);
	CHECK_STR(err.msg, "event 'zzzzzzzzzzzzzz' not found");
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void attr_names(void)
{
	/* perf's evsel__name() for attrs without a typed name (e.g. after the cycles fallback):
	 * perf record -e cycles:u on a machine without PMU reports 'cpu-clock:uH' */
	static const struct { const char *ev, *name; } t[] = {
		{ "cycles", "cycles" }, { "cpu-cycles:u", "cycles:uH" }, { "cs:k", "context-switches:k" },
		{ "cycles:ppp", "cycles:pppH" }, { "cycles:P", "cycles:ppp" }, { "L1-dcache-load-misses", "L1-dcache-load-misses" },
		{ "LLC", "LLC-loads" }, { "r1a8", "r1a8" }, { "mem:0x1000", "mem:0x1000:rw" },
		{ "cpu-clock:G", "cpu-clock:G" }, { "cpu-clock:H", "cpu-clock" },
	};
	xpe_ctx *ctx = fake_ctx();
	char buf[128];
	size_t i;

	REQUIRE(ctx);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		xpe_evlist *evl = parse(ctx, t[i].ev);

		if (!evl)
			continue;
		xpe_attr_name(ctx, attr0(evl), buf, sizeof(buf));
		if (strcmp(buf, t[i].name))
			UNIT_FAIL("name of %s: '%s', expected '%s'", t[i].ev, buf, t[i].name);
		xpe_evlist_free(evl);
	}
	xpe_ctx_free(ctx);
}

static void cycles_fallback(void)
{
	xpe_ctx *ctx = fake_ctx();
	xpe_evlist *evl;
	struct xpe_event *e;
	char msg[256];

	REQUIRE(ctx);
	evl = parse(ctx, "cycles:P");
	REQUIRE(evl);
	e = xpe_evlist_event(evl, 0);
	CHECK(xpe_event_fallback(e, ENOENT, msg, sizeof(msg)));
	CHECK_EQ_U64(e->attr.type, PERF_TYPE_SOFTWARE);
	CHECK_EQ_U64(e->attr.config, PERF_COUNT_SW_CPU_CLOCK);
	CHECK(strstr(msg, "cpu-clock") != NULL);
	/* :P alone clears exclude_guest (perf's modifier rule), so no H */
	CHECK_STR(e->name, "cpu-clock:ppp");
	CHECK(!xpe_event_fallback(e, ENOENT, msg, sizeof(msg)));
	{
		/* perf record's default: event_attr_init + precise max; perf names the fallback
		 * from the attr, the "cpu-clock:pppH" that perf report shows on VMs */
		struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
					     .exclude_guest = 1, .precise_ip = 3 };

		e = xpe_evlist_add_attr(evl, &a, "cycles:P");
		REQUIRE(e);
		CHECK(xpe_event_fallback(e, EOPNOTSUPP, msg, sizeof(msg)));
		CHECK_STR(e->name, "cpu-clock:pppH");
	}
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
}

static void cpu_lists(void)
{
	struct xpe_cpus c;
	struct xb_error err;
	xpe_ctx *ctx = fake_ctx();

	REQUIRE(ctx);
	REQUIRE(xpe_cpus_parse("0-3,5", &c, NULL) == 0);
	CHECK_EQ_U64(c.nr, 5);
	CHECK_EQ_U64(c.cpu[3], 3);
	CHECK_EQ_U64(c.cpu[4], 5);
	xpe_cpus_release(&c);
	REQUIRE(xpe_cpus_parse("7,1-2,2", &c, NULL) == 0);
	CHECK_EQ_U64(c.nr, 3);
	CHECK_EQ_U64(c.cpu[0], 1);
	CHECK_EQ_U64(c.cpu[2], 7);
	xpe_cpus_release(&c);
	CHECK(xpe_cpus_parse("3-1", &c, &err) == -EINVAL);
	CHECK(strstr(err.msg, "3-1") != NULL);
	CHECK(xpe_cpus_parse("a", &c, NULL) == -EINVAL);
	CHECK(xpe_cpus_parse("1,", &c, NULL) == 0 && c.nr == 1);
	xpe_cpus_release(&c);
	CHECK(xpe_cpus_parse("", &c, NULL) == -EINVAL);
	REQUIRE(xpe_cpus_online(ctx, &c, NULL) == 0);
	CHECK_EQ_U64(c.nr, 5);
	xpe_cpus_release(&c);
	xpe_ctx_free(ctx);

	/* the real machine: as many online cpus as sysconf says */
	ctx = xpe_ctx_create(NULL, NULL);
	REQUIRE(ctx);
	REQUIRE(xpe_cpus_online(ctx, &c, NULL) == 0);
	CHECK_EQ_U64(c.nr, sysconf(_SC_NPROCESSORS_ONLN));
	xpe_cpus_release(&c);
	xpe_ctx_free(ctx);
}

/* -C: a cpu that is not online is named, offline (present) or not there at all. */
static void cpu_lists_online(void)
{
	xpe_ctx *ctx = fake_ctx();
	struct xb_error err = { 0 };
	struct xpe_cpus c;

	REQUIRE(ctx);
	REQUIRE(xpe_cpus_parse("0-3,5", &c, NULL) == 0);
	CHECK(xpe_cpus_check_online(ctx, &c, &err) == 0);
	xpe_cpus_release(&c);
	REQUIRE(xpe_cpus_parse("1,4", &c, NULL) == 0);
	CHECK(xpe_cpus_check_online(ctx, &c, &err) == -ENODEV);
	CHECK_STR(err.msg, "cpu 4 is offline (online cpus: 0-3,5)");
	xpe_cpus_release(&c);
	REQUIRE(xpe_cpus_parse("2,999", &c, NULL) == 0);
	CHECK(xpe_cpus_check_online(ctx, &c, &err) == -ENODEV);
	CHECK_STR(err.msg, "cpu 999 does not exist here (online cpus: 0-3,5)");
	xpe_cpus_release(&c);
	/* per-thread maps ({-1}) need no cpu */
	REQUIRE(xpe_cpus_any(&c) == 0);
	CHECK(xpe_cpus_check_online(ctx, &c, &err) == 0);
	xpe_cpus_release(&c);
	xpe_ctx_free(ctx);
}

/* Real sysfs: msr/tsc/ resolves to the type the kernel gives msr. */
static void real_msr(void)
{
	char buf[32];
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	xpe_ctx *ctx;
	xpe_evlist *evl;

	REQUIRE(f);
	REQUIRE(fgets(buf, sizeof(buf), f));
	fclose(f);
	ctx = xpe_ctx_create(NULL, NULL);
	REQUIRE(ctx);
	evl = parse(ctx, "msr/tsc/");
	if (evl) {
		CHECK_EQ_U64(attr0(evl)->type, strtoul(buf, NULL, 10));
		CHECK_EQ_U64(attr0(evl)->config, 0);
		CHECK_STR(xpe_evlist_event(evl, 0)->name, "msr/tsc/");
		xpe_evlist_free(evl);
	}
	xpe_ctx_free(ctx);
}

/* Real tracefs: the id of sched:sched_switch as the kernel numbers it; opening it works. */
static void real_tracepoint(void)
{
	xpe_ctx *ctx = xpe_ctx_create(NULL, NULL);
	const char *tfs;
	char path[512], buf[32];
	FILE *f;
	xpe_evlist *evl;

	REQUIRE(ctx);
	tfs = xpe_ctx_tracefs(ctx);
	REQUIRE(tfs);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tfs);
	f = fopen(path, "r");
	REQUIRE(f);
	REQUIRE(fgets(buf, sizeof(buf), f));
	fclose(f);
	evl = parse(ctx, "sched:sched_switch");
	if (evl) {
		struct xpe_cpus cpus;
		struct xpe_threads th;
		struct xb_error err;

		CHECK_EQ_U64(attr0(evl)->type, PERF_TYPE_TRACEPOINT);
		CHECK_EQ_U64(attr0(evl)->config, strtoull(buf, NULL, 10));
		xpe_cpus_any(&cpus);
		xpe_threads_one(&th, 0);
		if (xpe_evlist_open(evl, ctx, &cpus, &th, 0, NULL, &err))
			UNIT_FAIL("open: %s", err.msg);
		else
			CHECK(xpe_evlist_event(evl, 0)->fd[0] >= 0);
		xpe_cpus_release(&cpus);
		xpe_threads_release(&th);
		xpe_evlist_free(evl);
	}
	xpe_ctx_free(ctx);
}

/* Opening: a group of software events shares the leader's fd; counts are real. */
static void open_group(void)
{
	xpe_ctx *ctx = xpe_ctx_create(NULL, NULL);
	xpe_evlist *evl;
	struct xpe_cpus cpus;
	struct xpe_threads th;
	struct xb_error err;
	struct { uint64_t nr, v[2]; } rd;
	volatile unsigned sink = 0;

	REQUIRE(ctx);
	evl = parse(ctx, "{task-clock,page-faults}:u,cycles,cpu-clock");
	REQUIRE(evl);
	for (size_t i = 0; i < xpe_evlist_count(evl); i++)
		xpe_evlist_event(evl, i)->attr.read_format = PERF_FORMAT_GROUP;
	xpe_cpus_any(&cpus);
	xpe_threads_one(&th, 0);
	if (xpe_evlist_open(evl, ctx, &cpus, &th, XPE_OPEN_SKIP_UNSUPPORTED, NULL, &err)) {
		UNIT_FAIL("open: %s", err.msg);
	} else {
		struct xpe_event *l = xpe_evlist_event(evl, 0);

		CHECK(l->fd[0] >= 0 && l->id[0] != 0);
		CHECK(xpe_evlist_event(evl, 1)->fd[0] >= 0);
		/* cycles is <not supported> exactly when there is no PMU */
		CHECK(xpe_evlist_event(evl, 2)->unsupported == !xpe_have_hw_pmu());
		CHECK(xpe_evlist_event(evl, 3)->fd[0] >= 0);
		for (int i = 0; i < 1000000; i++)
			sink += (unsigned)i;
		CHECK(read(l->fd[0], &rd, sizeof(rd)) == sizeof(rd));
		CHECK_EQ_U64(rd.nr, 2); /* the group read returns both members */
		CHECK(rd.v[0] > 0);
	}
	xpe_cpus_release(&cpus);
	xpe_threads_release(&th);
	xpe_evlist_free(evl);

	/* without SKIP_UNSUPPORTED an absent PMU is an error that says so */
	if (!xpe_have_hw_pmu()) {
		int failed = -1;

		evl = parse(ctx, "cpu-clock,cycles");
		REQUIRE(evl);
		xpe_cpus_any(&cpus);
		xpe_threads_one(&th, 0);
		CHECK(xpe_evlist_open(evl, ctx, &cpus, &th, 0, &failed, &err) < 0);
		CHECK_EQ_U64(failed, 1);
		CHECK(strstr(err.msg, "not supported") != NULL);
		CHECK(xpe_evlist_event(evl, 0)->fd[0] == -1); /* closed again */
		/* with the fallback, cycles becomes cpu-clock and opens */
		CHECK(xpe_evlist_open(evl, ctx, &cpus, &th, XPE_OPEN_FALLBACK, NULL, &err) == 0);
		CHECK_STR(xpe_evlist_event(evl, 1)->name, "cpu-clock");
		xpe_cpus_release(&cpus);
		xpe_threads_release(&th);
		xpe_evlist_free(evl);

		/* perf record's default is cycles:P: without a PMU it records 'cpu-clock:ppp'
		 * with precise_ip 3 (perf evlist -v on such a perf.data) */
		evl = parse(ctx, "cycles:P");
		REQUIRE(evl);
		xpe_cpus_any(&cpus);
		xpe_threads_one(&th, 0);
		CHECK(xpe_evlist_open(evl, ctx, &cpus, &th, XPE_OPEN_FALLBACK, NULL, &err) == 0);
		CHECK_STR(xpe_evlist_event(evl, 0)->name, "cpu-clock:ppp");
		CHECK_EQ_U64(xpe_evlist_event(evl, 0)->attr.precise_ip, 3);
		xpe_cpus_release(&cpus);
		xpe_threads_release(&th);
		xpe_evlist_free(evl);
	}
	xpe_ctx_free(ctx);
}

static void advice(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a) };
	char buf[1024], want[64];
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int paranoid = 2;

	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	CHECK(xpe_open_advice(&a, "cycles", EACCES, buf, sizeof(buf)) == XPE_FAIL_PERMISSION);
	snprintf(want, sizeof(want), "perf_event_paranoid is %d", paranoid);
	CHECK(strstr(buf, want) != NULL);
	CHECK(strstr(buf, "sysctl -w kernel.perf_event_paranoid=-1") != NULL);
	CHECK(xpe_open_advice(&a, "cycles", -ENOENT, buf, sizeof(buf)) == XPE_FAIL_UNSUPPORTED);
	CHECK(strstr(buf, "cycles event is not supported") != NULL);
	CHECK(xpe_open_advice(&a, "cycles", EOPNOTSUPP, buf, sizeof(buf)) == XPE_FAIL_UNSUPPORTED);
	CHECK(xpe_open_advice(&a, "cycles", EMFILE, buf, sizeof(buf)) == XPE_FAIL_FILES);
	CHECK(strstr(buf, "ulimit -n") != NULL);
	a.precise_ip = 2;
	CHECK(xpe_open_advice(&a, "cycles:pp", EINVAL, buf, sizeof(buf)) == XPE_FAIL_PRECISE);
	CHECK(strstr(buf, ":p") != NULL);
	CHECK(xpe_open_advice(&a, NULL, ESRCH, buf, sizeof(buf)) == XPE_FAIL_OTHER);
	CHECK(strstr(buf, "cycles:pp") != NULL);
}

struct name_counts {
	int sw, pmu, tp, cache;
};

static int count_name(const struct xpe_name *n, void *arg)
{
	struct name_counts *k = arg;

	if (n->kind == XPE_KIND_SW)
		k->sw++;
	if (n->kind == XPE_KIND_PMU && !strcmp(n->name, "power/energy-pkg/"))
		k->pmu++;
	if (n->kind == XPE_KIND_TRACEPOINT)
		k->tp++;
	if (n->kind == XPE_KIND_CACHE && !strcmp(n->name, "L1-dcache-load-misses"))
		k->cache++;
	return 0;
}

static void list_names(void)
{
	xpe_ctx *ctx = fake_ctx();
	struct name_counts c = { 0 };

	REQUIRE(ctx);
	CHECK(xpe_ctx_for_each_name(ctx, ~0u, count_name, &c) == 0);
	CHECK_EQ_U64(c.sw, 12);
	CHECK_EQ_U64(c.pmu, 1);
	CHECK_EQ_U64(c.tp, 3);
	CHECK_EQ_U64(c.cache, 1);
	xpe_ctx_free(ctx);
}

static void target_options(void)
{
	struct xpe_target_opts o = { .pids = "12,3" };
	struct xpe_target t;
	struct xb_error err;
	pid_t self = getpid();
	char list[32];

	CHECK_EQ_U64(xpe_target_check(&o, &err), 0);
	o = (struct xpe_target_opts){ .system_wide = true, .cpu_list = "0" };
	CHECK_EQ_U64(xpe_target_check(&o, &err), 0);
	o = (struct xpe_target_opts){ .tids = "1", .user = "root" };
	CHECK(xpe_target_check(&o, &err) == -EINVAL);
	CHECK_STR(err.msg, "options '-t' and '-u' exclude each other");
	o = (struct xpe_target_opts){ .pids = "1", .cpu_list = "0" };
	CHECK(xpe_target_check(&o, &err) == -EINVAL);
	CHECK_STR(err.msg, "options '-p' and '-C' exclude each other");
	const char *bad[] = { "", ",", "1,", ",1", "1,,2", "-1", "1 2", "0x10" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = (struct xpe_target_opts){ .pids = bad[i] };
		CHECK(xpe_target_check(&o, &err) == -EINVAL);
	}
	CHECK_STR(err.msg, "invalid pid list '0x10' (numbers separated by commas)");

	/* ourselves, as a process (every thread) and as a thread; alive until we are not */
	snprintf(list, sizeof(list), "%d", (int)self);
	o = (struct xpe_target_opts){ .pids = list };
	REQUIRE(xpe_target_prepare(&t, &o, NULL, &err) == 0);
	CHECK_EQ_U64(t.nr_pids, 1);
	CHECK_EQ_U64(t.pids[0], self);
	CHECK(t.threads.nr >= 1 && !t.tids_only && !t.per_cpu);
	CHECK_EQ_U64(t.cpus.nr, 1);
	CHECK_EQ_U64(t.cpus.cpu[0], (uint64_t)-1);
	CHECK(xpe_target_alive(&t));
	xpe_target_release(&t);
	o = (struct xpe_target_opts){ .tids = list };
	REQUIRE(xpe_target_prepare(&t, &o, NULL, &err) == 0);
	CHECK(t.tids_only && t.threads.nr == 1 && t.threads.tid[0] == self);
	CHECK(xpe_target_alive(&t));
	xpe_target_release(&t);
	/* a child that exited and is not reaped yet is a zombie: no target, not alive */
	pid_t child = fork();

	REQUIRE(child >= 0);
	if (!child)
		_exit(0);
	snprintf(list, sizeof(list), "%d", (int)child);
	for (int i = 0; i < 500; i++) {
		char path[64], buf[256], *p;
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
		f = fopen(path, "r");
		n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'Z')
			break;
		usleep(10000);
	}
	o = (struct xpe_target_opts){ .pids = list };
	CHECK(xpe_target_prepare(&t, &o, NULL, &err) == -ESRCH);
	char want[64];

	snprintf(want, sizeof(want), "process %d has exited", (int)child);
	CHECK_STR(err.msg, want);
	xpe_target_release(&t);
	t = (struct xpe_target){ .pids = &child, .nr_pids = 1 };
	CHECK(!xpe_target_alive(&t));
	waitpid(child, NULL, 0);
	/* reaped: gone */
	o = (struct xpe_target_opts){ .pids = list };
	CHECK(xpe_target_prepare(&t, &o, NULL, &err) == -ESRCH);
	snprintf(want, sizeof(want), "no process with pid %d", (int)child);
	CHECK_STR(err.msg, want);
	xpe_target_release(&t);
}

int main(void)
{
	find_fake_root();
	RUN(hardware_events);
	RUN(software_events);
	RUN(cache_events);
	RUN(raw_events);
	RUN(modifiers);
	RUN(lists_and_groups);
	RUN(pmu_terms);
	RUN(format_encode);
	RUN(tracepoints_fake);
	RUN(breakpoints);
	RUN(unknown_event_suggestions);
	RUN(attr_names);
	RUN(cycles_fallback);
	RUN(cpu_lists);
	RUN(cpu_lists_online);
	RUN(target_options);
	if (access("/sys/bus/event_source/devices/msr/type", R_OK) == 0)
		RUN(real_msr);
	else
		SKIP(real_msr, "no msr PMU on this machine");
	if (geteuid() == 0 || access("/sys/kernel/tracing/events", R_OK) == 0)
		RUN(real_tracepoint);
	else
		SKIP(real_tracepoint, "tracefs not mounted and not root");
	RUN(open_group);
	RUN(advice);
	RUN(list_names);
	UNIT_MAIN_END();
}
