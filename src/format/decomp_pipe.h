/* Decompression on a second thread, ahead of the reader (internal to decompress.c). */
#ifndef XPF_DECOMP_PIPE_H
#define XPF_DECOMP_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <zstd.h>

#include "base/error.h"
#include "format/xpf_reader.h"

struct xpf_pipe;

/* Start the thread on the records of map[pos, end); it uses zd until xpf_pipe_free(). */
int xpf_pipe_start(struct xpf_pipe **out, ZSTD_DStream *zd, const uint8_t *map, uint64_t pos,
		   uint64_t end, bool swap, size_t chunk);
/* Stop and join the thread, free everything. Accepts NULL. */
void xpf_pipe_free(struct xpf_pipe *p);
/* The semantics of xpf_decomp_feed/next/pending (decompress.h). */
void xpf_pipe_feed(struct xpf_pipe *p, uint64_t off);
int xpf_pipe_next(struct xpf_pipe *p, bool swap, struct perf_event_header **hdr, uint64_t *off,
		  const char *name, struct xb_error *err);
size_t xpf_pipe_pending(const struct xpf_pipe *p);
/* fn is called with a chunk's memory before the chunk goes back to the thread. */
void xpf_pipe_set_reuse_hook(struct xpf_pipe *p, xpf_reuse_fn fn, void *ctx);

#endif
