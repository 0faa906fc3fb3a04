/* xperf-top internals: options, the live session and the table it prints each refresh. */
#ifndef XPERF_TOP_H
#define XPERF_TOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "events/xpe.h"
#include "events/xpe_open.h"
#include "events/xpe_rings.h"
#include "events/xpe_target.h"
#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "view/rv.h"

/* perf top's defaults: 4000 Hz, a refresh every 2 s, 7/8 of the counts kept each refresh. */
#define TOP_DEFAULT_FREQ 4000
#define TOP_DEFAULT_DELAY 2.0
#define TOP_DECAY_NUM 7
#define TOP_DECAY_DEN 8

struct top_opts {
	const char **events;     /* -e */
	int nr_events;
	uint64_t freq, period;   /* -F, -c */
	const char *pids, *tids, *user, *cpu_list;
	bool system_wide;        /* -a (the default without -p/-t/-u) */
	bool callgraph;          /* -g, --call-graph */
	const char *cg_mode;     /* --call-graph fp|dwarf[,SIZE] */
	bool dwarf;
	uint32_t stack_size;
	double delay;            /* -d seconds */
	bool zero;               /* -z */
	bool hide_kernel, hide_user; /* -K, -U */
	int entries;             /* -E: rows shown, 0 all (as fit) */
	const char *widths;      /* -w */
	bool stdio;
	int refreshes;           /* --refreshes N: exit after N tables (0: never) */
	int mmap_pages;          /* -m */
	int verbose;             /* -v: each refresh's window and time on stderr */
	struct view_opts view;   /* -s, -n, --percent-limit, --comms/--dsos/--symbols, ... */
};

/* What the refreshes count: samples since the last one (rates), losses. */
struct top_stats {
	uint64_t samples, kernel_samples, hidden;  /* since the last refresh */
	uint64_t exact;          /* of them with PERF_RECORD_MISC_EXACT_IP (perf's exact:) */
	uint64_t lost_total;     /* lost at the last refresh */
	uint64_t dropped, dropped_total; /* samples the TUI's buffer could not keep (all, at
				    the last refresh) */
};

struct top_session {
	xpe_ctx *ctx;
	xpe_evlist *evl;
	struct xpe_target tg;
	xpe_ring **rings;
	int nr_rings;
	xpf_reader *live;
	xpp_profile *p;
	struct rv_ctx rc;
	struct xb_error err;
	int push_err;
	uint64_t window;         /* the samples the table holds, aged as its counts (-v) */
	struct top_stats st;
	const struct top_opts *o;
	int rows;                /* the terminal's height, 0 when stdout is none */
	bool tui;                /* the TUI is tried (a terminal, no --stdio) */
};

/* ---- print.c ---- */

/*
 * perf top's status line for the last secs seconds (no newline): samples a second, the
 * kernel's and exact shares, samples lost and dropped in the interval and in all, event,
 * target. It starts the next interval's counts of losses.
 */
void top_status(struct top_session *s, double secs, char *buf, size_t size);
/* One refresh's table of every event, with perf top's status line first. */
void top_print(struct top_session *s, double secs, FILE *out);

/* ---- cmd_top.c ---- */

/* A record of the rings into the profile, counted, -K/-U's samples left out (always 0). */
int top_push(void *s, const struct perf_event_header *h);
double top_now(void);

/* ---- tui.c ---- */

/*
 * The TUI: the rings drained every 250 ms into a buffer, pushed into the profile at each
 * refresh (the old counts aged first), browsed with the TUI library until q. -EOPNOTSUPP
 * (a build without ncursesw) or -ENOTTY before anything is drawn: the caller prints
 * tables instead. Else an exit status.
 */
int top_tui(struct top_session *s);

#endif
