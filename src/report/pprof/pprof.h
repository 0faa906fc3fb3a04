/* xperf report --pprof: the profile as pprof's gzip-compressed profile.proto. */
#ifndef XREPORT_PPROF_H
#define XREPORT_PPROF_H

#include "base/error.h"
#include "profile/profile.h"

/*
 * Write p (after xpp_profile_run(), built with call chains and source lines) to path ("-":
 * standard output) in pprof's format: per event a sample count and a period sample type,
 * one sample per distinct call stack (labelled with its command; without call chains, per
 * command and own location, a one-frame stack), locations with their
 * inline frames as extra lines, functions, mappings with build ids, duration and period.
 * Every event, or with `only` below the number of events that one alone (--event).
 * 0, or a negative errno with err set (-EOPNOTSUPP when built without libprotobuf-c).
 */
int report_pprof_write(xpp_profile *p, const char *path, uint32_t only, struct xb_error *err);

struct view_opts;
/*
 * --pprof PATH: read r in one pass (with the view's filters, symbol lookup, inline frames,
 * --max-stack and --wall) and write the pprof file: every event, or the one named `event`.
 * Errors are printed; returns an exit status.
 */
int report_pprof_run(xpf_reader *r, const char *path, const char *event,
		     const struct view_opts *o);

#endif
