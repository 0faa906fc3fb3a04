/* The DSO table: name lookup by hash, perf's short names, lazy symbol loading, address cache. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "profile/symbols/dso.h"
#include "profile/symbols/load.h"

#define CACHE_BITS 14

/* One resolved address: the (dso, addr) -> symbol answers of recent samples. */
struct cache_slot {
	uint64_t addr;
	uint32_t dso;   /* id + 1; 0 marks an empty slot */
	int32_t sym;
};

struct xpp_dso_table {
	struct xpp_dso_table_opts opts;
	struct xpp_dso *dsos;
	uint32_t nr, cap;
	struct xb_slots index;   /* by long name: id + 1 */
	int64_t kernel_id;
	/* kallsyms read on a second thread while the pass runs (xpp_dso_table_prefetch_kernel) */
	pthread_t kthread;
	bool kthread_on;
	struct xpp_symtab kprefetch;
	struct cache_slot cache[1u << CACHE_BITS];
};

static uint64_t hash_of(const void *ctx, uint32_t v)
{
	return xb_hash_str(((const xpp_dso_table *)ctx)->dsos[v - 1].long_name);
}

static bool name_eq(const void *ctx, uint32_t v, const void *name)
{
	return !strcmp(((const xpp_dso_table *)ctx)->dsos[v - 1].long_name, name);
}

xpp_dso_table *xpp_dso_table_create(const struct xpp_dso_table_opts *opts)
{
	xpp_dso_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (opts)
		t->opts = *opts;
	if (!t->opts.kallsyms)
		t->opts.kallsyms = "/proc/kallsyms";
	t->kernel_id = -1;
	return t;
}

static void *kallsyms_thread(void *arg)
{
	xpp_dso_table *t = arg;
	struct xb_error err;

	xpp_kallsyms_load(&t->kprefetch, t->opts.kallsyms, &err);
	return NULL;
}

/*
 * Reading /proc/kallsyms costs as much CPU as decoding a million samples, nearly all of it
 * in the kernel formatting the text: start it early on another core. The thread only
 * touches t->kprefetch, which nothing else reads until the join.
 */
void xpp_dso_table_prefetch_kernel(xpp_dso_table *t)
{
	if (t->kthread_on)
		return;
	t->kthread_on = !pthread_create(&t->kthread, NULL, kallsyms_thread, t);
}

/* The prefetched kernel symbols, if a prefetch ran: true and moved into syms. */
static bool kernel_prefetched(xpp_dso_table *t, struct xpp_symtab *syms)
{
	if (!t->kthread_on)
		return false;
	pthread_join(t->kthread, NULL);
	t->kthread_on = false;
	*syms = t->kprefetch;
	memset(&t->kprefetch, 0, sizeof(t->kprefetch));
	return true;
}

void xpp_dso_table_free(xpp_dso_table *t)
{
	struct xpp_symtab unused;

	if (!t)
		return;
	if (kernel_prefetched(t, &unused))
		xpp_symtab_free(&unused);
	for (uint32_t i = 0; i < t->nr; i++) {
		free(t->dsos[i].long_name);
		free(t->dsos[i].short_buf);
		xpp_symtab_free(&t->dsos[i].syms);
	}
	free(t->dsos);
	xb_slots_free(&t->index);
	free(t);
}

uint32_t xpp_dso_table_nr(const xpp_dso_table *t)
{
	return t->nr;
}

struct xpp_dso *xpp_dso_table_get(const xpp_dso_table *t, uint32_t id)
{
	return id < t->nr ? &t->dsos[id] : NULL;
}

/*
 * perf's short names: the basename, "[kernel.kallsyms]", "[name]" for a module, and
 * "[JIT] tid PID" for the /tmp/perf-PID.map name perf gives anonymous executable memory
 * (perf's dso__set_basename; it tests the name with sscanf, so we do too).
 */
static int set_names(struct xpp_dso *d, bool kernel)
{
	const char *n = d->long_name, *slash = strrchr(n, '/');
	int pid;

	d->kind = XPP_DSO_USER;
	d->short_name = slash ? slash + 1 : n;
	if (!strncmp(n, "[kernel.kallsyms]", 17)) {
		d->kind = XPP_DSO_KERNEL;
		d->short_name = "[kernel.kallsyms]";
	} else if (!strcmp(n, "[vdso]")) {
		d->kind = XPP_DSO_VDSO;
	} else if (!kernel && sscanf(n, "/tmp/perf-%d.map", &pid) == 1) {
		char buf[32];

		snprintf(buf, sizeof(buf), "[JIT] tid %d", pid);
		d->short_buf = strdup(buf);
		if (!d->short_buf)
			return -ENOMEM;
		d->short_name = d->short_buf;
		d->kind = XPP_DSO_ANON;
	} else if (kernel) {
		d->kind = XPP_DSO_MODULE;
	}
	return 0;
}

int64_t xpp_dso_table_findnew(xpp_dso_table *t, const char *filename, bool kernel)
{
	uint32_t *slot;
	int ret;

	if (xb_slots_reserve(&t->index, t->nr + 1, hash_of, t))
		return -ENOMEM;
	slot = xb_slots_find(&t->index, xb_hash_str(filename), name_eq, t, filename);
	if (*slot)
		return *slot - 1;
	if (t->nr == t->cap && XB_ARRAY_RESERVE(t->dsos, t->cap, (size_t)t->nr + 1, 64))
		return -ENOMEM;
	struct xpp_dso *d = &t->dsos[t->nr];

	memset(d, 0, sizeof(*d));
	d->long_name = strdup(filename);
	if (!d->long_name)
		return -ENOMEM;
	if (kernel && !strncmp(filename, "/", 1)) {
		/* a module file: perf shows "[name]" with '-' as '_' and no suffix */
		const char *b = strrchr(filename, '/') + 1;
		size_t n = strcspn(b, ".");
		char *s2 = malloc(n + 3);

		if (s2) {
			s2[0] = '[';
			for (size_t i = 0; i < n; i++)
				s2[i + 1] = b[i] == '-' ? '_' : b[i];
			memcpy(s2 + n + 1, "]", 2);
			free(d->long_name);
			d->long_name = s2;
			/* the same module may appear under its path and its [name] */
			slot = xb_slots_find(&t->index, xb_hash_str(s2), name_eq, t, s2);
			if (*slot) {
				free(s2);
				return *slot - 1;
			}
		}
	}
	ret = set_names(d, kernel);
	if (ret < 0) {
		free(d->long_name);
		return ret;
	}
	*slot = ++t->nr;
	return t->nr - 1;
}

int64_t xpp_dso_table_kernel(xpp_dso_table *t)
{
	if (t->kernel_id < 0)
		t->kernel_id = xpp_dso_table_findnew(t, "[kernel.kallsyms]", true);
	return t->kernel_id;
}

static void load(xpp_dso_table *t, struct xpp_dso *d)
{
	struct xb_error err;
	const void *img;
	size_t size;

	d->loaded = true;
	d->syms.no_demangle = t->opts.no_demangle;
	switch (d->kind) {
	case XPP_DSO_USER:
		xpp_elf_syms_load(&d->syms, d->long_name, t->opts.debug_root, &err);
		break;
	case XPP_DSO_KERNEL:
		if (!kernel_prefetched(t, &d->syms))
			xpp_kallsyms_load(&d->syms, t->opts.kallsyms, &err);
		break;
	case XPP_DSO_VDSO:
		img = xpp_vdso_image(&size);
		if (img)
			xpp_elf_syms_load_mem(&d->syms, img, size, &err);
		break;
	case XPP_DSO_ANON:
		/* the file a JIT may write for perf; without it raw addresses are shown */
		xpp_perf_map_load(&d->syms, d->long_name, &err);
		break;
	case XPP_DSO_MODULE:
		break;
	}
	/* a failed load leaves a partial table: drop it, raw addresses are shown instead */
	if (!d->syms.finished)
		xpp_symtab_free(&d->syms);
}

int64_t xpp_dso_table_resolve(xpp_dso_table *t, uint32_t id, uint64_t addr)
{
	uint64_t h = xb_hash_add(xb_hash_add(0, id), addr);
	struct cache_slot *c = &t->cache[xb_hash_bits(h, CACHE_BITS)];
	struct xpp_dso *d;
	int64_t sym;

	if (c->dso == id + 1 && c->addr == addr)
		return c->sym;
	d = xpp_dso_table_get(t, id);
	if (!d)
		return -1;
	if (!d->loaded)
		load(t, d);
	d->hit = true;
	sym = d->syms.nr ? xpp_symtab_find(&d->syms, addr) : -1;
	c->dso = id + 1;
	c->addr = addr;
	c->sym = (int32_t)sym;
	return sym;
}
