/* xperf-stat's workload: the command forked, held before exec until the counters are open. */
#ifndef XPERF_STAT_WORKLOAD_H
#define XPERF_STAT_WORKLOAD_H

#include <sys/resource.h>
#include <sys/types.h>

struct stat_workload {
	pid_t pid;
	int go_fd;    /* write end: one byte lets the child exec */
	int err_fd;   /* read end: EOF on exec, or the child's errno */
};

/*
 * Fork a child that waits for stat_workload_start() and then execs argv (PATH search).
 * Signals blocked in the parent are unblocked in the child. Returns 0 or -errno.
 */
int stat_workload_prepare(struct stat_workload *w, char *const *argv);
/* Let the child exec (returns at once). Returns 0 or -errno. */
int stat_workload_go(struct stat_workload *w);
/*
 * After stat_workload_go(): wait until the child has exec'd; returns 0 once it has, or the
 * negative errno of a failed exec (the child has then exited with 127 and is reaped here).
 */
int stat_workload_exec_wait(struct stat_workload *w);
/* Kill (SIGKILL) and reap a child that was prepared but not started. */
void stat_workload_abort(struct stat_workload *w);
/* The status as a shell reports it: exit code, or 128 + signal. */
int stat_exit_code(int status);

#endif
