/* Workload: 60% / 40% of its CPU time in dl_work_a / dl_work_b, built stripped (see below). */
/*
 * Usage: debuglink [-v] [SECONDS]     (default 1; a fractional value is fine)
 *
 * The Makefile strips the program (no .symtab, no DWARF; only .dynsym, which names none of
 * the functions here) and moves its symbols and DWARF into build/workloads/debuglink.debug,
 * named by the program's .gnu_debuglink section (file name + CRC32). A profiler names
 * dl_work_a and dl_work_b only by finding that file: perf looks for the debuglink name
 * beside the binary, in .debug/ beside it, and under /usr/lib/debug/DIR/; the build-id
 * paths (/usr/lib/debug/.build-id/xx/rest.debug, ~/.debug) are not filled here.
 * As in shares.c the iteration counts are calibrated against each function's measured
 * cost, so the shares hold in CPU time; -v prints the measured shares. Calls go
 * main -> dl_round -> dl_work_X.
 */
#include "workload.h"

#define SHARE_A 60
#define SHARE_B 40
#define ROUND_SECONDS 0.005 /* one round: short, so the last round hardly matters */

/* A frame of its own even as a leaf, so frame-pointer unwinding sees its caller dl_round. */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

volatile uint64_t sink;
uint64_t iters_a, iters_b;
double cpu_a, cpu_b; /* measured CPU time per function, for -v */

__attribute__((noinline)) void dl_work_a(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }
__attribute__((noinline)) void dl_work_b(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }

__attribute__((noinline)) void dl_round(void)
{
	double t0 = wl_thread_cpu(), t1, t2;

	dl_work_a(iters_a);
	t1 = wl_thread_cpu();
	dl_work_b(iters_b);
	t2 = wl_thread_cpu();
	cpu_a += t1 - t0;
	cpu_b += t2 - t1;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double ca = wl_cost_of(dl_work_a), cb = wl_cost_of(dl_work_b);
	double end;
	uint64_t rounds = 0;

	iters_a = ROUND_SECONDS * SHARE_A / 100 / ca + 1;
	iters_b = ROUND_SECONDS * SHARE_B / 100 / cb + 1;
	end = wl_now() + seconds;
	do {
		dl_round();
		rounds++;
	} while (wl_now() < end);
	if (verbose) {
		double tot = cpu_a + cpu_b;

		printf("debuglink: %llu rounds, dl_work_a %.1f%% dl_work_b %.1f%%\n",
		       (unsigned long long)rounds, 100 * cpu_a / tot, 100 * cpu_b / tot);
	}
	return 0;
}
