/* Workload: a tiny JIT: two loops copied into anonymous executable memory, run 2:1 there. */
/*
 * Usage: jit [-v] [-m] [SECONDS]     (default 1)
 * Maps anonymous memory, writes two copies of a counting loop into it (jit_a at offset 0,
 * jit_b at offset 64), makes it executable, and spends about two thirds of its CPU time in
 * jit_a and one third in jit_b. -m writes /tmp/perf-PID.map naming them, as JITs do for
 * perf. Prints "jit: pid PID code 0xADDR" first, so tests can find the map file.
 * Exits 77 (skip) on an architecture it has no machine code for.
 */
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

#define SLOT 64 /* bytes between the two functions */
#define ROUND_SECONDS 0.003

#if defined(__x86_64__)
/* mov %rdi,%rcx; 1: dec %rcx; jnz 1b; ret */
static const unsigned char loop_code[] = { 0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3 };
#elif defined(__aarch64__)
/* 1: subs x0, x0, #1; b.ne 1b; ret */
static const unsigned char loop_code[] = { 0x00, 0x04, 0x00, 0xf1, 0xe1, 0xff, 0xff, 0x54,
					   0xc0, 0x03, 0x5f, 0xd6 };
#else
#define NO_JIT
#endif

typedef void (*jit_fn)(uint64_t n);

#ifndef NO_JIT
static void write_map(unsigned char *code)
{
	char path[64];
	FILE *f;

	wl_map_path(path, sizeof(path));
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "%llx %x jit_a\n", (unsigned long long)(uintptr_t)code, SLOT);
	fprintf(f, "%llx %x jit_b\n", (unsigned long long)(uintptr_t)(code + SLOT), SLOT);
	if (fclose(f)) {
		perror(path);
		exit(2);
	}
}
#endif

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	bool map = false;

	if (argc > 1 && !strcmp(argv[1], "-m")) {
		map = true;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
#ifdef NO_JIT
	(void)verbose;
	(void)map;
	(void)seconds;
	fprintf(stderr, "jit: no machine code for this architecture\n");
	return 77;
#else
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *code = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);

	if (code == MAP_FAILED) {
		perror("jit: mmap");
		return 2;
	}
	memcpy(code, loop_code, sizeof(loop_code));
	memcpy(code + SLOT, loop_code, sizeof(loop_code));
	/* W^X as real JITs do: the kernel reports the mapping (//anon) when it turns executable */
	if (mprotect(code, len, PROT_READ | PROT_EXEC)) {
		perror("jit: mprotect");
		return 2;
	}
	__builtin___clear_cache((char *)code, (char *)code + 2 * SLOT);
	printf("jit: pid %d code %p\n", (int)getpid(), (void *)code);
	fflush(stdout);
	if (map)
		write_map(code);

	jit_fn a = (jit_fn)(uintptr_t)code, b = (jit_fn)(uintptr_t)(code + SLOT);
	uint64_t na = ROUND_SECONDS * 2 / 3 / wl_cost_of(a) + 1;
	uint64_t nb = ROUND_SECONDS * 1 / 3 / wl_cost_of(b) + 1;
	double ta = 0, tb = 0, end = wl_now() + seconds;

	do {
		double t0 = wl_thread_cpu(), t1;

		a(na);
		t1 = wl_thread_cpu();
		b(nb);
		ta += t1 - t0;
		tb += wl_thread_cpu() - t1;
	} while (wl_now() < end);
	if (verbose)
		printf("jit: jit_a %.1f%% jit_b %.1f%%\n", 100 * ta / (ta + tb),
		       100 * tb / (ta + tb));
	return 0;
#endif
}
