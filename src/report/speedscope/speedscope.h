/* `xperf report --speedscope FILE.json`: the samples of each thread, in time order, for speedscope. */
#ifndef XPERF_REPORT_SPEEDSCOPE_H
#define XPERF_REPORT_SPEEDSCOPE_H

#include "format/xpf_reader.h"
#include "view/opts.h"

/*
 * Read r (the file `input` names) in one pass, with o's filters, symbol lookup,
 * --max-stack, --inline and --wall, and write speedscope's file format to `path` ("-":
 * stdout): one "sampled" profile per thread of one event (the one named `event`, else
 * the first with samples besides off-CPU time, a warning naming it when there are
 * several), its samples' stacks in time order weighted by their periods; and, without
 * `event` or --wall, the off-CPU time of `record --off-cpu` as a profile per thread of
 * its own. Frames are shared, with the source file and line of their function where
 * the DWARF knows them. Errors are printed with cli_error(). Returns CLI_EXIT_OK,
 * CLI_EXIT_USAGE (an event the file lacks) or CLI_EXIT_RUNTIME.
 */
int report_speedscope_run(xpf_reader *r, const char *input, const char *path, const char *event,
			  const struct view_opts *o);

#endif
