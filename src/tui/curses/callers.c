/* The TUI's caller/callee view ("sandwich"): who calls a function and what it calls, with shares. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "base/array.h"
#include "tui/curses/tui_int.h"

#define MAX_HISTORY 32

enum line_kind { L_HEAD, L_NOTE, L_SEP, L_CALLER, L_FOCUS, L_CALLEE };

struct line {
	enum line_kind kind;
	uint32_t id;             /* L_CALLER, L_CALLEE: the entry of that side's hist */
	const char *text;        /* L_HEAD, L_NOTE */
};

struct callers {
	struct tui *t;
	const struct rv_entries *en;
	struct xpp_hist_key history[MAX_HISTORY];
	unsigned int nr_history;
	struct xpp_hist_key focus;
	uint64_t period, count, self_period;
	xpp_hist *callers, *callees;  /* one entry per function; period once per sample */
	uint32_t *rows[2];            /* each side's ids, most first */
	size_t nr[2];
	struct line *lines;
	size_t nr_lines, sel, top;
};

static struct xpp_hist_key fn_key(const struct callers *v, uint32_t frame)
{
	struct xpp_hist_key k = rv_frame_key(&v->t->c, 0, frame);

	k.srcline = 0; /* one line per function, whatever line the call was on */
	return k;
}

/* Charge a path's period to the function of frame f on one side, once per path. */
static int charge(xpp_hist *h, uint32_t **stamp, size_t *cap, const struct xpp_hist_key *k,
		  uint32_t path, const struct rv_path *pa)
{
	int64_t id = xpp_hist_add_id(h, k, 0, 0);
	struct xpp_hist_rec *e;
	size_t n;

	if (id < 0)
		return (int)id;
	if (XB_ARRAY_RESERVE0(*stamp, *cap, (size_t)id + 1, 64))
		return -ENOMEM;
	if ((*stamp)[id] == path + 1)
		return 0;
	(*stamp)[id] = path + 1;
	e = &xpp_hist_recs(h, &n)[id];
	e->period += pa->period;
	e->nr_samples += pa->count;
	return 0;
}

static int cmp_ids(const void *pa, const void *pb, void *arg)
{
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(arg, &n);
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (e[a].period != e[b].period)
		return e[a].period > e[b].period ? -1 : 1;
	return a < b ? -1 : 1;
}

static void reset(struct callers *v)
{
	xpp_hist_free(v->callers);
	xpp_hist_free(v->callees);
	free(v->rows[0]);
	free(v->rows[1]);
	free(v->lines);
	v->callers = v->callees = NULL;
	v->rows[0] = v->rows[1] = NULL;
	v->lines = NULL;
	v->nr_lines = v->sel = v->top = 0;
	v->period = v->count = v->self_period = 0;
}

static int add_line(struct callers *v, enum line_kind kind, uint32_t id, const char *text)
{
	v->lines[v->nr_lines++] = (struct line){ kind, id, text };
	return 0;
}

/* Every path through the focus: its callers and callees, each sample counted once per side. */
static int compute(struct callers *v)
{
	const struct rv_entries *en = v->en;
	uint32_t *stamp[2] = { NULL, NULL }, *buf;
	size_t cap[2] = { 0, 0 };
	int ret = -ENOMEM;

	reset(v);
	v->callers = xpp_hist_create();
	v->callees = xpp_hist_create();
	buf = malloc((en->maxdepth + 1) * sizeof(*buf));
	if (!v->callers || !v->callees || !buf)
		goto out;
	for (uint32_t p = 0; p < en->nr_paths; p++) {
		const struct rv_path *pa = &en->paths[p];
		uint32_t len, comm;
		const uint32_t *f = rv_path_frames(en, p, buf, &len, &comm);
		bool on = false;

		for (uint32_t i = 0; i < len; i++) {
			struct xpp_hist_key k = fn_key(v, f[i]), o;

			if (!tui_same_function(&k, &v->focus))
				continue;
			if (!on) {
				v->period += pa->period;
				v->count += pa->count;
				on = true;
			}
			if (i + 1 == len) {
				v->self_period += pa->period;
			} else {
				o = fn_key(v, f[i + 1]);
				if ((ret = charge(v->callees, &stamp[1], &cap[1], &o, p, pa)) < 0)
					goto out;
			}
			if (i > 0) {
				o = fn_key(v, f[i - 1]);
				if ((ret = charge(v->callers, &stamp[0], &cap[0], &o, p, pa)) < 0)
					goto out;
			}
		}
	}
	ret = -ENOMEM;
	for (int s = 0; s < 2; s++) {
		xpp_hist *h = s ? v->callees : v->callers;

		v->nr[s] = xpp_hist_nr(h);
		v->rows[s] = malloc((v->nr[s] + 1) * sizeof(*v->rows[s]));
		if (!v->rows[s])
			goto out;
		for (size_t i = 0; i < v->nr[s]; i++)
			v->rows[s][i] = (uint32_t)i;
		qsort_r(v->rows[s], v->nr[s], sizeof(*v->rows[s]), cmp_ids, h);
	}
	v->lines = malloc((v->nr[0] + v->nr[1] + 8) * sizeof(*v->lines));
	if (!v->lines)
		goto out;
	add_line(v, L_HEAD, 0, "Callers:");
	for (size_t i = 0; i < v->nr[0]; i++)
		add_line(v, L_CALLER, v->rows[0][i], NULL);
	if (!v->nr[0])
		add_line(v, L_NOTE, 0, "(none: its stacks start with it)");
	add_line(v, L_SEP, 0, NULL);
	v->sel = v->nr_lines;
	add_line(v, L_FOCUS, 0, NULL);
	add_line(v, L_SEP, 0, NULL);
	add_line(v, L_HEAD, 0, "Callees:");
	for (size_t i = 0; i < v->nr[1]; i++)
		add_line(v, L_CALLEE, v->rows[1][i], NULL);
	if (!v->nr[1])
		add_line(v, L_NOTE, 0, "(none: all its samples are its own)");
	ret = 0;
out:
	free(stamp[0]);
	free(stamp[1]);
	free(buf);
	return ret;
}

static struct xpp_hist_key line_key(const struct callers *v, const struct line *l)
{
	if (l->kind == L_CALLER)
		return xpp_hist_key_at(v->callers, l->id);
	if (l->kind == L_CALLEE)
		return xpp_hist_key_at(v->callees, l->id);
	return v->focus;
}

static void draw_fn(const struct callers *v, int y, const struct xpp_hist_key *k,
		    uint64_t period, uint64_t count, bool selected, const char *extra)
{
	double total = (double)v->en->ev->total_period;
	double pct = total ? 100.0 * (double)period / total : 0;
	int a = selected ? 0 : tui_attr(pct >= 5 ? ST_HOT : pct >= 0.5 ? ST_WARM : ST_NORMAL);
	char buf[512];
	int x;

	attron(a);
	x = tui_putf(y, 0, 11, true, "  %7.2f%%", pct);
	attroff(a);
	x += tui_putf(y, x, 12, true, " %10" PRIu64 " ", count);
	tui_putf(y, x, COLS - x, true, "[%c] %s  (%s)%s", k->level ? (char)k->level : '.',
		 tui_frame_label(v->t, k, buf, sizeof(buf)), rv_dso_name(&v->t->c, k), extra);
}

static void draw(struct callers *v)
{
	int page = LINES - 3 > 1 ? LINES - 3 : 1;
	char buf[512], extra[64];

	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + (size_t)page)
		v->top = v->sel - (size_t)page + 1;
	erase();
	attron(tui_attr(ST_BAR));
	tui_putf(0, 0, COLS, true, "Callers and callees of %s",
		 tui_frame_label(v->t, &v->focus, buf, sizeof(buf)));
	attroff(tui_attr(ST_BAR));
	tui_put(1, 0, COLS, "      Share     Samples  Function  (Shared Object)", true);
	for (int i = 0; i < page && v->top + (size_t)i < v->nr_lines; i++) {
		const struct line *l = &v->lines[v->top + (size_t)i];
		bool sel = v->top + (size_t)i == v->sel;
		int y = 2 + i;
		struct xpp_hist_entry e;

		if (sel)
			attron(tui_attr(ST_SELECTED));
		switch (l->kind) {
		case L_HEAD:
			attron(A_BOLD);
			tui_put(y, 1, COLS - 1, l->text, true);
			attroff(A_BOLD);
			break;
		case L_NOTE:
			tui_put(y, 12, COLS - 12, l->text, true);
			break;
		case L_SEP:
			attron(tui_attr(ST_DIM));
			for (int x = 0; x < COLS; x++)
				tui_put(y, x, 1, tui_glyph(G_HLINE), false);
			attroff(tui_attr(ST_DIM));
			break;
		case L_FOCUS:
			snprintf(extra, sizeof(extra), ", self %.2f%%", v->en->ev->total_period ?
				 100.0 * (double)v->self_period / (double)v->en->ev->total_period : 0);
			attron(A_BOLD);
			draw_fn(v, y, &v->focus, v->period, v->count, sel, extra);
			attroff(A_BOLD);
			break;
		default:
			e = xpp_hist_entry_at(l->kind == L_CALLER ? v->callers : v->callees, l->id);
			draw_fn(v, y, &e.key, e.period, e.nr_samples, sel, "");
			break;
		}
		if (sel)
			attroff(tui_attr(ST_SELECTED));
	}
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, "Enter: callers and callees of the selected function   "
		"Esc: back   q: main view", true);
	attroff(tui_attr(ST_BAR));
}

static bool selectable(const struct line *l)
{
	return l->kind == L_CALLER || l->kind == L_FOCUS || l->kind == L_CALLEE;
}

static void move_sel(struct callers *v, int dir)
{
	for (size_t i = v->sel; dir < 0 ? i-- > 0 : ++i < v->nr_lines;)
		if (selectable(&v->lines[i])) {
			v->sel = i;
			return;
		}
}

enum tui_exit tui_callers_run(struct tui *t, const struct rv_entries *en,
			      const struct xpp_hist_key *focus)
{
	struct callers v = { .t = t, .en = en, .focus = *focus };

	v.focus.comm = 0;
	v.focus.srcline = 0;
	if (compute(&v) < 0)
		goto out;
	for (;;) {
		int ch;

		draw(&v);
		ch = tui_getkey(t);
		if (ch == 'q')
			break;
		switch (ch) {
		case KEY_UP:
		case 'k':
			move_sel(&v, -1);
			break;
		case KEY_DOWN:
		case 'j':
			move_sel(&v, 1);
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
			if (v.lines[v.sel].kind == L_FOCUS)
				break;
			if (v.nr_history == MAX_HISTORY)
				memmove(v.history, v.history + 1, --v.nr_history * sizeof(v.history[0]));
			v.history[v.nr_history++] = v.focus;
			v.focus = line_key(&v, &v.lines[v.sel]);
			if (compute(&v) < 0)
				goto out;
			break;
		case TUI_ESC:
		case KEY_LEFT:
			if (!v.nr_history)
				goto out;
			v.focus = v.history[--v.nr_history];
			if (compute(&v) < 0)
				goto out;
			break;
		case 'h':
		case '?':
		case KEY_F(1):
			tui_help_run(t);
			break;
		default:
			break;
		}
	}
out:
	reset(&v);
	return TUI_BACK;
}
