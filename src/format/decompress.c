/* Streaming zstd decompression of COMPRESSED (81) and COMPRESSED2 (83) record payloads. */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/decompress.h"
#include "format/decomp_pipe.h"

/*
 * perf feeds every COMPRESSED record of a file to one zstd stream, and a record of the
 * decompressed stream may start in one COMPRESSED record and end in the next. We keep two
 * large output buffers and fill one at a time: complete records are handed out in place, and
 * the output of the next compressed record goes on behind them. Only when the room behind is
 * short is the unfinished tail (less than one record, at most 64 KiB) moved to the front of
 * the other buffer, after telling the reuse hook that the other buffer's old records go: the
 * records handed out stay put for a whole buffer after the one they are in, so a caller that
 * keeps some (an ordering queue, a round or two) almost never has to copy them. With one
 * buffer, whose front was reused at once, the ordering queue copied a fifth of all records.
 * The second buffer is allocated at the first switch: small files never touch it.
 */
#define MIN_ROOM (128u << 10)

struct xpf_decomp {
	ZSTD_DStream *zd;
	uint8_t *buf;
	size_t cap, head, len;   /* records live in buf[head, len) */
	uint8_t *spare;          /* the other buffer (cap bytes, NULL until the first switch) */
	size_t spare_len;        /* spare[0, spare_len) holds records handed out earlier */
	const uint8_t *in;       /* payload of the current compressed record */
	size_t in_size, in_pos;
	bool flush;              /* the last call filled the buffer: zstd may hold more output */
	uint64_t in_off;         /* file offset of the current compressed record */
	/* buf[.., carry) came from an earlier compressed record, the one at carry_off (only
	 * the unfinished record at head may start there) */
	size_t carry;
	uint64_t carry_off;
	struct xpf_pipe *pipe;   /* non-NULL: a thread decompresses ahead (decomp_pipe.c) */
	xpf_reuse_fn reuse;      /* told before buf[0, head) is written over */
	void *reuse_ctx;
};

struct xpf_decomp *xpf_decomp_new(size_t out_size)
{
	struct xpf_decomp *dc = calloc(1, sizeof(*dc));

	if (!dc)
		return NULL;
	/* room for one maximal record behind a maximal tail */
	if (out_size < 4 * 65536)
		out_size = 4 * 65536;
	dc->cap = out_size;
	dc->buf = malloc(out_size);
	dc->zd = ZSTD_createDStream();
	if (!dc->buf || !dc->zd || ZSTD_isError(ZSTD_initDStream(dc->zd))) {
		xpf_decomp_free(dc);
		return NULL;
	}
	return dc;
}

void xpf_decomp_free(struct xpf_decomp *dc)
{
	if (!dc)
		return;
	xpf_pipe_free(dc->pipe);
	ZSTD_freeDStream(dc->zd);
	free(dc->buf);
	free(dc->spare);
	free(dc);
}

void xpf_decomp_set_reuse_hook(struct xpf_decomp *dc, xpf_reuse_fn fn, void *ctx)
{
	dc->reuse = fn;
	dc->reuse_ctx = ctx;
	if (dc->pipe)
		xpf_pipe_set_reuse_hook(dc->pipe, fn, ctx);
}

/*
 * The room behind the records is short: go on in the other buffer, the unfinished tail
 * first, once the reuse hook knows its old records go. Without memory for a second buffer,
 * the tail moves to the front of this one, whose records go at once.
 */
static void switch_buffer(struct xpf_decomp *dc)
{
	size_t tail = dc->len - dc->head;
	uint8_t *to;

	if (!dc->spare && (dc->spare = malloc(dc->cap)))
		dc->spare_len = 0;
	to = dc->spare ? dc->spare : dc->buf;
	if (dc->reuse && to == dc->buf && dc->head)
		dc->reuse(dc->reuse_ctx, dc->buf, dc->buf + dc->head);
	else if (dc->reuse && dc->spare_len)
		dc->reuse(dc->reuse_ctx, dc->spare, dc->spare + dc->spare_len);
	memmove(to, dc->buf + dc->head, tail);
	if (to != dc->buf) {
		dc->spare = dc->buf;
		dc->spare_len = dc->head;
		dc->buf = to;
	}
	dc->carry = dc->carry > dc->head ? dc->carry - dc->head : 0;
	dc->head = 0;
	dc->len = tail;
}

/* Offset of the compressed record that held the first byte at buf[pos]. */
static uint64_t origin(const struct xpf_decomp *dc, size_t pos)
{
	return pos < dc->carry ? dc->carry_off : dc->in_off;
}

void xpf_decomp_feed(struct xpf_decomp *dc, const void *data, size_t size, uint64_t off)
{
	size_t tail = dc->len - dc->head;

	if (dc->pipe) {
		xpf_pipe_feed(dc->pipe, off);
		return;
	}
	/* what is pending came from earlier records: remember where it began */
	if (tail)
		dc->carry_off = origin(dc, dc->head);
	dc->carry = dc->len;
	dc->in = data;
	dc->in_size = size;
	dc->in_pos = 0;
	dc->in_off = off;
}

size_t xpf_decomp_pending(const struct xpf_decomp *dc)
{
	if (dc->pipe)
		return xpf_pipe_pending(dc->pipe);
	return dc->len - dc->head;
}


static int refill(struct xpf_decomp *dc, const char *name, struct xb_error *err)
{
	ZSTD_outBuffer out;
	ZSTD_inBuffer in;
	size_t ret;

	if (dc->head && dc->cap - dc->len < MIN_ROOM)
		switch_buffer(dc);
	out.dst = dc->buf;
	out.size = dc->cap;
	out.pos = dc->len;
	in.src = dc->in;
	in.size = dc->in_size;
	in.pos = dc->in_pos;
	ret = ZSTD_decompressStream(dc->zd, &out, &in);
	if (ZSTD_isError(ret)) {
		dc->in_pos = dc->in_size;
		dc->flush = false;
		return xb_error_set(err, -EINVAL, "%s: compressed record at offset 0x%llx: zstd: %s",
				     name, (unsigned long long)dc->in_off, ZSTD_getErrorName(ret));
	}
	dc->in_pos = in.pos;
	dc->flush = out.pos == out.size;
	dc->len = out.pos;
	return 0;
}

int xpf_decomp_next(struct xpf_decomp *dc, bool swap, struct perf_event_header **hdr,
		    uint64_t *off, const char *name, struct xb_error *err)
{
	if (dc->pipe)
		return xpf_pipe_next(dc->pipe, swap, hdr, off, name, err);
	for (;;) {
		size_t avail = dc->len - dc->head;

		if (avail >= sizeof(struct perf_event_header)) {
			uint16_t size;

			memcpy(&size, dc->buf + dc->head + 6, 2);
			if (swap)
				size = bswap_16(size);
			if (size < sizeof(struct perf_event_header)) {
				uint64_t o = origin(dc, dc->head);

				dc->head = dc->len;
				dc->in_pos = dc->in_size;
				dc->flush = false;
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx: decompressed record has size %u",
						     name, (unsigned long long)o, size);
			}
			if (size <= avail) {
				*hdr = (struct perf_event_header *)(void *)(dc->buf + dc->head);
				*off = origin(dc, dc->head);
				dc->head += size;
				return 1;
			}
		}
		if (dc->in_pos >= dc->in_size && !dc->flush)
			return 0; /* the rest of this record is in the next compressed record */
		size_t before_tail = dc->len - dc->head, before_in = dc->in_pos;
		int ret = refill(dc, name, err);

		if (ret)
			return ret;
		/* no progress with input left would loop for ever */
		if (dc->len - dc->head == before_tail && dc->in_pos == before_in &&
		    dc->in_pos < dc->in_size)
			return xb_error_set(err, -EINVAL,
					     "%s: compressed record at offset 0x%llx: decompression made no progress",
					     name, (unsigned long long)dc->in_off);
	}
}

int xpf_decomp_start_pipe(struct xpf_decomp *dc, const uint8_t *map, uint64_t pos, uint64_t end,
			  bool swap, size_t chunk)
{
	/* only before the first record: the stream must be untouched */
	if (dc->pipe || dc->len || dc->in_size)
		return -EBUSY;
	int ret = xpf_pipe_start(&dc->pipe, dc->zd, map, pos, end, swap, chunk);

	if (!ret)
		xpf_pipe_set_reuse_hook(dc->pipe, dc->reuse, dc->reuse_ctx);
	return ret;
}
