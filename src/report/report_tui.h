/* The interactive view of xperf report (ncursesw: src/report/tui_curses/, else a stub). */
#ifndef XPERF_REPORT_TUI_H
#define XPERF_REPORT_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "format/xpf_reader.h"
#include "report/stdio/report_stdio.h"

struct report_tui_opts {
	const struct view_opts *view; /* --sort, -g, filters: as the stdio view */
	const char *input;                    /* the file's name, for the screens */
	int64_t captured;                     /* the file's mtime, for the header screen */
	int verbose;                          /* -v: time to the first screen and per key */
	double t0;                            /* the command's start (CLOCK_MONOTONIC, s) */
	bool flame_inverted;                  /* --flamegraph-inverted: the flame graph opens so */
};

/*
 * Browse the profile of r (positioned before the first data record; the caller owns and
 * closes it) on the terminal of standard output. Returns -EOPNOTSUPP (a build without
 * ncursesw) or -ENOTTY (no usable terminal) before reading anything, so the caller can
 * print the stdio view instead; else an exit status (CLI_EXIT_OK, CLI_EXIT_USAGE,
 * CLI_EXIT_RUNTIME), errors printed with cli_error() once the terminal is restored.
 */
int report_tui_run(xpf_reader *r, const struct report_tui_opts *o);

#endif
