/* The one pass of a profile: records ordered per round, applied to the machine, samples resolved and aggregated. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_int.h"

static struct xpp_event *event_of(xpp_profile *p, const struct xpf_attr *a)
{
	uint32_t i, n;

	if (a != p->last_attr) {
		n = xpf_reader_nr_attrs(p->r);
		for (i = 0; i < n && xpf_reader_attr(p->r, i) != a; i++)
			;
		if (i == n)
			return NULL;
		p->last_attr = a;
		p->last_idx = i;
	}
	if (p->last_idx >= p->nr_ev) {
		uint32_t nr = p->last_idx + 1;
		struct xpp_event *ev = realloc(p->ev, nr * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + p->nr_ev, 0, (nr - p->nr_ev) * sizeof(*ev));
		p->ev = ev;
		p->nr_ev = nr;
	}
	struct xpp_event *e = &p->ev[p->last_idx];

	if (!e->h)
		e->h = xpp_hist_create();
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

/* The interned frame of ip in cpumode: (dso, symbol) or (dso, address) or the raw ip. */
static int64_t frame_of(xpp_profile *p, const struct xpp_thread *th, uint16_t cpumode,
			uint16_t sample_mode, uint64_t ip)
{
	uint64_t tag = (uint64_t)th->proc << 16 | (uint64_t)sample_mode << 8 | cpumode;
	uint64_t h = (ip ^ tag * 0xc2b2ae3d27d4eb4fULL) * 0x9e3779b97f4a7c15ULL;
	struct frame_slot *slot = &p->fcache[h >> (64 - FRAME_CACHE_BITS)];
	struct xpp_hist_key k;
	int64_t id;

	if (slot->ip == ip && slot->tag == tag && slot->epoch == p->epoch)
		return slot->frame;

	xpp_hist_key_init(&k);
	k.level = level_of(cpumode);
	if (xpp_machine_resolve_ip(p->m, th, cpumode, ip, &k.dso, &k.addr)) {
		k.sym = (int32_t)xpp_dso_table_resolve(p->dsos, k.dso, k.addr);
		if (k.sym >= 0)
			k.addr = 0;
	} else {
		/* perf leaves an unmapped entry the level of its sample */
		k.addr = ip;
		k.level = level_of(sample_mode);
	}
	id = xpp_hist_add_id(p->frames, &k, 0, 0);
	if (id >= 0)
		*slot = (struct frame_slot){ ip, tag, p->epoch, (uint32_t)id };
	return id;
}

/*
 * The user frames of a sample with registers and a stack copy, unwound with DWARF CFI as
 * perf's thread__resolve_callchain_unwind does, interned into f[] innermost first (at most
 * max_stack, perf's cap for this part). Returns how many; a stack that cannot be unwound
 * gives none and is counted (kernel threads, which have no user stack, are not).
 */
static int unwind_frames(xpp_profile *p, const struct xpp_thread *th, const struct xpf_sample *s,
			 uint16_t sample_mode, uint32_t max_stack, uint32_t *f)
{
	int n;

	if (!s->user_regs.abi && sample_mode != PERF_RECORD_MISC_USER)
		return 0;
	p->unwind.samples++;
	if (!p->unwinder && !p->unwind_err) {
		int ret = xpp_unwinder_create(&p->unwinder, p->m, p->dsos, p->o.debug_root);

		if (ret == -ENOMEM)
			return ret;
		p->unwind_err = ret;
		if (!ret && !(p->unwind_ips = malloc(max_stack * sizeof(*p->unwind_ips))))
			return -ENOMEM;
	}
	if (!p->unwinder) {
		p->unwind.unsupported++;
		return 0;
	}
	n = xpp_unwind_user(p->unwinder, th, s, p->unwind_ips, max_stack);
	if (n == -ENOMEM)
		return n;
	if (n <= 0) {
		p->unwind.failed++;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		int64_t id = frame_of(p, th, PERF_RECORD_MISC_USER, sample_mode, p->unwind_ips[i]);

		if (id < 0)
			return (int)id;
		f[i] = (uint32_t)id;
	}
	return n;
}

/*
 * Add the sample's callchain to the event's tree as comm, then frames outermost first.
 * Context markers switch the mode of the entries after them, as perf reads them; an
 * unknown marker drops the chain (perf resets its cursor). The chain is cut to max_stack
 * entries from the end perf starts at (the outermost in caller order). A DWARF sample's
 * user frames follow the callchain's (kernel) part, each part cut on its own, as perf joins
 * them; one whose stack could not be unwound keeps its own ip.
 */
static int add_callchain(xpp_profile *p, struct xpp_event *e, const struct xpp_thread *th,
			 const struct xpf_sample *s, uint16_t sample_mode, uint64_t period)
{
	uint64_t nr = (s->type & PERF_SAMPLE_CALLCHAIN) ? s->callchain.nr : 0;
	uint32_t max_stack = p->o.max_stack ? p->o.max_stack : MAX_STACK;
	uint16_t mode = PERF_RECORD_MISC_USER;
	bool dwarf = xpp_unwind_wanted(s->type);
	uint64_t need = nr + 2 + (dwarf ? max_stack : 0);
	uint32_t n = 0, *f;
	int64_t id;

	if (!e->cg && !(e->cg = xpp_cg_create()))
		return -ENOMEM;
	if (need > p->chain_cap) {
		uint64_t cap = need < 256 ? 256 : need;

		if (cap > UINT32_MAX / 8 || !(f = realloc(p->chain, cap * sizeof(*f))))
			return -ENOMEM;
		p->chain = f;
		p->chain_cap = (uint32_t)cap;
	}
	f = p->chain + 1; /* frames innermost first; the comm goes in front at the end */
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
		id = frame_of(p, th, mode, sample_mode, ip);
		if (id < 0)
			return (int)id;
		f[n++] = (uint32_t)id;
	}
	if (n > max_stack) {
		if (p->order == 0)
			n = max_stack;
		else
			f += n - max_stack, n = max_stack;
	}
	if (dwarf) {
		int u = unwind_frames(p, th, s, sample_mode, max_stack, f + n);

		if (u < 0)
			return u;
		n += (uint32_t)u;
	}
	if (!n && (!nr || dwarf)) {
		id = frame_of(p, th, sample_mode, sample_mode, s->ip);
		if (id < 0)
			return (int)id;
		f[n++] = (uint32_t)id;
	}
	/* reverse to outermost first, the comm before them */
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t t = f[i];

		f[i] = f[n - 1 - i];
		f[n - 1 - i] = t;
	}
	f[-1] = th->comm;
	id = xpp_cg_add_path(e->cg, f - 1, n + 1, period, 1);
	return id < 0 ? (int)id : 0;
}

/*
 * An attr with callchains turns the call-graph views on, as perf does for such files:
 * children unless --no-children, caller order with children and callee without. A pipe
 * stream brings its attrs `late` (this runs for each sample's attr too): perf has chosen
 * its view by then, so children only when asked for, and caller order.
 */
static void callchains_seen(xpp_profile *p, const struct xpf_attr *a, bool late)
{
	if (p->callchains || !a || !(a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return;
	p->callchains = true;
	p->children = late ? p->o.children == 1 : p->o.children != 0;
	if (p->order < 0)
		p->order = late ? 1 : p->children;
}

static int add_sample(xpp_profile *p, const struct perf_event_header *hdr)
{
	const struct xpf_attr *a = xpf_reader_attr_of(p->r, hdr);
	struct xpp_event *e;
	struct xpf_sample s;
	struct xpp_hist_key k;
	struct xpp_thread *th;
	uint16_t cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t period;
	int ret;

	if (!a)
		return 0; /* perf drops samples of unknown events too */
	if (!p->callchains)
		callchains_seen(p, a, true);
	ret = xpf_sample_decode(&a->attr, hdr, &s, &p->err);
	if (ret < 0)
		return 0; /* a malformed sample is skipped, as perf does */
	e = event_of(p, a);
	if (!e)
		return -ENOMEM;
	period = (s.type & PERF_SAMPLE_PERIOD) ? s.period :
		 a->attr.freq ? 1 : a->attr.sample_period;
	e->nr_samples++;
	e->total_period += period;

	th = xpp_machine_thread(p->m, (int32_t)s.pid, (int32_t)s.tid);
	if (!th)
		return -ENOMEM;
	xpp_hist_key_init(&k);
	k.comm = th->comm;
	k.level = level_of(cpumode);
	if (!xpp_filter_pass(&p->comm_filter, k.comm, xpp_intern_str(p->comms, k.comm)))
		return 0;
	if (xpp_machine_resolve_ip(p->m, th, cpumode, s.ip, &k.dso, &k.addr)) {
		k.sym = (int32_t)xpp_dso_table_resolve(p->dsos, k.dso, k.addr);
		if (k.sym >= 0)
			k.addr = 0;
	} else {
		k.addr = s.ip;
	}
	if (p->dso_filter.list.nr &&
	    !xpp_filter_pass(&p->dso_filter, k.dso, xpp_profile_dso_name(p, &k)))
		return 0;
	if (p->callchains && (p->children || !p->o.no_chains)) {
		ret = add_callchain(p, e, th, &s, cpumode, period);
		if (ret < 0)
			return ret;
	}
	return xpp_hist_add(e->h, &k, period, 1);
}

static int deliver(void *ctx, const struct perf_event_header *hdr)
{
	xpp_profile *p = ctx;

	if (hdr->type == PERF_RECORD_SAMPLE)
		return add_sample(p, hdr);
	if (hdr->type == PERF_RECORD_LOST_SAMPLES && hdr->size >= 16) {
		uint64_t lost;

		memcpy(&lost, (const char *)hdr + 8, 8);
		p->lost_samples += lost;
		return 0;
	}
	p->epoch++; /* maps may change: the frame cache starts over */
	return xpp_machine_apply(p->m, hdr);
}

int xpp_profile_run(xpp_profile *p, struct xpf_error *err)
{
	struct xpf_record rec;
	int ret;

	while ((ret = xpf_reader_next(p->r, &rec, err)) > 0) {
		const struct perf_event_header *hdr = rec.hdr;
		const struct xpf_attr *a0;
		uint64_t t;

		if (hdr->type == XPF_RECORD_FINISHED_ROUND) {
			ret = xpp_ordered_round(p->q);
		} else if (hdr->type >= PERF_RECORD_MAX) {
			continue; /* perf's own records: the reader applies what matters */
		} else if ((a0 = xpf_reader_attr(p->r, 0)) &&
			   record_time(a0->attr.sample_type, a0->attr.sample_id_all, hdr, &t)) {
			ret = xpp_ordered_queue(p->q, t, hdr);
		} else {
			ret = deliver(p, hdr);
		}
		if (ret < 0) {
			if (!err->msg[0])
				xpf_error_set(err, ret, "cannot process the records: %s",
					      strerror(-ret));
			return ret;
		}
	}
	if (ret < 0)
		return ret;
	ret = xpp_ordered_flush_all(p->q);
	if (ret < 0)
		xpf_error_set(err, ret, "cannot process the records: %s", strerror(-ret));
	return ret;
}

/* Whether some event of the file may have samples in the kernel (pipes: assume so). */
static bool may_sample_kernel(xpf_reader *r)
{
	uint32_t n = xpf_reader_nr_attrs(r);

	for (uint32_t i = 0; i < n; i++)
		if (!xpf_reader_attr(r, i)->attr.exclude_kernel)
			return true;
	return !n;
}

int xpp_profile_create(xpp_profile **out, xpf_reader *r, const struct xpp_opts *opts,
		       struct xpf_error *err)
{
	struct xpp_dso_table_opts dopts;
	xpp_profile *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		goto nomem;
	p->o = *opts;
	p->r = r;
	p->order = opts->order;
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++)
		callchains_seen(p, xpf_reader_attr(r, i), false);
	dopts.kallsyms = opts->kallsyms;
	dopts.debug_root = opts->debug_root;
	dopts.no_demangle = opts->no_demangle;
	p->dsos = xpp_dso_table_create(&dopts);
	p->comms = xpp_intern_create();
	p->m = p->dsos && p->comms ? xpp_machine_create(p->dsos, p->comms) : NULL;
	if (p->dsos && may_sample_kernel(r))
		xpp_dso_table_prefetch_kernel(p->dsos);
	p->q = xpp_ordered_create(deliver, p);
	p->frames = xpp_hist_create();
	p->fcache = calloc(1u << FRAME_CACHE_BITS, sizeof(*p->fcache));
	p->epoch = 1;
	if (!p->m || !p->q || !p->frames || !p->fcache ||
	    xpp_filter_parse(&p->comm_filter, opts->comms) ||
	    xpp_filter_parse(&p->dso_filter, opts->dsos))
		goto nomem;
	*out = p;
	return 0;
nomem:
	xpp_profile_free(p);
	xpf_error_set(err, -ENOMEM, "cannot start the profile: %s", strerror(ENOMEM));
	return -ENOMEM;
}

void xpp_profile_free(xpp_profile *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nr_ev; i++) {
		xpp_hist_free(p->ev[i].h);
		xpp_cg_free(p->ev[i].cg);
	}
	xpp_hist_free(p->frames);
	xpp_unwinder_free(p->unwinder);
	free(p->unwind_ips);
	free(p->fcache);
	free(p->chain);
	free(p->ev);
	xpp_filter_free(&p->comm_filter);
	xpp_filter_free(&p->dso_filter);
	xpp_ordered_free(p->q);
	xpp_machine_free(p->m);
	xpp_dso_table_free(p->dsos);
	xpp_intern_free(p->comms);
	free(p);
}
