/* The TUI's annotate view: a symbol's instructions with their shares and source lines, from the profile's annotation API. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "profile/disasm/annotate.h"
#include "report/tui_curses/tui.h"

/* A line of the view: a source line above the instructions it made, or an instruction. */
struct ann_line {
	uint32_t insn;          /* the instruction, or the first one under the source line */
	bool source;
};

struct annot {
	struct tui *t;
	xpp_annotation *a;
	const struct xpp_annotation_info *info;
	const struct xpp_ann_insn *in;
	uint32_t nr_in;
	const uint32_t *hot;
	uint32_t nr_hot, hot_at;
	struct ann_line *lines;
	size_t nr_lines, sel, top;
	uint32_t *line_of;      /* per instruction: its line */
	char msg[160];
};

/* Instructions, each run of one source line under that line's text. */
static int build_lines(struct annot *v)
{
	uint32_t file = XPP_ANN_NONE, line = 0;

	v->lines = malloc((2 * (size_t)v->nr_in + 1) * sizeof(*v->lines));
	v->line_of = malloc(((size_t)v->nr_in + 1) * sizeof(*v->line_of));
	if (!v->lines || !v->line_of)
		return -ENOMEM;
	for (uint32_t i = 0; i < v->nr_in; i++) {
		const struct xpp_ann_insn *x = &v->in[i];

		if (x->line && (x->file != file || x->line != line))
			v->lines[v->nr_lines++] = (struct ann_line){ i, true };
		file = x->file;
		line = x->line;
		v->line_of[i] = (uint32_t)v->nr_lines;
		v->lines[v->nr_lines++] = (struct ann_line){ i, false };
	}
	return 0;
}

static void select_insn(struct annot *v, uint32_t i)
{
	if (i < v->nr_in)
		v->sel = v->line_of[i];
}

static void draw_source(struct annot *v, int y, const struct xpp_ann_insn *x)
{
	const char *f = xpp_annotation_file(v->a, x->file), *slash = f ? strrchr(f, '/') : NULL;
	const char *text = xpp_annotation_src_text(v->a, x->file, x->line);
	int col;

	attron(tui_attr(ST_DIM));
	col = tui_putf(y, 0, COLS, false, "%*s%s:%u", 19, "", slash ? slash + 1 : f ? f : "??",
		       x->line);
	attroff(tui_attr(ST_DIM));
	if (text && col + 2 < COLS) {
		while (*text == ' ' || *text == '\t')
			text++;
		tui_put(y, col + 2, COLS - col - 2, text, false);
	}
}

static void draw_insn(struct annot *v, int y, uint32_t i, bool selected)
{
	const struct xpp_ann_insn *x = &v->in[i];
	int a = 0, x0;

	if (!selected && x->period)
		a = tui_attr(i == v->info->hottest || x->percent >= 5.0 ? ST_HOT :
			     x->percent >= 0.5 ? ST_WARM : ST_NORMAL);
	attron(a);
	if (x->period)
		x0 = tui_putf(y, 0, 9, true, "%8.2f%%", x->percent);
	else
		x0 = tui_put(y, 0, 9, "", true);
	attroff(a);
	if (x->label)
		x0 += tui_putf(y, x0, 10, true, " %5u:   ", x->label);
	else
		x0 += tui_put(y, x0, 10, "", true);
	x0 += tui_putf(y, x0, 12, true, "%8" PRIx64 ":  ", x->addr);
	if (x0 < COLS)
		tui_putf(y, x0, COLS - x0, true, "%-6s %s%s", x->mnemonic, x->short_operands,
			 x->kind == XPP_INSN_JUMP && x->target_insn != XPP_ANN_NONE ?
			 (x->target_insn < i ? "  ^" : "  v") : "");
}

static void draw(struct annot *v)
{
	int page = LINES - 2 > 1 ? LINES - 2 : 1;
	char ev[64];

	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + (size_t)page)
		v->top = v->sel - (size_t)page + 1;
	erase();
	attron(tui_attr(ST_BAR));
	tui_putf(0, 0, COLS, true, "Annotate %s (%s): %" PRIu64 " samples of event '%s'%s",
		 v->info->sym_name, v->info->dso_name, v->info->nr_samples,
		 xpf_attr_event_name(xpf_reader_attr(v->t->r, v->info->event), ev, sizeof(ev)),
		 v->info->has_lines ? "" : ", no source lines");
	attroff(tui_attr(ST_BAR));
	for (int i = 0; i < page && v->top + (size_t)i < v->nr_lines; i++) {
		const struct ann_line *l = &v->lines[v->top + (size_t)i];
		bool sel = v->top + (size_t)i == v->sel;

		if (sel)
			attron(tui_attr(ST_SELECTED));
		if (l->source)
			draw_source(v, 1 + i, &v->in[l->insn]);
		else
			draw_insn(v, 1 + i, l->insn, sel);
		if (sel)
			attroff(tui_attr(ST_SELECTED));
	}
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, v->msg[0] ? v->msg :
		"Tab/Shift-Tab: next/previous hot instruction   Enter: follow a jump or call   "
		"Esc: back", true);
	attroff(tui_attr(ST_BAR));
}

static void next_hot(struct annot *v, int dir)
{
	if (!v->nr_hot) {
		snprintf(v->msg, sizeof(v->msg), "no samples in this symbol");
		return;
	}
	v->hot_at = (v->hot_at + v->nr_hot + (uint32_t)dir) % v->nr_hot;
	select_insn(v, v->hot[v->hot_at]);
}

/* Enter: a jump inside the symbol moves there; a call opens its callee. */
static enum tui_exit follow(struct annot *v, uint32_t dso)
{
	const struct ann_line *l = &v->lines[v->sel];
	const struct xpp_ann_insn *x = &v->in[l->insn];

	if (l->source)
		return TUI_BACK;
	if (x->kind == XPP_INSN_JUMP && x->target_insn != XPP_ANN_NONE) {
		select_insn(v, x->target_insn);
		return TUI_BACK;
	}
	if (x->kind == XPP_INSN_CALL && x->callee >= 0)
		return tui_annotate_run(v->t, v->info->event, dso, x->callee, v->msg,
					sizeof(v->msg));
	snprintf(v->msg, sizeof(v->msg), "not a jump inside the symbol or a call to a known one");
	return TUI_BACK;
}

enum tui_exit tui_annotate_run(struct tui *t, uint32_t idx, uint32_t dso, int32_t sym,
			       char *msg, size_t size)
{
	struct xpp_annotate_opts ao = { .debug_root = t->c.o->debug_root };
	struct annot v = { .t = t };
	struct xb_error err = { 0 };
	enum tui_exit ex = TUI_BACK;
	int ret;

	/* the listing comes after the disassembly and the line tables: say what is going on */
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, "annotating...", true);
	attroff(tui_attr(ST_BAR));
	refresh();
	ret = xpp_annotation_create(&v.a, t->p, idx, dso, sym, &ao, &err);
	if (ret < 0) {
		snprintf(msg, size, "annotate: %s", err.msg[0] ? err.msg : strerror(-ret));
		return TUI_BACK;
	}
	v.info = xpp_annotation_info(v.a);
	v.in = xpp_annotation_insns(v.a, &v.nr_in);
	v.hot = xpp_annotation_hot(v.a, &v.nr_hot);
	if (build_lines(&v) < 0 || !v.nr_lines) {
		snprintf(msg, size, "annotate: %s", v.nr_lines ? strerror(ENOMEM) : "no instructions");
		goto out;
	}
	if (v.info->hottest != XPP_ANN_NONE)
		select_insn(&v, v.info->hottest);
	/* the hottest instruction in the middle of the screen, its source line above it */
	v.top = v.sel > (size_t)(LINES / 2) ? v.sel - (size_t)(LINES / 2) : 0;
	for (;;) {
		int ch;

		draw(&v);
		ch = tui_getkey(t);
		v.msg[0] = 0;
		if (tui_move(ch, &v.sel, v.nr_lines, (size_t)(LINES > 2 ? LINES - 2 : 1)))
			continue;
		switch (ch) {
		case '\t':
		case KEY_BTAB:
			next_hot(&v, ch == '\t' ? 1 : -1);
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
			follow(&v, dso);
			break;
		case 'h':
		case '?':
		case KEY_F(1):
			tui_help_run(t);
			break;
		case 'q':
		case TUI_ESC:
		case KEY_LEFT:
			goto out;
		default:
			break;
		}
	}
out:
	free(v.lines);
	free(v.line_of);
	xpp_annotation_free(v.a);
	return ex;
}
