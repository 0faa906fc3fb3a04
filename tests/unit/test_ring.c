/* Unit tests of the ring buffer reader (src/events/ring.c) on a real software event. */
#include <errno.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "events/ring.h"
#include "events/xpe_open.h"
#include "unit.h"

static int open_clock(uint64_t period, uint64_t sample_type)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(a),
		.sample_period = period,
		.sample_type = sample_type,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.disabled = 1,
	};

	return xpe_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static volatile uint64_t sink;

/* Burn in recursion of varying depth so callchains (and record sizes) vary. */
__attribute__((noinline)) static uint64_t burn(int depth)
{
	uint64_t x = sink;

	if (depth > 0)
		return burn(depth - 1) + 1;
	for (int i = 0; i < 20000; i++)
		x = x * 6364136223846793005ULL + 1;
	return x;
}

/* Every record, wrapped or not, must be a SAMPLE of ours whose size matches its callchain. */
static void test_wrapping_records_are_whole(void)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	int fd = open_clock(20000, st), n = 0, bad = 0, round;
	xpe_ring *r = NULL;
	uint64_t read_bytes = 0;

	if (fd < 0) {
		UNIT_SKIP("perf_event_open: %s", strerror(-fd));
	}
	REQUIRE(xpe_ring_mmap(&r, fd, 1, NULL) == 0);
	CHECK_EQ_U64(xpe_ring_size(r), (uint64_t)sysconf(_SC_PAGESIZE));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* Many small passes: the read position moves through every offset of the page. */
	for (round = 0; round < 400; round++) {
		const struct perf_event_header *h;

		sink += burn(round % 23);
		xpe_ring_begin(r);
		while ((h = xpe_ring_next(r))) {
			const uint64_t *u = (const uint64_t *)(h + 1);

			read_bytes += h->size;
			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			n++;
			/* ip, pid|tid, time, nr, ips[nr] */
			if ((uint32_t)u[1] != (uint32_t)getpid() || h->size != 8 + 8 * (4 + u[3]))
				bad++;
		}
		xpe_ring_end(r);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	CHECK(n > 50);
	CHECK_EQ_U64(bad, 0);
	CHECK(read_bytes > 2 * xpe_ring_size(r)); /* it did wrap */
	CHECK_EQ_U64(xpe_ring_corrupt(r), 0);
	xpe_ring_unmap(r);
	close(fd);
}

/* A second fd redirected into the ring: its samples arrive in the first one's buffer. */
static void test_set_output_redirects(void)
{
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER;
	int a = open_clock(50000, st), b = open_clock(50000, st), n_a = 0, n_b = 0;
	uint64_t id_a = 0, id_b = 0;
	xpe_ring *r = NULL;
	const struct perf_event_header *h;

	if (a < 0 || b < 0) {
		UNIT_SKIP("perf_event_open failed");
	}
	REQUIRE(xpe_ring_mmap(&r, a, 4, NULL) == 0);
	REQUIRE(xpe_ring_set_output(r, b) == 0);
	ioctl(a, PERF_EVENT_IOC_ID, &id_a);
	ioctl(b, PERF_EVENT_IOC_ID, &id_b);
	ioctl(a, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(b, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 40; i++)
		sink += burn(3);
	ioctl(a, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(b, PERF_EVENT_IOC_DISABLE, 0);
	xpe_ring_begin(r);
	while ((h = xpe_ring_next(r))) {
		uint64_t id = *(const uint64_t *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n_a += id == id_a;
		n_b += id == id_b;
	}
	xpe_ring_end(r);
	CHECK(n_a > 0);
	CHECK(n_b > 0);
	xpe_ring_unmap(r);
	close(a);
	close(b);
}

static void test_mmap_rounds_up_to_power_of_two(void)
{
	int fd = open_clock(100000, PERF_SAMPLE_IP);
	xpe_ring *r = NULL;
	struct xb_error err = { 0 };

	if (fd < 0) {
		UNIT_SKIP("perf_event_open failed");
	}
	REQUIRE(xpe_ring_mmap(&r, fd, 3, &err) == 0);
	CHECK_EQ_U64(xpe_ring_size(r), 4 * (uint64_t)sysconf(_SC_PAGESIZE));
	CHECK_EQ_U64(xpe_ring_begin(r), 0);
	CHECK(xpe_ring_next(r) == NULL);
	xpe_ring_end(r);
	xpe_ring_unmap(r);
	xpe_ring_unmap(NULL);
	close(fd);
}

int main(void)
{
	RUN(test_wrapping_records_are_whole);
	RUN(test_set_output_redirects);
	RUN(test_mmap_rounds_up_to_power_of_two);
	UNIT_MAIN_END();
}
