/* The options every symbolised view takes (--sort, -g) and the profile results they read. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "view/rv.h"

/* perf's output fields, -F only, beside the sort keys (rv_keys[]) */
static const struct { const char *name; unsigned int col; } metrics[] = {
	{ "overhead", RV_OUT_OVERHEAD }, { "overhead_sys", RV_OUT_SYS },
	{ "overhead_us", RV_OUT_US }, { "overhead_guest_sys", RV_OUT_GUEST_SYS },
	{ "overhead_guest_us", RV_OUT_GUEST_US }, { "overhead_children", RV_OUT_CHILDREN },
	{ "sample", RV_OUT_SAMPLE }, { "period", RV_OUT_PERIOD },
};

/* The -F field named s[0..n): a metric (RV_OUT_*) or a sort key, or -1 */
static int field_find(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (strlen(metrics[i].name) == n && !strncmp(metrics[i].name, s, n))
			return (int)metrics[i].col;
	return rv_key_find(s, n);
}

static bool listed(const unsigned int *a, unsigned int n, unsigned int v)
{
	for (unsigned int i = 0; i < n; i++)
		if (a[i] == v)
			return true;
	return false;
}

/*
 * -F as perf: the columns in its order, then the sort keys it lacks; perf's sort list is
 * the --sort keys (none by default), then the fields it lacks. Entries are grouped by the
 * keys among them. c->cols holds the --sort keys on entry.
 */
static int parse_fields(struct rv_ctx *c, const char *s)
{
	unsigned int nsort = c->nr_cols;

	memcpy(c->sort, c->cols, nsort * sizeof(*c->sort));
	c->nr_sort = nsort;
	c->nr_fields = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int f = field_find(s, n);

		if (f < 0) {
			char names[256];

			cli_error("unknown -F field '%.*s': use overhead, overhead_sys, overhead_us, "
				  "overhead_guest_sys, overhead_guest_us, overhead_children, "
				  "sample, period or a --sort key (%s)", (int)n, s,
				  rv_key_names(names, sizeof(names)));
			return -EINVAL;
		}
		if (!listed(c->fields, c->nr_fields, (unsigned int)f) && c->nr_fields < RV_MAX_OUT)
			c->fields[c->nr_fields++] = (unsigned int)f;
		s += n;
		if (*s == ',')
			s++;
	}
	if (!c->nr_fields) {
		cli_error("-F needs at least one field");
		return -EINVAL;
	}
	for (unsigned int i = 0; i < nsort; i++)
		if (!listed(c->fields, c->nr_fields, c->sort[i]) && c->nr_fields < RV_MAX_OUT)
			c->fields[c->nr_fields++] = c->sort[i];
	for (unsigned int i = 0; i < c->nr_fields; i++)
		if (!listed(c->sort, c->nr_sort, c->fields[i]) && c->nr_sort < RV_MAX_OUT)
			c->sort[c->nr_sort++] = c->fields[i];
	/* the keys, in the order the columns show them */
	c->nr_cols = 0;
	for (unsigned int i = 0; i < c->nr_fields; i++)
		if (c->fields[i] < RV_OUT_OVERHEAD)
			c->cols[c->nr_cols++] = c->fields[i];
	return 0;
}

/* Column col for the view, unless it has it; -EINVAL (said) when the view is full. */
static int add_col(struct rv_ctx *c, unsigned int col)
{
	if (listed(c->cols, c->nr_cols, col))
		return 0;
	if (c->nr_cols == RV_MAX_COLS) {
		cli_error("too many --sort keys: at most %d", RV_MAX_COLS);
		return -EINVAL;
	}
	c->cols[c->nr_cols++] = col;
	return 0;
}

/* `given`: arg is the user's --sort (perf's rule of the IPC column), not a default */
static int parse_sort(struct rv_ctx *c, const char *arg, bool given)
{
	const char *s = arg;
	char names[256];

	c->nr_cols = 0;
	while (*s) {
		size_t n = strcspn(s, ",");
		int key = rv_key_find(s, n);

		if (key < 0) {
			cli_error("unknown --sort key '%.*s': use %s", (int)n, s,
				  rv_key_names(names, sizeof(names)));
			return -EINVAL;
		}
		/* perf's sort_dimension__add(): the memory keys need the memory view */
		if (rv_keys[key].mem_only && !c->o->mem_mode) {
			cli_error("--sort key '%s' needs --mem-mode", rv_keys[key].name);
			return -EINVAL;
		}
		if (add_col(c, (unsigned int)key) < 0)
			return -EINVAL;
		s += n;
		if (*s == ',')
			s++;
	}
	if (!c->nr_cols) {
		cli_error("--sort needs at least one key: %s", rv_key_names(names, sizeof(names)));
		return -EINVAL;
	}
	/* perf: a file without branch stacks sorted by a key it names "symbol..." shows the
	 * IPC column too, with nothing in it */
	if (given && strstr(arg, "symbol") && add_col(c, RV_KEY_IPC_NULL) < 0)
		return -EINVAL;
	snprintf(c->sort_order, sizeof(c->sort_order), "%s%s", arg,
		 given && strstr(arg, "symbol") ? ",ipc_null" : "");
	return 0;
}

void report_call_graph_init(struct report_call_graph *g)
{
	*g = (struct report_call_graph){
		.set = true, .mode = CG_GRAPH, .threshold = 0.5, .order = -1, .value = CG_PERCENT,
	};
}

/*
 * perf's parse_callchain_mode/order/sort_key/value, tried in that order: a word matches
 * when it is a prefix of one of theirs ("f" is flat, "c" caller, "p" percent). 1 when it
 * matched, 0 not, -1 for "address", which we do not do.
 */
static int cg_word(struct report_call_graph *g, const char *w, size_t n)
{
	static const struct { const char *word; int what, val; } words[] = {
		{ "graph", 0, CG_GRAPH }, { "flat", 0, CG_FLAT }, { "fractal", 0, CG_FRACTAL },
		{ "folded", 0, CG_FOLDED }, { "none", 0, CG_NONE },
		{ "caller", 1, 1 }, { "callee", 1, 0 },
		{ "function", 2, 0 }, { "address", 2, -1 }, { "srcline", 2, 1 },
		{ "percent", 3, CG_PERCENT }, { "period", 3, CG_PERIOD }, { "count", 3, CG_COUNT },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strncmp(words[i].word, w, n) || strlen(words[i].word) < n)
			continue;
		if (words[i].what == 0)
			g->mode = words[i].val;
		else if (words[i].what == 1)
			g->order = words[i].val;
		else if (words[i].what == 2 && words[i].val < 0)
			return -1; /* chains by address: frames are functions here */
		else if (words[i].what == 2)
			g->srcline = words[i].val;
		else
			g->value = words[i].val;
		return 1;
	}
	return 0;
}

int report_call_graph_parse(struct report_call_graph *g, const char *arg)
{
	bool threshold_set = false;
	const char *s = arg;

	if (!g->set)
		report_call_graph_init(g);
	if (!arg) {
		g->mode = CG_NONE;
		return 0;
	}
	while (*s) {
		size_t n = strcspn(s, ",");
		char word[64], *end;
		int known;

		if (n >= sizeof(word))
			goto bad;
		memcpy(word, s, n);
		word[n] = 0;
		known = n ? cg_word(g, word, n) : 1;
		if (known < 0) {
			cli_error("-g address (chains by instruction address) is not supported: use "
				  "function or srcline");
			return -EINVAL;
		}
		/* perf stops at "none": "-g none,callee" keeps the default order */
		if (known > 0 && n && g->mode == CG_NONE)
			return 0;
		if (!known) {
			/* perf: the first number is the threshold, any later one the print limit */
			if (!threshold_set) {
				double d = strtod(word, &end);

				if (end == word)
					goto bad;
				g->threshold = d;
				threshold_set = true;
			} else {
				unsigned long l = strtoul(word, &end, 0);

				if (end == word)
					goto bad;
				g->print_limit = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
			}
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
bad:
	cli_error("invalid -g argument '%s': use graph, fractal, flat, folded or none, a "
		  "threshold and a print limit, caller or callee, function or srcline, percent, "
		  "period or count", arg);
	return -EINVAL;
}

void rv_lookup_opts(const struct view_opts *o, struct xpp_opts *po)
{
	po->comms = o->comms;
	po->dsos = o->dsos;
	po->pids = o->pids;
	po->tids = o->tids;
	po->cpus = o->cpus;
	po->time = o->time;
	po->symbols = o->symbols;
	po->kallsyms = o->kallsyms;
	po->vmlinux = o->vmlinux;
	po->debug_root = o->debug_root;
	po->symfs = o->symfs;
	po->buildid_dir = o->buildid_dir;
	po->kallsyms_cache = o->kallsyms_cache;
	po->debuginfod_urls = view_debuginfod_urls(&o->debuginfod);
	po->debuginfod_asked = o->debuginfod.given == 1;
	po->no_demangle = o->no_demangle;
	po->inlines = o->inlines;
	po->hide_unresolved = o->hide_unresolved;
	po->parent = o->parent;
	po->exclude_other = o->exclude_other;
	po->max_stack = o->max_stack;
	po->event_into = o->wall ? rv_wall_into : NULL;
}

int rv_ctx_parse(struct rv_ctx *c, const struct view_opts *o, struct xpp_opts *po)
{
	c->o = o;
	c->nr_cols = 0;
	/* with -F and no --sort, perf sorts by the fields alone */
	if ((o->sort || !o->fields) &&
	    parse_sort(c, o->sort ? o->sort : o->mem_mode ? RV_MEM_SORT : "comm,dso,sym",
		       o->sort != NULL) < 0)
		return -EINVAL;
	/* perf names the key it then leaves out off powerpc */
	if (!o->sort && o->mem_mode)
		snprintf(c->sort_order, sizeof(c->sort_order), "%s", RV_MEM_SORT ",local_p_stage_cyc");
	c->cg = o->cg;
	if (!c->cg.set)
		report_call_graph_init(&c->cg);
	if (o->inverted)
		c->cg.order = 1; /* perf's -G: after -g and whatever --children implies */
	/* perf: -p REGEX sorts by parent too, after the other keys */
	if (o->parent && add_col(c, RV_KEY_PARENT) < 0)
		return -EINVAL;
	if (o->hierarchy && o->fields) {
		cli_error("--hierarchy and --fields options cannot be used together");
		return -EINVAL;
	}
	if (o->fields && parse_fields(c, o->fields) < 0)
		return -EINVAL;
	/* what the profile computes for the columns: their rows say */
	po->keys |= rv_key_fields(c);
	po->entry_addrs = o->verbose > 0;
	rv_lookup_opts(o, po);
	/* perf's --mem-mode and --hierarchy: no children (cumulate_callchain = false); the
	 * hierarchy's chains keep the order chosen for the children it meant to show */
	if (o->hierarchy && !o->mem_mode && c->cg.order < 0)
		c->cg.order = o->children != 0;
	po->children = o->mem_mode || o->hierarchy ? 0 : o->children;
	po->mem_mode = o->mem_mode;
	po->no_chains = c->cg.mode == CG_NONE;
	po->order = c->cg.order;
	po->srclines |= (rv_key_fields(c) & XPP_HIST_KEY_SRCLINE) != 0;
	po->srclines |= c->cg.srcline;
	return 0;
}

void rv_ctx_take(struct rv_ctx *c, const xpp_profile *p, xpf_reader *r)
{
	c->p = p;
	c->r = r;
	c->dsos = xpp_profile_dsos(p);
	c->comms = xpp_profile_comms(p);
	c->ev = xpp_profile_events(p, &c->nr_ev);
	c->lost_samples = xpp_profile_lost_samples(p);
	c->comm_filter = xpp_profile_list(p, XPP_LIST_COMMS);
	c->dso_filter = xpp_profile_list(p, XPP_LIST_DSOS);
	c->sym_filter = xpp_profile_list(p, XPP_LIST_SYMBOLS);
	c->callchains = xpp_profile_callchains(p);
	c->children = xpp_profile_children(p);
	c->cg.order = xpp_profile_order(p);
}

void rv_count_str(uint64_t v, char *buf, size_t size)
{
	char unit = ' ';

	if (v > 1000)
		v /= 1000, unit = 'K';
	if (v > 1000)
		v /= 1000, unit = 'M';
	if (v > 1000)
		v /= 1000, unit = 'G';
	snprintf(buf, size, "%" PRIu64 "%c", v, unit);
}
