/*
 * The timeline (T in the main view): when the event's samples fall, in all and per thread,
 * a column per stretch of the recording (hotspot's timeline, in a terminal). A range marked
 * with Space and the cursor, then Enter, becomes the --time filter of every view, applied to
 * the samples the profile logged (xpp_profile_regroup()), as the counts are.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "profile/time_range.h"
#include "tui/curses/tui_int.h"
#include "view/timeline.h"

#define NAME_W 22 /* the thread's name, then the strip */

struct timeline {
	struct tui *t;
	uint32_t idx;
	const struct view_timeline *tl; /* the cache's */
	int cols;               /* the strip's columns */
	int cur, mark;          /* the cursor's column; where the range starts, -1 none */
	size_t top;             /* the first thread row shown */
	char msg[256];
};

static uint32_t col_bucket(const struct timeline *v, int c)
{
	return (uint32_t)((uint64_t)c * VIEW_TIMELINE_BUCKETS / (uint64_t)v->cols);
}

/* The samples of counts[] in columns [c0, c1]. */
static uint64_t col_sum(const struct timeline *v, const uint32_t *counts, int c0, int c1)
{
	uint64_t n = 0;

	for (uint32_t b = col_bucket(v, c0); b < col_bucket(v, c1 + 1); b++)
		n += counts[b];
	return n;
}

/* Seconds from the first sample to time ns. */
static double rel(const struct timeline *v, uint64_t ns)
{
	return (double)(ns - v->tl->first) / 1e9;
}

static void draw_strip(const struct timeline *v, int y, const char *name, const uint32_t *counts)
{
	static const char *const utf8[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const ascii[] = { " ", ".", ":", "-", "=", "+", "*", "#", "@" };
	const char *const *g = tui_term_utf8() ? utf8 : ascii;
	int lo = v->mark < 0 ? v->cur : v->mark < v->cur ? v->mark : v->cur;
	int hi = v->mark < 0 ? v->cur : v->mark < v->cur ? v->cur : v->mark;
	uint64_t max = 0;

	/* each row on its own scale: the shape of a thread's activity, as hotspot's */
	for (int c = 0; c < v->cols; c++) {
		uint64_t n = col_sum(v, counts, c, c);

		if (n > max)
			max = n;
	}
	tui_put(y, 0, NAME_W, name, true);
	for (int c = 0; c < v->cols; c++) {
		uint64_t n = col_sum(v, counts, c, c);
		int level = !n ? 0 : 1 + (int)((n * 7 + max - 1) / (max ? max : 1));
		int a = c == v->cur ? tui_attr(ST_SELECTED) :
			v->mark >= 0 && c >= lo && c <= hi ? tui_attr(ST_MATCH) : 0;

		if (level > 8)
			level = 8;
		attron(a);
		tui_put(y, NAME_W + c, 1, g[level], true);
		attroff(a);
	}
}

static void draw(struct timeline *v)
{
	const struct view_timeline *tl = v->tl;
	int rows = LINES - 4 > 0 ? LINES - 4 : 0, lo, hi;
	uint64_t span = tl->last - tl->first, n;
	char ev[96], name[64];

	v->cols = COLS - NAME_W > 1 ? COLS - NAME_W : 1;
	if (v->cur >= v->cols)
		v->cur = v->cols - 1;
	if (v->mark >= v->cols)
		v->mark = v->cols - 1;
	erase();
	attron(tui_attr(ST_BAR));
	tui_putf(0, 0, COLS, true, "Timeline: %" PRIu64 " samples of event '%s', %.3f s, %.3f ms "
		 "a column%s%s", tl->samples, rv_event_name(&v->t->c, v->idx, ev, sizeof(ev)),
		 (double)span / 1e9, (double)span / 1e6 / v->cols,
		 v->t->c.o->time ? ", now --time " : "", v->t->c.o->time ? v->t->c.o->time : "");
	attroff(tui_attr(ST_BAR));
	lo = v->mark < 0 ? v->cur : v->mark < v->cur ? v->mark : v->cur;
	hi = v->mark < 0 ? v->cur : v->mark < v->cur ? v->cur : v->mark;
	n = col_sum(v, tl->all, lo, hi);
	tui_putf(1, 0, COLS, true, "%s %.3f s to %.3f s: %" PRIu64 " samples (%.1f%%)",
		 v->mark < 0 ? "Cursor:" : "Range: ",
		 rel(v, view_timeline_time(tl, col_bucket(v, lo))),
		 rel(v, view_timeline_time(tl, col_bucket(v, hi + 1))), n,
		 tl->samples ? 100.0 * (double)n / (double)tl->samples : 0);
	draw_strip(v, 2, "all", tl->all);
	if (v->top + (size_t)rows > tl->nr_th)
		v->top = tl->nr_th > (size_t)rows ? tl->nr_th - (size_t)rows : 0;
	for (int i = 0; i < rows && v->top + (size_t)i < tl->nr_th; i++) {
		const struct view_timeline_thread *th = &tl->th[v->top + (size_t)i];

		snprintf(name, sizeof(name), "%s(%d)",
			 xpp_profile_thread_name(v->t->c.p, th->pid, th->tid), th->tid);
		draw_strip(v, 3 + i, name, th->bucket);
	}
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, v->msg[0] ? v->msg :
		"Left/Right: move  Space: mark  Enter: keep the range  r: all  Up/Down: threads  "
		"Esc: back", true);
	attroff(tui_attr(ST_BAR));
}

/* The range's --time string: from its first column's start to its last's end. */
static void range_str(const struct timeline *v, char *buf, size_t size)
{
	int lo = v->mark < v->cur ? v->mark : v->cur, hi = v->mark < v->cur ? v->cur : v->mark;
	uint64_t a = view_timeline_time(v->tl, col_bucket(v, lo));
	uint64_t b = view_timeline_time(v->tl, col_bucket(v, hi + 1)) - 1;

	snprintf(buf, size, "%" PRIu64 ".%09" PRIu64 ",%" PRIu64 ".%09" PRIu64, a / 1000000000,
		 a % 1000000000, b / 1000000000, b % 1000000000);
}

/* The --time in effect as the cursor and mark, where the timeline can show it. */
static void show_filter(struct timeline *v)
{
	struct xpp_time_ranges tr = { 0 };
	struct xb_error err;

	v->cols = COLS - NAME_W > 1 ? COLS - NAME_W : 1;
	if (!v->t->c.o->time || xpp_time_ranges_parse(&tr, v->t->c.o->time, v->tl->first,
						      v->tl->last, true, &err) < 0 || !tr.nr)
		return;
	v->mark = (int)((uint64_t)view_timeline_bucket(v->tl, tr.r[0].start) * (uint64_t)v->cols /
			VIEW_TIMELINE_BUCKETS);
	v->cur = (int)((uint64_t)view_timeline_bucket(v->tl, tr.r[tr.nr - 1].end ?
						       tr.r[tr.nr - 1].end : v->tl->last) *
		       (uint64_t)v->cols / VIEW_TIMELINE_BUCKETS);
	xpp_time_ranges_free(&tr);
}

/*
 * The timeline of one event, counted from the samples the profile logged (no second read
 * of the file, DESIGN 1.3: a few milliseconds for a million samples), and kept while the
 * profile and event are the same. Where the log cannot tell (none kept, or outgrown), a
 * file is read again, and the timeline says so.
 */
struct tui_timeline_cache {
	uint32_t idx;
	const xpp_profile *p;
	bool read;              /* from the file, not the log */
	struct view_timeline tl;
};

void tui_timeline_drop(struct tui *t)
{
	if (!t->tlc)
		return;
	view_timeline_free(&t->tlc->tl);
	free(t->tlc);
	t->tlc = NULL;
}

/* The counts of event idx. NULL with msg set when there are none. */
static const struct view_timeline *counts(struct tui *t, uint32_t idx, bool *read, char *msg,
					  size_t size)
{
	const char *input = t->o->input;
	struct tui_timeline_cache *c = t->tlc;
	struct xb_error err = { 0 }, rerr = { 0 };

	if (c && (c->idx != idx || c->p != t->p))
		tui_timeline_drop(t);
	if (!t->tlc) {
		if (!(c = calloc(1, sizeof(*c)))) {
			snprintf(msg, size, "T: out of memory");
			return NULL;
		}
		*c = (struct tui_timeline_cache){ .idx = idx, .p = t->p };
		if (view_timeline_from_profile(&c->tl, t->p, idx, &err) < 0) {
			bool file = input && strcmp(input, "-") && !(t->src && t->src->update);

			if (!file || view_timeline_read(&c->tl, input, idx, t->c.o->wall,
							&rerr) < 0) {
				snprintf(msg, size, "T: %.200s", file ? rerr.msg : err.msg);
				free(c);
				return NULL;
			}
			c->read = true;
		}
		t->tlc = c;
	}
	*read = c->read;
	if (c->tl.no_time || !c->tl.samples) {
		snprintf(msg, size, "T: %s", c->tl.no_time ? "the samples have no time (record -T)" :
			 "the event has no samples with a time");
		return NULL;
	}
	return &c->tl;
}

enum tui_exit tui_timeline_run(struct tui *t, uint32_t idx, char *msg, size_t size)
{
	struct timeline v = { .t = t, .idx = idx, .mark = -1 };
	bool read = false;
	const struct view_timeline *tl = counts(t, idx, &read, msg, size);
	enum tui_exit ex = TUI_BACK;

	if (!tl)
		return TUI_BACK;
	v.tl = tl;
	show_filter(&v);
	if (read) /* DESIGN 1.3: the second read is said */
		snprintf(v.msg, sizeof(v.msg), "the profile kept no log of its samples: the "
			 "timeline was read from the file again");
	for (;;) {
		int ch, page = v.cols / 10 > 1 ? v.cols / 10 : 1;

		draw(&v);
		ch = tui_getkey(t);
		v.msg[0] = 0;
		if (ch == 'q' || ch == TUI_ESC || ch == 'T')
			break;
		switch (ch) {
		case KEY_LEFT:
			v.cur = v.cur > 0 ? v.cur - 1 : 0;
			break;
		case KEY_RIGHT:
			v.cur = v.cur + 1 < v.cols ? v.cur + 1 : v.cols - 1;
			break;
		case KEY_PPAGE:
		case KEY_SLEFT:
			v.cur = v.cur > page ? v.cur - page : 0;
			break;
		case KEY_NPAGE:
		case KEY_SRIGHT:
			v.cur = v.cur + page < v.cols ? v.cur + page : v.cols - 1;
			break;
		case KEY_HOME:
			v.cur = 0;
			break;
		case KEY_END:
			v.cur = v.cols - 1;
			break;
		case KEY_UP:
			v.top = v.top ? v.top - 1 : 0;
			break;
		case KEY_DOWN:
			v.top++;
			break;
		case ' ':
			v.mark = v.mark < 0 ? v.cur : -1;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
			if (v.mark < 0) {
				snprintf(v.msg, sizeof(v.msg), "Space marks where the range starts, "
					 "then move to its end");
				break;
			}
			range_str(&v, t->time, sizeof(t->time));
			t->retime = true;
			ex = TUI_RESORT;
			goto out;
		case 'r':
			t->time[0] = 0;
			t->retime = true;
			ex = TUI_RESORT;
			goto out;
		case 'h':
		case '?':
		case KEY_F(1):
			if (tui_help_run(t) == TUI_QUIT) {
				ex = TUI_QUIT;
				goto out;
			}
			break;
		default:
			break;
		}
	}
out:
	return ex;
}
