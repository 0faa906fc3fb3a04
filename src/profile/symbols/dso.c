/* The DSO table: name lookup by hash, perf's short names, lazy symbol loading, address cache. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "base/hash.h"
#include "base/input_file.h"
#include "elf/build_id.h"
#include "format/xpf_features.h"
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
	bool kallsyms_given;     /* opts.kallsyms was set: no build-id check for the kernel */
	const char *kcache_dir;  /* the kallsyms cache's directory; NULL: none */
	char *debug_buf;         /* symfs/usr/lib/debug, when symfs moves the default */
	const struct xpf_build_id_entry *recorded;
	uint32_t nr_recorded;
	/* kallsyms read on a second thread while the pass runs (xpp_dso_table_prefetch_kernel) */
	pthread_t kthread;
	bool kthread_on;
	/* the symbols are in kprefetch (atomic; set under klock, with kloaded_cond): the
	 * thread may still be writing the kallsyms cache from them, joined at the end */
	bool kthread_done;
	bool ktaken;             /* kprefetch was moved to the kernel DSO */
	pthread_mutex_t klock;
	pthread_cond_t kloaded_cond;
	struct xpp_symtab kprefetch;
	int kprefetch_ret;       /* what loading it returned */
	struct xb_error kprefetch_err; /* and why, when it failed */
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
	t->kallsyms_given = t->opts.kallsyms != NULL;
	if (!t->opts.kallsyms) {
		t->opts.kallsyms = "/proc/kallsyms";
		t->kcache_dir = t->opts.kallsyms_cache;
	}
	if (t->opts.symfs && !t->opts.symfs[0])
		t->opts.symfs = NULL;
	if (t->opts.symfs && !t->opts.debug_root) {
		size_t n = strlen(t->opts.symfs) + sizeof("/usr/lib/debug");

		t->debug_buf = malloc(n);
		if (!t->debug_buf) {
			free(t);
			return NULL;
		}
		snprintf(t->debug_buf, n, "%s/usr/lib/debug", t->opts.symfs);
		t->opts.debug_root = t->debug_buf;
	}
	t->kernel_id = -1;
	return t;
}

void xpp_dso_table_set_recorded(xpp_dso_table *t, const struct xpf_build_id_entry *e,
				uint32_t nr)
{
	t->recorded = e;
	t->nr_recorded = nr;
}

void xpp_dso_set_build_id(xpp_dso_table *t, uint32_t id, const uint8_t *bid, uint8_t size)
{
	struct xpp_dso *d = xpp_dso_table_get(t, id);

	if (!d || d->build_id_size || !size || size > sizeof(d->build_id))
		return;
	memcpy(d->build_id, bid, size);
	d->build_id_size = size;
}

/*
 * The recorded build-id of a new DSO named `filename` (as its MMAP record said; the
 * kernel's map, "[kernel.kallsyms]_text", is recorded as "[kernel.kallsyms]").
 */
static void take_recorded(xpp_dso_table *t, struct xpp_dso *d, const char *filename)
{
	if (d->kind == XPP_DSO_KERNEL)
		filename = "[kernel.kallsyms]";
	d->made = t->nr_recorded + t->nr;
	for (uint32_t i = 0; i < t->nr_recorded; i++) {
		const struct xpf_build_id_entry *e = &t->recorded[i];

		if (e->filename && e->size && e->size <= sizeof(d->build_id) &&
		    !strcmp(e->filename, filename)) {
			memcpy(d->build_id, e->build_id, e->size);
			d->build_id_size = e->size;
			d->made = i;
			return;
		}
	}
}

/* Whether the recorded kernel is not the running one: then /proc/kallsyms is not read. */
static bool kernel_differs(xpp_dso_table *t)
{
	uint8_t run[XPP_BUILD_ID_MAX];
	int n;

	if (t->kallsyms_given)
		return false;
	for (uint32_t i = 0; i < t->nr_recorded; i++) {
		const struct xpf_build_id_entry *e = &t->recorded[i];

		if (!e->filename || strcmp(e->filename, "[kernel.kallsyms]") || !e->size)
			continue;
		n = xelf_build_id_read_kernel(run, sizeof(run), NULL);
		return n > 0 && ((size_t)n != e->size || memcmp(run, e->build_id, e->size));
	}
	return false;
}

/*
 * Kernel symbols from path: the running kernel's through the kallsyms cache, whose writing
 * (when it is due) store says.
 */
static int load_kallsyms(xpp_dso_table *t, struct xpp_symtab *syms, const char *path,
			 struct xpp_kallsyms_store *store, struct xb_error *err)
{
	store->wanted = false;
	if (!strcmp(path, "/proc/kallsyms"))
		return xpp_kallsyms_load_running(syms, path, t->kcache_dir, store, err);
	return xpp_kallsyms_load(syms, path, err);
}

/*
 * Loads the symbols, hands them over, and only then writes the cache from them (the pass
 * reads the table meanwhile; nothing writes it or frees it before the join).
 */
static void *kallsyms_thread(void *arg)
{
	xpp_dso_table *t = arg;
	struct xpp_kallsyms_store store;
	struct xpp_symtab loaded = { 0 };
	struct xb_error err = { 0 };

	int ret = load_kallsyms(t, &loaded, t->opts.kallsyms, &store, &err);

	pthread_mutex_lock(&t->klock);
	t->kprefetch = loaded;
	t->kprefetch_ret = ret;
	t->kprefetch_err = err;
	__atomic_store_n(&t->kthread_done, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&t->kloaded_cond);
	pthread_mutex_unlock(&t->klock);
	xpp_kallsyms_store_write(&loaded, &store);
	return NULL;
}

bool xpp_dso_table_kernel_pending(const xpp_dso_table *t)
{
	return t->kthread_on && !__atomic_load_n(&t->kthread_done, __ATOMIC_ACQUIRE);
}

/*
 * Reading /proc/kallsyms costs as much CPU as decoding a million samples, nearly all of it
 * in the kernel formatting the text: start it early on another core. Nothing else reads
 * t->kprefetch until the thread says it is loaded (kthread_done); the thread may then go
 * on writing the kallsyms cache from the same table, which stays read-only until the join.
 */
void xpp_dso_table_prefetch_kernel(xpp_dso_table *t)
{
	if (t->kthread_on || t->opts.vmlinux || kernel_differs(t))
		return;
	if (pthread_mutex_init(&t->klock, NULL))
		return;
	if (pthread_cond_init(&t->kloaded_cond, NULL)) {
		pthread_mutex_destroy(&t->klock);
		return;
	}
	t->kthread_on = !pthread_create(&t->kthread, NULL, kallsyms_thread, t);
	if (!t->kthread_on) {
		pthread_cond_destroy(&t->kloaded_cond);
		pthread_mutex_destroy(&t->klock);
	}
}

/*
 * The prefetched kernel symbols, if a prefetch ran: true, moved into syms, and *ret what
 * loading them returned.
 */
static bool kernel_prefetched(xpp_dso_table *t, struct xpp_symtab *syms, int *ret,
			      struct xb_error *err)
{
	if (!t->kthread_on || t->ktaken)
		return false;
	pthread_mutex_lock(&t->klock);
	while (!__atomic_load_n(&t->kthread_done, __ATOMIC_ACQUIRE))
		pthread_cond_wait(&t->kloaded_cond, &t->klock);
	*syms = t->kprefetch;
	*ret = t->kprefetch_ret;
	*err = t->kprefetch_err;
	memset(&t->kprefetch, 0, sizeof(t->kprefetch));
	pthread_mutex_unlock(&t->klock);
	t->ktaken = true;
	return true;
}

/* The end of the thread (it may be writing the cache from the table it handed over). */
static void kernel_thread_join(xpp_dso_table *t)
{
	if (!t->kthread_on)
		return;
	pthread_join(t->kthread, NULL);
	pthread_cond_destroy(&t->kloaded_cond);
	pthread_mutex_destroy(&t->klock);
	t->kthread_on = false;
	if (!t->ktaken)
		xpp_symtab_free(&t->kprefetch);
}

void xpp_dso_table_free(xpp_dso_table *t)
{
	if (!t)
		return;
	kernel_thread_join(t);
	for (uint32_t i = 0; i < t->nr; i++) {
		free(t->dsos[i].long_name);
		free(t->dsos[i].short_buf);
		free(t->dsos[i].file);
		free(t->dsos[i].refused);
		xpp_symtab_free(&t->dsos[i].syms);
	}
	free(t->debug_buf);
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
	take_recorded(t, d, filename);
	*slot = ++t->nr;
	return t->nr - 1;
}

int64_t xpp_dso_table_kernel(xpp_dso_table *t)
{
	if (t->kernel_id < 0)
		t->kernel_id = xpp_dso_table_findnew(t, "[kernel.kallsyms]", true);
	return t->kernel_id;
}

/* A load refused the DSO's file (xb_input_refused(ret)): keep why, for one warning. */
static void note_refused(struct xpp_dso *d, int ret, const struct xb_error *err)
{
	if (!xb_input_refused(ret) || d->refused)
		return;
	d->refused = strdup(err->msg);
	d->no_file = true;
}

/*
 * Whether the file a profile names for a DSO must not be read: a FIFO would block every
 * reader of it, a device or a link to /dev/zero would never end. Checked once, here, so the
 * warning names the file the profile named; every later open refuses it again by itself.
 */
static bool file_refused(struct xpp_dso *d, const char *path)
{
	struct xb_error err = { 0 };
	int fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, &err);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	note_refused(d, fd, &err);
	return d->refused != NULL;
}

/*
 * Where the symbols of a file DSO are read: where its recorded build-id says
 * (xpp_build_id_find), never from a file with another build-id (it would name functions
 * that never ran); without a recorded build-id, from its path as it is (joined to --symfs
 * in joined[]). 0 with *path set (into joined[] or found[]), -ENOENT when no file has the
 * recorded build-id (*mismatch: as xpp_build_id_find() says), -ENAMETOOLONG.
 */
static int user_file(const xpp_dso_table *t, const struct xpp_dso *d, char joined[PATH_MAX],
		     char found[PATH_MAX], const char **path, bool *mismatch)
{
	*path = d->long_name;
	if (t->opts.symfs) {
		if ((size_t)snprintf(joined, PATH_MAX, "%s%s", t->opts.symfs, d->long_name) >=
		    PATH_MAX)
			return -ENAMETOOLONG;
		*path = joined;
	}
	if (d->refused)
		return -ENOENT;
	if (!d->build_id_size)
		return 0;
	if (xpp_build_id_find(*path, d->build_id, d->build_id_size, t->opts.buildid_dir,
			      t->opts.debug_root, found, PATH_MAX, mismatch))
		return -ENOENT;
	*path = found;
	return 0;
}

static void load_user(xpp_dso_table *t, struct xpp_dso *d, struct xb_error *err)
{
	char joined[PATH_MAX], found[PATH_MAX];
	const char *path;
	int ret = user_file(t, d, joined, found, &path, &d->build_id_mismatch);
	size_t n;

	/* the named file itself, even when a build-id cache could stand in for it */
	if (file_refused(d, t->opts.symfs ? joined : d->long_name))
		return;
	if (ret == -ENOENT)
		d->no_file = true;
	if (ret < 0)
		return;
	if (path != found) {
		if (path == joined)
			d->file = strdup(path);
		xpp_elf_syms_load(&d->syms, path, t->opts.debug_root, t->opts.debuginfod, err);
		return;
	}
	n = strlen(found);
	/* a debug file holds symbols, not the code: readers of the code get no file */
	if (n > 6 && !strcmp(found + n - 6, ".debug"))
		d->no_file = true;
	else if (strcmp(found, d->long_name))
		d->file = strdup(found);
	xpp_elf_syms_load(&d->syms, found, t->opts.debug_root, t->opts.debuginfod, err);
}

bool xpp_dso_table_may_have(xpp_dso_table *t, uint32_t id, const char *name)
{
	char joined[PATH_MAX], found[PATH_MAX];
	struct xpp_dso *d = xpp_dso_table_get(t, id);
	const char *path;
	bool mismatch = false;

	if (!d || d->loaded || d->kind != XPP_DSO_USER)
		return true;
	/* where the load would find no file it reads no symbols: let it say so */
	if (user_file(t, d, joined, found, &path, &mismatch) < 0)
		return true;
	return xpp_elf_syms_may_have(path, t->opts.debug_root, t->opts.debuginfod,
				     t->opts.no_demangle, name) != 0;
}

static void load_kernel(xpp_dso_table *t, struct xpp_dso *d, struct xb_error *err)
{
	struct xpp_kallsyms_store store;
	char path[PATH_MAX];
	const char *from = path;
	int ret;

	if (t->opts.vmlinux) {
		note_refused(d, xpp_elf_vmlinux_load(&d->syms, t->opts.vmlinux, d->build_id,
						     d->build_id_size, &d->build_id_mismatch, err),
			     err);
		return;
	}
	if (t->kallsyms_given || !d->build_id_size) {
		from = t->opts.kallsyms;
	} else if (xpp_build_id_find_kallsyms(d->build_id, d->build_id_size, t->opts.buildid_dir,
					      path, sizeof(path), &d->build_id_mismatch)) {
		return;
	}
	if (strcmp(from, t->opts.kallsyms) || !kernel_prefetched(t, &d->syms, &ret, err)) {
		ret = load_kallsyms(t, &d->syms, from, &store, err);
		xpp_kallsyms_store_write(&d->syms, &store);
	}
	/* -EPERM here is kptr_restrict: kallsyms is not opened with XB_INPUT_OWNED */
	d->addrs_hidden = ret == -EPERM;
	if (!d->addrs_hidden)
		note_refused(d, ret, err);
}

/* The running kernel's vdso is the recorded one unless the build-ids say otherwise. */
static void load_vdso(struct xpp_dso *d, struct xb_error *err)
{
	uint8_t id[XPP_BUILD_ID_MAX];
	size_t size;
	const void *img = xpp_vdso_image(&size);
	int n;

	if (!img)
		return;
	if (d->build_id_size) {
		n = xpp_elf_build_id_mem(img, size, id, sizeof(id));
		if (n > 0 && ((size_t)n != d->build_id_size || memcmp(id, d->build_id, (size_t)n))) {
			d->build_id_mismatch = true;
			return;
		}
	}
	xpp_elf_syms_load_mem(&d->syms, img, size, err);
}

static void load(xpp_dso_table *t, struct xpp_dso *d)
{
	struct xb_error err = { 0 };

	d->loaded = true;
	d->syms.no_demangle = t->opts.no_demangle;
	d->syms.objects = t->opts.objects;
	switch (d->kind) {
	case XPP_DSO_USER:
		load_user(t, d, &err);
		break;
	case XPP_DSO_KERNEL:
		load_kernel(t, d, &err);
		break;
	case XPP_DSO_VDSO:
		load_vdso(d, &err);
		break;
	case XPP_DSO_ANON:
		/* the file a JIT may write for perf; without it raw addresses are shown */
		note_refused(d, xpp_perf_map_load(&d->syms, d->long_name, &err), &err);
		break;
	case XPP_DSO_MODULE:
		break;
	}
	/* a failed load leaves a partial table: drop it, raw addresses are shown instead */
	if (!d->syms.finished)
		xpp_symtab_free(&d->syms);
}

const char *xpp_dso_table_file(xpp_dso_table *t, uint32_t id)
{
	struct xpp_dso *d = xpp_dso_table_get(t, id);

	if (!d || d->kind != XPP_DSO_USER)
		return NULL;
	if (!d->loaded)
		load(t, d);
	return d->file ? d->file : d->no_file ? NULL : d->long_name;
}

const void *xpp_dso_table_vdso_image(xpp_dso_table *t, uint32_t id, size_t *size)
{
	struct xpp_dso *d = xpp_dso_table_get(t, id);

	if (!d || d->kind != XPP_DSO_VDSO)
		return NULL;
	if (!d->loaded)
		load(t, d);
	return d->build_id_mismatch ? NULL : xpp_vdso_image(size);
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

bool xpp_dso_table_refused_line(const xpp_dso_table *t, char *buf, size_t size)
{
	uint32_t nr = 0, listed = 0;
	size_t len = 0;
	int n;

	if (!size)
		return false;
	buf[0] = '\0';
	for (uint32_t i = 0; i < t->nr; i++) {
		const char *why = t->dsos[i].refused;

		if (!why)
			continue;
		nr++;
		/* room for the tail: ", ...: their samples are shown by address" */
		if (listed < 5 && len + strlen(why) + 64 < size) {
			n = snprintf(buf + len, size - len, "%s%s", listed ? "; " : "", why);
			len += (size_t)n;
			listed++;
		}
	}
	if (!nr)
		return false;
	if (!listed)
		len = (size_t)snprintf(buf, size, "%u files the profile names were refused", nr);
	else if (listed < nr)
		len += (size_t)snprintf(buf + len, size - len, "; and %u more", nr - listed);
	if (len >= size)
		return true;
	snprintf(buf + len, size - len, ": %s samples are shown by address, not by symbols",
		 nr == 1 ? "its" : "their");
	return true;
}

bool xpp_dso_a2l_names_function(const struct xpp_dso *d, uint64_t addr)
{
	int64_t i;
	const char *name;
	size_t len;

	if (d->kind != XPP_DSO_USER || d->build_id_mismatch || !d->syms.nr)
		return false;
	i = xpp_symtab_preceding(&d->syms, addr);
	if (i < 0)
		return false;
	/* our PLT symbols are made up: bfd sees no symbol in those sections */
	name = xpp_symtab_name(&d->syms, (uint32_t)i);
	len = strlen(name);
	return len <= 4 || strcmp(name + len - 4, "@plt");
}

const char *xpp_dso_a2l_file(const struct xpp_dso *d, uint64_t addr)
{
	int64_t i;
	const char *name, *slash;

	if (!xpp_dso_a2l_names_function(d, addr))
		return NULL;
	i = xpp_symtab_preceding(&d->syms, addr);
	if (i < 0 || !d->syms.syms[i].file)
		return NULL;
	/* perf keeps the base name of what addr2line prints */
	name = d->syms.names + d->syms.syms[i].file - 1;
	slash = strrchr(name, '/');
	return slash ? slash + 1 : name;
}
