/* libxperf-events' workload: fork, hold the child on a pipe, exec on go, report exec failures. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/xpe_workload.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void reap(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* The child's side: only async-signal-safe calls between fork and exec. */
static __attribute__((noreturn)) void child_run(int go_fd, int err_fd, char *const *argv)
{
	sigset_t none;
	char c;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* EOF means the parent gave up: do not run the command at all */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(e == ENOENT ? 127 : 126);
}

int xpe_workload_prepare(struct xpe_workload *w, char *const *argv, struct xb_error *err)
{
	int go[2], er[2], e;
	pid_t pid;

	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	w->file = argv[0];
	if (pipe2(go, O_CLOEXEC) < 0)
		return xb_error_set(err, -errno, "pipe: %s", strerror(errno));
	if (pipe2(er, O_CLOEXEC) < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		return xb_error_set(err, -e, "pipe: %s", strerror(e));
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return xb_error_set(err, -e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(go[1]);
		close(er[0]);
		child_run(go[0], er[1], argv);
	}
	close(go[0]);
	close(er[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = er[0];
	return 0;
}

int xpe_workload_go(struct xpe_workload *w, struct xb_error *err)
{
	char c = 1;
	int e;

	if (write(w->go_fd, &c, 1) != 1) {
		e = errno;
		close_fd(&w->go_fd);
		return xb_error_set(err, -e, "cannot start '%s': %s", w->file, strerror(e));
	}
	close_fd(&w->go_fd);
	return 0;
}

int xpe_workload_exec_wait(struct xpe_workload *w, struct xb_error *err)
{
	int e = 0;
	ssize_t n;

	/* The pipe is close-on-exec: EOF is the proof the exec happened */
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close_fd(&w->err_fd);
	if (n == (ssize_t)sizeof(e)) {
		reap(w->pid, NULL);
		w->pid = -1;
		if (!e)
			e = ENOEXEC;
		return xb_error_set(err, -e, "cannot run '%s': %s", w->file, strerror(e));
	}
	return 0;
}

int xpe_workload_start(struct xpe_workload *w, struct xb_error *err)
{
	int ret = xpe_workload_go(w, err);

	if (ret < 0) {
		xpe_workload_abort(w);
		return ret;
	}
	return xpe_workload_exec_wait(w, err);
}

void xpe_workload_stop(struct xpe_workload *w, int *status)
{
	if (w->pid <= 0)
		return;
	if (waitpid(w->pid, status, WNOHANG) == 0) {
		kill(w->pid, SIGTERM);
		reap(w->pid, status);
	}
	w->pid = -1;
}

void xpe_workload_abort(struct xpe_workload *w)
{
	close_fd(&w->go_fd);
	close_fd(&w->err_fd);
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		reap(w->pid, NULL);
	}
	w->pid = -1;
}

int xpe_workload_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
