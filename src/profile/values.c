/* The values the profile computes for sort keys (values.h): a row per value, read by the pass. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "base/hash.h"

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

/* ---- report --mem-mode's values (perf's mem_info) ---- */

static int weight_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = (in->s->type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) ? in->s->weight : 0;
	return 0;
}

static int ins_lat_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = (in->s->type & PERF_SAMPLE_WEIGHT_STRUCT) ? in->s->weight_var2 : 0;
	return 0;
}

/*
 * union perf_mem_data_src's fields each key compares (perf's sort__lvl_cmp and others
 * compare one field; mem's text reads lvl_num, remote and hops beside mem_lvl)
 */
#define DS_BITS(shift, n) ((((uint64_t)1 << (n)) - 1) << (shift))
static const uint64_t data_src_mask[] = {
	[XPP_VAL_MEM_LVL - XPP_VAL_MEM_LVL] = DS_BITS(5, 14) | DS_BITS(33, 4) | DS_BITS(37, 1) |
					      DS_BITS(43, 3),
	[XPP_VAL_MEM_SNOOP - XPP_VAL_MEM_LVL] = DS_BITS(19, 5) | DS_BITS(38, 2),
	[XPP_VAL_MEM_TLB - XPP_VAL_MEM_LVL] = DS_BITS(26, 7),
	[XPP_VAL_MEM_LOCK - XPP_VAL_MEM_LVL] = DS_BITS(24, 2),
	[XPP_VAL_MEM_BLK - XPP_VAL_MEM_LVL] = DS_BITS(40, 3),
};

static uint64_t data_src(const struct xpp_val_in *in, int v)
{
	return (in->s->type & PERF_SAMPLE_DATA_SRC) ? in->s->data_src & data_src_mask[v - XPP_VAL_MEM_LVL]
						     : 0;
}

static int mem_lvl_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = data_src(in, XPP_VAL_MEM_LVL);
	return 0;
}

static int mem_snoop_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = data_src(in, XPP_VAL_MEM_SNOOP);
	return 0;
}

static int mem_tlb_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = data_src(in, XPP_VAL_MEM_TLB);
	return 0;
}

static int mem_lock_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = data_src(in, XPP_VAL_MEM_LOCK);
	return 0;
}

static int mem_blk_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = data_src(in, XPP_VAL_MEM_BLK);
	return 0;
}

/* perf's level character of a cpumode (PERF_RECORD_MISC_CPUMODE_MASK bits). */
uint32_t xpp_level_of(uint16_t cpumode)
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

/*
 * perf's entry keeps its first sample's mem_info: the first of each data address (and
 * physical address) is kept per entry it may land in, that is per code frame of the
 * sample as the view's key has it (the whole frame, its DSO, nothing: xpp_hist_key_mask())
 */
static uint64_t first_hash(const struct xpp_val_first *f)
{
	return xb_hash_add(xb_hash_u64(((f->value * 31 + f->v) * 31 + f->k_dso) * 31 +
				       (uint64_t)(uint32_t)f->k_sym * 7 + f->k_level * 3 +
				       f->k_addr), f->k_ctx);
}

/*
 * The rest of the entry a sample lands in, as a hash: its comm where that is a key, its
 * context values (the parent's is not known yet when the first is kept, and no key asks
 * for it with a data address): the first is the entry's own, as perf's, also where the
 * data address's value alone does not tell the entries apart (dcacheline, --sort pid)
 */
static uint64_t first_ctx(const xpp_profile *p, const struct xpp_hist_key *k)
{
	uint64_t h = xb_hash_add(0, (p->o.keys & XPP_HIST_KEY_COMM) ? k->comm : 0);

	for (int i = 0; i < XPP_VAL_NR; i++)
		if ((p->ctx_keys & XPP_HIST_KEY_VAL(i)) && i != XPP_VAL_PARENT)
			h = xb_hash_add(h, k->val[i]);
	return h;
}

static uint64_t first_hash_of(const void *ctx, uint32_t i)
{
	return first_hash(&((const xpp_profile *)ctx)->firsts[i - 1]);
}

static bool first_eq(const void *ctx, uint32_t i, const void *key)
{
	const struct xpp_val_first *a = &((const xpp_profile *)ctx)->firsts[i - 1], *b = key;

	return a->v == b->v && a->value == b->value && a->k_dso == b->k_dso &&
	       a->k_sym == b->k_sym && a->k_level == b->k_level && a->k_addr == b->k_addr &&
	       a->k_ctx == b->k_ctx;
}

/* Keep f unless one with its keys came before. 0 or -ENOMEM. */
static int first_keep(xpp_profile *p, const struct xpp_val_first *f)
{
	uint32_t *slot;

	if (xb_slots_reserve(&p->first_index, p->nr_firsts + 1, first_hash_of, p))
		return -ENOMEM;
	slot = xb_slots_find(&p->first_index, first_hash(f), first_eq, p, f);
	if (*slot)
		return 0;
	if (XB_ARRAY_RESERVE(p->firsts, p->firsts_cap, (size_t)p->nr_firsts + 1, 64))
		return -ENOMEM;
	p->firsts[p->nr_firsts++] = *f;
	*slot = p->nr_firsts;
	return 0;
}

int xpp_vals_note_first(xpp_profile *p, const struct xpp_hist_key *k)
{
	for (size_t i = 0; i < sizeof(p->first_now) / sizeof(p->first_now[0]); i++) {
		struct xpp_val_first f = p->first_now[i];
		int ret;

		if (!(p->o.keys & XPP_HIST_KEY_VAL(f.v)) || !f.v)
			continue;
		/* the frame as the entry's key may keep it: whole, its DSO alone, nothing */
		f.k_dso = k->dso, f.k_sym = k->sym, f.k_level = k->level, f.k_addr = k->addr;
		f.k_ctx = first_ctx(p, k);
		if ((ret = first_keep(p, &f)) < 0)
			return ret;
		f.k_sym = -1, f.k_level = '.', f.k_addr = 0;
		if ((ret = first_keep(p, &f)) < 0)
			return ret;
		f.k_dso = XPP_HIST_NO_DSO;
		if ((ret = first_keep(p, &f)) < 0)
			return ret;
	}
	return 0;
}

const struct xpp_val_first *xpp_profile_val_first(const xpp_profile *p, unsigned int v,
						  const struct xpp_hist_key *k)
{
	struct xpp_val_first key = { .value = k->val[v], .v = v, .k_dso = k->dso,
				     .k_sym = k->sym, .k_level = k->level, .k_addr = k->addr,
				     .k_ctx = first_ctx(p, k) };
	const uint32_t *slot;

	if (!p->first_index.nslots)
		return NULL;
	slot = xb_slots_find(&p->first_index, first_hash(&key), first_eq, p, &key);
	return *slot ? &p->firsts[*slot - 1] : NULL;
}

/* perf's ip__resolve_data(): the sample's data address in the maps of its cpumode */
static bool daddr_resolve(const struct xpp_val_in *in, uint32_t *dso, uint64_t *al_addr,
			  const struct xpp_map **map)
{
	uint64_t addr = (in->s->type & PERF_SAMPLE_ADDR) ? in->s->addr : 0;

	*dso = XPP_HIST_NO_DSO;
	*al_addr = addr;
	return in->th && xpp_machine_resolve_data(in->p->m, in->th, in->cpumode, addr, dso, al_addr,
						  map);
}

/* the value is the address, as perf's sort__daddr_cmp() compares; where it was found is
 * kept for the first sample of each entry (xpp_vals_note_first()) */
static int daddr_of(const struct xpp_val_in *in, uint64_t *v)
{
	struct xpp_val_first *f = &in->p->first_now[0];

	*f = (struct xpp_val_first){ .v = XPP_VAL_DADDR, .level = xpp_level_of(in->cpumode),
				     .sym = -1 };
	f->value = (in->s->type & PERF_SAMPLE_ADDR) ? in->s->addr : 0;
	if (daddr_resolve(in, &f->dso, &f->addr, NULL))
		f->sym = (int32_t)xpp_dso_table_resolve(in->p->dsos, f->dso, f->addr);
	*v = f->value;
	return 0;
}

static int daddr_dso_of(const struct xpp_val_in *in, uint64_t *v)
{
	uint32_t dso;
	uint64_t al_addr;

	*v = daddr_resolve(in, &dso, &al_addr, NULL) ? (uint64_t)dso + 1 : 0;
	return 0;
}

/*
 * perf's cl_address(): the address with the low bits of this machine's L1 data cache line
 * size cleared, as perf computes it (cacheline_size() is sysconf's int, 0 or -1 where
 * unknown, and perf masks with it all the same)
 */
static uint64_t cl_address(uint64_t addr)
{
	static int size;

	if (!size)
		size = (int)sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
	return addr & (uint64_t)(int64_t)~(size - 1);
}

/*
 * perf's sort__dcacheline_cmp() as a string whose strcmp() order is its order: the
 * cpumode (falling), no map before a map, the map's file id (maj, min, ino, generation,
 * falling), the pid (falling) for private memory without a file id outside the kernel,
 * the cacheline of the address in the map (falling). Each as hex digits of the value
 * subtracted from its largest, so that larger sorts first.
 */
static int dcacheline_of(const struct xpp_val_in *in, uint64_t *v)
{
	struct xpp_val_first *f = &in->p->first_now[2];
	const struct xpp_map *mp = NULL;
	uint64_t addr = (in->s->type & PERF_SAMPLE_ADDR) ? in->s->addr : 0, al_addr;
	bool kernel = in->cpumode == PERF_RECORD_MISC_KERNEL, map, id, anon;
	char key[96];
	int64_t sid;

	*f = (struct xpp_val_first){ .v = XPP_VAL_DCACHELINE, .level = xpp_level_of(in->cpumode),
				     .sym = -1 };
	map = daddr_resolve(in, &f->dso, &al_addr, &mp) && mp;
	if (map)
		f->sym = (int32_t)xpp_dso_table_resolve(in->p->dsos, f->dso, al_addr);
	f->addr = cl_address(al_addr);
	f->unmap = addr - al_addr;
	id = map && (mp->maj || mp->min || mp->ino || mp->ino_gen);
	anon = map && !kernel && !mp->shared && !id;
	/* perf's hist_entry__dcacheline_snprintf(): [s] for shared data maps of a file */
	if (!map)
		f->level = 'X';
	else if (!kernel && mp->data && mp->shared && id)
		f->level = 's';
	snprintf(key, sizeof(key), "%02x%d%08x%08x%016" PRIx64 "%016" PRIx64 "%08x%016" PRIx64,
		 0xffu - (in->cpumode & 0xff), map, map ? ~mp->maj : 0u, map ? ~mp->min : 0u,
		 map ? ~mp->ino : 0, map ? ~mp->ino_gen : 0,
		 anon ? (uint32_t)INT32_MAX - (uint32_t)in->th->pid : 0u, ~f->addr);
	sid = xpp_intern_id(in->p->strs, key, strlen(key));
	if (sid < 0)
		return (int)sid;
	f->value = *v = (uint64_t)sid + 1;
	return 0;
}

static int data_page_size_of(const struct xpp_val_in *in, uint64_t *v)
{
	*v = (in->s->type & PERF_SAMPLE_DATA_PAGE_SIZE) ? in->s->data_page_size : 0;
	return 0;
}

static int phys_of(const struct xpp_val_in *in, uint64_t *v)
{
	struct xpp_val_first *f = &in->p->first_now[1];

	*f = (struct xpp_val_first){ .v = XPP_VAL_PHYS, .level = xpp_level_of(in->cpumode),
				     .dso = XPP_HIST_NO_DSO, .sym = -1 };
	f->value = (in->s->type & PERF_SAMPLE_PHYS_ADDR) ? in->s->phys_addr : 0;
	*v = f->value;
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
	[XPP_VAL_WEIGHT] = { .context = true, .from_sample = true, .get = weight_of },
	[XPP_VAL_INS_LAT] = { .context = true, .from_sample = true, .get = ins_lat_of },
	[XPP_VAL_MEM_LVL] = { .context = true, .from_sample = true, .get = mem_lvl_of },
	[XPP_VAL_MEM_SNOOP] = { .context = true, .from_sample = true, .get = mem_snoop_of },
	[XPP_VAL_MEM_TLB] = { .context = true, .from_sample = true, .get = mem_tlb_of },
	[XPP_VAL_MEM_LOCK] = { .context = true, .from_sample = true, .get = mem_lock_of },
	[XPP_VAL_MEM_BLK] = { .context = true, .from_sample = true, .get = mem_blk_of },
	/* what their keys show is their first sample's (xpp_vals_note_first()) */
	[XPP_VAL_PHYS] = { .context = true, .get = phys_of },
	[XPP_VAL_DADDR] = { .context = true, .get = daddr_of },
	[XPP_VAL_DADDR_DSO] = { .context = true, .get = daddr_dso_of },
	[XPP_VAL_DATA_PAGE_SIZE] = { .context = true, .from_sample = true,
				     .get = data_page_size_of },
	[XPP_VAL_DCACHELINE] = { .context = true, .get = dcacheline_of },
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
