/* libxperf-events: opening events (perf_event_open), cpu/thread maps, open-failure advice. */
#ifndef XPE_OPEN_H
#define XPE_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "events/xpe.h"

/* ---- cpu and thread maps ------------------------------------------------------------ */

/*
 * A list of cpus or of threads. cpu -1 means "any cpu" (per-thread counting), thread -1
 * means "any thread" (per-cpu, system-wide). Release with xpe_cpus_release()/..._release().
 */
struct xpe_cpus {
	int nr;
	int *cpu;
};
struct xpe_threads {
	int nr;
	pid_t *tid;
};

/* Parse "0-3,5,7-8" (sorted, duplicates removed). -EINVAL with err for bad syntax. */
int xpe_cpus_parse(const char *list, struct xpe_cpus *out, struct xb_error *err);
/* Online cpus from <sysfs>/devices/system/cpu/online. */
int xpe_cpus_online(const xpe_ctx *ctx, struct xpe_cpus *out, struct xb_error *err);
/*
 * Is every cpu of `cpus` online? -ENODEV with err naming the first that is not ("cpu 999
 * does not exist here (online cpus: 0-1)"), which perf_event_open would only call an
 * unsupported event.
 */
int xpe_cpus_check_online(const xpe_ctx *ctx, const struct xpe_cpus *cpus,
			  struct xb_error *err);
/* The one-entry map {-1}. */
int xpe_cpus_any(struct xpe_cpus *out);
void xpe_cpus_release(struct xpe_cpus *cpus);

/* The one-entry map {tid} (tid may be -1 for system-wide). */
int xpe_threads_one(struct xpe_threads *out, pid_t tid);
/* Every thread of process pid, from /proc/PID/task. */
int xpe_threads_of_pid(struct xpe_threads *out, pid_t pid, struct xb_error *err);
void xpe_threads_release(struct xpe_threads *threads);

/* ---- opening ------------------------------------------------------------------------ */

/* perf_event_open(2): returns the fd or a negative errno. */
int xpe_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

/* xpe_evlist_open() flags */
#define XPE_OPEN_SKIP_UNSUPPORTED (1u << 0) /* an unsupported event (xpe_open_unsupported())
					       gets ev->unsupported = 1, fds -1, and open
					       goes on; its whole group is marked with it */
#define XPE_OPEN_FALLBACK         (1u << 1) /* apply xpe_event_fallback() and retry, as
					       perf does (cycles -> cpu-clock, :u on EACCES) */
#define XPE_OPEN_NO_IDS           (1u << 2) /* skip PERF_EVENT_IOC_ID */

/*
 * Open every event on every (cpu, thread) pair: fds land in ev->fd[cpu_idx * threads->nr +
 * thread_idx] (ev->nr_fd = cpus->nr * threads->nr) and ids in ev->id. Group members use
 * the leader's fd for the same (cpu, thread) as group_fd; PERF_FLAG_FD_CLOEXEC is set.
 * Events marked :P get the highest precise_ip (3..0) that opens.
 * On failure every fd opened so far is closed, -errno is returned, *failed (may be NULL)
 * is the failing event's index and err holds "cannot open event 'X': <advice>"
 * (see xpe_open_advice()). The attrs are used as they are: set sample_type, disabled,
 * enable_on_exec, inherit, read_format ... before calling.
 */
int xpe_evlist_open(xpe_evlist *evl, xpe_ctx *ctx, const struct xpe_cpus *cpus,
		    const struct xpe_threads *threads, unsigned int flags, int *failed,
		    struct xb_error *err);
/* Close every fd (idempotent; xpe_evlist_free() calls it). */
void xpe_evlist_close(xpe_evlist *evl);
/* Number of cpus / threads of the last open (0 before). */
int xpe_evlist_nr_cpus(const xpe_evlist *evl);
int xpe_evlist_nr_threads(const xpe_evlist *evl);
/* ioctl every open fd of every event (PERF_EVENT_IOC_ENABLE / _DISABLE / _RESET). */
int xpe_evlist_ioctl(xpe_evlist *evl, unsigned long request);

/* ---- failures ----------------------------------------------------------------------- */

enum xpe_open_fail {
	XPE_FAIL_OTHER = 0,
	XPE_FAIL_UNSUPPORTED, /* print "<not supported>" (ENOENT/EOPNOTSUPP/ENODEV/ENXIO for
				 hardware, cache, raw and PMU events) */
	XPE_FAIL_PERMISSION,  /* EACCES/EPERM: perf_event_paranoid advice */
	XPE_FAIL_FILES,       /* EMFILE/ENFILE: raise ulimit -n */
	XPE_FAIL_PRECISE,     /* EINVAL/EOPNOTSUPP with precise_ip: lower :p */
	XPE_FAIL_BUSY,        /* EBUSY: another user holds the PMU */
};

/* Is this errno, for this attr, the kernel saying "no such counter here"? */
bool xpe_open_unsupported(const struct perf_event_attr *attr, int errnum);

/*
 * Classify an open failure (errnum positive or negative) and write perf-like advice, one
 * or more lines without a trailing newline, to buf: e.g. for EACCES the current value of
 * /proc/sys/kernel/perf_event_paranoid and "sysctl -w kernel.perf_event_paranoid=-1";
 * for EMFILE "ulimit -n"; for precise_ip "try a lower :p". name may be NULL.
 */
enum xpe_open_fail xpe_open_advice(const struct perf_event_attr *attr, const char *name,
				   int errnum, char *buf, size_t len);

/*
 * perf's evsel__fallback(): given the errno of a failed open of ev, change ev so a retry
 * may work and return true with msg saying what was done:
 *   ENOENT/ENXIO/ENODEV/EOPNOTSUPP on cycles -> PERF_TYPE_SOFTWARE cpu-clock (name becomes
 *   "cpu-clock", modifiers kept) "The cycles event is not supported, trying to fall back
 *   to cpu-clock-ticks";
 *   EACCES without exclude_kernel while perf_event_paranoid > 1 -> exclude_kernel and
 *   exclude_hv, ":u" appended to the name.
 * Returns false (ev unchanged) otherwise.
 */
bool xpe_event_fallback(struct xpe_event *ev, int errnum, char *msg, size_t len);

/*
 * Is there a hardware PMU? Opens PERF_COUNT_HW_CPU_CYCLES (exclude_kernel, disabled) on
 * this thread: false when that fails with ENOENT/EOPNOTSUPP/ENODEV/ENXIO (perf would
 * fall back to cpu-clock), true otherwise (including permission errors).
 */
bool xpe_have_hw_pmu(void);

/* perf_event_paranoid from /proc/sys/kernel/perf_event_paranoid (2 when unreadable). */
int xpe_perf_event_paranoid(void);

#endif
