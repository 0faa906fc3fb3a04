/* Workload: most of its time in glibc's qsort_r, calling back into our comparison function. */
/*
 * Usage: libc_sort [SECONDS]     (default 1; a fractional value is fine)
 * Each round, libc_round fills an array with pseudo-random ints and sorts it with qsort_r,
 * so samples land in the chain main -> libc_round -> qsort_r -> msort_with_tmp (recursive,
 * glibc 2.36's merge sort) -> cmp_int. glibc is built without frame pointers: only DWARF
 * unwinding (with libc's .eh_frame, in a read-only data mapping) walks from cmp_int back
 * through libc to libc_round and main.
 */
#include "workload.h"

/*
 * 16384 ints (64 KB): above glibc's 1 KB alloca limit, far below its physical-memory
 * limit, so qsort_r merge-sorts with a malloc'ed buffer (14 levels of msort_with_tmp).
 */
#define NR_INTS 16384

static int values[NR_INTS];
volatile uint64_t sink;

/* The callback; its arg is a counter, so qsort_r's context argument is used as well. */
__attribute__((noinline)) int cmp_int(const void *a, const void *b, void *arg)
{
	int x = *(const int *)a, y = *(const int *)b;

	(*(uint64_t *)arg)++;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void libc_round(uint64_t *state)
{
	uint64_t calls = 0;

	for (int i = 0; i < NR_INTS; i++) {
		*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
		values[i] = (int)(*state >> 33);
	}
	qsort_r(values, NR_INTS, sizeof(values[0]), cmp_int, &calls);
	sink += calls + (uint64_t)values[NR_INTS / 2];
}

int main(int argc, char **argv)
{
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end = wl_now() + seconds;
	uint64_t state = 42;

	do
		libc_round(&state);
	while (wl_now() < end);
	return 0;
}
