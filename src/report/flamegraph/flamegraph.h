/* `xperf report --flamegraph FILE.svg`: the profile's call tree as a standalone SVG flame graph. */
#ifndef XPERF_REPORT_FLAMEGRAPH_H
#define XPERF_REPORT_FLAMEGRAPH_H

#include "format/xpf_reader.h"
#include "report/stdio/report_stdio.h"

/*
 * Read r in one pass and write the flame graph of its first event with samples to `path`
 * ("-" for stdout): one box per function per call path, as wide as its share of the
 * samples, callers below callees, siblings in name order; each box's title names the
 * function, its object, its samples and share; a click zooms into a box. Errors are
 * printed with cli_error(). Returns CLI_EXIT_OK or CLI_EXIT_RUNTIME.
 */
int report_flamegraph_run(xpf_reader *r, const char *path, const struct report_stdio_opts *o);

#endif
