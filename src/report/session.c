/* Threads (names over time), processes (maps over time) and DSOs, built from COMM/FORK/MMAP. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "report/session.h"

/*
 * Records are applied in file order, not time order: instead of sorting, every name and
 * map keeps the time it started, and a sample picks the latest one that started before it.
 */

struct comm_at {
	uint64_t time;
	const char *comm;
};

struct thread {
	int32_t tid;
	struct comm_at *comms;
	uint32_t nr_comms, cap_comms;
};

struct rmap {
	uint64_t start, end, pgoff, time;
	struct dso *dso;
};

struct proc {
	int32_t pid;
	struct rmap *maps;
	uint32_t nr_maps, cap_maps;
};

/* int32 -> pointer, open addressing; key INT32_MIN marks an empty slot */
struct imap {
	int32_t *keys;
	void **vals;
	uint32_t cap, n;
};

struct session {
	struct imap threads, procs;
	char **strs;            /* interned strings, open addressing */
	uint32_t str_cap, str_n;
	struct dso *dsos;
	struct dso unknown_dso; /* unused placeholder */
};

#define EMPTY INT32_MIN

static uint32_t hash32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	return x ^ (x >> 16);
}

static void *imap_get(const struct imap *m, int32_t key)
{
	if (!m->cap)
		return NULL;
	for (uint32_t i = hash32((uint32_t)key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key)
			return m->vals[i];
		if (m->keys[i] == EMPTY)
			return NULL;
	}
}

static int imap_put(struct imap *m, int32_t key, void *val)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct imap g = { .cap = m->cap ? m->cap * 2 : 64 };

		g.keys = malloc(g.cap * sizeof(*g.keys));
		g.vals = malloc(g.cap * sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < g.cap; i++)
			g.keys[i] = EMPTY;
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->keys[i] != EMPTY)
				imap_put(&g, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	for (uint32_t i = hash32((uint32_t)key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == EMPTY) {
			m->keys[i] = key;
			m->vals[i] = val;
			m->n++;
			return 0;
		}
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
}

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261U;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619U;
	return h;
}

/* The one copy of string str; NULL when out of memory. */
static const char *intern(struct session *s, const char *str)
{
	uint32_t i;

	if ((s->str_n + 1) * 2 > s->str_cap) {
		uint32_t cap = s->str_cap ? s->str_cap * 2 : 256;
		char **t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (uint32_t j = 0; j < s->str_cap; j++) {
			if (!s->strs[j])
				continue;
			for (i = hash_str(s->strs[j]) & (cap - 1); t[i]; i = (i + 1) & (cap - 1))
				;
			t[i] = s->strs[j];
		}
		free(s->strs);
		s->strs = t;
		s->str_cap = cap;
	}
	for (i = hash_str(str) & (s->str_cap - 1); s->strs[i]; i = (i + 1) & (s->str_cap - 1))
		if (!strcmp(s->strs[i], str))
			return s->strs[i];
	s->strs[i] = strdup(str);
	if (!s->strs[i])
		return NULL;
	s->str_n++;
	return s->strs[i];
}

struct session *session_new(void)
{
	return calloc(1, sizeof(struct session));
}

void session_free(struct session *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->threads.cap; i++) {
		struct thread *t = s->threads.keys[i] != EMPTY ? s->threads.vals[i] : NULL;

		if (t)
			free(t->comms);
		free(t);
	}
	for (uint32_t i = 0; i < s->procs.cap; i++) {
		struct proc *p = s->procs.keys[i] != EMPTY ? s->procs.vals[i] : NULL;

		if (p)
			free(p->maps);
		free(p);
	}
	free(s->threads.keys);
	free(s->threads.vals);
	free(s->procs.keys);
	free(s->procs.vals);
	for (uint32_t i = 0; i < s->str_cap; i++)
		free(s->strs[i]);
	free(s->strs);
	while (s->dsos) {
		struct dso *d = s->dsos;

		s->dsos = d->next;
		dso_free_symbols(d);
		free(d->name);
		free(d);
	}
	free(s);
}

static struct thread *get_thread(struct session *s, int32_t tid)
{
	struct thread *t = imap_get(&s->threads, tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	if (imap_put(&s->threads, tid, t)) {
		free(t);
		return NULL;
	}
	return t;
}

static struct proc *get_proc(struct session *s, int32_t pid)
{
	struct proc *p = imap_get(&s->procs, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (imap_put(&s->procs, pid, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static int add_comm(struct session *s, struct thread *t, const char *comm, uint64_t time)
{
	const char *c = intern(s, comm);

	if (!c)
		return -ENOMEM;
	if (t->nr_comms == t->cap_comms) {
		uint32_t cap = t->cap_comms ? t->cap_comms * 2 : 2;
		struct comm_at *n = realloc(t->comms, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->comms = n;
		t->cap_comms = cap;
	}
	t->comms[t->nr_comms++] = (struct comm_at){ time, c };
	return 0;
}

int session_comm(struct session *s, int32_t pid, int32_t tid, const char *comm, uint64_t time)
{
	struct thread *t = get_thread(s, tid);

	(void)pid;
	return t ? add_comm(s, t, comm, time) : -ENOMEM;
}

static const char *comm_at(const struct thread *t, uint64_t time)
{
	const char *best = NULL;
	uint64_t best_time = 0;

	for (uint32_t i = 0; i < t->nr_comms; i++) {
		if (t->comms[i].time <= time && (!best || t->comms[i].time >= best_time))
			best = t->comms[i].comm, best_time = t->comms[i].time;
	}
	return best ? best : t->nr_comms ? t->comms[0].comm : NULL;
}

static int add_map(struct proc *p, const struct rmap *m)
{
	if (p->nr_maps == p->cap_maps) {
		uint32_t cap = p->cap_maps ? p->cap_maps * 2 : 16;
		struct rmap *n = realloc(p->maps, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->maps = n;
		p->cap_maps = cap;
	}
	p->maps[p->nr_maps++] = *m;
	return 0;
}

int session_fork(struct session *s, int32_t pid, int32_t ppid, int32_t tid, int32_t ptid,
		 uint64_t time)
{
	struct thread *parent = imap_get(&s->threads, ptid), *child = get_thread(s, tid);
	int ret;

	if (!child)
		return -ENOMEM;
	if (parent && parent != child && parent->nr_comms) {
		ret = add_comm(s, child, comm_at(parent, time), time);
		if (ret)
			return ret;
	}
	if (pid != ppid) {
		/* a new process starts with a copy of its parent's address space */
		struct proc *pp = imap_get(&s->procs, ppid), *cp = get_proc(s, pid);

		if (!cp)
			return -ENOMEM;
		if (pp && pp != cp && !cp->nr_maps)
			for (uint32_t i = 0; i < pp->nr_maps; i++)
				if ((ret = add_map(cp, &pp->maps[i])))
					return ret;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && path[0] != '[' ? slash + 1 : path;
}

static struct dso *find_dso(struct session *s, const char *name)
{
	struct dso *d;

	for (d = s->dsos; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	d->short_name = base_name(d->name);
	d->kernel = !strncmp(name, "[kernel.kallsyms]", 17) || !strcmp(name, "[guest.kernel.kallsyms]");
	d->identity = d->kernel;
	if (d->kernel) {
		/* "[kernel.kallsyms]_text": perf names the map after the kernel's first symbol */
		d->name[d->kernel && name[1] == 'k' ? 17 : strlen(d->name)] = 0;
	}
	d->next = s->dsos;
	s->dsos = d;
	return d;
}

int session_mmap(struct session *s, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		 const char *filename, uint64_t time)
{
	struct proc *p = get_proc(s, pid);
	struct rmap m = { start, start + len, pgoff, time, NULL };

	if (!p)
		return -ENOMEM;
	if (m.end < m.start)
		m.end = UINT64_MAX;
	m.dso = find_dso(s, filename);
	if (!m.dso)
		return -ENOMEM;
	return add_map(p, &m);
}

/* The map that covered ip at `time`: the latest one that began before it, else any. */
static const struct rmap *find_map(const struct proc *p, uint64_t ip, uint64_t time)
{
	const struct rmap *any = NULL;

	if (!p)
		return NULL;
	for (uint32_t i = p->nr_maps; i-- > 0;) {
		const struct rmap *m = &p->maps[i];

		if (ip < m->start || ip >= m->end)
			continue;
		if (m->time <= time)
			return m;
		any = m;
	}
	return any;
}

int session_resolve(struct session *s, int32_t pid, int32_t tid, uint64_t ip, uint64_t time,
		    uint16_t misc, struct resolved *out)
{
	const struct thread *t = imap_get(&s->threads, tid);
	const struct rmap *m;
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	char buf[24];

	out->comm = t ? comm_at(t, time) : NULL;
	if (!out->comm) {
		/* perf names a thread it never saw a COMM for by its tid */
		snprintf(buf, sizeof(buf), ":%d", tid);
		out->comm = intern(s, buf);
		if (!out->comm)
			return -ENOMEM;
	}
	switch (mode) {
	case PERF_RECORD_MISC_KERNEL: out->level = 'k'; break;
	case PERF_RECORD_MISC_GUEST_KERNEL: out->level = 'g'; break;
	case PERF_RECORD_MISC_GUEST_USER: out->level = 'u'; break;
	case PERF_RECORD_MISC_HYPERVISOR: out->level = 'H'; break;
	default: out->level = '.'; break;
	}
	/* kernel addresses live in the maps of pid -1, as perf's host machine keeps them */
	m = find_map(imap_get(&s->procs, mode == PERF_RECORD_MISC_KERNEL ? -1 : pid), ip, time);
	if (!m && mode == PERF_RECORD_MISC_KERNEL)
		m = find_map(imap_get(&s->procs, pid), ip, time);
	out->dso = m ? m->dso : NULL;
	out->sym = NULL;
	if (!m) {
		out->addr = ip;
		return 0;
	}
	out->addr = m->dso->identity ? ip : ip - m->start + m->pgoff;
	if (!m->dso->loaded)
		dso_load_symbols(m->dso);
	out->sym = dso_find_symbol(m->dso, out->addr);
	return 0;
}
