/* Threads, processes and maps: COMM/FORK/MMAP/MMAP2 applied, and ip -> (dso, address) lookups. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/session/machine.h"

/* One address space: the maps of one pid (index 0 holds the kernel's), sorted by start. */
struct proc {
	int32_t pid;
	struct xpp_map *maps;
	uint32_t nr, cap;
	uint32_t last;    /* index of the last hit: samples come in runs */
	uint32_t gen;     /* bumped whenever the maps change (see xpp_machine_proc_gen) */
};

struct xpp_machine {
	xpp_dso_table *dsos;
	xpp_intern *comms;
	struct xpp_thread *threads;
	uint32_t nr_threads, cap_threads;
	struct xb_slots thread_index;  /* by tid: index + 1 */
	struct proc *procs;
	uint32_t nr_procs, cap_procs;
	struct xb_slots proc_index;    /* by pid: index + 1 */
	bool keep_data;                /* data maps too (xpp_machine_keep_data()) */
};

#define KERNEL_PROC 0

static uint64_t id_hash(int32_t id)
{
	return xb_hash_u64((uint32_t)id);
}

static uint64_t proc_hash_of(const void *ctx, uint32_t v)
{
	return id_hash(((const xpp_machine *)ctx)->procs[v - 1].pid);
}

static bool proc_eq(const void *ctx, uint32_t v, const void *pid)
{
	return ((const xpp_machine *)ctx)->procs[v - 1].pid == *(const int32_t *)pid;
}

static uint64_t thread_hash_of(const void *ctx, uint32_t v)
{
	return id_hash(((const xpp_machine *)ctx)->threads[v - 1].tid);
}

static bool thread_eq(const void *ctx, uint32_t v, const void *tid)
{
	return ((const xpp_machine *)ctx)->threads[v - 1].tid == *(const int32_t *)tid;
}

static struct proc *proc_find(xpp_machine *m, int32_t pid, bool create)
{
	uint32_t *slot;

	if (xb_slots_reserve(&m->proc_index, m->nr_procs + 1, proc_hash_of, m))
		return NULL;
	slot = xb_slots_find(&m->proc_index, id_hash(pid), proc_eq, m, &pid);
	if (*slot)
		return &m->procs[*slot - 1];
	if (!create)
		return NULL;
	if (m->nr_procs == m->cap_procs &&
	    XB_ARRAY_RESERVE(m->procs, m->cap_procs, (size_t)m->nr_procs + 1, 64))
		return NULL;
	struct proc *p = &m->procs[m->nr_procs];

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	*slot = ++m->nr_procs;
	return p;
}

xpp_machine *xpp_machine_create(xpp_dso_table *dsos, xpp_intern *comms)
{
	xpp_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->dsos = dsos;
	m->comms = comms;
	/* pid -1 is the kernel, perf's convention in MMAP records: index 0 */
	if (!proc_find(m, -1, true)) {
		xpp_machine_free(m);
		return NULL;
	}
	/* the idle task has no COMM record; perf calls it "swapper" */
	struct xpp_thread *idle = xpp_machine_thread(m, 0, 0);
	int64_t id = xpp_intern_id(comms, "swapper", 7);

	if (!idle || id < 0) {
		xpp_machine_free(m);
		return NULL;
	}
	idle->comm = (uint32_t)id;
	return m;
}

void xpp_machine_free(xpp_machine *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nr_procs; i++)
		free(m->procs[i].maps);
	free(m->procs);
	xb_slots_free(&m->proc_index);
	free(m->threads);
	xb_slots_free(&m->thread_index);
	free(m);
}

static struct xpp_thread *thread_find(xpp_machine *m, int32_t tid, uint32_t **slot_out)
{
	uint32_t *slot;

	*slot_out = NULL;
	if (xb_slots_reserve(&m->thread_index, m->nr_threads + 1, thread_hash_of, m))
		return NULL;
	slot = xb_slots_find(&m->thread_index, id_hash(tid), thread_eq, m, &tid);
	*slot_out = slot;
	return *slot ? &m->threads[*slot - 1] : NULL;
}

static struct xpp_thread *thread_new(xpp_machine *m, uint32_t *slot, int32_t pid, int32_t tid,
				 int64_t comm)
{
	char name[16];
	struct proc *p;

	if (comm < 0) {
		snprintf(name, sizeof(name), ":%d", tid);
		comm = xpp_intern_id(m->comms, name, strlen(name));
		if (comm < 0)
			return NULL;
	}
	p = proc_find(m, pid, true);
	if (!p)
		return NULL;
	if (m->nr_threads == m->cap_threads &&
	    XB_ARRAY_RESERVE(m->threads, m->cap_threads, (size_t)m->nr_threads + 1, 256))
		return NULL;
	struct xpp_thread *t = &m->threads[m->nr_threads];

	t->tid = tid;
	t->pid = pid;
	t->comm = (uint32_t)comm;
	t->proc = (uint32_t)(p - m->procs);
	*slot = ++m->nr_threads;
	return t;
}

struct xpp_thread *xpp_machine_thread(xpp_machine *m, int32_t pid, int32_t tid)
{
	uint32_t *slot;
	struct xpp_thread *t = thread_find(m, tid, &slot);

	if (t || !slot)
		return t;
	return thread_new(m, slot, pid, tid, -1);
}

/* Insert a map, trimming or dropping the maps it overlaps (the new mapping wins). */
static int proc_insert(struct proc *p, const struct xpp_map *nm)
{
	uint32_t i, out = 0;
	struct xpp_map extra;
	bool split = false;

	for (i = 0; i < p->nr; i++) {
		struct xpp_map o = p->maps[i];

		if (o.end <= nm->start || o.start >= nm->end) {
			p->maps[out++] = o;
			continue;
		}
		if (o.start < nm->start && o.end > nm->end) {
			/* the new map punches a hole: keep both sides */
			extra = o;
			extra.pgoff += nm->end - o.start;
			extra.start = nm->end;
			split = true;
			o.end = nm->start;
			p->maps[out++] = o;
		} else if (o.start < nm->start) {
			o.end = nm->start;
			p->maps[out++] = o;
		} else if (o.end > nm->end) {
			o.pgoff += nm->end - o.start;
			o.start = nm->end;
			p->maps[out++] = o;
		}
	}
	p->nr = out;
	if (XB_ARRAY_RESERVE(p->maps, p->cap, (size_t)p->nr + 2, 16))
		return -ENOMEM;
	for (int k = 0; k < (split ? 2 : 1); k++) {
		const struct xpp_map *ins = k ? &extra : nm;

		for (i = p->nr; i > 0 && p->maps[i - 1].start > ins->start; i--)
			p->maps[i] = p->maps[i - 1];
		p->maps[i] = *ins;
		p->nr++;
	}
	p->last = 0;
	p->gen++;
	return 0;
}

static const struct xpp_map *proc_lookup(struct proc *p, uint64_t ip)
{
	uint32_t lo = 0, hi = p->nr;

	if (p->last < p->nr && ip >= p->maps[p->last].start && ip < p->maps[p->last].end)
		return &p->maps[p->last];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && ip < p->maps[lo - 1].end) {
		p->last = lo - 1;
		return &p->maps[lo - 1];
	}
	return NULL;
}

/* The executable map holding ip: a data map there hides the code (perf's one tree). */
static const struct xpp_map *code_lookup(struct proc *p, uint64_t ip)
{
	const struct xpp_map *mp = proc_lookup(p, ip);

	return mp && !mp->data ? mp : NULL;
}

/*
 * Executable memory without a file, which perf 6.1 names /tmp/perf-PID.map (shown as
 * "[JIT] tid PID"): its anonymous maps (util/map.h is_anon_memory) and its "no dso" ones
 * (is_no_dso_memory: stack, heap, SysV shared memory).
 */
static bool is_anon(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "[anon:", 6) || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || !strncmp(f, "[stack", 6) ||
	       !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

/* An MMAP2's file id and flags, what xpp_map keeps of them (all 0 for an MMAP) */
struct mmap_id {
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	bool shared;
};

static int apply_mmap(xpp_machine *m, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		      const char *file, bool kernel, const uint8_t *bid, uint8_t bid_size,
		      bool data, const struct mmap_id *id)
{
	char anon[64];
	struct proc *p;
	struct xpp_map nm;
	int64_t dso;

	if (!len || start + len < start)
		return 0;
	if (!kernel && !data && is_anon(file)) {
		/* perf names JIT code after the symbol map file a JIT may write */
		snprintf(anon, sizeof(anon), "/tmp/perf-%d.map", pid);
		file = anon;
	}
	dso = xpp_dso_table_findnew(m->dsos, file, kernel);
	if (dso < 0)
		return (int)dso;
	if (bid_size)
		xpp_dso_set_build_id(m->dsos, (uint32_t)dso, bid, bid_size);
	p = kernel ? &m->procs[KERNEL_PROC] : proc_find(m, pid, true);
	if (!p)
		return -ENOMEM;
	nm.start = start;
	nm.end = start + len;
	nm.pgoff = pgoff;
	nm.dso = (uint32_t)dso;
	nm.maj = id->maj, nm.min = id->min, nm.ino = id->ino, nm.ino_gen = id->ino_gen;
	nm.shared = id->shared;
	/* perf's map__new(): memory without a file is addressed as is (identity__map_ip) */
	nm.data = !data ? 0 : !kernel && is_anon(file) ? 2 : 1;
	return proc_insert(p, &nm);
}

static int apply_fork(xpp_machine *m, int32_t pid, int32_t ppid, int32_t tid, int32_t ptid)
{
	uint32_t *slot;
	struct xpp_thread *parent = xpp_machine_thread(m, ppid, ptid), *t;
	uint32_t comm = parent ? parent->comm : 0;
	int64_t c = parent ? (int64_t)comm : -1;
	char stand_in[16];

	if (!parent)
		return -ENOMEM;
	/* perf's thread__fork copies only a name that was set: a parent known only by its
	 * stand-in ":tid" leaves the child its own stand-in */
	snprintf(stand_in, sizeof(stand_in), ":%d", ptid);
	if (!strcmp(xpp_intern_str(m->comms, comm), stand_in))
		c = -1;
	if (pid != ppid) {
		/* a new process: a copy of the parent's address space */
		struct proc *pp = proc_find(m, ppid, false), *np;
		uint32_t ppi = pp ? (uint32_t)(pp - m->procs) : UINT32_MAX;

		np = proc_find(m, pid, true);
		if (!np)
			return -ENOMEM;
		np->nr = 0;
		np->last = 0;
		np->gen++;
		pp = ppi == UINT32_MAX ? NULL : &m->procs[ppi];
		if (pp && pp->nr) {
			struct xpp_map *a = realloc(np->maps, pp->nr * sizeof(*a) + 2 * sizeof(*a));

			if (!a)
				return -ENOMEM;
			memcpy(a, pp->maps, pp->nr * sizeof(*a));
			np->maps = a;
			np->cap = pp->nr + 2;
			np->nr = pp->nr;
		}
	}
	t = thread_find(m, tid, &slot);
	if (!slot)
		return -ENOMEM;
	if (t) {
		/* a reused tid: the new thread replaces the old */
		struct proc *p = proc_find(m, pid, true);

		if (!p)
			return -ENOMEM;
		if (c < 0) {
			snprintf(stand_in, sizeof(stand_in), ":%d", tid);
			if ((c = xpp_intern_id(m->comms, stand_in, strlen(stand_in))) < 0)
				return (int)c;
		}
		t->pid = pid;
		t->comm = (uint32_t)c;
		t->proc = (uint32_t)(p - m->procs);
		return 0;
	}
	return thread_new(m, slot, pid, tid, c) ? 0 : -ENOMEM;
}

static int apply_comm(xpp_machine *m, int32_t pid, int32_t tid, const char *comm, size_t len)
{
	int64_t id = xpp_intern_id(m->comms, comm, len);
	struct xpp_thread *t;

	if (id < 0)
		return (int)id;
	t = xpp_machine_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	if (t->pid != pid) {
		struct proc *p = proc_find(m, pid, true);

		if (!p)
			return -ENOMEM;
		t->pid = pid;
		t->proc = (uint32_t)(p - m->procs);
	}
	t->comm = (uint32_t)id;
	return 0;
}

int xpp_machine_apply(xpp_machine *m, const struct perf_event_header *hdr)
{
	const char *b = (const char *)hdr;
	size_t size = hdr->size;
	uint32_t u[4];
	uint64_t q[3];
	bool kernel;

	switch (hdr->type) {
	case PERF_RECORD_COMM:
		if (size < 16)
			return 0;
		memcpy(u, b + 8, 8);
		return apply_comm(m, (int32_t)u[0], (int32_t)u[1], b + 16, strnlen(b + 16, size - 16));
	case PERF_RECORD_FORK:
		if (size < 32)
			return 0;
		memcpy(u, b + 8, 16);
		return apply_fork(m, (int32_t)u[0], (int32_t)u[1], (int32_t)u[2], (int32_t)u[3]);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		size_t fo = hdr->type == PERF_RECORD_MMAP ? 40 : 72;
		struct mmap_id id = { 0 };
		uint8_t bid_size = 0;
		bool data = false;
		char file[4096];
		size_t n;

		if (size <= fo)
			return 0;
		memcpy(u, b + 8, 8);
		memcpy(q, b + 16, 24);
		if (hdr->type == PERF_RECORD_MMAP2) {
			uint32_t prot, flags;

			memcpy(&prot, b + 64, 4);
			memcpy(&flags, b + 68, 4);
			data = !(prot & PROT_EXEC);
			if (data && !m->keep_data)
				return 0;
			id.shared = flags & MAP_SHARED;
			/* the kernel's build-id in place of maj/min/ino (perf_record_mmap2) */
			if (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
				bid_size = (uint8_t)b[40] <= 20 ? (uint8_t)b[40] : 0;
			/* perf's dso_id reads the union whatever it holds: the build-id's bytes */
			memcpy(&id.maj, b + 40, 4);
			memcpy(&id.min, b + 44, 4);
			memcpy(&id.ino, b + 48, 8);
			memcpy(&id.ino_gen, b + 56, 8);
		} else if (hdr->misc & PERF_RECORD_MISC_MMAP_DATA) {
			data = true;
			if (!m->keep_data)
				return 0;
		}
		n = strnlen(b + fo, size - fo);
		if (n >= sizeof(file))
			return 0;
		memcpy(file, b + fo, n);
		file[n] = '\0';
		kernel = (int32_t)u[0] == -1 ||
			 (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
		return apply_mmap(m, (int32_t)u[0], q[0], q[1], q[2], file, kernel,
				  (const uint8_t *)b + 44, bid_size, data, &id);
	}
	default:
		/* EXIT: perf keeps exited threads for samples that come after */
		return 0;
	}
}

bool xpp_machine_resolve_ip(xpp_machine *m, const struct xpp_thread *th, uint16_t cpumode, uint64_t ip,
			uint32_t *dso, uint64_t *addr)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct proc *p = kernel ? &m->procs[KERNEL_PROC] : th ? &m->procs[th->proc] : NULL;
	const struct xpp_map *mp = p ? code_lookup(p, ip) : NULL;

	if (!mp) {
		int64_t k;

		if (!kernel || (k = xpp_dso_table_kernel(m->dsos)) < 0)
			return false;
		*dso = (uint32_t)k;
		*addr = ip;
		return true;
	}
	*dso = mp->dso;
	const struct xpp_dso *d = xpp_dso_table_get(m->dsos, mp->dso);

	/* the kernel and JIT maps hold absolute addresses; files are addressed by offset */
	if (d && (d->kind == XPP_DSO_KERNEL || d->kind == XPP_DSO_ANON))
		*addr = ip;
	else
		*addr = ip - mp->start + mp->pgoff;
	return true;
}

const struct xpp_map *xpp_machine_proc_map(xpp_machine *m, uint32_t proc, uint64_t ip)
{
	return proc < m->nr_procs ? code_lookup(&m->procs[proc], ip) : NULL;
}

void xpp_machine_keep_data(xpp_machine *m)
{
	m->keep_data = true;
}

bool xpp_machine_resolve_data(xpp_machine *m, const struct xpp_thread *th, uint16_t cpumode,
			      uint64_t addr, uint32_t *dso, uint64_t *al_addr,
			      const struct xpp_map **map)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct proc *p = kernel ? &m->procs[KERNEL_PROC] : th ? &m->procs[th->proc] : NULL;
	const struct xpp_map *mp = p ? proc_lookup(p, addr) : NULL;
	const struct xpp_dso *d;

	if (!mp)
		return false;
	if (map)
		*map = mp;
	*dso = mp->dso;
	d = xpp_dso_table_get(m->dsos, mp->dso);
	if (mp->data == 2 || (d && (d->kind == XPP_DSO_KERNEL || d->kind == XPP_DSO_ANON)))
		*al_addr = addr;
	else
		*al_addr = addr - mp->start + mp->pgoff;
	return true;
}

uint32_t xpp_machine_proc_gen(const xpp_machine *m, uint32_t proc)
{
	return proc < m->nr_procs ? m->procs[proc].gen : 0;
}

int32_t xpp_machine_proc_pid(const xpp_machine *m, uint32_t proc)
{
	return proc < m->nr_procs ? m->procs[proc].pid : -1;
}
