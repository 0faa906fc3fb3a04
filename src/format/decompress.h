/* Streaming zstd decompression of COMPRESSED record payloads (internal to the reader). */
#ifndef XPF_DECOMPRESS_H
#define XPF_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"
#include "format/xpf_reader.h"

struct xpf_decomp;

/* out_size: each of the two output buffers (at least 256 KiB; the second is allocated when
 * the first is full). NULL on ENOMEM. */
struct xpf_decomp *xpf_decomp_new(size_t out_size);
void xpf_decomp_free(struct xpf_decomp *dc);

/*
 * Feed the payload of the COMPRESSED record at file offset `off`. The payload must stay
 * valid until xpf_decomp_next() has returned 0 or an error.
 */
void xpf_decomp_feed(struct xpf_decomp *dc, const void *data, size_t size, uint64_t off);

/*
 * Next complete decompressed record: 1 with *hdr pointing into the buffer (file byte order,
 * writable, valid until the reuse hook names its memory) and *off the offset of the compressed record that
 * held its first byte; 0 when the fed input is used up (an unfinished record stays
 * pending); negative errno with err set ("NAME: compressed record at offset 0x..: zstd: ..").
 */
int xpf_decomp_next(struct xpf_decomp *dc, bool swap, struct perf_event_header **hdr,
		    uint64_t *off, const char *name, struct xb_error *err);

/*
 * fn(ctx, lo, hi) is called before output memory that held records handed out is reused,
 * so a caller may keep records past the next call (xpf_reader_set_reuse_hook()).
 */
void xpf_decomp_set_reuse_hook(struct xpf_decomp *dc, xpf_reuse_fn fn, void *ctx);

/* Bytes of an unfinished record waiting for the next compressed record. */
size_t xpf_decomp_pending(const struct xpf_decomp *dc);

/*
 * Decompress on a second thread, ahead of the caller: the thread walks the records of the
 * image map[pos, end) (a whole file in memory, which must outlive dc) and decompresses the
 * payload of every COMPRESSED record in order into a ring of `chunk`-byte buffers (0: the
 * default). The caller keeps calling xpf_decomp_feed() and xpf_decomp_next() exactly as
 * without it, and gets the same records, offsets and errors. Only before the first feed.
 * xpf_decomp_free() stops and joins the thread. 0 or a negative errno (then nothing changed).
 */
int xpf_decomp_start_pipe(struct xpf_decomp *dc, const uint8_t *map, uint64_t pos, uint64_t end,
			  bool swap, size_t chunk);

#endif
