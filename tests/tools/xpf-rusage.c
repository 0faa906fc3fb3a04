/* xpf-rusage: a command's wall time, CPU time and peak RSS, to the microsecond. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Usage: xpf-rusage -o FILE CMD [ARG...]
 *
 * Runs CMD (its output where ours goes) and writes "WALL KIB CPU" to FILE: the wall time
 * in seconds, the peak RSS in KiB and the CPU time (user + system) in seconds. The benches
 * used /usr/bin/time, whose times are printed to the hundredth of a second: a view of the
 * 100k-path files takes 0.06-0.09 s, so one hundredth moved its 100k -> 1M growth by a
 * whole x1 (issue 20). The kernel keeps both times to the nanosecond; this prints them
 * to the microsecond. Exits with CMD's status (128 + the signal that ended it), or 127
 * when it could not be run.
 */
static double secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int status;

	if (argc < 4 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: xpf-rusage -o FILE CMD [ARG...]\n");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "xpf-rusage: cannot fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		fprintf(stderr, "xpf-rusage: cannot run '%s': %s\n", argv[3], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "xpf-rusage: wait4: %s\n", strerror(errno));
			return 127;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!(out = fopen(argv[2], "w"))) {
		fprintf(stderr, "xpf-rusage: cannot create '%s': %s\n", argv[2], strerror(errno));
		return 127;
	}
	fprintf(out, "%.6f %ld %.6f\n",
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_maxrss, secs(ru.ru_utime) + secs(ru.ru_stime));
	if (fclose(out)) {
		fprintf(stderr, "xpf-rusage: cannot write '%s'\n", argv[2]);
		return 127;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
