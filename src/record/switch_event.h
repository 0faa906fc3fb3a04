/* xperf record --switch-output-event: events whose every sample starts the next output piece. */
#ifndef XPERF_RECORD_SWITCH_EVENT_H
#define XPERF_RECORD_SWITCH_EVENT_H

#include <poll.h>
#include <stdbool.h>

#include "base/error.h"
#include "events/xpe.h"

struct rec_target;

/*
 * perf 6.1 opens these events apart from the recorded ones (its "side band" evlist, on the
 * record's target: for a command, that is every cpu and every task) and switches the output
 * when any of them gives a sample, as SIGUSR2 would; they are not written to the file.
 * We poll them in the record loop itself (each sample wakes it: wakeup_events 1) instead
 * of on a thread of their own. Samples of xperf record's own process are ignored, so its
 * own system calls (a rename, a wait between two pieces) cannot switch again.
 */
struct rec_switch_event;

/* Parse the events (each an -e argument). 0 or a negative errno with err set. */
int rec_switch_event_parse(struct rec_switch_event **out, xpe_ctx *ctx, const char *const *events,
			   int nr_events, struct xb_error *err);
/* Open them on the target (enabled at once) and map their rings. 0 or -errno with err. */
int rec_switch_event_open(struct rec_switch_event *se, xpe_ctx *ctx, const struct rec_target *t,
			  struct xb_error *err);
/* The fds to poll: fills pfd (at most rec_switch_event_nr_fds()) and returns the count. */
int rec_switch_event_nr_fds(const struct rec_switch_event *se);
int rec_switch_event_pollfds(const struct rec_switch_event *se, struct pollfd *pfd);
/* Read what the events gave: true when one of them fired in a task other than ours. */
bool rec_switch_event_fired(struct rec_switch_event *se);
/* Close and free; accepts NULL. */
void rec_switch_event_free(struct rec_switch_event *se);

#endif
