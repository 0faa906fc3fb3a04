/* libxperf-events' workload: the command forked and held before exec until the events are set. */
#ifndef XPE_WORKLOAD_H
#define XPE_WORKLOAD_H

#include <sys/types.h>

#include "base/error.h"

/*
 * The life of a workload (record and stat share it):
 *   xpe_workload_prepare()     fork; the child waits on a pipe, nothing of argv runs yet
 *   ... open the events on w->pid (enable_on_exec: the exec starts the counting) ...
 *   xpe_workload_go()          let the child exec (returns at once)
 *   xpe_workload_exec_wait()   0 once the exec happened, or the exec's errno
 *   ... the caller waits for w->pid itself (its own loop, signals, rusage) ...
 *   xpe_workload_stop()        end (SIGTERM) and reap a child still running
 *   xpe_workload_abort()       kill (SIGKILL) and reap a child never let go; always safe
 * The child never prints: a failed exec sends its errno back through a close-on-exec pipe
 * and exits with the shell's status (127 not found, 126 otherwise); the caller prints.
 * The struct is plain data owned by the caller; start it with XPE_WORKLOAD_INIT.
 */
struct xpe_workload {
	pid_t pid;          /* the child, -1 when there is none or once it is reaped */
	int go_fd;          /* write end: one byte lets the child exec */
	int err_fd;         /* read end: EOF on exec, or the child's errno */
	const char *file;   /* argv[0], for messages; not owned */
};

#define XPE_WORKLOAD_INIT { .pid = -1, .go_fd = -1, .err_fd = -1, .file = NULL }

/*
 * Fork a child that waits for xpe_workload_go() and then execs argv (PATH search). Signals
 * blocked in the parent are unblocked in the child. argv must outlive w. Returns 0 or -errno
 * with err set ("pipe: ...", "fork: ...").
 */
int xpe_workload_prepare(struct xpe_workload *w, char *const *argv, struct xb_error *err);
/* Let the child exec (returns at once). 0, or -errno with err set ("cannot start '...'"). */
int xpe_workload_go(struct xpe_workload *w, struct xb_error *err);
/*
 * After xpe_workload_go(): wait until the child has exec'd; returns 0 once it has, or the
 * negative errno of a failed exec with err set ("cannot run '...': ..."); the child has then
 * exited and is reaped here (w->pid is -1).
 */
int xpe_workload_exec_wait(struct xpe_workload *w, struct xb_error *err);
/* go + exec_wait; a child that cannot be let go is aborted. 0 or -errno with err set. */
int xpe_workload_start(struct xpe_workload *w, struct xb_error *err);
/* End (SIGTERM) and reap a child still running; *status as from waitpid (status may be NULL). */
void xpe_workload_stop(struct xpe_workload *w, int *status);
/* Close the pipes, kill (SIGKILL) and reap a child that is still there. Safe to repeat. */
void xpe_workload_abort(struct xpe_workload *w);
/* A waitpid status as a shell reports it: exit code, or 128 + signal. */
int xpe_workload_exit_code(int status);

#endif
