/* The set of DSOs a recording touched, with their build-ids, for the BUILD_ID feature. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "elf/build_id.h"
#include "record/buildid.h"

/* ---- the set of DSOs ----------------------------------------------------------------- */

struct dso_entry {
	char *path;
	bool kernel;
	uint8_t size; /* 0: not known yet */
	uint8_t id[XREC_BUILD_ID_MAX];
};

struct xrec_buildids {
	struct dso_entry *v;
	size_t n, cap;
};

xrec_buildids *xrec_buildids_create(void)
{
	return calloc(1, sizeof(struct xrec_buildids));
}

void xrec_buildids_free(xrec_buildids *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].path);
	free(set->v);
	free(set);
}

/* perf names the kernel "[kernel.kallsyms]"; MMAP records say "[kernel.kallsyms]_text". */
static bool is_kernel_image(const char *path)
{
	return !strncmp(path, "[kernel.kallsyms]", 17);
}

int xrec_buildids_add(xrec_buildids *set, const char *path, bool kernel, const uint8_t *id,
		      uint8_t size)
{
	struct dso_entry *e;

	if (is_kernel_image(path)) {
		path = "[kernel.kallsyms]";
		kernel = true;
	} else if (path[0] != '/') {
		return 0; /* [vdso], [heap], //anon ...: no file to name */
	}
	/* linear: a recording touches tens of DSOs, and -a a few hundred */
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->v[i].path, path))
			continue;
		if (!set->v[i].size && id && size) {
			set->v[i].size = size < XREC_BUILD_ID_MAX ? size : XREC_BUILD_ID_MAX;
			memcpy(set->v[i].id, id, set->v[i].size);
		}
		return 0;
	}
	if (set->n == set->cap && XB_ARRAY_RESERVE(set->v, set->cap, set->n + 1, 32))
		return -ENOMEM;
	e = &set->v[set->n];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (!e->path)
		return -ENOMEM;
	e->kernel = kernel;
	if (id && size) {
		e->size = size < XREC_BUILD_ID_MAX ? size : XREC_BUILD_ID_MAX;
		memcpy(e->id, id, e->size);
	}
	set->n++;
	return 0;
}

int xrec_buildids_to_features(xrec_buildids *set, struct xpf_features *f, struct xb_error *err)
{
	int added = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct dso_entry *e = &set->v[i];
		int ret;

		if (!e->size) {
			ret = !strcmp(e->path, "[kernel.kallsyms]") ?
			      xelf_build_id_read_kernel(e->id, XREC_BUILD_ID_MAX, NULL) :
			      xelf_build_id_read_file(e->path, e->id, XREC_BUILD_ID_MAX, NULL);
			if (ret <= 0)
				continue;
			e->size = (uint8_t)ret;
		}
		ret = xpf_features_add_build_id(f, -1, e->kernel ? PERF_RECORD_MISC_KERNEL :
						PERF_RECORD_MISC_USER, e->id, e->size, e->path);
		if (ret < 0)
			return xb_error_set(err, ret, "cannot add the build id of '%s': %s",
					     e->path, strerror(-ret));
		added++;
	}
	if (added)
		xpf_features_mark(f, XPF_FEAT_BUILD_ID);
	return added;
}
