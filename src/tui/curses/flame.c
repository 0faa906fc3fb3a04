/*
 * The TUI's flame graph: one row per stack depth, root at the bottom (or, inverted, at the
 * top), each frame as wide as its share; `/` highlights the frames whose name contains a
 * text and gives their share, n and N go from one to the next.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "base/array.h"
#include "tui/curses/hists.h"
#include "tui/curses/tui_int.h"

/* A frame drawn on screen: the node of the event's tree and its columns [x0, x1). */
struct box {
	uint32_t node, depth;
	int x0, x1;
};

#define MAX_ZOOMS 64

/* A node's share under the main view's zooms: only samples whose own frame passes them. */
struct weight {
	uint64_t period, count, self_period;
};

struct flame {
	struct tui *t;
	uint32_t idx;
	const xpp_callgraph *cg;
	const struct xpp_event *ev;
	uint32_t zooms[MAX_ZOOMS];
	unsigned int nr_zooms;
	uint32_t sel;
	uint32_t vlo;            /* the lowest depth on screen (deep stacks scroll) */
	struct box *boxes;
	size_t nr_boxes, cap_boxes;
	uint32_t maxdepth;
	int cols;                /* the width the boxes were laid out for */
	struct weight *w;        /* per node with main-view zooms; NULL: the tree's own */
	char filtered[256];      /* the main view's zooms, for the title ("" without) */
	bool inverted;           /* the root on the top row, callees below (an icicle graph) */
	char search[128];        /* the text `/` looks for ("" none) */
	uint8_t *match;          /* per node: its name contains it; NULL without a search */
	uint64_t matched;        /* the period of the matched nodes, nested ones counted once */
	char msg[256];           /* the status line's message until the next key ("" none) */
	struct tui_flame_diff diff; /* a differential graph's colours (diff.delta NULL: none) */
};

static uint64_t w_period(const struct flame *f, uint32_t id)
{
	return f->w ? f->w[id].period : xpp_cg_node(f->cg, id)->period;
}

static uint64_t w_count(const struct flame *f, uint32_t id)
{
	return f->w ? f->w[id].count : xpp_cg_node(f->cg, id)->count;
}

static uint64_t w_self(const struct flame *f, uint32_t id)
{
	return f->w ? f->w[id].self_period : xpp_cg_node(f->cg, id)->self_period;
}

/*
 * Weigh every node by the samples the zooms let through: a node's own samples count when
 * its frame (with the command or thread above it) passes, and each node adds up its
 * descendants. Nodes are numbered after their parents, so one pass down and one up do it.
 */
static int weigh(struct flame *f, const struct hb_zoom *zooms, unsigned int nr_zooms)
{
	uint32_t nr = xpp_cg_nr_nodes(f->cg), *root;

	if (!nr_zooms)
		return 0;
	f->w = calloc(nr, sizeof(*f->w));
	root = calloc(nr, sizeof(*root));
	if (!f->w || !root) {
		free(root);
		return -ENOMEM;
	}
	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *n = xpp_cg_node(f->cg, i);

		root[i] = n->depth == 1 ? n->key : root[n->parent];
	}
	for (uint32_t i = nr; i-- > 1;) {
		const struct xpp_cg_node *n = xpp_cg_node(f->cg, i);
		struct xpp_hist_key k;

		if (n->self_count) {
			if (n->depth == 1)
				k = xpp_profile_root_key(f->t->c.p, root[i]);
			else
				k = rv_frame_key(&f->t->c, root[i], n->key);
			if (hb_key_in_zooms(f->t, zooms, nr_zooms, &k)) {
				f->w[i].self_period = n->self_period;
				f->w[i].period += n->self_period;
				f->w[i].count += n->self_count;
			}
		}
		f->w[n->parent].period += f->w[i].period;
		f->w[n->parent].count += f->w[i].count;
	}
	free(root);
	return 0;
}

static uint32_t zoom_of(const struct flame *f)
{
	return f->nr_zooms ? f->zooms[f->nr_zooms - 1] : 0;
}

static const char *node_name(const struct flame *f, uint32_t id, char *buf, size_t size)
{
	const struct xpp_cg_node *n = xpp_cg_node(f->cg, id);
	struct xpp_hist_key k;
	const char *s;

	if (!id)
		return "all";
	if (n->depth == 1) {
		s = xpp_intern_str(f->t->c.comms, xpp_profile_root_comm(f->t->c.p, n->key));
		return s ? s : "[unknown]";
	}
	k = rv_frame_key(&f->t->c, 0, n->key);
	return tui_frame_label(f->t, &k, buf, size);
}

static int add_box(struct flame *f, uint32_t node, uint32_t depth, int x0, int x1)
{
	if (f->nr_boxes == f->cap_boxes &&
	    XB_ARRAY_RESERVE(f->boxes, f->cap_boxes, f->nr_boxes + 1, 1024))
		return -ENOMEM;
	f->boxes[f->nr_boxes++] = (struct box){ node, depth, x0, x1 };
	if (depth > f->maxdepth)
		f->maxdepth = depth;
	return 0;
}

static int cmp_period(const void *pa, const void *pb, void *arg)
{
	const struct flame *f = arg;
	uint64_t a = w_period(f, *(const uint32_t *)pa), b = w_period(f, *(const uint32_t *)pb);

	if (a != b)
		return a > b ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* The children of id inside [x0, x1), widest first ("left heavy"), and theirs. */
static int layout_kids(struct flame *f, uint32_t id, int x0, int x1)
{
	const struct xpp_cg_node *n = xpp_cg_node(f->cg, id);
	uint32_t nr = 0, *kids;
	uint64_t cum = 0;
	int ret = 0;

	for (uint32_t c = n->first_child; c; c = xpp_cg_node(f->cg, c)->next_sibling)
		nr++;
	if (!nr || !w_period(f, id))
		return 0;
	kids = malloc(nr * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	nr = 0;
	for (uint32_t c = n->first_child; c; c = xpp_cg_node(f->cg, c)->next_sibling)
		kids[nr++] = c;
	qsort_r(kids, nr, sizeof(*kids), cmp_period, f);
	for (uint32_t i = 0; i < nr && !ret; i++) {
		const struct xpp_cg_node *k = xpp_cg_node(f->cg, kids[i]);
		double whole = (double)w_period(f, id);
		int a = x0 + (int)((double)cum * (x1 - x0) / whole + 0.5), b;

		cum += w_period(f, kids[i]);
		b = x0 + (int)((double)cum * (x1 - x0) / whole + 0.5);
		if (b <= a)
			break; /* sorted: the rest are narrower still */
		ret = add_box(f, kids[i], k->depth, a, b);
		if (!ret)
			ret = layout_kids(f, kids[i], a, b);
	}
	free(kids);
	return ret;
}

/* The zoomed frame and its ancestors full width, everything it calls in proportion. */
static int layout(struct flame *f)
{
	uint32_t z = zoom_of(f), path[1024], n = 0;
	int ret = 0;

	f->nr_boxes = 0;
	f->maxdepth = 0;
	f->cols = COLS;
	for (uint32_t x = z;; x = xpp_cg_node(f->cg, x)->parent) {
		if (n < sizeof(path) / sizeof(path[0]))
			path[n++] = x;
		if (!x)
			break;
	}
	while (n-- > 0 && !ret)
		ret = add_box(f, path[n], xpp_cg_node(f->cg, path[n])->depth, 0, COLS);
	return ret ? ret : layout_kids(f, z, 0, COLS);
}

static const struct box *box_of(const struct flame *f, uint32_t node)
{
	for (size_t i = 0; i < f->nr_boxes; i++)
		if (f->boxes[i].node == node)
			return &f->boxes[i];
	return NULL;
}

static enum tui_style hue(const char *s)
{
	unsigned int h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return (enum tui_style)(ST_FLAME1 + h % 3);
}

/*
 * Mark the nodes whose name contains f->search and add up their period, a node under a
 * matched one counted in it: the matched share of the samples, as flamegraph.pl gives it.
 * Nodes are numbered after their parents, so one pass in id order sees callers first.
 */
static int search(struct flame *f)
{
	uint32_t nr = xpp_cg_nr_nodes(f->cg);
	uint8_t *under;
	char name[256];

	free(f->match);
	f->match = NULL;
	f->matched = 0;
	if (!f->search[0])
		return 0;
	f->match = calloc(nr, 1);
	under = calloc(nr, 1); /* the node or a caller of it matched */
	if (!f->match || !under) {
		free(under);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nr; i++) {
		const struct xpp_cg_node *n = xpp_cg_node(f->cg, i);
		bool up = i && under[n->parent];

		f->match[i] = strstr(node_name(f, i, name, sizeof(name)), f->search) != NULL;
		if (f->match[i] && !up)
			f->matched += w_period(f, i);
		under[i] = up || f->match[i];
	}
	free(under);
	return 0;
}

static void draw(struct flame *f)
{
	int rows = LINES - 2 > 1 ? LINES - 2 : 1;
	const struct xpp_cg_node *sn = xpp_cg_node(f->cg, f->sel);
	double total = (double)f->ev->total_period, zp;
	char name[256], count[32], ev[96], matched[384], diff_title[320] = "", change[96] = "";
	char title[1024];

	/* the selected depth stays on screen */
	if (f->maxdepth < (uint32_t)rows)
		f->vlo = 0;
	else if (sn->depth < f->vlo)
		f->vlo = sn->depth;
	else if (sn->depth >= f->vlo + (uint32_t)rows)
		f->vlo = sn->depth - (uint32_t)rows + 1;
	erase();
	rv_count_str(w_count(f, 0), count, sizeof(count));
	count[strcspn(count, " ")] = 0; /* perf's blank for no unit */
	if (f->diff.delta) {
		snprintf(diff_title, sizeof(diff_title), " against %" PRIu64 " of %s",
			 f->diff.base_samples, f->diff.name ? f->diff.name : "OLD");
		snprintf(change, sizeof(change), ", %+.2f%% from %s", 100.0 * f->diff.delta[f->sel],
			 f->diff.name ? f->diff.name : "OLD");
	}
	/* the event as the main view names it: under --wall, on- and off-CPU time merged */
	snprintf(title, sizeof(title), "%s%s: %s samples of event '%s'%s%s%s%s",
		 f->diff.delta ? "Differential " : "",
		 f->inverted ? (f->diff.delta ? "icicle graph" : "Icicle graph") :
			       (f->diff.delta ? "flame graph" : "Flame graph"), count,
		 rv_event_name(&f->t->c, f->idx, ev, sizeof(ev)), diff_title, f->filtered,
		 f->nr_zooms ? ", zoom: " : "",
		 f->nr_zooms ? node_name(f, zoom_of(f), name, sizeof(name)) : "");
	/* the colours' legend where there is room for it */
	if (f->diff.delta && tui_width(title) + 23 <= COLS)
		snprintf(title + strlen(title), sizeof(title) - strlen(title),
			 ": red grew, blue shrank");
	attron(tui_attr(ST_BAR));
	tui_put(0, 0, COLS, title, true);
	attroff(tui_attr(ST_BAR));
	for (size_t i = 0; i < f->nr_boxes; i++) {
		const struct box *b = &f->boxes[i];
		int y, w = b->x1 - b->x0, a;
		const char *s;

		if (b->depth < f->vlo || b->depth >= f->vlo + (uint32_t)rows)
			continue;
		y = f->inverted ? 1 + (int)(b->depth - f->vlo) : LINES - 2 - (int)(b->depth - f->vlo);
		s = node_name(f, b->node, name, sizeof(name));
		a = tui_attr(b->node == f->sel ? ST_SELECTED :
			     f->match && f->match[b->node] ? ST_MATCH :
			     f->diff.delta ? tui_flame_diff_style(&f->diff, b->node) : hue(s));
		if (b->node == f->sel && !tui_term_color())
			a |= A_BOLD;
		attron(a);
		if (w == 1) {
			tui_put(y, b->x0, 1, "|", true);
		} else {
			tui_put(y, b->x0, 1, "[", true);
			tui_put(y, b->x0 + 1, w - 2, s, true);
			tui_put(y, b->x1 - 1, 1, "]", true);
		}
		attroff(a);
	}
	zp = (double)w_period(f, zoom_of(f));
	attron(tui_attr(ST_BAR));
	/* the search's share first: it stays on screen however long the frame's name */
	matched[0] = 0;
	if (f->match)
		snprintf(matched, sizeof(matched), "Matched '%s': %.2f%% | ", f->search,
			 total ? 100.0 * (double)f->matched / total : 0);
	/* then n's place among the matches, then the selected frame */
	if (f->msg[0])
		snprintf(matched + strlen(matched), sizeof(matched) - strlen(matched), "%s | ",
			 f->msg);
	tui_putf(LINES - 1, 0, COLS, true, "%s%s: %.2f%% (%" PRIu64 " samples)%s, self %.2f%%, "
		 "%.2f%% of the zoom", matched, node_name(f, f->sel, name, sizeof(name)),
		 total ? 100.0 * (double)w_period(f, f->sel) / total : 0, w_count(f, f->sel),
		 change, total ? 100.0 * (double)w_self(f, f->sel) / total : 0,
		 zp ? 100.0 * (double)w_period(f, f->sel) / zp : 0);
	attroff(tui_attr(ST_BAR));
}

/* Left/Right: the nearest frame of the same depth on that side. */
static void move_side(struct flame *f, int dir)
{
	const struct box *s = box_of(f, f->sel), *best = NULL;

	if (!s)
		return;
	for (size_t i = 0; i < f->nr_boxes; i++) {
		const struct box *b = &f->boxes[i];

		if (b->depth != s->depth)
			continue;
		if (dir < 0 && b->x1 <= s->x0 && (!best || b->x1 > best->x1))
			best = b;
		if (dir > 0 && b->x0 >= s->x1 && (!best || b->x0 < best->x0))
			best = b;
	}
	if (best)
		f->sel = best->node;
}

/* Up: the widest callee drawn (boxes of one parent are laid out widest first). */
static void move_up(struct flame *f)
{
	for (size_t i = 0; i < f->nr_boxes; i++)
		if (f->boxes[i].node && xpp_cg_node(f->cg, f->boxes[i].node)->parent == f->sel &&
		    f->boxes[i].depth > xpp_cg_node(f->cg, f->sel)->depth) {
			f->sel = f->boxes[i].node;
			return;
		}
}

/* The widest node of the tree that is function `focus`, or 0. */
static uint32_t find_function(const struct flame *f, const struct xpp_hist_key *focus)
{
	uint32_t best = 0, nr = xpp_cg_nr_nodes(f->cg);

	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *n = xpp_cg_node(f->cg, i);
		struct xpp_hist_key k;

		if (n->depth < 2 || !w_period(f, i) || (best && w_period(f, i) <= w_period(f, best)))
			continue;
		k = rv_frame_key(&f->t->c, 0, n->key);
		if (tui_same_function(&k, focus))
			best = i;
	}
	return best;
}

/* Whether box a comes before box b going through the graph: left to right, callers first. */
static bool box_before(const struct box *a, const struct box *b)
{
	return a->x0 != b->x0 ? a->x0 < b->x0 : a->depth < b->depth;
}

/*
 * n, N: the next (dir 1) or previous matched frame drawn, left to right and a caller
 * before its callees, round the end; the status line says which of how many.
 */
static void next_match(struct flame *f, int dir)
{
	const struct box *cur = box_of(f, f->sel), *best = NULL, *wrap = NULL;
	size_t nr = 0, at = 1;
	bool wrapped;

	if (!f->match) {
		snprintf(f->msg, sizeof(f->msg), "nothing searched for yet: / asks for a text");
		return;
	}
	for (size_t i = 0; i < f->nr_boxes; i++) {
		const struct box *b = &f->boxes[i];

		if (!f->match[b->node])
			continue;
		nr++;
		/* wrap: the first (n) or the last (N) match of all */
		if (!wrap || (dir > 0 ? box_before(b, wrap) : box_before(wrap, b)))
			wrap = b;
		if (b == cur || (cur && (dir > 0 ? !box_before(cur, b) : !box_before(b, cur))))
			continue;
		if (!best || (dir > 0 ? box_before(b, best) : box_before(best, b)))
			best = b;
	}
	if (!nr) {
		snprintf(f->msg, sizeof(f->msg), "no frame drawn matches '%.64s'%s", f->search,
			 f->matched ? " (they are too narrow, or outside the zoom)" : "");
		return;
	}
	wrapped = !best && nr > 1;
	if (!best)
		best = wrap;
	f->sel = best->node;
	for (size_t i = 0; i < f->nr_boxes; i++)
		if (f->match[f->boxes[i].node] && box_before(&f->boxes[i], best))
			at++;
	snprintf(f->msg, sizeof(f->msg), "match %zu of %zu%s", at, nr,
		 wrapped ? " (round the end)" : "");
}

static void push_zoom(struct flame *f, uint32_t node)
{
	if (node == zoom_of(f))
		return;
	if (f->nr_zooms == MAX_ZOOMS)
		memmove(f->zooms, f->zooms + 1, (MAX_ZOOMS - 1) * sizeof(f->zooms[0])), f->nr_zooms--;
	f->zooms[f->nr_zooms++] = node;
}

enum tui_exit tui_flame_run(struct tui *t, uint32_t idx, const struct xpp_hist_key *focus,
			    const struct hb_zoom *zooms, unsigned int nr_zooms)
{
	struct flame f = { .t = t, .idx = idx, .cg = t->c.ev[idx].cg, .ev = &t->c.ev[idx] };
	enum tui_exit ex = TUI_BACK;

	f.inverted = t->o->flame_inverted;
	hb_zooms_str(zooms, nr_zooms, f.filtered, sizeof(f.filtered));
	if (weigh(&f, zooms, nr_zooms) < 0 || tui_flame_diff(t, idx, &f.diff) < 0) {
		free(f.w);
		return TUI_BACK;
	}
	if (focus)
		f.sel = find_function(&f, focus);
	/* a function too narrow to draw: start zoomed into it */
	if (layout(&f) == 0 && !box_of(&f, f.sel))
		push_zoom(&f, f.sel);
	for (;;) {
		int ch;

		if (layout(&f) < 0)
			break;
		/* after a zoom out or a resize: the nearest caller that is drawn */
		while (f.sel && !box_of(&f, f.sel))
			f.sel = xpp_cg_node(f.cg, f.sel)->parent;
		draw(&f);
		ch = tui_getkey(t);
		f.msg[0] = 0;
		if (ch == 'q')
			break;
		/* the arrows follow the screen: in the icicle graph callees are below */
		if (f.inverted && (ch == KEY_UP || ch == KEY_DOWN))
			ch = ch == KEY_UP ? KEY_DOWN : KEY_UP;
		switch (ch) {
		case KEY_LEFT:
		case KEY_RIGHT:
			move_side(&f, ch == KEY_LEFT ? -1 : 1);
			break;
		case KEY_UP:
			move_up(&f);
			break;
		case KEY_DOWN:
			if (f.sel)
				f.sel = xpp_cg_node(f.cg, f.sel)->parent;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
			push_zoom(&f, f.sel);
			break;
		case TUI_ESC:
			if (!f.nr_zooms)
				goto out;
			f.nr_zooms--;
			break;
		case 'i':
			f.inverted = !f.inverted;
			break;
		case '/': {
			char buf[sizeof(f.search)];
			const char *s = tui_prompt(t, "Search frames (empty: none): ", buf, sizeof(buf));

			if (!s)
				break;
			snprintf(f.search, sizeof(f.search), "%s", s);
			if (search(&f) < 0)
				goto out;
			break;
		}
		case 'n':
		case 'N':
			next_match(&f, ch == 'n' ? 1 : -1);
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
	free(f.boxes);
	free(f.w);
	free(f.match);
	tui_flame_diff_free(&f.diff);
	return ex;
}
