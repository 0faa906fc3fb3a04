/* The default view of xperf report: a symbolised table like `perf report --stdio --no-children`. */
#ifndef XPERF_REPORT_STDIO_H
#define XPERF_REPORT_STDIO_H

#include <stdbool.h>

#include "format/xpf_reader.h"
#include "view/opts.h"

/*
 * Read r (the caller opened it, and still owns and closes it; positioned before the first
 * data record) in one pass and print, for each event with samples, its entries sorted by
 * overhead to stdout, then the shared warnings (view_warnings()). Errors are printed with
 * cli_error(). Returns an exit status: CLI_EXIT_OK, CLI_EXIT_USAGE (a bad --sort key) or
 * CLI_EXIT_RUNTIME (also after a printed report: more than half of the samples could not
 * be decoded).
 */
int report_stdio_run_reader(xpf_reader *r, const struct view_opts *opts);

#endif
