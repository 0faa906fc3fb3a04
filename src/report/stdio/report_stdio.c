/* The stdio report's one pass: records ordered per round, applied to the machine, samples aggregated. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/stdio/stdio_int.h"

static int parse_sort(struct stdio_ctx *c, const char *s)
{
	static const struct { const char *name; unsigned int key; } keys[] = {
		{ "comm", HIST_KEY_COMM }, { "dso", HIST_KEY_DSO }, { "sym", HIST_KEY_SYM },
		{ "symbol", HIST_KEY_SYM },
	};
	unsigned int seen = 0;

	c->nr_cols = 0;
	while (*s) {
		size_t n = strcspn(s, ","), i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (strlen(keys[i].name) == n && !strncmp(keys[i].name, s, n))
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			cli_error("unknown --sort key '%.*s': use comm, dso or sym", (int)n, s);
			return -EINVAL;
		}
		if (!(seen & keys[i].key))
			c->cols[c->nr_cols++] = keys[i].key;
		seen |= keys[i].key;
		s += n;
		if (*s == ',')
			s++;
	}
	if (!c->nr_cols) {
		cli_error("--sort needs at least one key: comm, dso or sym");
		return -EINVAL;
	}
	return 0;
}

static int parse_list(struct name_filter *f, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, ",");
		char **a;

		if (n) {
			a = realloc(f->names, (f->nr + 1) * sizeof(*a));
			if (!a)
				return -ENOMEM;
			f->names = a;
			a[f->nr] = strndup(s, n);
			if (!a[f->nr])
				return -ENOMEM;
			f->nr++;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

/*
 * -g as perf parses it: words in any order, the first number the threshold (a second one,
 * perf's print limit, is accepted and ignored). Unknown words are a usage error.
 */
static int parse_call_graph(struct cg_opts *g, const char *arg)
{
	static const struct { const char *word; int what, val; } words[] = {
		{ "graph", 0, CG_GRAPH }, { "folded", 0, CG_FOLDED }, { "none", 0, CG_NONE },
		{ "caller", 1, 1 }, { "callee", 1, 0 }, { "function", 2, 0 },
		{ "percent", 3, CG_PERCENT }, { "count", 3, CG_COUNT }, { "period", 3, CG_PERIOD },
	};
	int numbers = 0;

	g->mode = CG_GRAPH;
	g->threshold = 0.5;
	g->order = -1;
	g->value = CG_PERCENT;
	while (arg && *arg) {
		size_t n = strcspn(arg, ","), i;
		char word[64], *end;

		if (n >= sizeof(word))
			goto bad;
		memcpy(word, arg, n);
		word[n] = 0;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (n && !strncmp(words[i].word, word, n))
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			if (words[i].what == 0)
				g->mode = words[i].val;
			else if (words[i].what == 1)
				g->order = words[i].val;
			else if (words[i].what == 3)
				g->value = words[i].val;
		} else if (n) {
			double d = strtod(word, &end);

			if (*end || d < 0 || d > 100)
				goto bad;
			if (!numbers++)
				g->threshold = d;
		}
		arg += n;
		if (*arg == ',')
			arg++;
	}
	return 0;
bad:
	cli_error("invalid -g argument '%s': use graph, folded or none, a threshold, caller or "
		  "callee, percent, count or period", arg);
	return -EINVAL;
}

static void filter_free(struct name_filter *f)
{
	for (uint32_t i = 0; i < f->nr; i++)
		free(f->names[i]);
	free(f->names);
	free(f->verdict);
}

/* Whether the name with this id passes the list (no list: everything passes). */
static bool filter_pass(struct name_filter *f, uint32_t id, const char *name)
{
	if (!f->nr)
		return true;
	if (id == UINT32_MAX) {
		/* no id to cache the answer under */
		for (uint32_t i = 0; i < f->nr; i++)
			if (name && !strcmp(f->names[i], name))
				return true;
		return false;
	}
	if (id >= f->cap) {
		uint32_t cap = f->cap ? f->cap : 64;
		uint8_t *v;

		while (cap <= id)
			cap *= 2;
		v = realloc(f->verdict, cap);
		if (!v)
			return true;
		memset(v + f->cap, 0, cap - f->cap);
		f->verdict = v;
		f->cap = cap;
	}
	if (!f->verdict[id]) {
		f->verdict[id] = 2;
		for (uint32_t i = 0; i < f->nr; i++)
			if (name && !strcmp(f->names[i], name))
				f->verdict[id] = 1;
	}
	return f->verdict[id] == 1;
}

static struct event_hist *event_of(struct stdio_ctx *c, const struct xpf_attr *a)
{
	uint32_t i, n;

	if (a != c->last_attr) {
		n = xpf_reader_nr_attrs(c->r);
		for (i = 0; i < n && xpf_reader_attr(c->r, i) != a; i++)
			;
		if (i == n)
			return NULL;
		c->last_attr = a;
		c->last_idx = i;
	}
	if (c->last_idx >= c->nr_ev) {
		uint32_t nr = c->last_idx + 1;
		struct event_hist *ev = realloc(c->ev, nr * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + c->nr_ev, 0, (nr - c->nr_ev) * sizeof(*ev));
		c->ev = ev;
		c->nr_ev = nr;
	}
	struct event_hist *e = &c->ev[c->last_idx];

	if (!e->h)
		e->h = hist_create();
	return e->h ? e : NULL;
}

static uint32_t level_of(uint16_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'H';
	default:
		return '.';
	}
}

struct hist_key stdio_frame_key(const struct stdio_ctx *c, uint32_t comm, uint32_t f)
{
	size_t n;
	struct hist_key k = hist_entries(c->frames, &n)[f].key;

	k.comm = comm;
	return k;
}

/* The interned frame of ip in cpumode: (dso, symbol) or (dso, address) or the raw ip. */
static int64_t frame_of(struct stdio_ctx *c, const struct thread *th, uint16_t cpumode,
			uint16_t sample_mode, uint64_t ip)
{
	uint64_t tag = (uint64_t)th->proc << 16 | (uint64_t)sample_mode << 8 | cpumode;
	uint64_t h = (ip ^ tag * 0xc2b2ae3d27d4eb4fULL) * 0x9e3779b97f4a7c15ULL;
	struct frame_slot *slot = &c->fcache[h >> (64 - FRAME_CACHE_BITS)];
	struct hist_key k;
	int64_t id;

	if (slot->ip == ip && slot->tag == tag && slot->epoch == c->epoch)
		return slot->frame;

	hist_key_init(&k);
	k.level = level_of(cpumode);
	if (machine_resolve_ip(c->m, th, cpumode, ip, &k.dso, &k.addr)) {
		k.sym = (int32_t)dso_table_resolve(c->dsos, k.dso, k.addr);
		if (k.sym >= 0)
			k.addr = 0;
	} else {
		/* perf leaves an unmapped entry the level of its sample */
		k.addr = ip;
		k.level = level_of(sample_mode);
	}
	id = hist_add_id(c->frames, &k, 0, 0);
	if (id >= 0)
		*slot = (struct frame_slot){ ip, tag, c->epoch, (uint32_t)id };
	return id;
}

#define MAX_STACK 127 /* perf report's default --max-stack (kernel.perf_event_max_stack) */

/*
 * Add the sample's callchain to the event's tree as comm, then frames outermost first.
 * Context markers switch the mode of the entries after them, as perf reads them; an
 * unknown marker drops the chain (perf resets its cursor). The chain is cut to MAX_STACK
 * entries from the end perf starts at (the outermost in caller order).
 */
static int add_callchain(struct stdio_ctx *c, struct event_hist *e, const struct thread *th,
			 const struct xpf_sample *s, uint16_t sample_mode, uint64_t period)
{
	uint64_t nr = (s->type & PERF_SAMPLE_CALLCHAIN) ? s->callchain.nr : 0;
	uint16_t mode = PERF_RECORD_MISC_USER;
	uint32_t n = 0, *f;
	int64_t id;

	if (!e->cg && !(e->cg = cg_create()))
		return -ENOMEM;
	if (nr + 2 > c->chain_cap) {
		uint64_t cap = nr + 2 < 256 ? 256 : nr + 2;

		if (cap > UINT32_MAX / 8 || !(f = realloc(c->chain, cap * sizeof(*f))))
			return -ENOMEM;
		c->chain = f;
		c->chain_cap = (uint32_t)cap;
	}
	f = c->chain + 1; /* frames innermost first; the comm goes in front at the end */
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = s->callchain.ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_HV)
				mode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL)
				mode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				mode = PERF_RECORD_MISC_USER;
			else {
				n = 0;
				break;
			}
			continue;
		}
		id = frame_of(c, th, mode, sample_mode, ip);
		if (id < 0)
			return (int)id;
		f[n++] = (uint32_t)id;
	}
	if (!nr) {
		id = frame_of(c, th, sample_mode, sample_mode, s->ip);
		if (id < 0)
			return (int)id;
		f[n++] = (uint32_t)id;
	}
	if (n > MAX_STACK) {
		if (c->cg.order == 0)
			n = MAX_STACK;
		else
			f += n - MAX_STACK, n = MAX_STACK;
	}
	/* reverse to outermost first, the comm before them */
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t t = f[i];

		f[i] = f[n - 1 - i];
		f[n - 1 - i] = t;
	}
	f[-1] = th->comm;
	id = cg_add_path(e->cg, f - 1, n + 1, period, 1);
	return id < 0 ? (int)id : 0;
}

/*
 * An attr with callchains turns the call-graph views on, as perf does for such files:
 * children unless --no-children, caller order with children and callee without. A pipe
 * stream brings its attrs `late` (this runs for each sample's attr too): perf has chosen
 * its view by then, so children only when asked for, and caller order.
 */
static void callchains_seen(struct stdio_ctx *c, const struct xpf_attr *a, bool late)
{
	if (c->callchains || !a || !(a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return;
	c->callchains = true;
	c->children = late ? c->o->children == 1 : c->o->children != 0;
	if (c->cg.order < 0)
		c->cg.order = late ? 1 : c->children;
}

static int add_sample(struct stdio_ctx *c, const struct perf_event_header *hdr)
{
	const struct xpf_attr *a = xpf_reader_attr_of(c->r, hdr);
	struct event_hist *e;
	struct xpf_sample s;
	struct hist_key k;
	struct thread *th;
	uint16_t cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t period;
	int ret;

	if (!a)
		return 0; /* perf drops samples of unknown events too */
	if (!c->callchains)
		callchains_seen(c, a, true);
	ret = xpf_sample_decode(&a->attr, hdr, &s, &c->err);
	if (ret < 0)
		return 0; /* a malformed sample is skipped, as perf does */
	e = event_of(c, a);
	if (!e)
		return -ENOMEM;
	period = (s.type & PERF_SAMPLE_PERIOD) ? s.period :
		 a->attr.freq ? 1 : a->attr.sample_period;
	e->nr_samples++;
	e->total_period += period;

	th = machine_thread(c->m, (int32_t)s.pid, (int32_t)s.tid);
	if (!th)
		return -ENOMEM;
	hist_key_init(&k);
	k.comm = th->comm;
	k.level = level_of(cpumode);
	if (!filter_pass(&c->comm_filter, k.comm, intern_str(c->comms, k.comm)))
		return 0;
	if (machine_resolve_ip(c->m, th, cpumode, s.ip, &k.dso, &k.addr)) {
		k.sym = (int32_t)dso_table_resolve(c->dsos, k.dso, k.addr);
		if (k.sym >= 0)
			k.addr = 0;
	} else {
		k.addr = s.ip;
	}
	if (c->dso_filter.nr) {
		const struct dso *d = k.dso == HIST_NO_DSO ? NULL : dso_table_get(c->dsos, k.dso);

		if (!filter_pass(&c->dso_filter, k.dso,
				 d ? d->short_name : "[unknown]"))
			return 0;
	}
	if (c->callchains && (c->children || c->cg.mode != CG_NONE)) {
		ret = add_callchain(c, e, th, &s, cpumode, period);
		if (ret < 0)
			return ret;
	}
	return hist_add(e->h, &k, period, 1);
}

static int deliver(void *ctx, const struct perf_event_header *hdr)
{
	struct stdio_ctx *c = ctx;

	if (hdr->type == PERF_RECORD_SAMPLE)
		return add_sample(c, hdr);
	if (hdr->type == PERF_RECORD_LOST_SAMPLES && hdr->size >= 16) {
		uint64_t lost;

		memcpy(&lost, (const char *)hdr + 8, 8);
		c->lost_samples += lost;
		return 0;
	}
	c->epoch++; /* maps may change: the frame cache starts over */
	return machine_apply(c->m, hdr);
}

static int pass(struct stdio_ctx *c)
{
	struct xpf_record rec;
	int ret;

	while ((ret = xpf_reader_next(c->r, &rec, &c->err)) > 0) {
		const struct perf_event_header *hdr = rec.hdr;
		const struct xpf_attr *a0;
		uint64_t t;

		if (hdr->type == XPF_RECORD_FINISHED_ROUND) {
			ret = ordered_round(c->q);
		} else if (hdr->type >= PERF_RECORD_MAX) {
			continue; /* perf's own records: the reader applies what matters */
		} else if ((a0 = xpf_reader_attr(c->r, 0)) &&
			   record_time(a0->attr.sample_type, a0->attr.sample_id_all, hdr, &t)) {
			ret = ordered_queue(c->q, t, hdr);
		} else {
			ret = deliver(c, hdr);
		}
		if (ret < 0) {
			if (!c->err.msg[0])
				xpf_error_set(&c->err, ret, "cannot process the records: %s",
					      strerror(-ret));
			return ret;
		}
	}
	if (ret < 0)
		return ret;
	ret = ordered_flush_all(c->q);
	if (ret < 0)
		xpf_error_set(&c->err, ret, "cannot process the records: %s", strerror(-ret));
	return ret;
}

static void ctx_free(struct stdio_ctx *c)
{
	for (uint32_t i = 0; i < c->nr_ev; i++) {
		hist_free(c->ev[i].h);
		cg_free(c->ev[i].cg);
	}
	hist_free(c->frames);
	free(c->fcache);
	free(c->chain);
	free(c->ev);
	filter_free(&c->comm_filter);
	filter_free(&c->dso_filter);
	ordered_free(c->q);
	machine_free(c->m);
	dso_table_free(c->dsos);
	intern_free(c->comms);
}

int report_stdio_run_reader(xpf_reader *r, const struct report_stdio_opts *opts)
{
	struct report_stdio_opts none = { .children = -1 };
	struct dso_table_opts dopts;
	struct stdio_ctx c = { 0 };
	int ret, status = CLI_EXIT_RUNTIME;

	c.o = opts ? opts : &none;
	c.r = r;
	if (parse_sort(&c, c.o->sort ? c.o->sort : "comm,dso,sym") < 0)
		return CLI_EXIT_USAGE;
	if (parse_call_graph(&c.cg, c.o->call_graph) < 0)
		return CLI_EXIT_USAGE;
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++)
		callchains_seen(&c, xpf_reader_attr(r, i), false);
	dopts.kallsyms = c.o->kallsyms;
	dopts.debug_root = c.o->debug_root;
	c.dsos = dso_table_create(&dopts);
	c.comms = intern_create();
	c.m = c.dsos && c.comms ? machine_create(c.dsos, c.comms) : NULL;
	c.q = ordered_create(deliver, &c);
	c.frames = hist_create();
	c.fcache = calloc(1u << FRAME_CACHE_BITS, sizeof(*c.fcache));
	c.epoch = 1;
	if (!c.m || !c.q || !c.frames || !c.fcache || parse_list(&c.comm_filter, c.o->comms) ||
	    parse_list(&c.dso_filter, c.o->dsos)) {
		cli_error("cannot start the report: %s", strerror(ENOMEM));
		goto out;
	}
	ret = pass(&c);
	if (ret < 0) {
		fflush(stdout);
		cli_error("%s", c.err.msg[0] ? c.err.msg : strerror(-ret));
		goto out;
	}
	ret = stdio_print(&c, stdout);
	if (ret < 0) {
		cli_error("cannot print the report: %s", strerror(-ret));
		goto out;
	}
	status = CLI_EXIT_OK;
out:
	ctx_free(&c);
	return status;
}

int report_stdio_run(const char *input_path, const struct report_stdio_opts *opts)
{
	struct xpf_error err = { 0 };
	xpf_reader *r = NULL;
	int ret, status;

	ret = xpf_reader_open(&r, input_path, &err);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	status = report_stdio_run_reader(r, opts);
	if (status == CLI_EXIT_OK && xpf_reader_warning(r) && !(opts && opts->quiet)) {
		fflush(stdout);
		cli_warning("%s", xpf_reader_warning(r));
	}
	xpf_reader_close(r);
	return status;
}
