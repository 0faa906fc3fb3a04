/* libxperf-base: reading a small file whole (a /proc or /sys one) into a caller's buffer. */
#ifndef XB_SMALL_FILE_H
#define XB_SMALL_FILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Up to cap - 1 bytes of the file at path into buf, NUL-terminated (cap > 0): the length,
 * or a negative errno. Reads until the end or the buffer is full, as a /proc file may come
 * in pieces smaller than asked for.
 */
ssize_t xb_read_small(const char *path, char *buf, size_t cap);

#endif
