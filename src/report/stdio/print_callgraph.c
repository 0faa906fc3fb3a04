/* Call-graph views of the stdio report: children/self entries and perf's graph and folded chains. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/stdio/stdio_int.h"

struct cgview {
	struct rv_ctx *c;
	const struct xpp_event *ev;
	struct rv_entries en;
	struct rv_cols v;
	xpp_callgraph *scratch;      /* one entry's chains */
	uint32_t *seq;
};

/* A frame as chains show it: the name, with -g srcline its line, and perf's " (inlined)". */
static void print_frame(const struct cgview *g, uint32_t f, FILE *out)
{
	struct xpp_hist_key k = rv_frame_key(g->c, 0, f);
	const char *line = g->c->cg.srcline ? xpp_profile_srcline(g->c->p, &k, true) : NULL;
	char buf[64];

	fputs_unlocked(rv_frame_name(g->c, f, buf, sizeof(buf)), out);
	if (line)
		fputc_unlocked(' ', out), fputs_unlocked(line, out);
	if (k.inl)
		fputs_unlocked(" (inlined)", out);
}

static void print_value(const struct cgview *g, uint64_t period, uint64_t count, FILE *out)
{
	if (g->c->cg.value == CG_COUNT)
		fprintf(out, "%" PRIu64, count);
	else if (g->c->cg.value == CG_PERIOD)
		fprintf(out, "%" PRIu64, period);
	else
		fprintf(out, "%.2f%%", g->ev->total_period ?
			period * 100.0 / (double)g->ev->total_period : 0.0);
}

static int cmp_self(const void *pa, const void *pb, void *arg)
{
	const struct xpp_cg_node *a = xpp_cg_node(arg, *(const uint32_t *)pa);
	const struct xpp_cg_node *b = xpp_cg_node(arg, *(const uint32_t *)pb);

	if (a->self_period != b->self_period)
		return a->self_period > b->self_period ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static uint32_t *kids_of(const struct cgview *g, uint32_t id, uint32_t *nr)
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

/* perf's __callchain__fprintf_graph (absolute percentages): the branches below node id */
static size_t graph_level(struct cgview *g, uint32_t id, int depth, uint64_t mask, int left,
			  FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint64_t new_mask = mask;
	uint32_t nr, *k = kids_of(g, id, &nr);
	size_t lines = 0;

	for (uint32_t j = 0; k && j < nr; j++) {
		uint32_t end = rv_chain_run_end(t, k[j]), i = 0;

		if (j + 1 == nr && depth - 1 < 64)
			new_mask &= ~(1ULL << (depth - 1));
		margin(left, out);
		for (int d = 0; d < depth; d++)
			fputs_unlocked(bit(mask, d) ? "|          " : "           ", out);
		fputc_unlocked('\n', out);
		for (uint32_t x = k[j];; x = xpp_cg_node(t, x)->first_child, i++) {
			margin(left, out);
			for (int d = 0; d < depth; d++) {
				fputc_unlocked(bit(new_mask, d) ? '|' : ' ', out);
				if (!i && d == depth - 1) {
					fputs_unlocked("--", out);
					print_value(g, xpp_cg_node(t, k[j])->period,
						    xpp_cg_node(t, k[j])->count, out);
					fputs_unlocked("--", out);
				} else {
					fputs_unlocked("          ", out);
				}
			}
			print_frame(g, xpp_cg_node(t, x)->key, out);
			fputc_unlocked('\n', out);
			lines += 2;
			if (x == end)
				break;
		}
		lines += graph_level(g, end, depth + 1,
				     new_mask | (depth < 64 ? 1ULL << depth : 0), left, out);
	}
	free(k);
	return lines;
}

/* perf's callchain__fprintf_graph: a single root holding all of the entry opens the graph */
static void print_graph(struct cgview *g, uint64_t parent, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint32_t nr, *k = kids_of(g, 0, &nr), root = 0;
	const char *sort = g->c->o->sort;
	bool skip_first = sort && !strncmp(sort, "sym", 3);
	size_t lines = 0;
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
			}
			if (x == end)
				break;
		}
		root = end;
	}
	free(k);
	lines += graph_level(g, root, 1, 1, left, out);
	if (lines)
		fputc_unlocked('\n', out);
}

static void print_folded(struct cgview *g, FILE *out)
{
	const xpp_callgraph *t = g->scratch;
	uint32_t nr = xpp_cg_nr_nodes(t), *ids = malloc(nr * sizeof(*ids)), n = 0;

	if (!ids)
		return;
	for (uint32_t i = 1; i < nr; i++) {
		const struct xpp_cg_node *x = xpp_cg_node(t, i);

		if (x->self_count && x->self_period >= g->en.min_hit)
			ids[n++] = i;
	}
	qsort_r(ids, n, sizeof(*ids), cmp_self, (void *)t);
	for (uint32_t i = 0; i < n; i++) {
		const struct xpp_cg_node *x = xpp_cg_node(t, ids[i]);
		uint32_t d = x->depth;

		print_value(g, x->self_period, x->self_count, out);
		fputc_unlocked(' ', out);
		for (uint32_t j = 0; j < d; j++)
			g->seq[d - 1 - j] = x->key, x = xpp_cg_node(t, x->parent);
		for (uint32_t j = 0; j < d; j++) {
			if (j)
				fputc_unlocked(';', out);
			print_frame(g, g->seq[j], out);
		}
		fputc_unlocked('\n', out);
	}
	free(ids);
}

static int print_rows(struct cgview *g, FILE *out)
{
	const struct report_stdio_opts *o = g->c->o;
	struct rv_entries *en = &g->en;
	double total = (double)g->ev->total_period;
	size_t n;
	struct xpp_hist_entry *e = xpp_hist_entries(en->h, &n), *shown;

	shown = malloc((en->nr_rows + 1) * sizeof(*shown));
	if (!shown)
		return -ENOMEM;
	for (size_t r = 0; r < en->nr_rows; r++)
		shown[r] = e[en->rows[r]];
	rv_widths(&g->v, shown, en->nr_rows);
	free(shown);
	if (!o->quiet) {
		stdio_print_event_head(g->c, (uint32_t)(g->ev - g->c->ev), out);
		stdio_print_titles(&g->v, out);
	}
	for (size_t r = 0; r < en->nr_rows; r++) {
		uint32_t i = en->rows[r];
		struct xpp_hist_key key = rv_entry_key(en, i);
		double children = total ? 100.0 * (double)e[i].period / total : 0;
		double self = total ? 100.0 * (double)en->self[i] / total : 0;

		if ((g->c->children ? children : self) < o->percent_limit)
			continue;
		stdio_print_row(&g->v, en, i, &key, out);
		if (g->c->cg.mode == CG_NONE)
			continue;
		if (rv_entry_chains(en, i, g->scratch, g->seq) < 0)
			break;
		if (g->c->cg.mode == CG_FOLDED)
			print_folded(g, out);
		else
			print_graph(g, rv_entry_period(en, i), out);
	}
	fputs("\n\n", out);
	return 0;
}

int stdio_print_callgraph_event(struct rv_ctx *c, uint32_t idx, FILE *out)
{
	struct cgview g = { .c = c, .ev = &c->ev[idx] };
	int ret;

	rv_cols_init(&g.v, c);
	ret = rv_entries_build(&g.en, c, idx);
	if (ret < 0)
		return ret;
	g.scratch = xpp_cg_create();
	g.seq = malloc((g.en.maxdepth + 1) * sizeof(*g.seq));
	if (!g.scratch || !g.seq)
		ret = -ENOMEM;
	/* a million graph lines are output-bound: the printers write unlocked, under one lock */
	flockfile(out);
	if (!ret)
		ret = print_rows(&g, out);
	funlockfile(out);
	rv_entries_free(&g.en);
	xpp_cg_free(g.scratch);
	free(g.seq);
	return ret;
}
