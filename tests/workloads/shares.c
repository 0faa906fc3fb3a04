/* Workload: one thread spending 50% / 30% / 20% of its CPU time in work_a / work_b / work_c. */
/*
 * Usage: shares [-v] [SECONDS [A B C]]  (default 1; a fractional value is fine)
 * A B C: other shares in percent (default 50 30 20), e.g. for a pair of profiles where
 * one function got slower (xperf diff's tests).
 * The three functions run the same inner loop (BURN); their iteration counts are
 * calibrated at start-up against each function's measured cost, so the shares hold in CPU
 * time even if one copy of the loop happens to run faster. They are reached through a
 * deep call chain main -> level1 -> ... -> level8 -> do_round -> work_X, so call-graph
 * tests see it. -v prints the measured shares.
 */
#include "workload.h"

#define SHARE_A 50
#define SHARE_B 30
#define SHARE_C 20
#define ROUND_SECONDS 0.005 /* one round: short, so the last round hardly matters */

/* A frame of its own even as a leaf, so frame-pointer unwinding sees its caller do_round. */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

volatile uint64_t sink;
uint64_t iters_a, iters_b, iters_c;
double cpu_a, cpu_b, cpu_c; /* measured CPU time per function, for -v */

__attribute__((noinline)) void work_a(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }
__attribute__((noinline)) void work_b(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }
__attribute__((noinline)) void work_c(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }

__attribute__((noinline)) void do_round(void)
{
	double t0 = wl_thread_cpu(), t1, t2, t3;

	work_a(iters_a);
	t1 = wl_thread_cpu();
	work_b(iters_b);
	t2 = wl_thread_cpu();
	work_c(iters_c);
	t3 = wl_thread_cpu();
	cpu_a += t1 - t0;
	cpu_b += t2 - t1;
	cpu_c += t3 - t2;
}

/* The call chain: each level a real frame (noinline, frame pointers kept by the Makefile). */
__attribute__((noinline)) void level8(void) { do_round(); __asm__ volatile(""); }
__attribute__((noinline)) void level7(void) { level8(); __asm__ volatile(""); }
__attribute__((noinline)) void level6(void) { level7(); __asm__ volatile(""); }
__attribute__((noinline)) void level5(void) { level6(); __asm__ volatile(""); }
__attribute__((noinline)) void level4(void) { level5(); __asm__ volatile(""); }
__attribute__((noinline)) void level3(void) { level4(); __asm__ volatile(""); }
__attribute__((noinline)) void level2(void) { level3(); __asm__ volatile(""); }
__attribute__((noinline)) void level1(void) { level2(); __asm__ volatile(""); }

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double ca = wl_cost_of(work_a), cb = wl_cost_of(work_b), cc = wl_cost_of(work_c);
	double end;
	uint64_t rounds = 0;

	double sa = wl_arg_double(argc, argv, 2, SHARE_A), sb = wl_arg_double(argc, argv, 3, SHARE_B);
	double sc = wl_arg_double(argc, argv, 4, SHARE_C);

	iters_a = ROUND_SECONDS * sa / 100 / ca + 1;
	iters_b = ROUND_SECONDS * sb / 100 / cb + 1;
	iters_c = ROUND_SECONDS * sc / 100 / cc + 1;
	cpu_a = cpu_b = cpu_c = 0;
	end = wl_now() + seconds;
	do {
		level1();
		rounds++;
	} while (wl_now() < end);
	if (verbose) {
		double tot = cpu_a + cpu_b + cpu_c;

		printf("shares: %llu rounds, work_a %.1f%% work_b %.1f%% work_c %.1f%%\n",
		       (unsigned long long)rounds, 100 * cpu_a / tot, 100 * cpu_b / tot,
		       100 * cpu_c / tot);
	}
	return 0;
}
