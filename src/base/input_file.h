/* libxperf-base: opening a file a profile names (never blocking, regular files only, bounded). */
#ifndef XB_INPUT_FILE_H
#define XB_INPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * A profile names files it does not own: an MMAP record can name a FIFO, a device, a
 * directory or a symlink to /dev/zero. Every such file is opened here and nowhere else:
 * open(O_NONBLOCK) cannot wait for a FIFO's writer, fstat() then refuses what is not a
 * regular file, and the size is checked against a bound before anything is read. What
 * reads it on (read(), libelf's mmap) never blocks: a regular file's reads do not.
 *
 * The bounds (DESIGN 2: memory must not grow with what a file claims). A file larger than
 * its bound is refused as a whole, never read in part:
 */
#define XB_INPUT_ELF_MAX  (8ull << 30)    /* ELF and debug files: mapped, read in parts */
#define XB_INPUT_TEXT_MAX (256ull << 20)  /* read whole: kallsyms, /tmp/perf-PID.map */
#define XB_INPUT_SRC_MAX  (64ull << 20)   /* source files annotate shows */

/*
 * Whether the file must also be owned by this user or root (a file in a shared directory
 * such as /tmp, which any user can put there under the name we look for).
 */
#define XB_INPUT_OWNED 1u
/*
 * No bound on the size: for a file read in bounded parts at offsets (pread), whose size
 * says nothing of what is read (/proc/kcore: the kernel's whole address space).
 */
#define XB_INPUT_UNSIZED 2u

/*
 * Open path for reading (O_RDONLY | O_CLOEXEC, O_NONBLOCK cleared once it is known to be
 * a regular file): the descriptor, its size in *size (may be NULL). A negative errno with
 * err (may be NULL) saying "'PATH': why" on failure: open()'s own errno (-ENOENT, -EACCES,
 * ...), or one of the refusals, which xb_input_refused() tells apart:
 *   -EINVAL  not a regular file (a FIFO, a device, a socket, a directory)
 *   -EFBIG   larger than max bytes
 *   -EPERM   XB_INPUT_OWNED and owned by another user
 */
int xb_input_open(const char *path, uint64_t max, unsigned int flags, uint64_t *size,
		  struct xb_error *err);

/* Whether xb_input_open() refused the file (rather than not finding or reading it). */
bool xb_input_refused(int ret);

/*
 * Every refusal of xb_input_open() in this process, each path once: its message ("'PATH':
 * a FIFO, not a regular file"), in the order they happened, the first XB_INPUT_REFUSALS_KEPT
 * kept. Most opens happen deep inside a loader that cannot say anything (a debug file, a
 * build-id cache entry, a file libdwfl asks for): the views say these at the end. i past
 * the last: NULL. *nr (may be NULL): how many paths were refused in all. Thread-safe.
 */
#define XB_INPUT_REFUSALS_KEPT 32
const char *xb_input_refusal(unsigned int i, unsigned int *nr);

/*
 * The rest of an open descriptor into a new NUL-terminated buffer (*len bytes before the
 * NUL): 0, or -EFBIG when it holds more than max bytes (a /proc file has no size to check
 * first, and a regular file may grow while it is read), or another negative errno.
 */
int xb_input_read_all(int fd, uint64_t max, char **buf, size_t *len);

#endif
