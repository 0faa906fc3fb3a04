/* Workload: deep recursion (recurse() DEPTH frames deep) burning CPU in bottom_work() at the bottom. */
/*
 * Usage: recurse [-v] [DEPTH] [SECONDS]   (defaults 200 and 1)
 * recurse() is not a tail call (it adds to the result after returning), so every level is
 * a real frame that a frame-pointer unwinder sees.
 */
#include "workload.h"

volatile uint64_t sink;

__attribute__((noinline)) uint64_t bottom_work(void)
{
	uint64_t s = sink;

	BURN(2000000, s);
	sink = s;
	return s & 1;
}

__attribute__((noinline)) uint64_t recurse(int depth)
{
	uint64_t r;

	if (depth <= 1)
		return bottom_work();
	r = recurse(depth - 1);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	int depth = (int)wl_arg_double(argc, argv, 1, 200);
	double seconds = wl_arg_double(argc, argv, 2, 1.0);
	double end = wl_now() + seconds;
	uint64_t calls = 0, r = 0;

	if (depth < 1)
		depth = 1;
	do {
		r += recurse(depth);
		calls++;
	} while (wl_now() < end);
	if (verbose)
		printf("recurse: depth %d, %llu descents (%llu)\n", depth,
		       (unsigned long long)calls, (unsigned long long)r);
	return 0;
}
