/*
 * The interactive browser of a profile (ncursesw: src/tui/curses/, else src/tui/curses_stub/):
 * the entries and their chains, zooms, the flame graph, callers, annotate. Two ways in: a
 * file read here in one pass (report), or a profile the caller runs or feeds and refreshes
 * (top). Both draw on the terminal of standard output and return -EOPNOTSUPP (a build
 * without ncursesw) or -ENOTTY (no usable terminal) before touching anything, so the caller
 * can print its text view instead; else an exit status (CLI_EXIT_OK, CLI_EXIT_USAGE,
 * CLI_EXIT_RUNTIME), errors printed with cli_error() once the terminal is restored.
 */
#ifndef XPERF_TUI_H
#define XPERF_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "view/opts.h"

/* How to show it: the command's options. */
struct tui_opts {
	const struct view_opts *view; /* --sort, -g, filters: as the stdio view */
	const char *input;            /* the file's name, for the screens; NULL: none (live) */
	int64_t captured;             /* the file's mtime, for the header screen */
	int verbose;                  /* -v: time to the first screen and per key (and refresh) */
	double t0;                    /* the command's start (CLOCK_MONOTONIC, s) */
	bool flame_inverted;          /* --flamegraph-inverted: the flame graph opens so */
	/* the i key's text: the file's header, as --header-only prints it (NULL: no i) */
	void (*header)(const xpf_reader *r, int64_t captured, FILE *out);
};

/*
 * Browse the profile of r (positioned before the first data record; the caller owns and
 * closes it): the pass runs here, a splash on the screen when it takes long. The profile's
 * warnings (view_warnings()) are printed after the terminal is restored.
 */
int tui_browse_file(xpf_reader *r, const struct tui_opts *o);

/*
 * A profile the caller made: one that ran, or one being fed (xperf top). The profile's
 * options must be those rv_ctx_parse() gives for o->view (sort keys, children, -g).
 */
struct tui_source {
	const struct tui_opts *o;
	xpp_profile *profile;         /* browsed, never freed here */
	/*
	 * The refresh: fresh results, or NULL (a profile that will not change). (Not named
	 * refresh: curses has a macro of that name.) Called on the TUI's thread,
	 * every interval_ms while it waits for a key (so never while it reads the profile):
	 * - apply true (the main view and the event list, which redraw from new results): the
	 *   source may change the profile (push records, zero or decay counts) or replace it
	 *   (*profile; the old one stays valid until the next call, the source's to free
	 *   then), and returns 1 when it did, so the screens are built again from it (the
	 *   zooms, unfolded entries and selection kept by their keys, whose ids only a
	 *   profile that goes on shares), 0 when nothing changed;
	 * - apply false (a screen holds pointers into the profile: flame graph, callers,
	 *   annotate, a text page, a prompt): it must leave the profile alone (keep draining
	 *   its rings into its own buffer, for a later call with apply) and return 0.
	 * It may write a line for the status bar of the main view into status (samples per
	 * second, lost samples; size bytes, "" none). A negative return ends the browser: the
	 * message in status is printed with cli_error(), the status is CLI_EXIT_RUNTIME.
	 * TUI_UPDATE_END (apply or not) ends it too, from whatever screen, with CLI_EXIT_OK
	 * (top's --refreshes).
	 */
	int (*update)(void *ctx, bool apply, xpp_profile **profile, char *status, size_t size);
	void *ctx;
	unsigned int interval_ms;     /* with update: how often (0: 1000) */
	/* a differential view (xperf diff --tui): the profile compared with; NULL none */
	const struct tui_baseline *baseline;
};

/* What update returns when the source is done: the browser quits as on q. */
#define TUI_UPDATE_END 2

/*
 * What a differential view compares the browsed profile with: the flame graph colours
 * each frame by the change of its share from the baseline's frame on the same path (paths
 * matched by their frames' names, view/flame.h's differential graph), red grew, blue
 * shrank, and opens first, on the first event that has a baseline.
 */
struct tui_baseline {
	const xpp_profile *profile;   /* borrowed: outlives the browser */
	const char *name;             /* its file, for the titles */
	const int64_t *event;         /* per event of the browsed profile: the baseline's event
					 it compares with, -1 none */
};

/*
 * Browse src's profile until q. With update, an empty profile shows "Waiting for samples"
 * until it has some. Prints nothing of the profile's warnings: the caller gives them
 * (view_warnings()) after this returns.
 */
int tui_browse(const struct tui_source *src);

#endif
