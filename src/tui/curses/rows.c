/* The main view's lines: entries that pass the zooms, and the unfolded parts of their chains. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "tui/curses/hists.h"

/* The group event idx leads when groups are shown side by side: its size, else 1. */
static uint32_t group_size(const struct tui *t, uint32_t idx)
{
	const char *name;
	bool forced;
	uint32_t n = rv_group_size(&t->c, idx, &name, &forced);

	return rv_group_view(&t->c) && n > 1 ? n : 1;
}

int hb_init(struct hists *h, struct tui *t, uint32_t idx)
{
	uint32_t members = group_size(t, idx);
	size_t n;
	int ret;

	memset(h, 0, sizeof(*h));
	h->t = t;
	h->idx = idx;
	h->percent_limit = t->c.o->percent_limit;
	ret = rv_entries_build(&h->en, &t->c, idx);
	if (ret < 0)
		return ret;
	if (members > 1) {
		/* the group's entries, their columns' widths over the ones it lists */
		ret = rv_group_build(&h->grp, &h->en, members);
		if (ret < 0) {
			hb_free(h);
			return ret;
		}
		n = xpp_hist_nr(h->grp.u);
		h->cols = h->grp.v;
	} else {
		/* widths over the listed entries, as the stdio view takes them */
		n = xpp_hist_nr(h->en.h);
		rv_cols_init(&h->cols, &t->c);
		rv_widths(&h->cols, h->en.h, h->en.rows, h->en.nr_rows);
	}
	h->nr_entries = n;
	h->seq = malloc((h->en.maxdepth + 1) * sizeof(*h->seq));
	h->chains = calloc(n + 1, sizeof(*h->chains));
	h->expanded = calloc(n + 1, 1);
	h->unfolds = calloc(n + 1, 1);
	if (!h->seq || !h->chains || !h->expanded || !h->unfolds)
		goto nomem;
	return hb_flatten(h);
nomem:
	hb_free(h);
	return -ENOMEM;
}

void hb_free(struct hists *h)
{
	for (size_t i = 0; h->chains && i < h->nr_entries; i++) {
		xpp_cg_free(h->chains[i].t);
		free(h->chains[i].open);
	}
	free(h->chains);
	free(h->expanded);
	free(h->unfolds);
	free(h->seq);
	free(h->rows);
	rv_group_free(&h->grp);
	rv_entries_free(&h->en);
	memset(h, 0, sizeof(*h));
}

/* ---- the entries' values, alone or side by side ---- */

const uint32_t *hb_list(const struct hists *h, size_t *nr)
{
	if (h->grp.n > 1) {
		*nr = h->grp.nr_rows;
		return h->grp.rows;
	}
	*nr = h->en.nr_rows;
	return h->en.rows;
}

struct xpp_hist_key hb_key(const struct hists *h, uint32_t e)
{
	return h->grp.n > 1 ? rv_group_key(&h->grp, e) : rv_entry_key(&h->en, e);
}

uint32_t hb_nr_members(const struct hists *h)
{
	return h->grp.n > 1 ? h->grp.n : 1;
}

bool hb_children(const struct hists *h)
{
	return h->grp.n > 1 ? h->grp.children : h->t->c.children;
}

unsigned int hb_nr_shares(const struct hists *h)
{
	return (hb_children(h) ? 2 : 1) * hb_nr_members(h);
}

double hb_share(const struct hists *h, uint32_t e, unsigned int i)
{
	uint32_t n = hb_nr_members(h), m = i % n;
	bool acc = hb_children(h) && i < n;
	uint64_t p, total;

	if (h->grp.n > 1) {
		const struct rv_group_val *v = &rv_group_vals(&h->grp, e)[m];

		p = acc ? v->acc : v->self;
		total = h->t->c.ev[h->grp.lead + m].total_period;
	} else {
		size_t nr;

		p = acc ? xpp_hist_recs(h->en.h, &nr)[e].period : h->en.self[e];
		total = h->en.ev->total_period;
	}
	return total ? 100.0 * (double)p / (double)total : 0;
}

uint64_t hb_samples(const struct hists *h, uint32_t e, uint32_t m)
{
	return h->grp.n > 1 ? rv_group_vals(&h->grp, e)[m].self_n : h->en.self_count[e];
}

uint64_t hb_period(const struct hists *h, uint32_t e, uint32_t m)
{
	return h->grp.n > 1 ? rv_group_vals(&h->grp, e)[m].self : h->en.self[e];
}

/* The leader's entry of entry e (the event's own alone), UINT32_MAX none. */
static uint32_t lead_entry(const struct hists *h, uint32_t e)
{
	return h->grp.n > 1 ? h->grp.lead_entry[e] : e;
}

/* ---- chains ---- */

/* Entry e's chains (the leader's entry's), built on first use. NULL on ENOMEM. */
static struct hb_chain *chain_of(struct hists *h, uint32_t e)
{
	struct hb_chain *ch = &h->chains[e];

	if (ch->t)
		return ch;
	ch->t = xpp_cg_create();
	/*
	 * Only the nodes the rows can show (rv_chain_kids()' threshold), as the stdio view
	 * makes them: an outermost caller of a million paths costs its chains, not a
	 * million nodes, and the first screen draws a fold marker for it (issue 20).
	 * Fractal's thresholds are shares of each parent's: its graph is made whole.
	 */
	if (!ch->t ||
	    rv_entry_chains_above(&h->en, lead_entry(h, e), ch->t, h->seq,
				  h->t->c.cg.mode == CG_FRACTAL ? 0 : h->en.min_hit) < 0)
		goto fail;
	ch->nr_open = xpp_cg_nr_nodes(ch->t);
	ch->open = calloc(ch->nr_open + 1, 1);
	if (!ch->open)
		goto fail;
	return ch;
fail:
	xpp_cg_free(ch->t);
	ch->t = NULL;
	return NULL;
}

bool hb_marker(const struct hists *h)
{
	return h->t->c.callchains && h->t->c.cg.mode != CG_NONE;
}

static bool entry_has_chains(const struct hists *h, uint32_t e)
{
	uint32_t l = lead_entry(h, e);

	/* -g none: the children's sums without their chains, as perf */
	return hb_marker(h) && h->en.chains && l != UINT32_MAX &&
	       h->en.pair_off[l + 1] > h->en.pair_off[l];
}

bool hb_entry_unfolds(struct hists *h, uint32_t e)
{
	struct hb_chain *ch;
	uint32_t nr = 0, *kids;

	if (!entry_has_chains(h, e))
		return false;
	if (h->unfolds[e])
		return h->unfolds[e] == 1;
	/* no branch holds more than its entry: below an absolute threshold, none is shown */
	if (h->t->c.cg.mode != CG_FRACTAL && rv_entry_period(&h->en, lead_entry(h, e)) < h->en.min_hit) {
		h->unfolds[e] = 2;
		return false;
	}
	/* as perf's has_children: its chains keep a branch above the threshold */
	ch = chain_of(h, e);
	kids = ch ? rv_chain_kids(&h->en, ch->t, 0, &nr) : NULL;
	if (!kids)
		return true; /* out of memory: Enter will say so */
	free(kids);
	h->unfolds[e] = nr ? 1 : 2;
	return nr > 0;
}

static bool has_kid(const struct hists *h, const xpp_callgraph *t, uint32_t id)
{
	for (uint32_t c = xpp_cg_node(t, id)->first_child; c; c = xpp_cg_node(t, c)->next_sibling)
		if (xpp_cg_node(t, c)->period >= h->en.min_hit)
			return true;
	return false;
}

/* The only branch after node id above the threshold, or 0. */
static uint32_t single_kid(const struct hists *h, const xpp_callgraph *t, uint32_t id)
{
	uint32_t one = 0;

	for (uint32_t c = xpp_cg_node(t, id)->first_child; c; c = xpp_cg_node(t, c)->next_sibling)
		if (xpp_cg_node(t, c)->period >= h->en.min_hit) {
			if (one)
				return 0;
			one = c;
		}
	return one;
}

/* Unfolding node id goes on through branches that are alone: nothing to choose there. */
static void open_single(struct hists *h, struct hb_chain *ch, uint32_t id)
{
	uint32_t k;

	while ((k = single_kid(h, ch->t, id))) {
		uint32_t end = rv_chain_run_end(ch->t, k);

		if (!has_kid(h, ch->t, end))
			break;
		ch->open[end] = 1;
		id = end;
	}
}

bool hb_key_in_zooms(const struct tui *t, const struct hb_zoom *zooms, unsigned int nr,
		     const struct xpp_hist_key *k)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct hb_zoom *z = &zooms[i];
		const char *s;

		switch (z->kind) {
		case Z_DSO:
			if (k->dso != z->id)
				return false;
			break;
		case Z_COMM:
			if (k->comm != z->id)
				return false;
			break;
		case Z_THREAD:
			if ((uint32_t)k->val[XPP_VAL_THREAD] != z->id)
				return false;
			break;
		case Z_KERNEL:
			if (k->level != 'k')
				return false;
			break;
		case Z_SYM:
			s = rv_sym_name(&t->c, k);
			if (!s || !strstr(s, z->text))
				return false;
			break;
		}
	}
	return true;
}

void hb_zooms_str(const struct hb_zoom *zooms, unsigned int nr, char *buf, size_t size)
{
	static const char *const what[] = { "DSO", "Command", "Kernel only", "Symbol", "Thread" };
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < nr && at < size; i++) {
		const struct hb_zoom *z = &zooms[i];

		at += (size_t)snprintf(buf + at, size - at, z->kind == Z_KERNEL ? ", %s" : ", %s: %s",
				       what[z->kind], z->text);
	}
}

bool hb_entry_visible(const struct hists *h, uint32_t e)
{
	struct xpp_hist_key k = hb_key(h, e);

	/* perf's percent limit reads the leader's share in a group */
	if (h->percent_limit > 0 && h->en.ev->total_period &&
	    hb_share(h, e, 0) < h->percent_limit)
		return false;
	return hb_key_in_zooms(h->t, h->zooms, h->nr_zooms, &k);
}

static int push_row(struct hists *h, const struct hb_row *r)
{
	if (h->nr_rows == h->cap_rows && XB_ARRAY_RESERVE(h->rows, h->cap_rows, h->nr_rows + 1, 256))
		return -ENOMEM;
	h->rows[h->nr_rows++] = *r;
	return 0;
}

/* The branches after node id of entry e's chains, and theirs where unfolded. */
static int flatten_chain(struct hists *h, uint32_t e, uint32_t id, uint32_t depth, uint64_t guides)
{
	const struct hb_chain *ch = &h->chains[e];
	uint32_t nr, *kids = rv_chain_kids(&h->en, ch->t, id, &nr);
	int ret = 0;

	if (!kids)
		return -ENOMEM;
	for (uint32_t j = 0; j < nr && !ret; j++) {
		uint32_t end = rv_chain_run_end(ch->t, kids[j]);
		struct hb_row r = { .entry = e, .run_end = end, .depth = depth, .guides = guides,
				    .last = j + 1 == nr, .has_kids = has_kid(h, ch->t, end) };

		for (uint32_t x = kids[j];; x = xpp_cg_node(ch->t, x)->first_child) {
			r.node = x;
			r.first = x == kids[j];
			ret = push_row(h, &r);
			if (ret || x == end)
				break;
		}
		if (!ret && r.has_kids && ch->open[end])
			ret = flatten_chain(h, e, end, depth + 1,
					    guides | (!r.last && depth < 64 ? 1ULL << depth : 0));
	}
	free(kids);
	return ret;
}

int hb_flatten(struct hists *h)
{
	struct hb_row keep = { 0 };
	bool had = h->sel < h->nr_rows;
	size_t found = SIZE_MAX, entry_line = SIZE_MAX, nr;
	const uint32_t *list = hb_list(h, &nr);
	int ret;

	if (had)
		keep = h->rows[h->sel];
	h->nr_rows = 0;
	for (size_t i = 0; i < nr; i++) {
		uint32_t e = list[i];
		struct hb_row r = { .entry = e, .has_kids = entry_has_chains(h, e) };

		if (!hb_entry_visible(h, e))
			continue;
		if (had && e == keep.entry)
			entry_line = h->nr_rows;
		ret = push_row(h, &r);
		if (!ret && h->expanded[e] && h->chains[e].t)
			ret = flatten_chain(h, e, 0, 0, 0);
		if (ret)
			return ret;
	}
	for (size_t i = entry_line; had && i < h->nr_rows && h->rows[i].entry == keep.entry; i++)
		if (h->rows[i].node == keep.node) {
			found = i;
			break;
		}
	if (found == SIZE_MAX)
		found = entry_line;
	if (found != SIZE_MAX)
		h->sel = found;
	if (h->sel >= h->nr_rows)
		h->sel = h->nr_rows ? h->nr_rows - 1 : 0;
	return 0;
}

int hb_toggle(struct hists *h)
{
	struct hb_row *r;
	struct hb_chain *ch;

	if (h->sel >= h->nr_rows)
		return 0;
	r = &h->rows[h->sel];
	if (!r->has_kids || (!r->node && !hb_entry_unfolds(h, r->entry))) {
		snprintf(h->msg, sizeof(h->msg), "%s", r->node ? "no branches below this line" :
			 h->t->c.callchains && !hb_marker(h) ? "no call chains shown (-g none)" :
			 h->en.chains ? "no call chains above the threshold for this entry" :
			 tui_no_chains(h->t));
		return 0;
	}
	if (!r->node) {
		if (!(ch = chain_of(h, r->entry)))
			return -ENOMEM;
		h->expanded[r->entry] ^= 1;
		if (h->expanded[r->entry])
			open_single(h, ch, 0);
	} else {
		ch = &h->chains[r->entry];
		ch->open[r->run_end] ^= 1;
		if (ch->open[r->run_end])
			open_single(h, ch, r->run_end);
	}
	return hb_flatten(h);
}

static void open_all(struct hists *h, uint32_t e, bool open)
{
	struct hb_chain *ch = &h->chains[e];

	h->expanded[e] = open;
	if (ch->open)
		memset(ch->open, open, ch->nr_open);
}

int hb_toggle_entry_all(struct hists *h)
{
	struct hb_chain *ch;
	uint32_t e;
	bool full;

	if (h->sel >= h->nr_rows)
		return 0;
	e = h->rows[h->sel].entry;
	if (!entry_has_chains(h, e)) {
		snprintf(h->msg, sizeof(h->msg), "no call chains for this entry");
		return 0;
	}
	if (!(ch = chain_of(h, e)))
		return -ENOMEM;
	full = h->expanded[e];
	for (uint32_t i = 1; full && i < ch->nr_open; i++)
		if (xpp_cg_node(ch->t, i)->first_child && !ch->open[i])
			full = false;
	open_all(h, e, !full);
	if (full) /* folded: the selection goes back to the entry's line */
		while (h->sel > 0 && h->rows[h->sel].node)
			h->sel--;
	return hb_flatten(h);
}

int hb_all(struct hists *h, bool open)
{
	size_t nr;
	const uint32_t *list = hb_list(h, &nr);

	for (size_t i = 0; i < nr; i++) {
		uint32_t e = list[i];

		if (!entry_has_chains(h, e))
			continue;
		if (open && (!hb_entry_visible(h, e) || !chain_of(h, e)))
			continue;
		open_all(h, e, open);
	}
	if (!open)
		while (h->sel > 0 && h->sel < h->nr_rows && h->rows[h->sel].node)
			h->sel--;
	return hb_flatten(h);
}

void hb_value_str(const struct hists *h, uint64_t period, uint64_t count, char *buf,
		  size_t size)
{
	uint64_t total = h->en.ev->total_period;

	if (h->t->c.cg.value == CG_COUNT)
		snprintf(buf, size, "%" PRIu64, count);
	else if (h->t->c.cg.value == CG_PERIOD)
		snprintf(buf, size, "%" PRIu64, period);
	else
		snprintf(buf, size, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0.0);
}

/* ---- P: the lines as text ---- */

static void save_entry(struct hists *h, const struct hb_row *r, FILE *f)
{
	const struct rv_ctx *c = &h->t->c;
	struct xpp_hist_key k = hb_key(h, r->entry);
	char buf[512];

	if (hb_marker(h))
		fprintf(f, "%c ", !r->has_kids || !hb_entry_unfolds(h, r->entry) ? ' ' :
			h->expanded[r->entry] ? '-' : '+');
	for (unsigned int i = 0; i < hb_nr_shares(h); i++)
		fprintf(f, "%s%7.2f%%", i && i % hb_nr_members(h) == 0 ? "  " : "",
			hb_share(h, r->entry, i));
	/* -n and --show-total-period: perf saves every column it shows */
	if (c->o->show_nr_samples) {
		fputs("  ", f);
		for (uint32_t m = 0; m < hb_nr_members(h); m++)
			fprintf(f, "%12" PRIu64, hb_samples(h, r->entry, m));
	}
	if (c->o->show_total_period) {
		fputs("  ", f);
		for (uint32_t m = 0; m < hb_nr_members(h); m++)
			fprintf(f, "%12" PRIu64, hb_period(h, r->entry, m));
	}
	for (unsigned int i = 0; i < h->cols.nr_cols; i++) {
		unsigned int col = h->cols.cols[i];

		if (col != RV_KEY_SYM)
			fprintf(f, rv_keys[col].align == RV_RIGHT ? "  %*s" : "  %-*s", h->cols.width[i],
				rv_col_text(c, &k, col, buf, sizeof(buf)));
		else
			fprintf(f, "  [%c] %s%s", (char)k.level, rv_sym_or_addr(c, &k, buf, sizeof(buf)),
				k.inl ? " (inlined)" : "");
	}
	fputc('\n', f);
}

static void save_chain(const struct hists *h, const struct hb_row *r, FILE *f)
{
	const struct hb_chain *ch = &h->chains[r->entry];
	const struct xpp_cg_node *n = xpp_cg_node(ch->t, r->node);
	struct xpp_hist_key k = rv_frame_key(&h->t->c, 0, n->key);
	char val[32], name[512];

	fputs("   ", f);
	for (uint32_t d = 0; d < r->depth; d++)
		fputs(d < 64 && (r->guides >> d & 1) ? "|  " : "   ", f);
	if (r->first) {
		hb_value_str(h, n->period, n->count, val, sizeof(val));
		fprintf(f, "%s %c %7s ", r->last ? "`-" : "|-",
			!r->has_kids ? ' ' : ch->open[r->run_end] ? '-' : '+', val);
	} else {
		fprintf(f, "%s   %7s ", r->last ? "  " : "| ", "");
	}
	fprintf(f, "%s\n", tui_frame_label(h->t, &k, name, sizeof(name)));
}

int hb_save(struct hists *h, const char *path, size_t *lines)
{
	FILE *f = fopen(path, "wx");
	int ret = 0;

	if (!f)
		return -errno;
	for (size_t i = 0; i < h->nr_rows; i++) {
		if (h->rows[i].node)
			save_chain(h, &h->rows[i], f);
		else
			save_entry(h, &h->rows[i], f);
	}
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	*lines = h->nr_rows;
	return ret;
}

/* The entry of key k in the entries now, or -1. */
static int64_t entry_of(const struct hists *h, const struct xpp_hist_key *k)
{
	size_t nr;
	const uint32_t *list = hb_list(h, &nr);

	for (size_t i = 0; i < nr; i++) {
		struct xpp_hist_key e = hb_key(h, list[i]);

		if (!memcmp(&e, k, sizeof(e)))
			return list[i];
	}
	return -1;
}

/*
 * A live refresh: the entries built again from the new results, keeping what the reader
 * chose by key (the zooms, the limit, the unfolded entries, the selected entry), since
 * entry ids are the old hist's.
 */
int hb_reload(struct hists *h)
{
	struct tui *t = h->t;
	uint32_t idx = h->idx;
	struct hb_zoom zooms[HB_MAX_ZOOMS];
	unsigned int nr_zooms = h->nr_zooms;
	double limit = h->percent_limit;
	struct xpp_hist_key sel_key, *open_keys = NULL;
	bool had_sel = h->sel < h->nr_rows;
	size_t nr_open = 0, top = h->top;
	int64_t e;
	int ret;

	memcpy(zooms, h->zooms, sizeof(zooms));
	if (had_sel)
		sel_key = hb_key(h, h->rows[h->sel].entry);
	for (size_t i = 0; i < h->nr_entries; i++)
		if (h->expanded[i]) {
			struct xpp_hist_key *k = realloc(open_keys, (nr_open + 1) * sizeof(*k));

			if (!k)
				break; /* out of memory: fewer stay unfolded */
			open_keys = k;
			open_keys[nr_open++] = hb_key(h, (uint32_t)i);
		}
	hb_free(h);
	ret = hb_init(h, t, idx);
	if (ret < 0)
		goto out;
	memcpy(h->zooms, zooms, sizeof(zooms));
	h->nr_zooms = nr_zooms;
	h->percent_limit = limit;
	for (size_t i = 0; i < nr_open; i++) {
		struct hb_chain *ch;

		e = entry_of(h, &open_keys[i]);
		if (e >= 0 && hb_entry_unfolds(h, (uint32_t)e) && (ch = chain_of(h, (uint32_t)e))) {
			h->expanded[e] = 1;
			open_single(h, ch, 0);
		}
	}
	ret = hb_flatten(h);
	h->top = top;
	if (ret < 0 || !had_sel || (e = entry_of(h, &sel_key)) < 0)
		goto out;
	for (size_t i = 0; i < h->nr_rows; i++)
		if (h->rows[i].entry == (uint32_t)e && !h->rows[i].node) {
			h->sel = i;
			break;
		}
out:
	free(open_keys);
	return ret;
}
