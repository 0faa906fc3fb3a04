/* `xperf report --flamegraph FILE.svg`: the profile's call tree as a standalone SVG flame graph. */
#ifndef XPERF_REPORT_FLAMEGRAPH_H
#define XPERF_REPORT_FLAMEGRAPH_H

#include <stdbool.h>

#include "format/xpf_reader.h"
#include "report/stdio/report_stdio.h"

/*
 * Read r in one pass, with o's filters, symbol lookup, --max-stack and --wall, and write
 * the flame graph of one event to `path` ("-" for stdout): the one named `event`, else the
 * first with samples (a warning names it when there are several). One box per function
 * per call path, as wide as its share of the samples, callers below callees, siblings in
 * name order (with `inverted`, an icicle graph: the root on top, callees below); each box's
 * title names the function, its object, its samples and share; a click zooms into a box, a
 * search highlights the boxes whose name matches and gives their share. Errors are printed with cli_error(). Returns CLI_EXIT_OK,
 * CLI_EXIT_USAGE (an event the file lacks) or CLI_EXIT_RUNTIME (no samples left).
 */
int report_flamegraph_run(xpf_reader *r, const char *path, const char *event, bool inverted,
			  const struct view_opts *o);

#endif
