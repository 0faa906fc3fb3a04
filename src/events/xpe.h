/* libxperf-events: perf's event syntax -> struct perf_event_attr, held in an evlist. */
#ifndef XPE_H
#define XPE_H

/*
 * Who owns what:
 *   xpe_ctx     where to look (sysfs root, tracefs); caches PMU and tracepoint lookups.
 *               No global state: every lookup goes through a ctx, so tests point it at
 *               tests/fake-sysfs. One ctx may serve many evlists; free it last.
 *   xpe_evlist  an ordered list of parsed events (struct xpe_event). The evlist owns the
 *               events, their names and their fds (see xpe_open.h).
 *
 * Syntax accepted by xpe_evlist_parse() (what `perf -e` takes; the option may be given
 * several times, call parse once per option):
 *   cycles, cpu-clock, ...          generic hardware and software events and aliases
 *   L1-dcache-load-misses, ...      hardware cache events (perf's names and aliases)
 *   rNNNN                           raw PERF_TYPE_RAW config (hex)
 *   pmu/term=val,term,.../          sysfs PMU with format terms; also config=, config1=,
 *                                   config2=, period=, freq=, name=, and event aliases
 *                                   from <sysfs>/bus/event_source/devices/PMU/events
 *   pmu/alias/                      a sysfs event alias (e.g. msr/tsc/)
 *   subsys:name, subsys:glob*       tracepoints (ids from tracefs)
 *   mem:ADDR[/LEN][:rwx]            hardware breakpoints
 *   EVENT:MODS                      modifiers u k h G H p pp ppp P S D (combinable)
 *   {a,b,...}[:MODS]                groups; group modifiers apply to every member
 *   a,b,c                           lists
 */

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"

typedef struct xpe_ctx xpe_ctx;
typedef struct xpe_evlist xpe_evlist;

/* ---- context ------------------------------------------------------------------------ */

/*
 * sysfs_root: the directory that holds bus/event_source/devices and devices/system/cpu
 * (NULL means "/sys"). tracefs: the tracefs mount (NULL means find it: /sys/kernel/tracing,
 * then /sys/kernel/debug/tracing, mounting tracefs at /sys/kernel/tracing when neither
 * has an events/ directory and sysfs_root is the real /sys). Returns NULL only on ENOMEM.
 */
xpe_ctx *xpe_ctx_create(const char *sysfs_root, const char *tracefs);
void xpe_ctx_free(xpe_ctx *ctx);

const char *xpe_ctx_sysfs_root(const xpe_ctx *ctx);
/* The tracefs directory (holding events/), or NULL when there is none (mounts on first use). */
const char *xpe_ctx_tracefs(xpe_ctx *ctx);

/* ---- one event ---------------------------------------------------------------------- */

/* What kind of syntax produced an event (also used by the name listing below). */
enum xpe_kind {
	XPE_KIND_HW = 0,    /* PERF_TYPE_HARDWARE generic event */
	XPE_KIND_SW,        /* PERF_TYPE_SOFTWARE */
	XPE_KIND_CACHE,     /* PERF_TYPE_HW_CACHE */
	XPE_KIND_RAW,       /* rNNNN */
	XPE_KIND_PMU,       /* pmu/.../ from sysfs */
	XPE_KIND_TRACEPOINT,
	XPE_KIND_BREAKPOINT,
	XPE_KIND_NR
};

/*
 * Attr defaults follow perf's parser: exclude_guest = 1 unless modifiers say otherwise;
 * tracepoints and breakpoints get sample_period = 1 with period_set = 0, a weak default
 * that -c/-F replace (perf's rule); sample_type is left 0 for the caller (perf record adds
 * PERF_SAMPLE_RAW | TIME | CPU | PERIOD for tracepoints). :P sets precise_ip = 3 and
 * precise_max; xpe_evlist_open() lowers it to what opens.
 */
struct xpe_event {
	struct perf_event_attr attr; /* size = sizeof(attr); callers add sample_type etc. */
	char *name;          /* canonical name as perf prints it ("cycles", "cpu-clock:u",
	                        "msr/tsc/", "sched:sched_switch"); owned by the evlist */
	char *pmu;           /* sysfs PMU name for XPE_KIND_PMU ("msr"), else NULL */
	enum xpe_kind kind;
	int idx;             /* index in the evlist */
	int leader;          /* evlist index of the group leader (== idx for leaders and
	                        events outside any group) */
	int group_size;      /* number of events in this event's group (1 when not grouped) */
	int group_idx;       /* position inside the group (0 for the leader) */
	double scale;        /* sysfs .scale of the PMU event, else 1.0 */
	char unit[32];       /* sysfs .unit of the PMU event, else "" */
	unsigned period_set : 1; /* period= or freq= came from a term: callers keep it */
	unsigned freq_set : 1;   /* freq= term (attr.freq = 1, attr.sample_freq) */
	unsigned precise_max : 1; /* :P given: use the highest precise_ip that opens */
	unsigned user_mods : 1;  /* any of u/k/h/G/H was given explicitly */
	unsigned sample_read : 1; /* :S given (leader samples, reads group) */
	unsigned pinned : 1;     /* :D given (attr.pinned is set too) */
	/* Filled by xpe_evlist_open() (xpe_open.h): fd[cpu_idx * nthreads + thread_idx]. */
	int *fd;
	uint64_t *id;        /* PERF_EVENT_IOC_ID per fd, same layout (0 where not open) */
	int nr_fd;
	unsigned unsupported : 1; /* open said the event is not supported (see xpe_open.h) */
	unsigned group_failed : 1; /* unsupported only because another member of its group is
	                              (the group cannot be scheduled: perf's "<not counted>") */
	int open_errno;      /* errno of the last failed open of this event, else 0 */
	unsigned mods_GH : 1;    /* internal: G or H was given (perf's exclude_GH) */
};

/* ---- evlist ------------------------------------------------------------------------- */

xpe_evlist *xpe_evlist_create(void);
/* Frees the events and closes any fds still open. Accepts NULL. */
void xpe_evlist_free(xpe_evlist *evl);

/*
 * Parse str (one -e argument) and append its events. On error nothing is appended,
 * -EINVAL (or -ENOENT for an unknown event) is returned and err->msg says what, e.g.
 *   event 'cpu-clok' not found, did you mean 'cpu-clock'?
 *   unknown term 'umsk' for pmu 'cpu' (valid terms: event,umask,edge,inv,cmask,config,...)
 */
int xpe_evlist_parse(xpe_evlist *evl, xpe_ctx *ctx, const char *str, struct xb_error *err);

/* Append one event from a ready attr (e.g. stat's defaults); name is copied. */
struct xpe_event *xpe_evlist_add_attr(xpe_evlist *evl, const struct perf_event_attr *attr,
				      const char *name);

size_t xpe_evlist_count(const xpe_evlist *evl);
/* The idx-th event (NULL when out of range). Pointers stay valid until the evlist is freed. */
struct xpe_event *xpe_evlist_event(const xpe_evlist *evl, size_t idx);
/* Number of groups with more than one member. */
int xpe_evlist_nr_groups(const xpe_evlist *evl);

/* ---- names -------------------------------------------------------------------------- */

/*
 * perf's name for an attr, as perf's evsel__name() prints it for an event without a typed
 * name: generic/cache/software names plus evsel__add_modifiers() ("cycles:uH" for an attr
 * parsed from "cycles:u", "L1-dcache-load-misses", "r1a8", "mem:0x1000:rw"); tracepoint and
 * PMU names need ctx to look up ids and types (ctx may be NULL otherwise).
 * Returns the length written (truncated to len - 1).
 */
int xpe_attr_name(xpe_ctx *ctx, const struct perf_event_attr *attr, char *buf, size_t len);

/*
 * Format attr the way `perf stat -vv` / `perf record -vv` print it: one "  field  value"
 * line per non-zero field between dashed lines. Returns the length written.
 */
int xpe_attr_snprintf(char *buf, size_t len, const struct perf_event_attr *attr);

/*
 * Listing: call cb for every event name this machine offers, in perf list order within a
 * kind, for the kinds whose bit (1u << XPE_KIND_x) is set in kinds. desc is perf list's
 * bracketed tag ("Hardware event", "Software event", "Hardware cache event",
 * "Kernel PMU event", "Tracepoint event"); alias is NULL or the other name perf list shows
 * as "NAME OR ALIAS". Hardware events are listed whether or not this machine counts them
 * (see xpe_have_hw_pmu() in xpe_open.h). Stops when cb returns
 * non-zero and returns that value; 0 otherwise.
 */
struct xpe_name {
	const char *name;
	const char *alias;
	const char *desc;
	enum xpe_kind kind;
};
typedef int (*xpe_name_cb)(const struct xpe_name *n, void *arg);
int xpe_ctx_for_each_name(xpe_ctx *ctx, unsigned kinds, xpe_name_cb cb, void *arg);


#endif
