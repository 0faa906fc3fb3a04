/* zstd compression of the record stream into PERF_RECORD_COMPRESSED records (perf's layout). */
#include <zstd.h>

#include "format/compress.h"

#define REC_HDR sizeof(struct perf_event_header)

struct xpf_compressor {
	ZSTD_CStream *cs;
};

int xpf_compressor_create(struct xpf_compressor **out, int level, struct xb_error *err)
{
	struct xpf_compressor *c;
	size_t rc;

	*out = NULL;
	if (level < 1 || level > ZSTD_maxCLevel())
		return xb_error_set(err, -EINVAL, "compression level %d is out of range 1..%d",
				     level, ZSTD_maxCLevel());
	c = calloc(1, sizeof(*c));
	if (!c || !(c->cs = ZSTD_createCStream())) {
		free(c);
		return xb_error_set(err, -ENOMEM, "cannot create a zstd stream: out of memory");
	}
	rc = ZSTD_initCStream(c->cs, level);
	if (ZSTD_isError(rc)) {
		xpf_compressor_free(c);
		return xb_error_set(err, -EINVAL, "zstd: %s", ZSTD_getErrorName(rc));
	}
	*out = c;
	return 0;
}

void xpf_compressor_free(struct xpf_compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCStream(c->cs);
	free(c);
}

/* One flushed chunk -> one or (never in practice) more COMPRESSED records. */
static int compress_chunk(struct xpf_compressor *c, const uint8_t *src, size_t len,
			  struct fbuf *out, struct xb_error *err)
{
	const size_t room = XPF_COMPRESSED_RECORD_MAX - REC_HDR;
	ZSTD_inBuffer in = { src, len, 0 };
	size_t left;

	do {
		struct perf_event_header hdr = { .type = XPF_RECORD_COMPRESSED };
		ZSTD_outBuffer o;
		size_t at = out->len;

		fbuf_zero(out, XPF_COMPRESSED_RECORD_MAX);
		if (out->failed)
			return xb_error_set(err, -ENOMEM, "compressing records: out of memory");
		o = (ZSTD_outBuffer){ out->buf + at + REC_HDR, room, 0 };
		left = ZSTD_compressStream2(c->cs, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(left)) {
			out->len = at;
			return xb_error_set(err, -EIO, "zstd: %s", ZSTD_getErrorName(left));
		}
		if (o.pos == 0) {
			out->len = at;
			continue;
		}
		/* no padding: perf 6.1 feeds the whole payload to zstd, so sizes stay exact */
		hdr.size = (uint16_t)(REC_HDR + o.pos);
		memcpy(out->buf + at, &hdr, REC_HDR);
		out->len = at + hdr.size;
	} while (left != 0);
	return 0;
}

int xpf_compress_records(struct xpf_compressor *c, const void *src, size_t len, struct fbuf *out,
			 struct xb_error *err)
{
	const uint8_t *p = src;
	int rc;

	while (len) {
		size_t n = len < XPF_COMP_CHUNK ? len : XPF_COMP_CHUNK;

		rc = compress_chunk(c, p, n, out, err);
		if (rc)
			return rc;
		p += n;
		len -= n;
	}
	return 0;
}
