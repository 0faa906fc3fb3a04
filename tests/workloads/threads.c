/* Workload: two threads, "xp-thread-a" in thread_a_work (60% of CPU time), "xp-thread-b" in thread_b_work (40%). */
/*
 * Usage: threads [-v] [SECONDS]    (default 1: total CPU seconds of both threads)
 * Each thread burns until its own CPU clock reaches its share of SECONDS, so the split
 * holds in CPU time however the threads are scheduled (on one core or two).
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "workload.h"

#define SHARE_A 60
#define SHARE_B 40

volatile uint64_t sink;
static double total_seconds;

__attribute__((noinline)) void thread_a_work(double cpu_seconds)
{
	double end = wl_thread_cpu() + cpu_seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_thread_cpu() < end);
	sink = s;
}

__attribute__((noinline)) void thread_b_work(double cpu_seconds)
{
	double end = wl_thread_cpu() + cpu_seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_thread_cpu() < end);
	sink = s;
}

static double cpu_used[2];

__attribute__((noinline)) void *thread_a(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "xp-thread-a");
	thread_a_work(total_seconds * SHARE_A / 100);
	cpu_used[0] = wl_thread_cpu();
	return NULL;
}

__attribute__((noinline)) void *thread_b(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "xp-thread-b");
	thread_b_work(total_seconds * SHARE_B / 100);
	cpu_used[1] = wl_thread_cpu();
	return NULL;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	pthread_t a, b;

	total_seconds = wl_arg_double(argc, argv, 1, 1.0);
	if (pthread_create(&a, NULL, thread_a, NULL) || pthread_create(&b, NULL, thread_b, NULL)) {
		perror("threads: pthread_create");
		return 2;
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (verbose) {
		double tot = cpu_used[0] + cpu_used[1];

		printf("threads: xp-thread-a %.1f%% xp-thread-b %.1f%% of %.2f cpu s\n",
		       100 * cpu_used[0] / tot, 100 * cpu_used[1] / tot, tot);
	}
	return 0;
}
