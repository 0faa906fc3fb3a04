/* The buffered writer of xperf script (out.h): number formatting without printf. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "script/out.h"

void out_flush(struct out *o)
{
	size_t off = 0;

	while (off < o->n) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->err)
				o->err = w < 0 ? errno : EIO;
			break;
		}
		off += (size_t)w;
	}
	o->n = 0;
}

void out_pad_str(struct out *o, const char *s, int width)
{
	size_t len = strlen(s);
	char *p;

	if (width > 0 && (size_t)width > len) {
		p = out_room(o, (size_t)width - len);
		memset(p, ' ', (size_t)width - len);
		o->n += (size_t)width - len;
	}
	out_mem(o, s, len);
}

/* digits of v, most significant first, into the end of tmp[24]; returns the start */
static char *udigits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_padded(struct out *o, const char *s, size_t len, int width, bool left, char pad)
{
	size_t w = width > 0 ? (size_t)width : 0, fill = w > len ? w - len : 0;
	char *p = out_room(o, len + fill);

	if (!left) {
		memset(p, pad, fill);
		p += fill;
	}
	memcpy(p, s, len);
	p += len;
	if (left)
		memset(p, ' ', fill);
	o->n += len + fill;
}

void out_dec(struct out *o, int64_t v, int width, bool left)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s;

	s = udigits(e, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--s = '-';
	put_padded(o, s, (size_t)(e - s), width, left, ' ');
}

void out_udec(struct out *o, uint64_t v, int width)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s = udigits(e, v);

	put_padded(o, s, (size_t)(e - s), width, false, ' ');
}

void out_zdec(struct out *o, uint64_t v, int digits)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s = udigits(e, v);

	put_padded(o, s, (size_t)(e - s), digits, false, '0');
}

void out_hex(struct out *o, uint64_t v, int width)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s = e;

	do {
		*--s = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	put_padded(o, s, (size_t)(e - s), width, false, ' ');
}

void out_hex0x(struct out *o, uint64_t v)
{
	if (!v) {
		out_chr(o, '0');
		return;
	}
	out_mem(o, "0x", 2);
	out_hex(o, v, 0);
}

void out_fmt(struct out *o, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_mem(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}
