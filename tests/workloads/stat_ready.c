/* Workload for xperf stat: say "running" through a file, then run until the file goes away. */
/*
 * Usage: stat_ready FILE [SECONDS]   (default 60)
 * Once running, writes its pid to FILE (complete when it appears: written aside, then
 * renamed), then wakes every 5 ms until FILE is removed or SECONDS pass, and exits 0.
 * Signals keep their default actions, so SIGINT or SIGTERM end it. Tests use it to act on
 * a command only once it certainly runs, and to end it when they choose.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 5000000 };
	char tmp[4096];
	double end;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: stat_ready FILE [SECONDS]\n");
		return 2;
	}
	end = wl_now() + wl_arg_double(argc, argv, 2, 60.0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) || rename(tmp, argv[1])) {
		perror("stat_ready");
		return 2;
	}
	while (access(argv[1], F_OK) == 0 && wl_now() < end)
		nanosleep(&tick, NULL);
	return 0;
}
