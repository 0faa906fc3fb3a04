/*
 * self_read: count this program's own work without a system call per read, with
 * libxperf-events' xpe_self_read() (src/events/xpe_selfread.h).
 *
 *   build/docs/self_read [ITERATIONS]
 *
 * It counts instructions (task-clock where there is no hardware PMU), reads the counter
 * before and after a loop, and says how each value was read: through the mmap page and
 * rdpmc, or by read(2) because the page said it cannot (a software event, a virtual
 * machine without a PMU, rdpmc disabled in /sys/bus/event_source/devices/cpu/rdpmc).
 * The Makefile builds it with everything else, so it keeps compiling as the library moves.
 */
#include <stdio.h>
#include <stdlib.h>

#include "events/xpe_selfread.h"

static volatile unsigned long sink;

static void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

static void show(const char *when, const struct xpe_self_value *v)
{
	printf("%-7s %14llu  enabled %12llu ns  running %12llu ns  (%s)\n", when,
	       (unsigned long long)v->value, (unsigned long long)v->time_enabled,
	       (unsigned long long)v->time_running,
	       v->by_read ? "read(2): the page says user space cannot read it"
			  : "mmap page and rdpmc, no system call");
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;
	const char *name = "instructions";
	struct xpe_self_counter c;
	struct xpe_self_value before, after;
	struct xb_error err = { 0 };

	if (xpe_self_open(&c, &attr, &err) < 0) {
		/* no PMU (most virtual machines): a software counter still shows the fallback */
		struct perf_event_attr sw = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_TASK_CLOCK,
			.exclude_kernel = 1,
			.exclude_hv = 1,
		};

		name = "task-clock (ns)";
		if (xpe_self_open(&c, &sw, &err) < 0) {
			fprintf(stderr, "self_read: %s\n", err.msg);
			return 1;
		}
	}
	if (xpe_self_read(&c, &before) < 0)
		return 1;
	work(n);
	if (xpe_self_read(&c, &after) < 0)
		return 1;
	printf("%s over %lu iterations:\n", name, n);
	show("before", &before);
	show("after", &after);
	printf("counted %llu\n", (unsigned long long)(after.value - before.value));
	xpe_self_close(&c);
	return 0;
}
