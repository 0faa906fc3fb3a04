/* Internal interface of the report TUI: the terminal, the session, and the views. */
#ifndef XPERF_REPORT_TUI_INT_H
#define XPERF_REPORT_TUI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/tui.h"
#include "view/rv.h"

/* ---- the terminal (term.c) ---- */

/* Colour pairs, or the monochrome attribute each falls back to. */
enum tui_style {
	ST_NORMAL,
	ST_BAR,       /* title and status lines */
	ST_SELECTED,  /* the selected line or frame */
	ST_HOT,       /* a share >= 5% */
	ST_WARM,      /* a share >= 0.5% */
	ST_DIM,       /* guides, separators */
	ST_FLAME1,    /* flame-graph frames, three alternating hues */
	ST_FLAME2,
	ST_FLAME3,
	ST_MATCH,     /* flame-graph frames a search matched */
	/* a differential flame graph (xperf diff --tui): a frame's change of share, as
	   difffolded.pl's colours: white the same, red grew, blue shrank, deeper the more */
	ST_SAME,
	ST_GREW1,     /* ... ST_GREW1 + TUI_DIFF_LEVELS - 1: the most */
	ST_GREW2,
	ST_GREW3,
	ST_GREW4,
	ST_SHRANK1,
	ST_SHRANK2,
	ST_SHRANK3,
	ST_SHRANK4,
	ST_NR
};

#define TUI_DIFF_LEVELS 4

/* Line-drawing pieces, UTF-8 or ASCII after the locale. */
enum tui_glyph {
	G_VLINE,   /* a guide going on down */
	G_TEE,     /* a branch with siblings below */
	G_ELBOW,   /* the last branch */
	G_HLINE,
	G_ELLIPSIS,
	G_NR
};

/*
 * Put the terminal in full-screen mode: input from standard input when it is a terminal,
 * else /dev/tty; output to standard output. Handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * the crash signals put the terminal back before the signal takes its course. -ENOTTY when
 * there is no usable terminal (nothing touched then). The screen is usable once
 * tui_term_modes() has set it up: what can fail is done here, the rest (a few terminal
 * round trips) there, which may run on another thread while the caller does other work
 * that does not touch the screen.
 */
int tui_term_open(void);
/* After tui_term_open(): raw keys, no echo, no cursor, the colours; the screen is blank. */
void tui_term_modes(void);
/* Leave full-screen mode and restore the terminal as it was; safe to call twice. */
void tui_term_close(void);
bool tui_term_utf8(void);
bool tui_term_color(void);
int tui_attr(enum tui_style s);
const char *tui_glyph(enum tui_glyph g);

/*
 * Put s at (y, x) in at most `width` columns (UTF-8 aware), padding with blanks to
 * `width` when pad is set; a cut string ends with an ellipsis. Returns the columns used.
 */
int tui_put(int y, int x, int width, const char *s, bool pad);
/* The same with printf formatting. */
int tui_putf(int y, int x, int width, bool pad, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Display columns of s (UTF-8 aware). */
int tui_width(const char *s);

/* ---- the session (tui_main.c) ---- */

/* Keys the views share. */
#define TUI_ESC 27
#define TUI_CTRL(c) ((c) & 0x1f)

struct tui_key_time {
	int ch;
	double secs;
};

struct tui {
	const struct tui_opts *o;
	struct rv_ctx c;
	xpp_profile *p;
	xpf_reader *r;
	bool diff_shown;                /* diff --tui: its flame graph was opened first */
	char time[96];                  /* the --time range the timeline chose ("" all) */
	struct tui_timeline_cache *tlc; /* the timeline's counts, kept (timeline.c) */
	bool retime;                    /* with TUI_RESORT: count again with t->time */
	bool own_reader;                /* r was opened again (no log of samples): closed here */
	bool own_profile;               /* p is freed here (a file's), not the source's */
	/* a live source (tui_browse() with a refresh callback) */
	const struct tui_source *src;
	char status[256];               /* its status line, "" none */
	bool failed;                    /* its refresh failed: every view goes back, then quits */
	bool ended;                     /* its refresh said TUI_UPDATE_END: the same, exit 0 */
	double refresh_start;           /* when the last applied refresh started, 0 none pending */
	unsigned int nr_refresh;        /* -v: refreshes applied, their time to the screen */
	double refresh_max, refresh_sum;
	char resort[128];               /* the sort keys asked for with s */
	bool flip_children;             /* with TUI_RESORT: o asked for the other of children/self */
	/* timing (-v) */
	double first_screen;            /* seconds from o->t0, 0 until drawn */
	double key_start;
	int key_pending;                /* the key being answered, or -1 */
	unsigned int nr_keys;
	double key_max, key_sum;
	int key_max_ch;
	struct tui_key_time *log;       /* -vv: every key */
	size_t nr_log, cap_log;
};

/*
 * Read a key: flushes the screen first, and, with -v, takes the time the previous key
 * took (from its arrival to the screen answering it). With a live source, its refresh is
 * called while waiting, without leave to change the profile (the caller holds pointers
 * into it); once it failed, every call returns 'q'.
 */
int tui_getkey(struct tui *t);
/*
 * The same for the views that build their screen again from new results (the main view,
 * the event list): the refresh may change the profile, and TUI_KEY_REFRESH is returned
 * when it did (t->c then holds the new results: build again from them), TUI_KEY_REDRAW
 * when only t->status changed (draw again, keeping the message).
 */
int tui_getkey_live(struct tui *t);
/* Why the keys that need call chains (Enter, f, c, o) find none, as fits the source. */
const char *tui_no_chains(const struct tui *t);
/* Not keys (tui_getkey_live()), above every curses key (KEY_MAX) and byte. */
#define TUI_KEY_REFRESH 0x10000
#define TUI_KEY_REDRAW 0x10001
/*
 * The moving keys every list shares (arrows, j/k, PgUp/PgDn with `page` lines, Home/End):
 * true when ch is one, with *pos moved inside [0, nr). Views add keys of their own.
 */
bool tui_move(int ch, size_t *pos, size_t nr, size_t page);
/*
 * A frame's key as the chains show it: the symbol (or the address), with -g srcline its
 * source line, and perf's " (inlined)". In buf.
 */
const char *tui_frame_label(const struct tui *t, const struct xpp_hist_key *k, char *buf,
			    size_t size);

/*
 * Whether event idx has a line in the event list (Tab goes round them): it has samples and,
 * when groups are shown side by side, leads its group or is alone.
 */
bool tui_event_listed(const struct tui *t, uint32_t idx);

/* A key's name for messages: "j", "Enter", "KEY_DOWN". */
const char *tui_keyname(int ch, char *buf, size_t size);

/* The view asked for by a key in a sub-view. */
enum tui_exit {
	TUI_BACK,
	TUI_QUIT,
	TUI_NEXT_EVENT, /* the main view's Tab: the next event with samples */
	TUI_PREV_EVENT, /* Shift-Tab: the one before */
	TUI_RESORT,     /* the main view's s and o: count the samples again (tui.resort) */
};

/* ---- views ---- */

/* The main view of event idx (hists.c). */
enum tui_exit tui_hists_run(struct tui *t, uint32_t idx);

/*
 * The flame graph of event idx, selecting the frame of function `focus` if given (flame.c).
 * With the main view's zooms (nr_zooms of them), only the samples whose own frame passes
 * them are drawn, as the main view shows only the entries that pass them.
 */
struct hb_zoom;
enum tui_exit tui_flame_run(struct tui *t, uint32_t idx, const struct xpp_hist_key *focus,
			    const struct hb_zoom *zooms, unsigned int nr_zooms);

/* Callers and callees of function `focus` in the entries' paths (callers.c). */
enum tui_exit tui_callers_run(struct tui *t, const struct rv_entries *en,
			      const struct xpp_hist_key *focus);

/*
 * Symbol `sym` of DSO `dso` annotated with event idx's samples (annotate.c); when it cannot
 * be, the reason goes to msg and the view returns at once.
 */
enum tui_exit tui_annotate_run(struct tui *t, uint32_t idx, uint32_t dso, int32_t sym,
			       char *msg, size_t size);

/*
 * The differential flame graph's colours (flame_diff.c): per node of event idx's call tree
 * its change of share from the baseline's (struct tui_baseline), NEW's share minus OLD's.
 */
struct tui_flame_diff {
	double *delta;          /* NULL: no baseline for the event */
	double max;             /* the largest change of a frame */
	uint64_t base_samples;  /* the baseline's samples in its graph */
	const char *name;       /* the baseline's file */
};
/* Into d (d->delta NULL when the event has no baseline). 0 or -ENOMEM. */
int tui_flame_diff(const struct tui *t, uint32_t idx, struct tui_flame_diff *d);
void tui_flame_diff_free(struct tui_flame_diff *d);
/* The colour of node's frame: ST_SAME, or ST_GREW1.. / ST_SHRANK1.. by the change's size. */
enum tui_style tui_flame_diff_style(const struct tui_flame_diff *d, uint32_t node);

/*
 * The timeline of event idx (timeline.c): its samples over time, in all and per thread,
 * counted from the profile's log of samples (a file is read again only where there is
 * none). TUI_RESORT when a range was chosen (t->time, t->retime); when it cannot be shown,
 * the reason goes to msg and the view returns at once.
 */
enum tui_exit tui_timeline_run(struct tui *t, uint32_t idx, char *msg, size_t size);
/* Free the counts kept for T (the session's end). */
void tui_timeline_drop(struct tui *t);

/* A scrolling page of text lines (pager.c): the header, the key list. */
enum tui_exit tui_pager_run(struct tui *t, const char *title, const char *text);
/* The key list (keys.c), as `h` shows it and the manual lists it. */
enum tui_exit tui_help_run(struct tui *t);
/* A one-line prompt on the last line: the text typed, or NULL (Esc). buf holds it. */
const char *tui_prompt(struct tui *t, const char *label, char *buf, size_t size);

/* Whether two keys name the same function (DSO and symbol, inlined or not, or address). */
bool tui_same_function(const struct xpp_hist_key *a, const struct xpp_hist_key *b);

#endif
