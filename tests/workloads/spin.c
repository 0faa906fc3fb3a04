/* Workload: a CPU-bound loop in spin_work() for SECONDS (default 10; 0 = until killed), for -p tests. */
#include "workload.h"

volatile uint64_t sink;

__attribute__((noinline)) void spin_work(double seconds)
{
	double end = wl_now() + seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (seconds == 0 || wl_now() < end);
	sink = s;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 10.0);

	spin_work(seconds);
	if (verbose)
		printf("spin: %.2f s\n", seconds);
	return 0;
}
