/* perf's call-graph text below an entry (graph, fractal, flat, folded): report's and top's. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt_num.h"
#include "view/cg_print.h"

/* A frame as chains show it: the name, with -g srcline its line, and perf's " (inlined)". */
static void print_frame(const struct rv_cgview *g, uint32_t f, FILE *out)
{
	const char *line = NULL;
	char buf[64];

	if (g->c->cg.srcline) {
		struct xpp_hist_key k = rv_frame_key(g->c, 0, f);

		line = xpp_profile_srcline(g->c->p, &k, true);
	}
	fputs_unlocked(rv_frame_name(g->c, f, buf, sizeof(buf)), out);
	if (line)
		fputc_unlocked(' ', out), fputs_unlocked(line, out);
	if (xpp_profile_frame_rec(g->c->p, f)->inl)
		fputs_unlocked(" (inlined)", out);
}

static void print_value(const struct rv_cgview *g, uint64_t period, uint64_t count,
			uint64_t total, FILE *out)
{
	char buf[XB_FMT_NUM_MAX + 1];
	size_t n;

	if (g->c->cg.value == CG_COUNT) {
		n = xb_fmt_u64(buf, count);
	} else if (g->c->cg.value == CG_PERIOD) {
		n = xb_fmt_u64(buf, period);
	} else {
		n = xb_fmt_fixed2(buf, total ? period * 100.0 / (double)total : 0.0);
		buf[n++] = '%';
	}
	fwrite_unlocked(buf, 1, n, out);
}

/* a chain of flat and folded mode: its node, own period, and where perf inserted it */
struct own_chain {
	uint64_t self;
	uint32_t id, pos;
};

/* perf's rb_insert_callchain by hit: most first, ties in the order of insertion */
static int cmp_own_chain(const void *pa, const void *pb)
{
	const struct own_chain *a = pa, *b = pb;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static uint32_t *kids_of(const struct rv_cgview *g, uint32_t id, uint32_t *nr)
{
	return rv_chain_kids(&g->en, g->scratch, id, nr);
}

static void margin(int left, FILE *out)
{
	static const char spaces[] = "                                                                ";
	int n = 12 + left;

	for (; n > (int)sizeof(spaces) - 1; n -= (int)sizeof(spaces) - 1)
		fwrite_unlocked(spaces, 1, sizeof(spaces) - 1, out);
	fwrite_unlocked(spaces, 1, (size_t)n, out);
}

static bool bit(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

/* The "--value--" stem of a branch's first line at depth, as perf's ipchain__fprintf_graph */
static void branch_stem(const struct rv_cgview *g, uint64_t period, uint64_t count,
			uint64_t total, int depth, uint64_t mask, int left, FILE *out)
{
	margin(left, out);
	for (int d = 0; d < depth; d++) {
		fputc_unlocked(bit(mask, d) ? '|' : ' ', out);
		if (d == depth - 1) {
			fputs_unlocked("--", out);
			print_value(g, period, count, total, out);
			fputs_unlocked("--", out);
		} else {
			fputs_unlocked("          ", out);
		}
	}
}

/*
 * perf's __callchain__fprintf_graph: the branches below node id, their percentages of
 * total (the event's, or in fractal mode the parent's callees'), at most the print limit
 * of them, and in fractal mode a "[...]" branch for what the hidden ones hold.
 */
static size_t graph_level(struct rv_cgview *g, uint32_t id, int depth, uint64_t mask, int left,
			  uint64_t total, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	bool fractal = g->c->cg.mode == CG_FRACTAL;
	uint64_t new_mask = mask, remaining = total, cumul_count = 0;
	uint32_t nr, *k = kids_of(g, id, &nr), shown = 0;
	size_t lines = 0;

	for (uint32_t j = 0; k && j < nr; j++) {
		const struct xpp_cg_node *kid = xpp_cg_node(t, k[j]);
		uint32_t end = rv_chain_run_end(t, k[j]), i = 0;
		const struct xpp_cg_node *last = xpp_cg_node(t, end);

		remaining -= kid->period;
		cumul_count += kid->count;
		/* the last branch closes its level's pipe, unless a "[...]" follows */
		if (j + 1 == nr && (!fractal || !remaining) && depth - 1 < 64)
			new_mask &= ~(1ULL << (depth - 1));
		margin(left, out);
		for (int d = 0; d < depth; d++)
			fputs_unlocked(bit(mask, d) ? "|          " : "           ", out);
		fputc_unlocked('\n', out);
		for (uint32_t x = k[j];; x = xpp_cg_node(t, x)->first_child, i++) {
			if (!i) {
				branch_stem(g, kid->period, kid->count, total, depth, new_mask, left,
					    out);
			} else {
				margin(left, out);
				for (int d = 0; d < depth; d++)
					fputs_unlocked(bit(new_mask, d) ? "|          " :
						       "           ", out);
			}
			print_frame(g, xpp_cg_node(t, x)->key, out);
			fputc_unlocked('\n', out);
			lines += 2;
			if (x == end)
				break;
		}
		lines += graph_level(g, end, depth + 1,
				     new_mask | (depth < 64 ? 1ULL << depth : 0), left,
				     fractal ? last->period - last->self_period : total, out);
		if (++shown == g->c->cg.print_limit)
			break;
	}
	if (fractal && remaining && remaining != total) {
		const struct xpp_cg_node *n = xpp_cg_node(t, id);
		uint64_t count = n->count - n->self_count;

		free(k);
		/* perf leaves it out when the hidden branches hold no samples by count */
		if (g->c->cg.value == CG_COUNT && (!k || count <= cumul_count))
			return lines;
		if (depth - 1 < 64)
			new_mask &= ~(1ULL << (depth - 1));
		branch_stem(g, remaining, count - cumul_count, total, depth, new_mask, left, out);
		fputs_unlocked("[...]\n", out);
		return lines + 1;
	}
	free(k);
	return lines;
}

/*
 * perf's callchain__fprintf_graph: a single root holding all of the entry opens the graph
 * (its frames cut at the print limit, as perf does), the rest are branches of percentages of
 * the event (graph) or of the entry (fractal).
 */
static void print_graph(struct rv_cgview *g, uint64_t parent, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint32_t nr, *k = kids_of(g, 0, &nr), root = 0;
	const char *sort = g->c->o->sort;
	bool skip_first = sort && !strncmp(sort, "sym", 3);
	uint64_t total = g->c->cg.mode == CG_FRACTAL ? parent : g->ev->total_period;
	size_t lines = 0;
	uint32_t shown = 0;
	int left = 0;

	if (k && nr == 1 && xpp_cg_node(t, k[0])->period == parent) {
		uint32_t end = rv_chain_run_end(t, k[0]);
		bool printed = false;

		for (uint32_t x = k[0], i = 0;; x = xpp_cg_node(t, x)->first_child, i++) {
			if (!(i == 0 && skip_first)) {
				if (!printed) {
					margin(left, out);
					fputs_unlocked("|\n", out);
					margin(left, out);
					fputs_unlocked("---", out);
					left += 3;
					printed = true;
				} else {
					margin(left, out);
				}
				print_frame(g, xpp_cg_node(t, x)->key, out);
				fputc_unlocked('\n', out);
				lines++;
				if (++shown == g->c->cg.print_limit)
					break;
			}
			if (x == end)
				break;
		}
		root = end;
	}
	free(k);
	lines += graph_level(g, root, 1, 1, left, total, out);
	if (lines)
		fputc_unlocked('\n', out);
}

/*
 * The chains of flat and folded mode: nodes with samples of their own (at least the
 * threshold), most first, ties in the order perf inserts them (its children, callees
 * before their callers). ids gets them, *n of them.
 */
static void own_chains(struct rv_cgview *g, uint32_t id, struct own_chain *c, uint32_t *n)
{
	const xpp_callgraph *t = g->scratch;
	const struct xpp_cg_node *x = xpp_cg_node(t, id);
	uint32_t nr, *k = rv_chain_kids_perf(&g->en, t, id, &nr);

	for (uint32_t j = 0; k && j < nr; j++)
		own_chains(g, k[j], c, n);
	free(k);
	if (id && x->self_count && x->self_period >= g->en.min_hit) {
		c[*n] = (struct own_chain){ x->self_period, id, *n };
		(*n)++;
	}
}

/* the chain of node x from the outermost frame: into g->seq, its length */
static uint32_t chain_of(struct rv_cgview *g, const struct xpp_cg_node *x)
{
	uint32_t d = x->depth;

	for (uint32_t j = 0; j < d; j++)
		g->seq[d - 1 - j] = x->key, x = xpp_cg_node(g->scratch, x->parent);
	return d;
}

/* perf's callchain__fprintf_flat and _folded: one chain per node with samples of its own */
static void print_chains(struct rv_cgview *g, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	bool folded = g->c->cg.mode == CG_FOLDED;
	uint32_t nr = xpp_cg_nr_nodes(t), n = 0;
	struct own_chain *ids = malloc(nr * sizeof(*ids));

	if (!ids)
		return;
	own_chains(g, 0, ids, &n);
	qsort(ids, n, sizeof(*ids), cmp_own_chain);
	for (uint32_t i = 0; i < n; i++) {
		const struct xpp_cg_node *x = xpp_cg_node(t, ids[i].id);
		uint32_t d = chain_of(g, x);

		if (folded) {
			/* folded counts a chain's own samples, flat its callees' too */
			print_value(g, x->self_period, x->self_count, g->ev->total_period, out);
			fputc_unlocked(' ', out);
		} else {
			fputs_unlocked("           ", out);
			print_value(g, x->period, x->count, g->ev->total_period, out);
			fputc_unlocked('\n', out);
		}
		for (uint32_t j = 0; j < d; j++) {
			if (folded && j)
				fputc_unlocked(';', out);
			else if (!folded)
				fputs_unlocked("                ", out);
			print_frame(g, g->seq[j], out);
			if (!folded)
				fputc_unlocked('\n', out);
		}
		fputc_unlocked('\n', out);
		if (i + 1 == g->c->cg.print_limit)
			break;
	}
	free(ids);
}

int rv_cg_print_entry(struct rv_cgview *g, uint32_t i, FILE *out)
{
	if (g->c->cg.mode == CG_NONE)
		return 0;
	/*
	 * No branch of an entry holds more than the entry: below the threshold (an absolute
	 * one, not fractal's share of a parent) none would be printed, so its chains are not
	 * made (issue 20: a million entries of a sample each, none above 0.5%)
	 */
	if (g->c->cg.mode != CG_FRACTAL && rv_entry_period(&g->en, i) < g->en.min_hit)
		return 0;
	/* fractal's thresholds are shares of each parent's: its graph is made whole */
	if (rv_entry_chains_above(&g->en, i, g->scratch, g->seq,
				  g->c->cg.mode == CG_FRACTAL ? 0 : g->en.min_hit) < 0)
		return -ENOMEM;
	if (g->c->cg.mode == CG_FOLDED || g->c->cg.mode == CG_FLAT)
		print_chains(g, out);
	else
		print_graph(g, rv_entry_period(&g->en, i), out);
	return 0;
}

int rv_cgview_init(struct rv_cgview *g, struct rv_ctx *c, uint32_t idx, size_t limit)
{
	int ret;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->ev = &c->ev[idx];
	rv_cols_init(&g->v, c);
	ret = rv_entries_build_top(&g->en, c, idx, limit);
	if (ret < 0)
		return ret;
	g->scratch = xpp_cg_create();
	g->seq = malloc((g->en.maxdepth + 1) * sizeof(*g->seq));
	if (!g->scratch || !g->seq) {
		rv_cgview_free(g);
		return -ENOMEM;
	}
	return 0;
}

void rv_cgview_free(struct rv_cgview *g)
{
	rv_entries_free(&g->en);
	xpp_cg_free(g->scratch);
	free(g->seq);
	g->scratch = NULL;
	g->seq = NULL;
}
