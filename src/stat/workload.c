/* xperf-stat's workload: fork, hold the child on a pipe, exec on go, report exec failures. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stat/workload.h"

int stat_workload_prepare(struct stat_workload *w, char *const *argv)
{
	int go[2], er[2];
	pid_t pid;

	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(er, O_CLOEXEC) < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return -e;
	}
	if (pid == 0) {
		sigset_t none;
		char c;
		int e;

		close(go[1]);
		close(er[0]);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* EOF means the parent gave up: do not run the command at all */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(er[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = er[0];
	return 0;
}

int stat_workload_go(struct stat_workload *w)
{
	char c = 1;
	int e;

	if (write(w->go_fd, &c, 1) != 1) {
		e = errno;
		close(w->go_fd);
		w->go_fd = -1;
		return -e;
	}
	close(w->go_fd);
	w->go_fd = -1;
	return 0;
}

int stat_workload_exec_wait(struct stat_workload *w)
{
	int e = 0;
	ssize_t n;

	/* The pipe is close-on-exec: EOF is the proof the exec happened */
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->pid = -1;
		return -(e ? e : ENOEXEC);
	}
	return 0;
}

void stat_workload_abort(struct stat_workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	w->pid = -1;
}

int stat_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
