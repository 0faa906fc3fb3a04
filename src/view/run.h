/* Run once, warn once: the one place a reading command creates and runs its profile, and the warnings every such command gives. */
#ifndef XPERF_VIEW_RUN_H
#define XPERF_VIEW_RUN_H

#include <stdbool.h>

#include "base/error.h"
#include "format/xpf_reader.h"
#include "profile/profile.h"

/*
 * Create the profile of r with po into *out, call started(ctx, profile) once it exists
 * (a subscriber keeping the profile, a splash screen started while the pass runs; NULL:
 * none; a negative return stops there), then run the one pass. 0, or a negative errno with
 * err's message set. *out is set even on failure: free it with xpp_profile_free().
 */
int view_profile_run(xpp_profile **out, xpf_reader *r, const struct xpp_opts *po,
		     int (*started)(void *ctx, xpp_profile *p), void *ctx, struct xb_error *err);

/* A warning's text, without the command's "xperf CMD: warning: " (cli_warning_cb prints it). */
typedef void (*view_warn_fn)(void *ctx, const char *msg);

/*
 * The warnings of a profile that ran (view_profile_run() returned 0), each one line, in
 * the order of the table in warnings.c, handed to fn (the library prints nothing): the
 * facts every reading command states alike about the same file. With quiet, only those
 * that must be said anyway. Returns true when the profile cannot be trusted (more than
 * half of its samples undecodable): the command then exits with CLI_EXIT_RUNTIME after
 * its output.
 */
bool view_warnings(const xpp_profile *p, bool quiet, view_warn_fn fn, void *ctx);

#endif
