/* The values the profile computes for sort keys (values.h): a row per value, read by the pass. */
#include <errno.h>
#include <string.h>

#include "base/array.h"

#include "profile/profile_int.h"
#include "profile/values.h"

static int thread_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = (uint64_t)(uint32_t)in->th->pid << 32 | (uint32_t)in->th->tid;
	return 0;
}

static uint32_t cpu(const struct xpp_val_in *in)
{
	return (in->s->type & PERF_SAMPLE_CPU) ? in->s->cpu : UINT32_MAX;
}

static int cpu_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = cpu(in);
	return 0;
}

/* perf's hist_time(): the sample's time cut down to the --time-quantum */
static int time_of(const struct xpp_val_in *in, uint64_t *v)
{
	uint64_t q = in->p->o.time_quantum ? in->p->o.time_quantum : XPP_TIME_QUANTUM;
	uint64_t t = (in->s->type & PERF_SAMPLE_TIME) ? in->s->time : 0;

	*v = t / q * q;
	return 0;
}

/* perf's al->socket: the cpu's socket id from the CPU_TOPOLOGY feature, else -1 */
static int socket_of(const struct xpp_val_in *in, uint64_t *v)
{
	uint32_t c = cpu(in);

	*v = c < in->p->nr_sockets ? in->p->sockets[c] : UINT32_MAX;
	return 0;
}

static int cgroup_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = (in->s->type & PERF_SAMPLE_CGROUP) ? in->s->cgroup : 0;
	return 0;
}

/* PERF_RECORD_CGROUP: {u64 id; char path[]}, perf's cgroup names */
static int cgroup_record(xpp_profile *p, const struct perf_event_header *hdr)
{
	const char *b = (const char *)hdr;
	uint64_t id;
	int64_t name;

	if (hdr->type != PERF_RECORD_CGROUP || hdr->size < 8 + 8 + 1)
		return 0;
	memcpy(&id, b + 8, 8);
	name = xpp_intern_id(p->strs, b + 16, strnlen(b + 16, hdr->size - 16u));
	if (name < 0)
		return (int)name;
	for (uint32_t i = 0; i < p->nr_cgroups; i++)
		if (p->cgroups[i].id == id) {
			p->cgroups[i].name = (uint32_t)name;
			return 0;
		}
	if (XB_ARRAY_RESERVE(p->cgroups, p->cgroups_cap, (size_t)p->nr_cgroups + 1, 16))
		return -ENOMEM;
	p->cgroups[p->nr_cgroups++] = (struct xpp_cgroup){ id, (uint32_t)name };
	return 0;
}

/* perf's hist_entry__cgroup_snprintf(): "N/A" without one, its path, "unknown" */
static const char *cgroup_name(const xpp_profile *p, uint64_t v)
{
	if (!v)
		return "N/A";
	for (uint32_t i = 0; i < p->nr_cgroups; i++)
		if (p->cgroups[i].id == v)
			return xpp_intern_str(p->strs, p->cgroups[i].name);
	return "unknown";
}

static const char *str_name(const xpp_profile *p, uint64_t v)
{
	const char *s = xpp_profile_str(p, v);

	return s ? s : "";
}

/*
 * PERF_RECORD_NAMESPACES: {u32 pid, tid; u64 nr; {u64 dev, ino}[nr]}: the thread's cgroup
 * namespace (perf's CGROUP_NS_INDEX, 6) as perf's cgroup_id key shows it
 */
static int namespaces_record(xpp_profile *p, const struct perf_event_header *hdr)
{
	const char *b = (const char *)hdr;
	uint64_t nr, dev, ino, v;
	int32_t tid;

	if (hdr->type != PERF_RECORD_NAMESPACES || hdr->size < 24)
		return 0;
	memcpy(&tid, b + 12, 4);
	memcpy(&nr, b + 16, 8);
	if (nr <= 6 || hdr->size < 24 + 7 * 16)
		return 0;
	memcpy(&dev, b + 24 + 6 * 16, 8);
	memcpy(&ino, b + 24 + 6 * 16 + 8, 8);
	v = dev << 40 | (ino & ((1ull << 40) - 1));
	for (uint32_t i = 0; i < p->nr_thread_ns; i++)
		if (p->thread_ns[i].tid == tid) {
			p->thread_ns[i].v = v;
			return 0;
		}
	if (XB_ARRAY_RESERVE(p->thread_ns, p->thread_ns_cap, (size_t)p->nr_thread_ns + 1, 64))
		return -ENOMEM;
	p->thread_ns[p->nr_thread_ns++] = (struct xpp_thread_ns){ tid, v };
	return 0;
}

static int cgroup_ns_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = 0;
	for (uint32_t i = 0; i < in->p->nr_thread_ns; i++)
		if (in->p->thread_ns[i].tid == in->th->tid)
			*v = in->p->thread_ns[i].v;
	return 0;
}

static int ip_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = in->ip + (in->chain_ip ? in->map_delta : 0);
	return 0;
}

static int sym_size_of(const struct xpp_val_in *in, uint64_t *v)
{
	const struct xpp_hist_key *k = in->k;
	const struct xpp_dso *d =
		k->dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(in->p->dsos, k->dso);

	*v = 0;
	if (d && k->sym >= 0 && (uint32_t)k->sym < d->syms.nr)
		*v = d->syms.syms[k->sym].end - d->syms.syms[k->sym].start + 1;
	return 0;
}

static int map_size_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = in->map_size;
	return 0;
}

/* perf's hist_entry__get_srcfile(): the file of the frame's "file:line", "" without one */
static int srcfile_of(const struct xpp_val_in *in, uint64_t *v)
{
	const char *s = in->chain_ip ? NULL : xpp_profile_srcline(in->p, in->k, false);
	const char *colon = s && !(in->k->srcline & XPP_SRCLINE_FALLBACK) &&
			    strcmp(s, "??:0") ? strchr(s, ':') : NULL;
	int64_t id = xpp_intern_id(in->p->strs, colon ? s : "", colon ? (size_t)(colon - s) : 0);

	if (id < 0)
		return (int)id;
	*v = (uint64_t)id + 1;
	return 0;
}

const struct xpp_val_row xpp_val_rows[XPP_VAL_NR] = {
	[XPP_VAL_THREAD] = { .context = true, .get = thread_of },
	[XPP_VAL_CPU] = { .context = true, .from_sample = true, .get = cpu_of },
	[XPP_VAL_PARENT] = { .context = true }, /* the pass's chain_parent() */
	[XPP_VAL_TIME] = { .context = true, .from_sample = true, .get = time_of },
	[XPP_VAL_SOCKET] = { .context = true, .from_sample = true, .get = socket_of },
	[XPP_VAL_CGROUP] = { .context = true, .from_sample = true, .get = cgroup_of,
			     .name = cgroup_name, .side_band = cgroup_record },
	[XPP_VAL_CGROUP_NS] = { .context = true, .get = cgroup_ns_of,
				.side_band = namespaces_record },
	[XPP_VAL_IP] = { .get = ip_of },
	[XPP_VAL_SYM_SIZE] = { .get = sym_size_of },
	[XPP_VAL_MAP_SIZE] = { .get = map_size_of },
	[XPP_VAL_SRCFILE] = { .srclines = true, .get = srcfile_of, .name = str_name },
};

int xpp_vals_side_band(xpp_profile *p, const struct perf_event_header *hdr)
{
	int ret;

	for (int i = 0; i < XPP_VAL_NR; i++)
		if ((p->o.keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].side_band &&
		    (ret = xpp_val_rows[i].side_band(p, hdr)) < 0)
			return ret;
	return 0;
}

const char *xpp_profile_val_name(const xpp_profile *p, unsigned int v, uint64_t value)
{
	return v < XPP_VAL_NR && xpp_val_rows[v].name ? xpp_val_rows[v].name(p, value) : NULL;
}

unsigned int xpp_val_mask(bool context)
{
	unsigned int m = 0;

	for (int i = 0; i < XPP_VAL_NR; i++)
		if (xpp_val_rows[i].context == context)
			m |= XPP_HIST_KEY_VAL(i);
	return m;
}
