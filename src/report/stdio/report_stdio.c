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
	for (uint32_t i = 0; i < c->nr_ev; i++)
		hist_free(c->ev[i].h);
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
	struct report_stdio_opts none = { 0 };
	struct dso_table_opts dopts;
	struct stdio_ctx c = { 0 };
	int ret, status = CLI_EXIT_RUNTIME;

	c.o = opts ? opts : &none;
	c.r = r;
	if (parse_sort(&c, c.o->sort ? c.o->sort : "comm,dso,sym") < 0)
		return CLI_EXIT_USAGE;
	dopts.kallsyms = c.o->kallsyms;
	dopts.debug_root = c.o->debug_root;
	c.dsos = dso_table_create(&dopts);
	c.comms = intern_create();
	c.m = c.dsos && c.comms ? machine_create(c.dsos, c.comms) : NULL;
	c.q = ordered_create(deliver, &c);
	if (!c.m || !c.q || parse_list(&c.comm_filter, c.o->comms) ||
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
