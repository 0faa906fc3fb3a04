/* libxperf-events: reading a counter of the calling process without a system call. */
#ifndef XPE_SELFREAD_H
#define XPE_SELFREAD_H

/*
 * The kernel publishes the state of a counting event in the first page of its mmap
 * (struct perf_event_mmap_page, include/uapi/linux/perf_event.h): a seqlock `lock`, the
 * hardware counter `index` (0: not on a counter now), the count kept in software
 * `offset`, `pmc_width`, `time_enabled`/`time_running` as of the page's last update, and,
 * where the TSC is usable (`cap_user_time`), time_mult/time_shift/time_offset to bring
 * those times up to now. With `cap_user_rdpmc` a thread reads its counter with the
 * `rdpmc` instruction (x86) and adds `offset`: no system call, a few dozen cycles.
 *
 * The page says when that cannot work: no `cap_user_rdpmc` (software events, a kernel
 * with rdpmc disabled in /sys/bus/event_source/devices/cpu/rdpmc, a virtual machine),
 * `index` 0 (the event is not on the PMU now: multiplexed out, disabled, or a software
 * event), or not x86. Then the value comes from read(2), and says so (`by_read`).
 *
 *	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
 *				     .config = PERF_COUNT_HW_INSTRUCTIONS, ... };
 *	struct xpe_self_counter c;
 *	struct xpe_self_value v;
 *
 *	if (xpe_self_open(&c, &a, &err) == 0) {
 *		xpe_self_read(&c, &v);   // v.value, v.time_enabled, v.time_running
 *		xpe_self_close(&c);
 *	}
 *
 * The counter counts the calling thread (pid 0, any cpu), so the reads must come from
 * that thread: rdpmc reads the counter of the cpu it runs on, which holds this thread's
 * event only while this thread runs. docs/self_read.c is a complete program.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"

struct xpe_self_counter {
	int fd;
	struct perf_event_mmap_page *page; /* the first page of fd's mmap, read-only */
	size_t page_size;
};

struct xpe_self_value {
	uint64_t value;
	uint64_t time_enabled, time_running; /* ns, as read() gives them */
	bool by_read;       /* the page said it cannot: these came from read(2) */
	bool times_now;     /* page times extrapolated to now with cap_user_time (only
			       when not by_read) */
};

/*
 * Open a counter for the calling thread (attr is used as given but for read_format, which
 * gets TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING, and sample_period/freq, cleared: it counts)
 * and map its page. 0, or a negative errno with err set; c->fd is -1 after a failure.
 */
int xpe_self_open(struct xpe_self_counter *c, struct perf_event_attr *attr,
		  struct xb_error *err);
/*
 * Read the counter: through the page when it allows (rdpmc), else with read(2). 0, or
 * the negative errno of read().
 */
int xpe_self_read(const struct xpe_self_counter *c, struct xpe_self_value *v);
/* Unmap and close; accepts a counter whose open failed. */
void xpe_self_close(struct xpe_self_counter *c);

/*
 * The page protocol alone, on any page (the kernel's, or a test's): the seqlock loop of
 * perf_event.h. rdpmc(i) reads hardware counter i, tsc() the time stamp counter (NULL:
 * the x86 instructions; on another architecture the page is never read for a count).
 * Returns 0 with v filled from the page, or -EOPNOTSUPP when it cannot give the count
 * (no cap_user_rdpmc, index 0): then v holds the page's times only, as the page has them.
 */
typedef uint64_t (*xpe_rdpmc_fn)(uint32_t counter);
typedef uint64_t (*xpe_tsc_fn)(void);
int xpe_mmap_page_read(const volatile struct perf_event_mmap_page *pc, xpe_rdpmc_fn rdpmc,
		       xpe_tsc_fn tsc, struct xpe_self_value *v);

/*
 * What the page's time fields turn `cyc` (a TSC value) into: nanoseconds since the page's
 * last update, time_offset + cyc * time_mult >> time_shift computed as the kernel
 * documents it, without overflowing 64 bits (cap_user_time_short: cyc is first brought
 * into the window of time_cycles/time_mask).
 */
uint64_t xpe_mmap_page_delta(uint64_t cyc, uint32_t time_mult, uint16_t time_shift,
			     uint64_t time_offset, bool short_time, uint64_t time_cycles,
			     uint64_t time_mask);

#endif
