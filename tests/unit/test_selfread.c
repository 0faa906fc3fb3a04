/* Unit tests of reading a counter through its mmap page (src/events/selfread.c). */
#include <errno.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "events/xpe_selfread.h"
#include "unit.h"

/* delta as the kernel documents it, in 128 bits */
static uint64_t delta_wide(uint64_t cyc, uint32_t mult, uint16_t shift, uint64_t off)
{
	return off + (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static void test_time_delta_matches_wide_arithmetic(void)
{
	static const struct { uint64_t cyc; uint32_t mult; uint16_t shift; uint64_t off; } t[] = {
		{ 0, 1, 0, 5 },
		{ 1000, 3, 1, 0 },
		{ 0x123456789abcdefULL, 0x3f8c2b1a, 31, (uint64_t)-1000000 },
		{ 0xffffffffffffffffULL, 0xffffffff, 32, 0 },
		{ 3000000000ULL * 3600, 1398101333, 32, 12345 }, /* an hour at 3 GHz */
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_EQ_U64(xpe_mmap_page_delta(t[i].cyc, t[i].mult, t[i].shift, t[i].off,
						 false, 0, 0),
			     delta_wide(t[i].cyc, t[i].mult, t[i].shift, t[i].off));
	/* cap_user_time_short: only the bits of time_mask past time_cycles count */
	CHECK_EQ_U64(xpe_mmap_page_delta(0x10000 + 0x1234, 1, 0, 0, true, 0x10000, 0xffff),
		     0x10000 + 0x1234);
	CHECK_EQ_U64(xpe_mmap_page_delta(0xabc0010, 1, 0, 0, true, 0x10000, 0xffff), 0x10010);
}

/* A fake counter for fake pages: its value, and a page lock to bump on the first read. */
static struct perf_event_mmap_page fake;
static uint64_t fake_pmc, fake_tsc;
static uint32_t rdpmc_calls, rdpmc_counter;
static bool update_during_first_read;

static uint64_t fake_rdpmc(uint32_t counter)
{
	rdpmc_calls++;
	rdpmc_counter = counter;
	if (update_during_first_read && rdpmc_calls == 1) {
		/* the kernel updates the page while we read: a new offset, the lock moves */
		fake.offset = 5000;
		fake.lock += 2;
	}
	return fake_pmc;
}

static uint64_t fake_rdtsc(void)
{
	return fake_tsc;
}

static void fake_page(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.lock = 4;
	fake.index = 3;             /* hardware counter 2 */
	fake.offset = 1000;
	fake.pmc_width = 48;
	fake.cap_user_rdpmc = 1;
	fake.time_enabled = 700;
	fake.time_running = 600;
	rdpmc_calls = 0;
	update_during_first_read = false;
}

static void test_page_rdpmc_count_is_offset_plus_sign_extended_counter(void)
{
	struct xpe_self_value v;

	fake_page();
	fake_pmc = 234;
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == 0);
	CHECK_EQ_U64(v.value, 1234);
	CHECK_EQ_U64(rdpmc_counter, 2);
	CHECK(!v.by_read);
	/* no cap_user_time: the page's times as they are */
	CHECK_EQ_U64(v.time_enabled, 700);
	CHECK_EQ_U64(v.time_running, 600);
	CHECK(!v.times_now);
	/* a 48-bit counter with its top bit set is negative: offset holds the rest */
	fake_pmc = (1ULL << 48) - 10;
	fake.offset = 100;
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == 0);
	CHECK_EQ_U64(v.value, 90);
	/* bits above the width are ignored */
	fake_pmc = 0xffff000000000005ULL;
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == 0);
	CHECK_EQ_U64(v.value, 105);
}

static void test_page_times_extrapolated_with_cap_user_time(void)
{
	struct xpe_self_value v;
	uint64_t d;

	fake_page();
	fake.cap_user_time = 1;
	fake.time_mult = 0x3f8c2b1a;
	fake.time_shift = 31;
	fake.time_offset = (uint64_t)-5000000000LL;
	fake_tsc = 12000000000ULL;
	fake_pmc = 0;
	d = delta_wide(fake_tsc, fake.time_mult, fake.time_shift, fake.time_offset);
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == 0);
	CHECK(v.times_now);
	CHECK_EQ_U64(v.time_enabled, 700 + d);
	CHECK_EQ_U64(v.time_running, 600 + d);
}

static void test_page_seqlock_retries_a_torn_read(void)
{
	struct xpe_self_value v;

	fake_page();
	fake_pmc = 7;
	update_during_first_read = true;
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == 0);
	CHECK_EQ_U64(rdpmc_calls, 2);
	CHECK_EQ_U64(v.value, 5007);
}

static void test_page_that_says_it_cannot_gives_eopnotsupp(void)
{
	struct xpe_self_value v;

	fake_page();
	fake.cap_user_rdpmc = 0;
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == -EOPNOTSUPP);
	CHECK_EQ_U64(rdpmc_calls, 0);
	CHECK_EQ_U64(v.time_enabled, 700);
	fake_page();
	fake.index = 0; /* not on a counter now */
	CHECK(xpe_mmap_page_read(&fake, fake_rdpmc, fake_rdtsc, &v) == -EOPNOTSUPP);
	CHECK_EQ_U64(rdpmc_calls, 0);
}

static volatile uint64_t sink;

static void burn(void)
{
	for (int i = 0; i < 3000000; i++)
		sink += (uint64_t)i * i;
}

/*
 * A software counter's page never allows rdpmc (on any machine): xpe_self_read falls back
 * to read(2), and the page's own times are those of its last update, never ahead of it.
 */
static void test_real_software_counter_falls_back_to_read(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct xpe_self_counter c;
	struct xpe_self_value v1, v2, page;
	struct xb_error err = { 0 };
	int ret = xpe_self_open(&c, &a, &err);

	if (ret < 0)
		UNIT_SKIP("%s", err.msg);
	REQUIRE(c.page != NULL);
	REQUIRE(xpe_self_read(&c, &v1) == 0);
	burn();
	CHECK(xpe_mmap_page_read(c.page, NULL, NULL, &page) == -EOPNOTSUPP);
	REQUIRE(xpe_self_read(&c, &v2) == 0);
	CHECK(v1.by_read && v2.by_read);
	CHECK(v2.value > v1.value);
	CHECK(v2.time_enabled >= v2.time_running);
	CHECK(v2.time_running > v1.time_running);
	/* task-clock counts the nanoseconds it runs */
	CHECK(v2.value <= v2.time_running + 1000000 && v2.value + 1000000 >= v2.time_running);
	CHECK(page.time_enabled <= v2.time_enabled);
	CHECK(page.time_running <= v2.time_running);
	xpe_self_close(&c);
	CHECK(c.fd == -1 && c.page == NULL);
	xpe_self_close(&c); /* twice is harmless */
}

/*
 * Where a PMU exists and the kernel allows rdpmc, the page path: its count lies between
 * two read(2) values taken around it. Without a PMU (this project's VM) it is skipped.
 */
static void test_real_hardware_counter_by_rdpmc(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	struct xpe_self_counter c;
	struct xpe_self_value v;
	struct xb_error err = { 0 };
	uint64_t r1[3], r2[3];

	if (xpe_self_open(&c, &a, &err) < 0)
		UNIT_SKIP("no hardware counter here (%s): rdpmc not exercised", err.msg);
	burn();
	REQUIRE(read(c.fd, r1, sizeof(r1)) == sizeof(r1));
	REQUIRE(xpe_self_read(&c, &v) == 0);
	REQUIRE(read(c.fd, r2, sizeof(r2)) == sizeof(r2));
	if (v.by_read) {
		xpe_self_close(&c);
		UNIT_SKIP("the page does not allow rdpmc here (cap_user_rdpmc 0 or index 0)");
	}
	CHECK(r1[0] <= v.value && v.value <= r2[0]);
	xpe_self_close(&c);
}

static void test_open_failure_leaves_a_closable_counter(void)
{
	struct perf_event_attr a = { .type = 0xfffff, .config = 1 };
	struct xpe_self_counter c;
	struct xb_error err = { 0 };

	CHECK(xpe_self_open(&c, &a, &err) < 0);
	CHECK(c.fd == -1 && c.page == NULL);
	CHECK(strstr(err.msg, "cannot open the counter") != NULL);
	xpe_self_close(&c);
}

int main(void)
{
	RUN(test_time_delta_matches_wide_arithmetic);
	RUN(test_page_rdpmc_count_is_offset_plus_sign_extended_counter);
	RUN(test_page_times_extrapolated_with_cap_user_time);
	RUN(test_page_seqlock_retries_a_torn_read);
	RUN(test_page_that_says_it_cannot_gives_eopnotsupp);
	RUN(test_real_software_counter_falls_back_to_read);
	RUN(test_real_hardware_counter_by_rdpmc);
	RUN(test_open_failure_leaves_a_closable_counter);
	UNIT_MAIN_END();
}
