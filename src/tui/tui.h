/* The interactive browser of a profile (ncursesw: src/tui/curses/, else src/tui/curses_stub/). */
#ifndef XPERF_TUI_H
#define XPERF_TUI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "view/opts.h"

struct report_tui_opts {
	const struct view_opts *view; /* --sort, -g, filters: as the stdio view */
	const char *input;                    /* the file's name, for the screens */
	int64_t captured;                     /* the file's mtime, for the header screen */
	int verbose;                          /* -v: time to the first screen and per key */
	double t0;                            /* the command's start (CLOCK_MONOTONIC, s) */
	bool flame_inverted;                  /* --flamegraph-inverted: the flame graph opens so */
	/* the i key's text: the file's header, as --header-only prints it (NULL: no i) */
	void (*header)(const xpf_reader *r, int64_t captured, FILE *out);
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
