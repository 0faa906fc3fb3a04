/* libxperf-events' targets: what -p, -t, -u, -a and -C name, for record and stat alike. */
#ifndef XPE_TARGET_H
#define XPE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "events/xpe_open.h"

/* The target options as the command line gave them (strings are not copied). */
struct xpe_target_opts {
	const char *pids;        /* -p: comma list of processes (each with all its threads) */
	const char *tids;        /* -t: comma list of threads */
	const char *user;        /* -u: user name or uid (every process of that user) */
	const char *cpu_list;    /* -C: these cpus, every task */
	bool system_wide;        /* -a: every cpu, every task */
	/*
	 * Task events (-p/-t/-u or the command) open once per online cpu, as record needs for
	 * its per-cpu rings; otherwise once on any cpu (cpu -1), as stat counts.
	 */
	bool task_on_every_cpu;
};

/*
 * What the events open on, and the tasks to describe and to watch:
 *   -a/-C          per_cpu: cpus listed (or all online), threads {-1}, no tasks
 *   -p/-u          every thread of each process; pids = the processes
 *   -t             the threads themselves; pids = those thread ids (tids_only)
 *   none of them   threads empty: the caller adds its command (xpe_target_add_task)
 * Plain data owned by the caller; zero-initialised is empty, xpe_target_release() frees.
 */
struct xpe_target {
	struct xpe_cpus cpus;
	struct xpe_threads threads;
	pid_t *pids;
	int nr_pids;
	bool tids_only;
	bool per_cpu;
	size_t cap_threads, cap_pids;  /* allocated, for growing */
};

/*
 * The usage errors of the options, before anything runs: -p, -t and -u exclude each other
 * and -a/-C; lists must be positive numbers separated by commas. 0 or -EINVAL with err set
 * ("options '-p' and '-a' exclude each other", "invalid pid list 'x' (...)").
 */
int xpe_target_check(const struct xpe_target_opts *o, struct xb_error *err);

/*
 * Fill t from checked options: the cpus, and for -p/-t/-u the threads of tasks that exist
 * and have not exited (a zombie has). 0 or -errno with err set ("no process with pid 42",
 * "process 42 has exited", "unknown user 'x'", "user 'x' has no running processes").
 */
int xpe_target_prepare(struct xpe_target *t, const struct xpe_target_opts *o, const xpe_ctx *ctx,
		       struct xb_error *err);

/* Make tid the one thread of a target that names no task (the command). 0 or -ENOMEM. */
int xpe_target_add_task(struct xpe_target *t, pid_t tid);

/*
 * Is any task of -p/-t/-u still running? A process is while one of its threads is neither a
 * zombie nor dead (its main thread may have exited before the others); a -t thread while it
 * is. Reads /proc; false when there are no tasks.
 */
bool xpe_target_alive(const struct xpe_target *t);

void xpe_target_release(struct xpe_target *t);

#endif
