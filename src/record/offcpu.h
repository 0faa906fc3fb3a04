/* xperf record --off-cpu: sched_switch samples and switch-in records made offcpu-time samples. */
#ifndef XPERF_RECORD_OFFCPU_H
#define XPERF_RECORD_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"
#include "events/xpe.h"

/*
 * Why at record time: perf 6.1 writes its off-CPU time (from BPF) as samples of an event of
 * its own, "offcpu-time" (a bpf-output software event whose period holds nanoseconds), so
 * every reader of perf.data already knows what to do with them. We write the same event
 * from what the kernel gives without BPF: each sched:sched_switch sample of a task that
 * blocks (prev_state S or D; a preempted task is runnable, not waiting, as perf counts it)
 * is held until the task's next PERF_RECORD_SWITCH "in" record (attr.context_switch), then
 * written again as an offcpu-time sample: the same stack and fields, its id the offcpu-time
 * attr's, its period the nanoseconds it was away and its time the switch-in time (so the
 * file stays in time order round by round, as perf's report needs). The sched_switch
 * samples themselves stay out of the file, as in perf's: every switch, preemptions too,
 * would double the data the recorder compresses and writes (its attr and TRACING_DATA
 * stay, so the file says what was recorded).
 *
 * The rings are read one after another, so a switch-in on one cpu may be read before the
 * switch-out it ends on another: each drain pass's events are sorted by time before they
 * are paired, and a switch-in left without its switch-out waits one more pass.
 */
struct rec_offcpu;

/* The attr and name of the offcpu-time event, after the evlist's attrs. */
#define REC_OFFCPU_NAME "offcpu-time"

/*
 * For the events of evl: tp the sched:sched_switch event (opened, with ids), track the event
 * with attr.context_switch; keep_switches: the switch records also go to the file
 * (--switch-events). tracefs: where the tracepoint's format is read. 0 or a negative errno
 * with err set.
 */
int rec_offcpu_create(struct rec_offcpu **out, const struct xpe_event *tp,
		      const struct xpe_event *track, bool keep_switches, const char *tracefs,
		      struct xb_error *err);
void rec_offcpu_free(struct rec_offcpu *oc);

/* The offcpu-time attr (a copy of the tracepoint's sample layout) and its one id. */
void rec_offcpu_attr(const struct rec_offcpu *oc, struct perf_event_attr *attr, uint64_t *id);

/*
 * Look at a record on its way from the rings: 1 when it goes to the file, 0 when it is
 * only ours (a sched_switch sample; a switch record without --switch-events), -ENOMEM.
 */
int rec_offcpu_see(struct rec_offcpu *oc, const struct perf_event_header *h);

/*
 * End of a drain pass: pair what the pass saw and hand each offcpu-time sample to emit, in
 * time order. 0 or emit's (or -ENOMEM's) negative errno.
 */
int rec_offcpu_flush(struct rec_offcpu *oc, int (*emit)(void *, const struct perf_event_header *),
		     void *ctx);

/* Blocked intervals written so far (0 for NULL). */
uint64_t rec_offcpu_written(const struct rec_offcpu *oc);

#endif
