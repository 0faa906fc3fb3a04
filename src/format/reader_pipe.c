/* The reader's input: a mapped image, or a stream read into a growing buffer, never seeked. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "format/reader_int.h"

/* A stream record (plus the payload some carry) never needs more than this at once. */
#define STREAM_BUF_MAX (1ULL << 31)
#define STREAM_READ_CHUNK (1u << 20)

static ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t got;

	do
		got = read(fd, buf, n);
	while (got < 0 && errno == EINTR);
	return got;
}

/*
 * Make pbuf hold stream bytes [off, off + n). Bytes before `off` are dead: the reader only
 * asks for the record at its position or later, and the previous record was handed out
 * before this call. Dead bytes are dropped only when room runs short, so each byte is
 * moved at most about once.
 */
static int stream_fill(struct xpf_reader *r, uint64_t off, uint64_t n, struct xb_error *err)
{
	size_t start;

	if (off < r->pbase)
		return xb_error_set(err, -EINVAL, "%s: internal error: offset 0x%llx already read",
				     r->name, (unsigned long long)off);
	if (n > STREAM_BUF_MAX)
		return xb_error_set(err, -EINVAL, "%s: record at offset 0x%llx needs %llu bytes",
				     r->name, (unsigned long long)off, (unsigned long long)n);
	if (off >= r->pbase + r->plen) {
		r->pbase += r->plen;
		r->plen = 0;
	}
	/* the reader buffers a record and its payload before moving past them, so this only
	 * skips if a caller jumps ahead: read and drop up to off */
	while (!r->plen && r->pbase < off && !r->peof) {
		uint8_t sink[4096];
		uint64_t skip = off - r->pbase;
		ssize_t got = read_some(r->fd, sink, skip < sizeof(sink) ? (size_t)skip : sizeof(sink));

		if (got < 0)
			return xb_error_set(err, -errno, "%s: read: %s", r->name, strerror(errno));
		if (got == 0)
			r->peof = true;
		r->pbase += (uint64_t)got;
	}
	if (r->pbase + r->plen < off)
		return 0;
	start = (size_t)(off - r->pbase);
	while (r->plen - start < n) {
		ssize_t got;

		if (r->peof)
			return 0;
		if (r->pcap - r->plen < STREAM_READ_CHUNK) {
			if (start) {
				memmove(r->pbuf, r->pbuf + start, r->plen - start);
				r->plen -= start;
				r->pbase = off;
				start = 0;
			}
			/* grow with what arrives, never by the size a record claims: a stream
			 * that says 2 GiB and ends costs what it held */
			if (r->pcap - r->plen < STREAM_READ_CHUNK &&
			    XB_ARRAY_RESERVE(r->pbuf, r->pcap, r->plen + STREAM_READ_CHUNK,
					     STREAM_READ_CHUNK))
				return xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
		}
		got = read_some(r->fd, r->pbuf + r->plen, r->pcap - r->plen);
		if (got < 0)
			return xb_error_set(err, -errno, "%s: read: %s", r->name, strerror(errno));
		if (got == 0)
			r->peof = true;
		r->plen += (size_t)got;
	}
	return 1;
}

int xpf_src_get(struct xpf_reader *r, uint64_t off, uint64_t n, const uint8_t **out,
		struct xb_error *err)
{
	int ret;

	if (!r->stream) {
		if (off > r->map_size || n > r->map_size - off)
			return 0;
		*out = r->map + off;
		return 1;
	}
	ret = stream_fill(r, off, n, err);
	if (ret == 1)
		*out = r->pbuf + (off - r->pbase);
	return ret;
}

/* Read a whole stream into memory (a non-seekable fd holding a non-pipe file). */
int xpf_stream_slurp(int fd, const char *name, uint8_t **buf, size_t *size, const void *head,
		     size_t head_len, struct xb_error *err)
{
	size_t cap = STREAM_READ_CHUNK, len = head_len;
	uint8_t *b = malloc(cap);

	if (!b)
		return xb_error_set(err, -ENOMEM, "%s: out of memory", name);
	memcpy(b, head, head_len);
	for (;;) {
		ssize_t got;

		if (cap - len < STREAM_READ_CHUNK / 2 &&
		    (cap >= STREAM_BUF_MAX || XB_ARRAY_RESERVE(b, cap, cap + 1, cap))) {
			free(b);
			return xb_error_set(err, -ENOMEM, "%s: input too large for memory", name);
		}
		got = read_some(fd, b + len, cap - len);
		if (got < 0) {
			int e = errno;

			free(b);
			return xb_error_set(err, -e, "%s: read: %s", name, strerror(e));
		}
		if (!got)
			break;
		len += (size_t)got;
	}
	*buf = b;
	*size = len;
	return 0;
}
