/* The TUI's annotate view: a symbol's instructions with their shares and source lines, from the profile's annotation API. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "profile/disasm/annotate.h"
#include "tui/curses/tui_int.h"

/* A line of the view: a source line above the instructions it made, or an instruction. */
struct ann_line {
	uint32_t insn;          /* the instruction, or the first one under the source line */
	bool source;
};

/* A line of the source-only view: one source line, its instructions' samples added up. */
struct src_line {
	uint32_t file, line;
	uint32_t hottest;       /* its instruction with most period */
	uint64_t period, nr_samples;
	double percent;
};

/* What the share column shows, as perf's t key goes round them. */
enum ann_value { AV_PERCENT, AV_PERIOD, AV_SAMPLES };

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
	enum ann_value value;   /* t */
	bool source_only;       /* s: the source lines with their totals */
	struct src_line *src;
	size_t nr_src, src_sel, src_top;
	char search[64];        /* / and n: the text last searched for */
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

static int cmp_src(const void *a, const void *b)
{
	const struct src_line *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The source-only view's lines: each source line once, in file and line order, with the
 * samples of every instruction it made (however scattered the optimiser left them). */
static int build_src(struct annot *v)
{
	size_t n = 0;

	v->src = malloc(((size_t)v->nr_in + 1) * sizeof(*v->src));
	if (!v->src)
		return -ENOMEM;
	for (uint32_t i = 0; i < v->nr_in; i++)
		if (v->in[i].line)
			v->src[n++] = (struct src_line){ v->in[i].file, v->in[i].line, i,
							 v->in[i].period, v->in[i].nr_samples,
							 v->in[i].percent };
	qsort(v->src, n, sizeof(*v->src), cmp_src);
	v->nr_src = 0;
	for (size_t i = 0; i < n; i++) {
		struct src_line *o = v->nr_src ? &v->src[v->nr_src - 1] : NULL;

		if (o && o->file == v->src[i].file && o->line == v->src[i].line) {
			if (v->in[v->src[i].hottest].period > v->in[o->hottest].period)
				o->hottest = v->src[i].hottest;
			o->period += v->src[i].period;
			o->nr_samples += v->src[i].nr_samples;
			o->percent += v->src[i].percent;
		} else {
			v->src[v->nr_src++] = v->src[i];
		}
	}
	return 0;
}

static void select_insn(struct annot *v, uint32_t i)
{
	if (i < v->nr_in)
		v->sel = v->line_of[i];
}

/* A source line: file:line and its text after `indent` columns (the selection spans it). */
static void draw_source_at(struct annot *v, int y, int indent, uint32_t file, uint32_t line,
			   bool selected)
{
	const char *f = xpp_annotation_file(v->a, file), *slash = f ? strrchr(f, '/') : NULL;
	const char *text = xpp_annotation_src_text(v->a, file, line);
	int col, a = selected ? 0 : tui_attr(ST_DIM);

	attron(a);
	col = tui_putf(y, indent, COLS - indent, false, "%s:%u", slash ? slash + 1 : f ? f : "??",
		       line) + indent;
	attroff(a);
	if (text && col + 2 < COLS) {
		while (*text == ' ' || *text == '\t')
			text++;
		col += tui_put(y, col, 2, "", true);
		col += tui_put(y, col, COLS - col, text, false);
	}
	if (col < COLS)
		tui_put(y, col, COLS - col, "", true); /* the selection's bar to the edge */
}

static void draw_source(struct annot *v, int y, const struct xpp_ann_insn *x, bool selected)
{
	tui_put(y, 0, 19, "", true);
	draw_source_at(v, y, 19, x->file, x->line, selected);
}

static void draw_insn(struct annot *v, int y, uint32_t i, bool selected)
{
	const struct xpp_ann_insn *x = &v->in[i];
	int a = 0, x0;

	if (!selected && x->period)
		a = tui_attr(i == v->info->hottest || x->percent >= 5.0 ? ST_HOT :
			     x->percent >= 0.5 ? ST_WARM : ST_NORMAL);
	attron(a);
	if (!x->period)
		x0 = tui_put(y, 0, 9, "", true);
	else if (v->value == AV_PERIOD)
		x0 = tui_putf(y, 0, 9, true, "%9" PRIu64, x->period);
	else if (v->value == AV_SAMPLES)
		x0 = tui_putf(y, 0, 9, true, "%9" PRIu64, x->nr_samples);
	else
		x0 = tui_putf(y, 0, 9, true, "%8.2f%%", x->percent);
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

static void draw_value(struct annot *v, int y, uint64_t period, uint64_t samples, double pct,
		       bool selected)
{
	int a = selected || !period ? 0 : tui_attr(pct >= 5.0 ? ST_HOT : pct >= 0.5 ? ST_WARM :
								       ST_NORMAL);

	attron(a);
	if (!period)
		tui_put(y, 0, 10, "", true);
	else if (v->value == AV_PERIOD)
		tui_putf(y, 0, 10, true, "%9" PRIu64 " ", period);
	else if (v->value == AV_SAMPLES)
		tui_putf(y, 0, 10, true, "%9" PRIu64 " ", samples);
	else
		tui_putf(y, 0, 10, true, "%8.2f%% ", pct);
	attroff(a);
}

/* s: each source line once, with the share of the instructions it made */
static void draw_src_view(struct annot *v, int page)
{
	if (v->src_sel < v->src_top)
		v->src_top = v->src_sel;
	if (v->src_sel >= v->src_top + (size_t)page)
		v->src_top = v->src_sel - (size_t)page + 1;
	for (int i = 0; i < page && v->src_top + (size_t)i < v->nr_src; i++) {
		const struct src_line *l = &v->src[v->src_top + (size_t)i];
		bool sel = v->src_top + (size_t)i == v->src_sel;

		if (sel)
			attron(tui_attr(ST_SELECTED));
		draw_value(v, 1 + i, l->period, l->nr_samples, l->percent, sel);
		draw_source_at(v, 1 + i, 10, l->file, l->line, sel);
		if (sel)
			attroff(tui_attr(ST_SELECTED));
	}
}

static void draw(struct annot *v)
{
	int page = LINES - 2 > 1 ? LINES - 2 : 1;
	char ev[64];

	if (v->source_only) {
		erase();
		attron(tui_attr(ST_BAR));
		tui_putf(0, 0, COLS, true, "Source of %s (%s): %" PRIu64 " samples, %zu lines",
			 v->info->sym_name, v->info->dso_name, v->info->nr_samples, v->nr_src);
		attroff(tui_attr(ST_BAR));
		draw_src_view(v, page);
		attron(tui_attr(ST_BAR));
		tui_put(LINES - 1, 0, COLS, v->msg[0] ? v->msg :
			"Enter: its instructions   s: instructions   t: percent/period/samples   "
			"/: search   Esc: back", true);
		attroff(tui_attr(ST_BAR));
		return;
	}

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
			draw_source(v, 1 + i, &v->in[l->insn], sel);
		else
			draw_insn(v, 1 + i, l->insn, sel);
		if (sel)
			attroff(tui_attr(ST_SELECTED));
	}
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, v->msg[0] ? v->msg :
		"Tab: next hot   Enter: follow a jump or call   s: source   t: percent/period/"
		"samples   /: search   Esc: back", true);
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

/* Whether line l (of the view shown) holds text. */
static bool line_has(struct annot *v, size_t l, const char *text)
{
	const struct xpp_ann_insn *x;
	const char *src;
	char buf[32];

	if (v->source_only) {
		src = xpp_annotation_src_text(v->a, v->src[l].file, v->src[l].line);
		return src && strstr(src, text);
	}
	x = &v->in[v->lines[l].insn];
	if (v->lines[l].source) {
		src = xpp_annotation_src_text(v->a, x->file, x->line);
		return src && strstr(src, text);
	}
	snprintf(buf, sizeof(buf), "%" PRIx64, x->addr);
	return strstr(x->mnemonic, text) || strstr(x->short_operands, text) ||
	       strstr(x->operands, text) || !strcmp(buf, text);
}

/* / then n, N: the next (dir 1) or previous line with the text, round the end */
static void search(struct annot *v, int dir)
{
	size_t n = v->source_only ? v->nr_src : v->nr_lines;
	size_t *sel = v->source_only ? &v->src_sel : &v->sel;

	if (!v->search[0]) {
		snprintf(v->msg, sizeof(v->msg), "nothing searched for yet: / asks for a text");
		return;
	}
	for (size_t k = 1; k <= n; k++) {
		size_t l = (*sel + n + (dir > 0 ? k : n - k % n)) % n;

		if (line_has(v, l, v->search)) {
			*sel = l;
			return;
		}
	}
	snprintf(v->msg, sizeof(v->msg), "'%s' not found", v->search);
}

/* Enter: a jump inside the symbol moves there; a call opens its callee. */
static enum tui_exit follow(struct annot *v, uint32_t dso)
{
	const struct ann_line *l = &v->lines[v->sel];
	const struct xpp_ann_insn *x = &v->in[l->insn];

	if (l->source) { /* a source line: the hottest instruction it made */
		uint32_t best = l->insn;

		for (uint32_t i = 0; i < v->nr_in; i++)
			if (v->in[i].file == x->file && v->in[i].line == x->line &&
			    v->in[i].period > v->in[best].period)
				best = i;
		select_insn(v, best);
		return TUI_BACK;
	}
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
	if (build_lines(&v) < 0 || build_src(&v) < 0 || !v.nr_lines) {
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
		if (v.source_only ? tui_move(ch, &v.src_sel, v.nr_src, (size_t)(LINES > 2 ? LINES - 2 : 1)) :
				    tui_move(ch, &v.sel, v.nr_lines, (size_t)(LINES > 2 ? LINES - 2 : 1)))
			continue;
		switch (ch) {
		case 't': /* perf's t: percent, then period, then samples */
			v.value = (enum ann_value)((v.value + 1) % 3);
			snprintf(v.msg, sizeof(v.msg), "showing %s", v.value == AV_PERCENT ? "percent" :
				 v.value == AV_PERIOD ? "period" : "samples");
			continue;
		case 's':
			if (!v.nr_src) {
				snprintf(v.msg, sizeof(v.msg), "no source lines: %s",
					 v.info->has_lines ? "none for this symbol" :
					 "no line table for this object");
				continue;
			}
			v.source_only = !v.source_only;
			if (v.source_only) { /* the selected instruction's line */
				const struct xpp_ann_insn *x = &v.in[v.lines[v.sel].insn];

				for (size_t i = 0; i < v.nr_src; i++)
					if (v.src[i].file == x->file && v.src[i].line == x->line)
						v.src_sel = i;
			}
			continue;
		case '/': {
			char buf[64];

			if (tui_prompt(t, "Search: ", buf, sizeof(buf)) && buf[0]) {
				snprintf(v.search, sizeof(v.search), "%s", buf);
				search(&v, 1);
			}
			continue;
		}
		case 'n':
		case 'N':
			search(&v, ch == 'n' ? 1 : -1);
			continue;
		default:
			break;
		}
		if (v.source_only && (ch == '\n' || ch == '\r' || ch == KEY_ENTER)) {
			v.source_only = false;
			select_insn(&v, v.src[v.src_sel].hottest);
			continue;
		}
		if (v.source_only && (ch == TUI_ESC || ch == KEY_LEFT)) {
			v.source_only = false;
			continue;
		}
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
	free(v.src);
	free(v.lines);
	free(v.line_of);
	xpp_annotation_free(v.a);
	return ex;
}
