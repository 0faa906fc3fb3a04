/* Workload: most of its time inside the vdso's clock_gettime, called from clock_loop(). */
/*
 * Usage: vdso_clock [-v] [SECONDS]     (default 1)
 * clock_loop reads CLOCK_MONOTONIC over and over; where the clocksource allows it (tsc,
 * kvm-clock) the kernel's vdso answers without a system call, so samples land in [vdso]
 * code: __vdso_clock_gettime, called from libc's clock_gettime. A DWARF unwinder must read
 * the vdso's own .eh_frame to get from there back to clock_loop and main.
 */
#include "workload.h"

volatile uint64_t sink;

__attribute__((noinline)) uint64_t clock_loop(double seconds)
{
	struct timespec ts;
	uint64_t calls = 0;
	double end = wl_now() + seconds;

	do {
		for (int i = 0; i < 1000; i++, calls++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += (uint64_t)ts.tv_nsec;
		}
	} while (wl_now() < end);
	return calls;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	uint64_t calls = clock_loop(seconds);

	if (verbose)
		printf("vdso_clock: %llu clock_gettime calls in %.2f s\n",
		       (unsigned long long)calls, seconds);
	return 0;
}
