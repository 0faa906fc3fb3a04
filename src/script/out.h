/* A buffered writer for per-sample text: no stdio locking, no per-line allocation, no printf. */
#ifndef XSCRIPT_OUT_H
#define XSCRIPT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_BUF (1u << 18)

/* Output goes to fd in OUT_BUF chunks; err keeps the first write error (an errno). */
struct out {
	char buf[OUT_BUF];
	size_t n;
	int fd;
	int err;
};

void out_flush(struct out *o);

/* Room for `need` more bytes (need <= OUT_BUF). */
static inline char *out_room(struct out *o, size_t need)
{
	if (o->n + need > OUT_BUF)
		out_flush(o);
	return o->buf + o->n;
}

static inline void out_mem(struct out *o, const char *s, size_t len)
{
	while (len > OUT_BUF / 2) {
		out_mem(o, s, OUT_BUF / 2);
		s += OUT_BUF / 2;
		len -= OUT_BUF / 2;
	}
	memcpy(out_room(o, len), s, len);
	o->n += len;
}

static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static inline void out_chr(struct out *o, char c)
{
	*out_room(o, 1) = c;
	o->n++;
}

/* s right-aligned in width (printf "%*s"; longer strings are not cut). */
void out_pad_str(struct out *o, const char *s, int width);
/* v in decimal, right-aligned in width ("%*d" / "%*lu"); left: "%-*d". */
void out_dec(struct out *o, int64_t v, int width, bool left);
void out_udec(struct out *o, uint64_t v, int width);
/* v in lower-case hex, right-aligned in width, no prefix ("%*lx"). */
void out_hex(struct out *o, uint64_t v, int width);
/* v as "0x..." ("%#lx": "0" for 0). */
void out_hex0x(struct out *o, uint64_t v);
/* v zero-padded to `digits` decimal digits ("%0*lu"). */
void out_zdec(struct out *o, uint64_t v, int digits);
/* printf-style, for the rare lines (side-band records); truncated at 4 KiB */
void out_fmt(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
