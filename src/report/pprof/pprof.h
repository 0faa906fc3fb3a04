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
 * 0, or a negative errno with err set (-EOPNOTSUPP when built without libprotobuf-c).
 */
int report_pprof_write(xpp_profile *p, const char *path, struct xb_error *err);

struct report_stdio_opts;
/*
 * --pprof PATH: read r in one pass (with the view's filters, inline and demangling
 * options) and write the pprof file. Errors are printed; returns an exit status.
 */
int report_pprof_run(xpf_reader *r, const char *path, const struct report_stdio_opts *o);

#endif
