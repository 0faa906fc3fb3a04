/* Workload: one function, shared_work(), called from two callers, two thirds of it from caller_one. */
/*
 * Usage: two_callers [-v] [SECONDS]     (default 1)
 * caller_one() and caller_two() both call shared_work(), caller_one with twice the work,
 * so shared_work's callers split 2:1 (the same loop runs in both: the ratio holds in CPU
 * time). shared_work() spends about half of its time in itself and half in its callee
 * leaf_work(). For the caller/callee view of the report TUI.
 */
#include "workload.h"

#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

volatile uint64_t sink;

__attribute__((noinline)) void leaf_work(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }

__attribute__((noinline)) void shared_work(uint64_t n)
{
	uint64_t s = sink;

	KEEP_FRAME();
	BURN(n, s);
	sink = s;
	leaf_work(n);
}

__attribute__((noinline)) void caller_one(void) { shared_work(200000); __asm__ volatile(""); }
__attribute__((noinline)) void caller_two(void) { shared_work(100000); __asm__ volatile(""); }

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end = wl_now() + seconds;
	uint64_t rounds = 0;

	do {
		caller_one();
		caller_two();
		rounds++;
	} while (wl_now() < end);
	if (verbose)
		printf("two_callers: %llu rounds\n", (unsigned long long)rounds);
	return 0;
}
