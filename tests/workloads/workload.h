/* Helpers shared by the bundled workloads: a CPU burner that cannot be optimised away, clocks. */
#ifndef XPERF_WORKLOAD_H
#define XPERF_WORKLOAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * BURN is a macro, not a function, so every work function carries its own copy of the
 * loop: samples then land in the function we name, never in a shared helper.
 */
#define BURN(n, sink) do {							\
	uint64_t _x = (sink) | 1;						\
	for (uint64_t _i = 0; _i < (uint64_t)(n); _i++) {			\
		_x = _x * 6364136223846793005ULL + 1442695040888963407ULL;	\
		__asm__ volatile("" : "+r"(_x));				\
	}									\
	(sink) += _x;								\
} while (0)

static inline double wl_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
static inline double wl_now(void) { return wl_clock(CLOCK_MONOTONIC); }
static inline double wl_thread_cpu(void) { return wl_clock(CLOCK_THREAD_CPUTIME_ID); }

/* CPU seconds per iteration of fn, best of a few tries (the minimum is the least noisy). */
static inline double wl_cost_of(void (*fn)(uint64_t))
{
	const uint64_t n = 200000;
	double best = 1e9;

	for (int i = 0; i < 5; i++) {
		double t0 = wl_thread_cpu();

		fn(n);
		double t = wl_thread_cpu() - t0;
		if (t > 0 && t < best)
			best = t;
	}
	return best / n;
}

/* Parse "-v" as the first argument; returns 1 and shifts argv when present. */
static inline int wl_verbose(int *argc, char ***argv)
{
	if (*argc > 1 && !strcmp((*argv)[1], "-v")) {
		(*argv)[1] = (*argv)[0];
		(*argv)++;
		(*argc)--;
		return 1;
	}
	return 0;
}

static inline double wl_arg_double(int argc, char **argv, int i, double def)
{
	char *end;
	double v;

	if (argc <= i)
		return def;
	v = strtod(argv[i], &end);
	if (*end || v < 0) {
		fprintf(stderr, "%s: bad number '%s'\n", argv[0], argv[i]);
		exit(2);
	}
	return v;
}

/*
 * The path of this process's perf map file (/tmp/perf-PID.map, as JITs write it) in buf.
 * Where WL_MAP_LIST names a file (the tests), the path is first appended to it: a test
 * removes the map files of every process it ran, also of runs whose output it never saw
 * (a probe run, a perf record that perf_run ran again).
 */
static inline void wl_map_path(char *buf, size_t size)
{
	const char *list = getenv("WL_MAP_LIST");
	FILE *f;

	snprintf(buf, size, "/tmp/perf-%d.map", (int)getpid());
	if (list && *list && (f = fopen(list, "a"))) {
		fprintf(f, "%s\n", buf);
		fclose(f);
	}
}

#endif
