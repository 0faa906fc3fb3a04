/* Workload: a parent that forks children, execs itself and /bin/true, and waits for them all. */
/*
 * Usage: forker [-v] [CHILDREN] [SECONDS]   (defaults 2 and 0.5)
 * The parent burns SECONDS/4 in parent_work, then starts:
 *  - CHILDREN processes that exec this program as "forker child SECONDS"; after exec they
 *    rename themselves "forker-child" (a COMM event) and burn SECONDS in child_work;
 *  - one process that forks without exec, renames itself "forker-fork" and burns SECONDS/2
 *    in fork_work;
 *  - one fork+exec of /bin/true (short-lived, a COMM/EXIT with hardly a sample).
 * It waits for all of them and exits 0 when every child exited 0.
 */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

volatile uint64_t sink;

__attribute__((noinline)) void child_work(double seconds)
{
	double end = wl_now() + seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_now() < end);
	sink = s;
}

__attribute__((noinline)) void fork_work(double seconds)
{
	double end = wl_now() + seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_now() < end);
	sink = s;
}

__attribute__((noinline)) void parent_work(double seconds)
{
	double end = wl_now() + seconds;
	uint64_t s = sink;

	do
		BURN(100000, s);
	while (wl_now() < end);
	sink = s;
}

static pid_t spawn_exec(const char *path, char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(path, argv);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	int children, failed = 0, n = 0;
	double seconds;
	char secbuf[32];
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "child")) {
		prctl(PR_SET_NAME, "forker-child", 0, 0, 0);
		child_work(wl_arg_double(argc, argv, 2, 0.5));
		return 0;
	}
	children = (int)wl_arg_double(argc, argv, 1, 2);
	seconds = wl_arg_double(argc, argv, 2, 0.5);
	snprintf(secbuf, sizeof(secbuf), "%g", seconds);

	parent_work(seconds / 4);
	for (int i = 0; i < children; i++) {
		char *cargv[] = { argv[0], "child", secbuf, NULL };

		/* /proc/self/exe: works whatever directory or name we were started with */
		if (spawn_exec("/proc/self/exe", cargv) > 0)
			n++;
		else
			failed++;
	}
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_NAME, "forker-fork", 0, 0, 0);
		fork_work(seconds / 2);
		_exit(0);
	}
	if (pid > 0)
		n++;
	else
		failed++;
	{
		char *targv[] = { "/bin/true", NULL };

		if (spawn_exec("/bin/true", targv) > 0)
			n++;
		else
			failed++;
	}
	for (;;) {
		int status;

		pid = wait(&status);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	if (verbose)
		printf("forker: %d children, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
