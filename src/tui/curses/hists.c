/* The TUI's main view: drawing the entries and their chains, and the keys of perf's report browser. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "tui/curses/hists.h"

/* Lines above and below the list: the title and the column titles, the status line. */
#define HEAD_LINES 2
#define FOOT_LINES 1

static int page_lines(void)
{
	int n = LINES - HEAD_LINES - FOOT_LINES;

	return n > 1 ? n : 1;
}

bool tui_same_function(const struct xpp_hist_key *a, const struct xpp_hist_key *b)
{
	/* source lines apart: frames of one function differ by line when lines are on */
	return a->dso == b->dso && a->sym == b->sym && a->inl == b->inl &&
	       (a->sym >= 0 || a->addr == b->addr);
}

/* The function a line names: a chain line's frame, or an entry's symbol. */
static bool row_function(const struct hists *h, const struct hb_row *r, struct xpp_hist_key *k)
{
	if (r->node) {
		const struct hb_chain *ch = &h->chains[r->entry];

		*k = rv_frame_key(&h->t->c, 0, xpp_cg_node(ch->t, r->node)->key);
		return true;
	}
	*k = hb_key(h, r->entry);
	return k->sym >= 0 || k->addr != 0; /* no symbol column: no function */
}

/* Widths on screen: Command and Shared Object give way so the symbol keeps some room. */
static void screen_widths(const struct hists *h, int *w)
{
	for (unsigned int i = 0; i < h->cols.nr_cols; i++) {
		int cap = h->cols.cols[i] == RV_KEY_COMM ? COLS / 6 :
			  h->cols.cols[i] == RV_KEY_DSO ? COLS / 4 : COLS;

		if (cap < 8)
			cap = 8;
		w[i] = h->cols.width[i] < cap ? h->cols.width[i] : cap;
	}
}

static enum tui_style share_style(double pct)
{
	return pct >= 5.0 ? ST_HOT : pct >= 0.5 ? ST_WARM : ST_NORMAL;
}

/* One member's share, perf's "%7.2f%%" (8 columns). */
static int put_share(int y, int x, double pct, bool selected)
{
	int a = selected ? 0 : tui_attr(share_style(pct));

	attron(a);
	tui_putf(y, x, 8, true, "%7.2f%%", pct);
	attroff(a);
	return x + 8;
}

static void draw_entry(struct hists *h, const struct hb_row *r, int y, bool selected)
{
	const struct rv_ctx *c = &h->t->c;
	struct xpp_hist_key k = hb_key(h, r->entry);
	int x = 0, w[RV_MAX_COLS];
	char buf[512];

	screen_widths(h, w);
	/* perf's columns: the fold marker and a blank where chains are shown, two blanks
	 * between columns; a group's members side by side in each, as perf's --group */
	if (hb_marker(h))
		x += tui_put(y, 0, 2, !r->has_kids || !hb_entry_unfolds(h, r->entry) ? " " :
			     h->expanded[r->entry] ? "-" : "+", true);
	for (unsigned int i = 0; i < hb_nr_shares(h) && x < COLS; i++) {
		if (i && i % hb_nr_members(h) == 0)
			x += tui_put(y, x, 2, "", true);
		x = put_share(y, x, hb_share(h, r->entry, i), selected);
	}
	if (c->o->show_nr_samples) {
		x += tui_put(y, x, 2, "", true);
		for (uint32_t m = 0; m < hb_nr_members(h) && x < COLS; m++)
			x += tui_putf(y, x, 12, true, "%12" PRIu64, hb_samples(h, r->entry, m));
	}
	if (c->o->show_total_period) {
		x += tui_put(y, x, 2, "", true);
		for (uint32_t m = 0; m < hb_nr_members(h) && x < COLS; m++)
			x += tui_putf(y, x, 12, true, "%12" PRIu64, hb_period(h, r->entry, m));
	}
	for (unsigned int i = 0; i < h->cols.nr_cols && x < COLS; i++) {
		unsigned int col = h->cols.cols[i];
		bool last = i + 1 == h->cols.nr_cols;

		x += tui_put(y, x, 2, "  ", true);
		if (col != RV_KEY_SYM && rv_keys[col].align == RV_RIGHT)
			x += tui_putf(y, x, last ? COLS - x : w[i], true, "%*s", w[i],
				      rv_col_text(c, &k, col, buf, sizeof(buf)));
		else if (col != RV_KEY_SYM)
			x += tui_put(y, x, last ? COLS - x : w[i],
				     rv_col_text(c, &k, col, buf, sizeof(buf)), true);
		else
			x += tui_putf(y, x, last ? COLS - x : w[i], true, "[%c] %s%s", (char)k.level,
				      rv_sym_or_addr(c, &k, buf, sizeof(buf)),
				      k.inl ? " (inlined)" : "");
	}
	if (x < COLS)
		tui_put(y, x, COLS - x, "", true);
}

static void draw_chain(const struct hists *h, const struct hb_row *r, int y, bool selected)
{
	const struct hb_chain *ch = &h->chains[r->entry];
	const struct xpp_cg_node *n = xpp_cg_node(ch->t, r->node);
	int x = 3, dim = selected ? 0 : tui_attr(ST_DIM);
	struct xpp_hist_key k = rv_frame_key(&h->t->c, 0, n->key);
	char val[32], name[512];

	tui_put(y, 0, 3, "", true);
	attron(dim);
	for (uint32_t d = 0; d < r->depth && x < COLS; d++) {
		tui_put(y, x, 1, d < 64 && (r->guides >> d & 1) ? tui_glyph(G_VLINE) : " ", true);
		tui_put(y, x + 1, 2, "", true);
		x += 3;
	}
	if (r->first) {
		tui_put(y, x, 1, tui_glyph(r->last ? G_ELBOW : G_TEE), true);
		tui_put(y, x + 1, 1, tui_glyph(G_HLINE), true);
	} else {
		tui_put(y, x, 2, r->last ? " " : tui_glyph(G_VLINE), true);
	}
	attroff(dim);
	x += 2;
	if (r->first) {
		double pct = h->en.ev->total_period ?
			100.0 * (double)n->period / (double)h->en.ev->total_period : 0;
		int a = selected ? 0 : tui_attr(share_style(pct));

		x += tui_putf(y, x, 3, true, " %c ",
			      !r->has_kids ? ' ' : ch->open[r->run_end] ? '-' : '+');
		hb_value_str(h, n->period, n->count, val, sizeof(val));
		attron(a);
		x += tui_putf(y, x, 8, true, "%7s ", val);
		attroff(a);
	} else {
		x += tui_put(y, x, 11, "", true);
	}
	if (x < COLS)
		tui_put(y, x, COLS - x, tui_frame_label(h->t, &k, name, sizeof(name)), true);
}

static void draw_title(const struct hists *h)
{
	const struct xpp_event *ev = h->en.ev;
	uint64_t samples = ev->nr_samples, period = ev->total_period;
	char line[1024], count[32], name[512];
	size_t at;

	if (h->grp.n > 1) { /* perf's title of a group: its events, their samples summed */
		samples = h->grp.nr_samples;
		period = h->grp.total_period;
		rv_group_desc(&h->t->c, h->idx, h->grp.n, name, sizeof(name));
	}
	rv_count_str(samples, count, sizeof(count));
	at = (size_t)snprintf(line, sizeof(line), "Samples: %s of event%s '%s', Event count "
			      "(approx.): %" PRIu64, count, h->grp.n > 1 ? "s" : "",
			      h->grp.n > 1 ? name : rv_event_name(&h->t->c, h->idx, name,
								  sizeof(name)), period);
	if (at < sizeof(line) && h->t->c.o->time) /* the timeline's range, or --time */
		at += (size_t)snprintf(line + at, sizeof(line) - at, ", Time: %s", h->t->c.o->time);
	if (at < sizeof(line))
		hb_zooms_str(h->zooms, h->nr_zooms, line + at, sizeof(line) - at);
	attron(tui_attr(ST_BAR));
	tui_put(0, 0, COLS, line, true);
	attroff(tui_attr(ST_BAR));
}

static void draw_titles(const struct hists *h)
{
	const struct rv_ctx *c = &h->t->c;
	int x = 0, w[RV_MAX_COLS], n = (int)hb_nr_members(h);

	screen_widths(h, w);
	/* each title right-aligned over its members' values, as perf's hpp__width_fn */
	if (hb_marker(h))
		x += tui_put(1, 0, 2, "", true);
	if (hb_children(h))
		x += tui_putf(1, x, 8 * n + 2, true, "%*s  ", 8 * n, "Children");
	x += tui_putf(1, x, 8 * n, true, "%*s", 8 * n, hb_children(h) ? "Self" : "Overhead");
	if (c->o->show_nr_samples)
		x += tui_putf(1, x, 2 + 12 * n, true, "  %*s", 12 * n, "Samples");
	if (c->o->show_total_period)
		x += tui_putf(1, x, 2 + 12 * n, true, "  %*s", 12 * n, "Period");
	for (unsigned int i = 0; i < h->cols.nr_cols && x < COLS; i++) {
		x += tui_put(1, x, 2, "  ", true);
		x += tui_put(1, x, i + 1 == h->cols.nr_cols ? COLS - x : w[i],
			     rv_col_title(h->cols.cols[i]), true);
	}
}

static void draw(struct hists *h)
{
	int page = page_lines();
	char status[320];

	erase();
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + (size_t)page)
		h->top = h->sel - (size_t)page + 1;
	draw_title(h);
	draw_titles(h);
	for (int i = 0; i < page && h->top + (size_t)i < h->nr_rows; i++) {
		const struct hb_row *r = &h->rows[h->top + (size_t)i];
		bool selected = h->top + (size_t)i == h->sel;

		if (selected)
			attron(tui_attr(ST_SELECTED));
		if (r->node)
			draw_chain(h, r, HEAD_LINES + i, selected);
		else
			draw_entry(h, r, HEAD_LINES + i, selected);
		if (selected)
			attroff(tui_attr(ST_SELECTED));
	}
	if (!h->nr_rows)
		tui_put(HEAD_LINES, 2, COLS - 2, h->nr_zooms ?
			"No entries pass the zooms and filters: Esc takes the last one back." :
			"No entries.", false);
	if (h->msg[0])
		snprintf(status, sizeof(status), "%s", h->msg);
	else if (h->t->status[0]) /* a live source's: samples per second, lost samples */
		snprintf(status, sizeof(status), "%s   ? for keys", h->t->status);
	else
		snprintf(status, sizeof(status), "Press '?' for help on key bindings");
	attron(tui_attr(ST_BAR));
	tui_put(LINES - 1, 0, COLS, status, true);
	if (h->nr_rows) {
		char pos[48];
		int w = snprintf(pos, sizeof(pos), " %zu/%zu ", h->sel + 1, h->nr_rows);

		if (w + tui_width(status) < COLS)
			tui_put(LINES - 1, COLS - w, w, pos, false);
	}
	attroff(tui_attr(ST_BAR));
}

/* ---- zooms ---- */

static int find_zoom(const struct hists *h, enum hb_zoom_kind kind)
{
	for (unsigned int i = 0; i < h->nr_zooms; i++)
		if (h->zooms[i].kind == kind)
			return (int)i;
	return -1;
}

static void drop_zoom(struct hists *h, int i)
{
	memmove(&h->zooms[i], &h->zooms[i + 1], (h->nr_zooms - (unsigned int)i - 1) *
		sizeof(h->zooms[0]));
	h->nr_zooms--;
}

/* d, t, k, /: a zoom of this kind replaces the one before; the same key again takes it back. */
static int zoom(struct hists *h, enum hb_zoom_kind kind, uint32_t id, const char *text)
{
	int i = find_zoom(h, kind);

	if (i >= 0) {
		bool same = h->zooms[i].id == id && !strcmp(h->zooms[i].text, text);

		drop_zoom(h, i);
		if (same && kind != Z_SYM) {
			snprintf(h->msg, sizeof(h->msg), "zoom out");
			return hb_flatten(h);
		}
	}
	if (kind == Z_SYM && !text[0])
		return hb_flatten(h); /* an empty filter only clears the last one */
	if (h->nr_zooms == HB_MAX_ZOOMS)
		drop_zoom(h, 0);
	h->zooms[h->nr_zooms].kind = kind;
	h->zooms[h->nr_zooms].id = id;
	snprintf(h->zooms[h->nr_zooms].text, sizeof(h->zooms[0].text), "%s", text);
	h->nr_zooms++;
	h->sel = 0;
	h->top = 0;
	return hb_flatten(h);
}

static bool has_col(const struct hists *h, unsigned int key)
{
	for (unsigned int i = 0; i < h->t->c.nr_cols; i++)
		if (h->t->c.cols[i] == key)
			return true;
	return false;
}

static int zoom_key(struct hists *h, int ch)
{
	const struct rv_ctx *c = &h->t->c;
	struct xpp_hist_key k;
	char buf[128];

	if (ch == '/') {
		const char *s = tui_prompt(h->t, "Symbol filter (empty: none): ", buf, sizeof(buf));

		if (!s)
			return 0;
		return zoom(h, Z_SYM, 0, s);
	}
	if (ch == 'k' || ch == 'K')
		return zoom(h, Z_KERNEL, 0, "");
	if (h->sel >= h->nr_rows) {
		snprintf(h->msg, sizeof(h->msg), "no entry selected");
		return 0;
	}
	k = hb_key(h, h->rows[h->sel].entry);
	if (ch == 'd') {
		if (!has_col(h, RV_KEY_DSO) && !has_col(h, RV_KEY_SYM)) {
			snprintf(h->msg, sizeof(h->msg), "d: the entries have no shared object "
				 "(--sort without dso or sym)");
			return 0;
		}
		return zoom(h, Z_DSO, k.dso, rv_dso_name(c, &k));
	}
	/*
	 * t: entries keyed by thread (--sort pid) zoom into the selected thread, as perf's
	 * "Thread: name(tid)"; entries keyed by command only hold every thread of that name,
	 * so they zoom into the command.
	 */
	if (has_col(h, RV_KEY_PID)) {
		int32_t pid = (int32_t)(k.val[XPP_VAL_THREAD] >> 32);
		int32_t tid = (int32_t)(uint32_t)k.val[XPP_VAL_THREAD];

		snprintf(buf, sizeof(buf), "%s(%d)", xpp_profile_thread_name(c->p, pid, tid), tid);
		return zoom(h, Z_THREAD, (uint32_t)tid, buf);
	}
	if (!has_col(h, RV_KEY_COMM)) {
		snprintf(h->msg, sizeof(h->msg), "t: the entries have no thread nor command "
			 "(--sort without pid or comm)");
		return 0;
	}
	return zoom(h, Z_COMM, k.comm, rv_comm_name(c, &k));
}

/* ---- other keys ---- */

static enum tui_exit show_header(struct hists *h)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	enum tui_exit ex;

	if (!h->t->o->header) {
		snprintf(h->msg, sizeof(h->msg), "i: no file header to show");
		return TUI_BACK;
	}
	f = open_memstream(&text, &size);
	if (!f) {
		snprintf(h->msg, sizeof(h->msg), "cannot show the header: %s", strerror(errno));
		return TUI_BACK;
	}
	h->t->o->header(h->t->r, h->t->o->captured, f);
	fclose(f);
	ex = tui_pager_run(h->t, "File header", text);
	free(text);
	return ex;
}

static void save(struct hists *h)
{
	char path[64];
	size_t lines = 0;
	int ret = -EEXIST;

	for (int i = 0; i < 1000 && ret == -EEXIST; i++) {
		snprintf(path, sizeof(path), "xperf.hist.%d", i);
		ret = hb_save(h, path, &lines);
	}
	if (ret < 0)
		snprintf(h->msg, sizeof(h->msg), "cannot save the lines: %s", strerror(-ret));
	else
		snprintf(h->msg, sizeof(h->msg), "%zu lines saved to %s", lines, path);
}

static enum tui_exit open_view(struct hists *h, int ch)
{
	struct xpp_hist_key k;
	bool fn = h->sel < h->nr_rows && row_function(h, &h->rows[h->sel], &k);

	if (ch == 'f') {
		if (!h->en.ev->cg) {
			snprintf(h->msg, sizeof(h->msg), "f: %s", tui_no_chains(h->t));
			return TUI_BACK;
		}
		return tui_flame_run(h->t, h->idx, fn ? &k : NULL, h->zooms, h->nr_zooms);
	}
	if (!h->en.chains) {
		snprintf(h->msg, sizeof(h->msg), "c: %s", tui_no_chains(h->t));
		return TUI_BACK;
	}
	if (!fn) {
		snprintf(h->msg, sizeof(h->msg), "c: select a line with a function (--sort with sym)");
		return TUI_BACK;
	}
	return tui_callers_run(h->t, &h->en, &k);
}

/* a: the selected entry's symbol, or the function of the selected chain line */
static enum tui_exit annotate(struct hists *h)
{
	struct xpp_hist_key k;

	if (h->sel >= h->nr_rows || !row_function(h, &h->rows[h->sel], &k) || k.sym < 0 ||
	    k.dso == XPP_HIST_NO_DSO) {
		snprintf(h->msg, sizeof(h->msg), "a: select a line with a symbol to annotate");
		return TUI_BACK;
	}
	return tui_annotate_run(h->t, h->idx, k.dso, k.sym, h->msg, sizeof(h->msg));
}

/* L: hide the entries under a share, as perf's key (0: show all again) */
static int percent_limit_key(struct hists *h)
{
	char buf[32], *end;
	const char *s = tui_prompt(h->t, "Hide entries under percent (0: none): ", buf, sizeof(buf));
	double pct;

	if (!s)
		return 0;
	pct = strtod(s, &end);
	while (*end == ' ' || *end == '%')
		end++;
	if (end == s || *end || !(pct >= 0 && pct <= 100)) {
		snprintf(h->msg, sizeof(h->msg), "invalid percent: '%s' (0 to 100)", s);
		return 0;
	}
	h->percent_limit = pct;
	if (pct > 0)
		snprintf(h->msg, sizeof(h->msg), "entries under %g%% hidden", pct);
	else
		snprintf(h->msg, sizeof(h->msg), "every entry shown");
	return hb_flatten(h);
}

/*
 * s: other sort keys, as --sort takes them. Checked here (the view library would print its
 * complaint on the screen): each a key of the table, none twice. The caller then counts the
 * samples again from what the profile kept of them (never the file).
 */
static int sort_key(struct hists *h)
{
	char buf[128], names[256];
	const char *s = tui_prompt(h->t, "Sort keys (as --sort, e.g. dso,sym): ", buf, sizeof(buf));
	uint64_t seen = 0;

	if (!s || !*s)
		return -1;
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, ",");
		int k = rv_key_find(p, n);

		if (k < 0 || (k < 64 && (seen >> k & 1))) {
			snprintf(h->msg, sizeof(h->msg), "%s sort key '%.*s': use %s",
				 k < 0 ? "unknown" : "repeated", (int)(n < 32 ? n : 32), p,
				 rv_key_names(names, sizeof(names)));
			return -1;
		}
		if (k < 64)
			seen |= 1ULL << k;
		p += n;
		if (*p == ',')
			p++;
	}
	snprintf(h->t->resort, sizeof(h->t->resort), "%s", s);
	return TUI_RESORT;
}

/* One key; a tui_exit to leave the view, -1 to stay. */
static int key(struct hists *h, int ch, bool has_list)
{
	int page = page_lines(), ret = 0;

	if (ch == ' ') /* perf's Space: a page down */
		ch = KEY_NPAGE;
	/* k zooms into the kernel, as in perf's browser; j and the arrows move */
	if (ch != 'k' && tui_move(ch, &h->sel, h->nr_rows, (size_t)page)) {
		/* a page key turns the page, the selection keeping its place on screen */
		if (ch == KEY_PPAGE)
			h->top = h->top > (size_t)page ? h->top - (size_t)page : 0;
		else if (ch == KEY_NPAGE && h->top + 2 * (size_t)page <= h->nr_rows)
			h->top += (size_t)page;
		return -1;
	}
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
	case KEY_RIGHT:
	case '+':
		ret = hb_toggle(h);
		break;
	case '\t':
	case KEY_BTAB:
		if (has_list)
			return ch == '\t' ? TUI_NEXT_EVENT : TUI_PREV_EVENT;
		snprintf(h->msg, sizeof(h->msg), "Tab: the file has one event with samples");
		break;
	case 'L':
		ret = percent_limit_key(h);
		break;
	case 's':
		if (sort_key(h) == TUI_RESORT)
			return TUI_RESORT;
		break;
	case 'o': /* children and self, or self alone: the pass computes one of them */
		if (!h->t->c.callchains) {
			snprintf(h->msg, sizeof(h->msg), "o: %s", tui_no_chains(h->t));
			break;
		}
		h->t->flip_children = true;
		/* the keys stay (after an s they are in resort already: no copy onto itself) */
		if (h->t->c.o->sort != h->t->resort)
			snprintf(h->t->resort, sizeof(h->t->resort), "%s",
				 h->t->c.o->sort ? h->t->c.o->sort : "");
		return TUI_RESORT;
	case 'e':
		ret = hb_toggle_entry_all(h);
		break;
	case 'E':
	case 'C':
		ret = hb_all(h, ch == 'E');
		break;
	case '/':
	case 'd':
	case 't':
	case 'k':
	case 'K':
		ret = zoom_key(h, ch);
		break;
	case TUI_ESC:
	case KEY_LEFT:
		if (h->nr_zooms) {
			drop_zoom(h, (int)h->nr_zooms - 1);
			snprintf(h->msg, sizeof(h->msg), "zoom out");
			ret = hb_flatten(h);
		} else if (has_list) {
			return TUI_BACK;
		} else {
			snprintf(h->msg, sizeof(h->msg), "nothing to go back to: q quits");
		}
		break;
	case 'a':
		if (annotate(h) == TUI_QUIT)
			return TUI_QUIT;
		break;
	case 'i':
		if (show_header(h) == TUI_QUIT)
			return TUI_QUIT;
		break;
	case 'T': { /* the timeline: a range chosen there counts the logged samples again */
		enum tui_exit ex = tui_timeline_run(h->t, h->idx, h->msg, sizeof(h->msg));

		if (ex == TUI_QUIT || ex == TUI_RESORT)
			return ex;
		break;
	}
	case 'P':
		save(h);
		break;
	case 'f':
	case 'c':
		if (open_view(h, ch) == TUI_QUIT)
			return TUI_QUIT;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		if (tui_help_run(h->t) == TUI_QUIT)
			return TUI_QUIT;
		break;
	case 'q':
		return TUI_QUIT;
	default:
		break;
	}
	if (ret < 0)
		snprintf(h->msg, sizeof(h->msg), "out of memory");
	return -1;
}

enum tui_exit tui_hists_run(struct tui *t, uint32_t idx)
{
	struct hists h;
	bool has_list = false;
	int ret;

	for (uint32_t i = 0; i < t->c.nr_ev; i++)
		if (i != idx && tui_event_listed(t, i))
			has_list = true;
	if (hb_init(&h, t, idx) < 0)
		return TUI_QUIT;
	/* diff --tui opens on the differential flame graph; its q comes back here */
	if (t->src && t->src->baseline && !t->diff_shown && t->src->baseline->event[idx] >= 0 &&
	    t->c.ev[idx].cg) {
		t->diff_shown = true;
		if (tui_flame_run(t, idx, NULL, NULL, 0) == TUI_QUIT) {
			hb_free(&h);
			return TUI_QUIT;
		}
	}
	for (;;) {
		int ch;

		draw(&h);
		ch = tui_getkey_live(t);
		if (ch == TUI_KEY_REDRAW) /* the status line: the message stays until a key */
			continue;
		if (ch == TUI_KEY_REFRESH) {
			/* the message stays until a key; events may have samples now */
			for (uint32_t i = 0; i < t->c.nr_ev; i++)
				if (i != idx && tui_event_listed(t, i))
					has_list = true;
			if (hb_reload(&h) < 0)
				return TUI_QUIT;
			continue;
		}
		h.msg[0] = 0;
		ret = key(&h, ch, has_list);
		if (ret >= 0)
			break;
	}
	hb_free(&h);
	return (enum tui_exit)ret;
}
