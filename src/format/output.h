/* Where a perf.data file is written: the old one kept, no symlink followed, a temporary. */
#ifndef XPF_OUTPUT_H
#define XPF_OUTPUT_H

#include <stdbool.h>

#include "base/error.h"

/*
 * perf's rule (util/data.c check_backup), made safe. A file at the output path that is a
 * non-empty regular file or a symbolic link is kept as PATH.old (perf renames the link
 * too when its target is non-empty; it follows a dangling or empty one, we never do). An
 * empty regular file is written over; a device (/dev/null) is written in place; a
 * directory is refused. The new file is created with O_EXCL (and an existing one opened
 * with O_NOFOLLOW), so a link made meanwhile is refused rather than followed.
 *
 * With XPF_OUTPUT_VIA_TEMP the data goes to PATH.tmp.XXXXXX in the same directory, and
 * xpf_output_commit() keeps the old file and renames the temporary over PATH: until then
 * PATH is untouched, so a failed run changes nothing. Without it (record, whose killed
 * runs must leave a readable file under its name) the old file moves at open.
 */
#define XPF_OUTPUT_KEEP_OLD (1 << 0) /* PATH.old as above; else an existing file is refused
					unless regular (then truncated) or a device */
#define XPF_OUTPUT_VIA_TEMP (1 << 1)

struct xpf_output {
	char *path;      /* where the file ends up */
	char *tmp;       /* the temporary being written, or NULL */
	char *old;       /* PATH.old once PATH was moved there, or NULL */
	bool created;    /* the file written (PATH or tmp) is ours: discard removes it */
	int flags;
	int fd;
};

/* Open the file to write (o->fd, O_WRONLY, mode 0600). 0 or a negative errno, err set. */
int xpf_output_open(struct xpf_output *o, const char *path, int flags, struct xb_error *err);

/*
 * The file is complete (o->fd may be closed already): with a temporary, keep the old PATH
 * and rename the temporary over it. On failure PATH is as it was and the temporary stays
 * for xpf_output_discard() to remove.
 */
int xpf_output_commit(struct xpf_output *o, struct xb_error *err);

/* Undo an output that failed: remove the file we created, put PATH.old back. */
void xpf_output_discard(struct xpf_output *o);

/* Free the names (not the fd). Accepts a zeroed struct. */
void xpf_output_release(struct xpf_output *o);

#endif
