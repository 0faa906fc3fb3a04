/* xperf-stat's counting session: the events, where they are opened, and their counts per bucket. */
#ifndef XPERF_STAT_SESSION_H
#define XPERF_STAT_SESSION_H

#include "events/xpe.h"
#include "events/xpe_open.h"
#include "events/xpe_target.h"
#include "stat/stat.h"

/* One event as stat sees it; buckets are rows of output (see stat.h). */
struct stat_evsel {
	struct xpe_event *ev;
	const char *name;
	char unit[32];
	double scale;
	enum stat_kind kind;
	unsigned int ctx;
	struct stat_counts *prev;   /* per fd: the last raw read, for interval deltas */
	struct stat_counts *bucket; /* per bucket: this period's raw sums */
	enum stat_state *state;     /* per bucket: this period's state */
	double *val;                /* per bucket: this period's scaled count */
	struct stat_acc *acc;       /* per bucket: scaled counts over the periods (runs) */
	struct stat_acc *acc_ena, *acc_run;
};

struct stat_session {
	xpe_ctx *ctx;
	xpe_evlist *evl;
	int nr_ev;
	struct stat_evsel *evs;
	enum stat_aggr aggr;
	bool scale;              /* --no-scale clears */
	bool inherit;
	struct xpe_target target; /* of the current run */
	int nr_bucket;
	char (*comm)[32];        /* per thread, for --per-thread */
};

/* Fill evs from evl (after parsing). Returns 0 or -ENOMEM. */
int stat_session_init(struct stat_session *s, xpe_ctx *ctx, xpe_evlist *evl, enum stat_aggr aggr);
void stat_session_release(struct stat_session *s);

/*
 * The counting attr of one event: times enabled and running read back, no sampling,
 * inherit as the session says; a group leader starts disabled (enabled on exec when
 * enable_on_exec), its members follow it. stat_session_open() sets every event so.
 */
void stat_session_set_attr(struct stat_session *s, struct xpe_event *ev, bool enable_on_exec);

/*
 * Set the attrs and open every event on the cpus x threads of s->target (filled by the caller).
 * enable_on_exec: the target is a child about to exec. Unsupported events are kept and
 * print "<not supported>". On failure returns -errno, err says why and *failed the event.
 */
int stat_session_open(struct stat_session *s, bool enable_on_exec, int *failed,
		      struct xb_error *err);
void stat_session_close(struct stat_session *s);

/* Read every fd; sum this period (delta since the last read) into the buckets and scale. */
void stat_session_read(struct stat_session *s);
/* Has no counter been enabled for any time since the last stat_session_read()? (peeks only) */
bool stat_session_idle(struct stat_session *s);
/* Add this period's scaled counts to the accumulators; reset clears them first. */
void stat_session_accumulate(struct stat_session *s, bool reset);
/* Read the comm of every thread of s->target (for --per-thread rows). */
void stat_session_read_comms(struct stat_session *s);

#endif
