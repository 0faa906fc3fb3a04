/* The DSOs of a recording and their GNU build-ids (read by libxperf-elf), for BUILD_ID. */
#ifndef XREC_BUILDID_H
#define XREC_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "format/xpf_features.h"

/* perf keeps 20 bytes of an id */
#define XREC_BUILD_ID_MAX 20

/*
 * The set of DSOs a recording touched, each once, for the BUILD_ID feature. The record
 * core adds every DSO it wants in the feature (perf lists the DSOs hit by samples; MMAP2
 * filenames are a fine superset); ids the kernel gave in MMAP2 are passed in, the others
 * are read from the files when the set is turned into features.
 */
typedef struct xrec_buildids xrec_buildids;

xrec_buildids *xrec_buildids_create(void);
void xrec_buildids_free(xrec_buildids *set); /* accepts NULL */

/*
 * Add a DSO by path. kernel: the kernel image ("[kernel.kallsyms]", read from
 * /sys/kernel/notes) or a module (misc KERNEL). id/size: the build id when known (from an
 * MMAP2 record), NULL/0 to read it from the file later. Pseudo files ("[vdso]", "[heap]",
 * "//anon", "[stack]") are ignored, except "[kernel.kallsyms]". Adding a path twice keeps
 * the first known id. Returns 0 or -ENOMEM.
 */
int xrec_buildids_add(xrec_buildids *set, const char *path, bool kernel, const uint8_t *id,
		      uint8_t size);

/*
 * Add one entry per DSO with a build id to f (xpf_features_add_build_id, pid -1, misc
 * KERNEL or USER as perf writes them) and mark BUILD_ID. DSOs whose id cannot be read are
 * skipped silently (perf does the same). Returns the number of entries added or a negative
 * errno.
 */
int xrec_buildids_to_features(xrec_buildids *set, struct xpf_features *f, struct xb_error *err);

#endif
