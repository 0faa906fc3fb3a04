/* What a profile hands its views: events, names, frames and the view the file calls for. */
#include <errno.h>

#include "profile/profile_int.h"

xpf_reader *xpp_profile_reader(const xpp_profile *p)
{
	return p->r;
}

const struct xpp_opts *xpp_profile_opts(const xpp_profile *p)
{
	return &p->o;
}

xpp_dso_table *xpp_profile_dsos(const xpp_profile *p)
{
	return p->dsos;
}

const xpp_intern *xpp_profile_comms(const xpp_profile *p)
{
	return p->comms;
}

const struct xpp_event *xpp_profile_events(const xpp_profile *p, uint32_t *nr)
{
	*nr = p->nr_ev;
	return p->ev;
}

uint64_t xpp_profile_lost_samples(const xpp_profile *p)
{
	return p->records.lost_samples;
}

const struct xpp_records *xpp_profile_records(const xpp_profile *p)
{
	return &p->records;
}

bool xpp_profile_filtered_all(const xpp_profile *p, enum xpp_filter_kind *which,
			      uint64_t *reached)
{
	uint64_t met = 0;

	*which = XPP_FILTER_NONE;
	*reached = 0;
	if (p->charged)
		return false;
	for (int f = 0; f < XPP_NR_FILTERS; f++) {
		if (!p->filter_met[f])
			continue;
		if (!met)
			met = p->filter_met[f];
		if (p->filter_dropped[f] == p->filter_met[f]) {
			*which = (enum xpp_filter_kind)f;
			*reached = p->filter_met[f];
			return true;
		}
	}
	*reached = met;
	return met > 0;
}

const struct xpp_undecodable *xpp_profile_undecodable(const xpp_profile *p)
{
	return &p->undecodable;
}

struct xpp_unwind_stats xpp_profile_unwind_stats(const xpp_profile *p)
{
	return p->unwind;
}

bool xpp_profile_callchains(const xpp_profile *p)
{
	return p->callchains;
}

bool xpp_profile_children(const xpp_profile *p)
{
	return p->children;
}

int xpp_profile_order(const xpp_profile *p)
{
	return p->order;
}

/* Copy the context of first-level key `root` (its comm, thread, cpu, parent) into k. */
static void set_context(const xpp_profile *p, uint32_t root, struct xpp_hist_key *k)
{
	if (!p->ctxs || root >= xpp_hist_nr(p->ctxs)) {
		k->comm = p->ctxs ? 0 : root;
		return;
	}
	k->comm = xpp_hist_recs(p->ctxs, &(size_t){ 0 })[root].comm;
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (p->ctx_keys & XPP_HIST_KEY_VAL(i))
			k->val[i] = xpp_hist_val_at(p->ctxs, root, i);
}

struct xpp_hist_key xpp_profile_frame_key(const xpp_profile *p, uint32_t root, uint32_t f)
{
	struct xpp_hist_key k = xpp_hist_key_at(p->frames, f);

	set_context(p, root, &k);
	return k;
}

bool xpp_profile_frame_key_load(const xpp_profile *p, uint32_t root, uint32_t f,
				struct xpp_hist_key *k, bool vals_set)
{
	bool vals = xpp_hist_key_load(p->frames, f, k, vals_set);

	set_context(p, root, k);
	return vals || (p->ctxs && p->ctx_keys);
}

const struct xpp_hist_rec *xpp_profile_frame_rec(const xpp_profile *p, uint32_t f)
{
	return &xpp_hist_recs(p->frames, &(size_t){ 0 })[f];
}

bool xpp_profile_frames_apart(const xpp_profile *p, unsigned int keys)
{
	size_t n;
	const struct xpp_hist_rec *r = xpp_hist_recs(p->frames, &n);
	int level = -1;

	/*
	 * Frames are apart as keys: a context sets the same comm and values in each where
	 * theirs are 0, and keys that leave each as it is keep them apart, but for the level
	 * that goes from a frame without a map (which one level among them all keeps)
	 */
	if (!xpp_hist_mask_keeps(p->frames, keys & ~(XPP_HIST_KEY_COMM | xpp_val_mask(true))))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (r[i].dso != XPP_HIST_NO_DSO)
			continue;
		if (level < 0)
			level = r[i].level;
		else if (level != (int)r[i].level)
			return false;
	}
	return true;
}

struct xpp_hist_key xpp_profile_root_key(const xpp_profile *p, uint32_t root)
{
	struct xpp_hist_key k;

	xpp_hist_key_init(&k);
	set_context(p, root, &k);
	return k;
}

uint32_t xpp_profile_root_comm(const xpp_profile *p, uint32_t root)
{
	size_t n;
	const struct xpp_hist_rec *ctx = p->ctxs ? xpp_hist_recs(p->ctxs, &n) : NULL;

	if (!ctx)
		return root;
	return root < n ? ctx[root].comm : 0;
}

const char *xpp_profile_thread_name(const xpp_profile *p, int32_t pid, int32_t tid)
{
	const struct xpp_thread *th = xpp_machine_thread(p->m, pid, tid);
	const char *s = th ? xpp_intern_str(p->comms, th->comm) : NULL;

	return s ? s : "";
}

const char *xpp_profile_parent_name(const xpp_profile *p, const struct xpp_hist_key *k)
{
	uint64_t v = k->val[XPP_VAL_PARENT];

	return v ? xpp_intern_str(p->strs, (uint32_t)v - 1) : NULL;
}

const struct xpp_name_list *xpp_profile_list(const xpp_profile *p, enum xpp_list which)
{
	return which == XPP_LIST_COMMS ? &p->comm_filter.list :
	       which == XPP_LIST_DSOS ? &p->dso_filter.list : &p->sym_filter.list;
}

const char *xpp_profile_dso_name(const xpp_profile *p, const struct xpp_hist_key *k)
{
	const struct xpp_dso *d =
		k->dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(p->dsos, k->dso);

	return d ? d->short_name : "[unknown]";
}

const char *xpp_profile_sym_name(const xpp_profile *p, const struct xpp_hist_key *k)
{
	const struct xpp_dso *d;

	if (k->inl)
		return xpp_intern_str(p->strs, k->inl - 1);
	if (k->sym < 0 || k->dso == XPP_HIST_NO_DSO || !(d = xpp_dso_table_get(p->dsos, k->dso)))
		return NULL;
	return xpp_dso_sym_name(d, (uint32_t)k->sym);
}

int xpp_profile_kernel_sym(xpp_profile *p, uint64_t addr, const char **name, uint64_t *start)
{
	int64_t kernel = xpp_dso_table_kernel(p->dsos), idx;
	const struct xpp_dso *d;

	if (kernel < 0)
		return (int)kernel;
	idx = xpp_dso_table_resolve(p->dsos, (uint32_t)kernel, addr);
	if (idx < 0 || !(d = xpp_dso_table_get(p->dsos, (uint32_t)kernel)))
		return 0;
	*name = xpp_dso_sym_name(d, (uint32_t)idx);
	*start = d->syms.syms[idx].start;
	return 1;
}

const char *xpp_profile_str(const xpp_profile *p, uint64_t v)
{
	return v ? xpp_intern_str(p->strs, (uint32_t)(v - 1)) : NULL;
}

const char *xpp_profile_srcline(const xpp_profile *p, const struct xpp_hist_key *k, bool chain)
{
	if (!k->srcline)
		return NULL;
	/* the bare marker (opts.no_line_fallbacks, chain keys) holds no string */
	if ((chain && (k->srcline & XPP_SRCLINE_FALLBACK)) || k->srcline == XPP_SRCLINE_FALLBACK)
		return "??:0";
	return xpp_intern_str(p->strs, (k->srcline & ~XPP_SRCLINE_FALLBACK) - 1);
}

bool xpp_profile_inlines(const xpp_profile *p)
{
	return p->inlines;
}

bool xpp_profile_srclines(const xpp_profile *p)
{
	return p->srclines;
}

int64_t xpp_profile_thread_comm(xpp_profile *p, int32_t pid, int32_t tid)
{
	const struct xpp_thread *th = xpp_machine_thread(p->m, pid, tid);

	return th ? (int64_t)th->comm : -ENOMEM;
}

int xpp_profile_srcline_at(xpp_profile *p, uint32_t dso, uint64_t addr, const char **line)
{
	const struct xpp_dso *d = dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(p->dsos, dso);
	struct xpp_src_frames fr;
	int ret;

	*line = NULL;
	if (!d || d->kind != XPP_DSO_USER)
		return 0;
	if (!p->src_on_demand) {
		struct xpp_src_opts so = { .debug_root = p->o.debug_root,
					   .debuginfod = p->debuginfod,
					   .no_demangle = p->o.no_demangle };

		ret = xpp_srcline_create(&p->src_on_demand, p->strs, &so, NULL);
		if (ret < 0)
			return ret;
	}
	ret = xpp_srcline_find(p->src_on_demand, dso, d->long_name, addr, &fr);
	if (ret < 0)
		return ret;
	if (!fr.has_lines || fr.lines[0] == XPP_SRC_UNKNOWN)
		return 0;
	*line = xpp_intern_str(p->strs, fr.lines[0]);
	return 1;
}

const struct xpp_addr_hits *xpp_profile_addr_hits(const xpp_profile *p, uint32_t event,
						  uint32_t dso, uint64_t start, uint64_t end,
						  size_t *nr)
{
	const struct addr_hist *a = event < p->nr_addrs ? &p->addrs[event] : NULL;
	size_t lo = 0, hi, first;

	*nr = 0;
	if (!a || !a->sorted)
		return NULL;
	/* the first entry at or after (dso, start), then every one before (dso, end) */
	hi = a->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct xpp_addr_hits *m = &a->sorted[mid];

		if (m->dso < dso || (m->dso == dso && m->addr < start))
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < a->nr && a->sorted[lo].dso == dso && a->sorted[lo].addr < end)
		lo++;
	*nr = lo - first;
	return *nr ? &a->sorted[first] : NULL;
}
