/*
 * Workload for --switch-output-event: PHASES phases of SECONDS of computing in
 * phase_work(), with a marker between two phases: one sched_rr_get_interval(2) call, a
 * system call almost nothing else on a machine makes, so its tracepoint
 * (syscalls:sys_enter_sched_rr_get_interval) marks our phases even when watched on every
 * cpu. Usage: phases [PHASES [SECONDS]]  (default 3 phases of 0.3 s).
 */
#include <sched.h>

#include "workload.h"

volatile uint64_t sink;

__attribute__((noinline)) void phase_work(double seconds)
{
	double end = wl_now() + seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_now() < end);
	sink = s;
}

__attribute__((noinline)) void phase_marker(void)
{
	struct timespec ts;

	sched_rr_get_interval(0, &ts);
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	int phases = (int)wl_arg_double(argc, argv, 1, 3);
	double seconds = wl_arg_double(argc, argv, 2, 0.3);

	for (int i = 0; i < phases; i++) {
		if (i)
			phase_marker();
		phase_work(seconds);
	}
	if (verbose)
		printf("phases: %d of %.2f s\n", phases, seconds);
	return 0;
}
