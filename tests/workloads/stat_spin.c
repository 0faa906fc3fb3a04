/* Workload for xperf stat: a fixed amount of CPU work (ITERS million loop turns), for overhead benches. */
/* Usage: stat_spin [MILLIONS]   (default 200) */
#include <stdint.h>
#include <stdlib.h>

volatile uint64_t sink;

int main(int argc, char **argv)
{
	long m = argc > 1 ? atol(argv[1]) : 200, i;
	uint64_t s = sink;

	for (i = 0; i < m * 1000000L; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(s));
	}
	sink = s;
	return 0;
}
