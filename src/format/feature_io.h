/* Internal to libxperf-format: a bounds-checked payload cursor and a growable output buffer. */
#ifndef XPF_FEATURE_IO_H
#define XPF_FEATURE_IO_H

#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/xpf_abi.h"
#include "base/error.h"

/* perf pads feature strings to this (NAME_ALIGN in header.c). */
#define XPF_NAME_ALIGN 64

/*
 * Reading one feature payload. Every read checks the remaining size first; the first
 * failure fills err with the feature name and the file offset of the bad field, and later
 * reads fail quietly so a decoder can check once at the end.
 */
struct fcur {
	const uint8_t *p;
	uint64_t size, pos;
	bool swap;
	uint64_t file_offset; /* of p[0] */
	unsigned int bit;
	struct xb_error *err;
	int rc;
};

int fcur_fail(struct fcur *c, const char *what);
int fcur_u32(struct fcur *c, uint32_t *v, const char *what);
int fcur_u64(struct fcur *c, uint64_t *v, const char *what);
int fcur_bytes(struct fcur *c, void *dst, uint64_t n, const char *what);
/* perf's do_read_string: u32 len, then len bytes holding a NUL-terminated string. */
int fcur_string(struct fcur *c, char **out, const char *what);
/* Reject a count that cannot fit: each element needs at least min_elem bytes. */
int fcur_count(struct fcur *c, uint64_t count, uint64_t min_elem, const char *what);
static inline uint64_t fcur_left(const struct fcur *c)
{
	return c->size - c->pos;
}

/* Writing a payload in native byte order. Allocation failure is sticky (fbuf.failed). */
struct fbuf {
	uint8_t *buf;
	size_t len, cap;
	bool failed;
};

void fbuf_put(struct fbuf *b, const void *data, size_t n);
void fbuf_u32(struct fbuf *b, uint32_t v);
void fbuf_u64(struct fbuf *b, uint64_t v);
/* perf's do_write_string: u32 len (strlen + 1 rounded up to 64), bytes, zero padding. */
void fbuf_string(struct fbuf *b, const char *s);
void fbuf_zero(struct fbuf *b, size_t n);

/* Swap a perf_event_attr of `size` bytes in place (other byte order -> native). */
void xpf_attr_swap_inplace(void *attr, uint32_t size);

#endif
