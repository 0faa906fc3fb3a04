/*
 * The program the pass fuzzer's seeds were recorded from (tests/fuzz/mkseeds.sh). Its binary,
 * tests/fuzz/seedprog, is kept in git beside this source: the seeds carry its build id, so
 * only that very file resolves their symbols, unwinds their DWARF stacks and is annotated.
 * The harness copies it to SEEDPROG_PATH, where the seeds say it ran.
 *
 * A few functions calling each other (frame-pointer and DWARF chains of some depth), a
 * clock read (vdso samples) and short sleeps (off-CPU intervals), for about ARGV[1] ms.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t leaf(uint64_t x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noinline)) static uint64_t middle(uint64_t x)
{
	return leaf(x) ^ leaf(x + 1);
}

__attribute__((noinline)) static uint64_t outer(uint64_t x)
{
	return middle(x) + (x & 1 ? leaf(x) : middle(x + 2));
}

__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t x)
{
	return depth ? recurse(depth - 1, x + 1) + 1 : outer(x);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 50, t0 = now_ms();
	struct timespec nap = { 0, 2000000 };
	uint64_t i = 0;

	while (now_ms() - t0 < ms) {
		sink += recurse((int)(i % 6), i);
		if (++i % 1024 == 0)
			nanosleep(&nap, NULL);
	}
	return 0;
}
