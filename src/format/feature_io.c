/* Bounds-checked reading and growable writing of feature payloads (see feature_io.h). */
#include <stdio.h>

#include "base/array.h"
#include "format/feature_io.h"

/* names.c holds the one table of feature names; errors want a word, not NULL */
static const char *feat_name(unsigned int bit)
{
	const char *n = xpf_feature_name(bit);

	return n ? n : "unknown";
}

int fcur_fail(struct fcur *c, const char *what)
{
	if (!c->rc)
		c->rc = xb_error_set(c->err, -EINVAL,
				      "feature %s at offset 0x%llx: %s at offset 0x%llx overruns the %llu-byte payload",
				      feat_name(c->bit), (unsigned long long)c->file_offset, what,
				      (unsigned long long)(c->file_offset + c->pos),
				      (unsigned long long)c->size);
	return c->rc;
}

int fcur_bytes(struct fcur *c, void *dst, uint64_t n, const char *what)
{
	if (c->rc)
		return c->rc;
	if (n > fcur_left(c))
		return fcur_fail(c, what);
	memcpy(dst, c->p + c->pos, n);
	c->pos += n;
	return 0;
}

int fcur_u32(struct fcur *c, uint32_t *v, const char *what)
{
	*v = 0;
	if (fcur_bytes(c, v, 4, what))
		return c->rc;
	if (c->swap)
		*v = bswap_32(*v);
	return 0;
}

int fcur_u64(struct fcur *c, uint64_t *v, const char *what)
{
	*v = 0;
	if (fcur_bytes(c, v, 8, what))
		return c->rc;
	if (c->swap)
		*v = bswap_64(*v);
	return 0;
}

int fcur_count(struct fcur *c, uint64_t count, uint64_t min_elem, const char *what)
{
	if (c->rc)
		return c->rc;
	if (min_elem && count > fcur_left(c) / min_elem) {
		c->rc = xb_error_set(c->err, -EINVAL,
				      "feature %s at offset 0x%llx: %s %llu does not fit in the %llu bytes left",
				      feat_name(c->bit), (unsigned long long)c->file_offset, what,
				      (unsigned long long)count, (unsigned long long)fcur_left(c));
		return c->rc;
	}
	return 0;
}

int fcur_string(struct fcur *c, char **out, const char *what)
{
	uint32_t len;
	char *s;

	*out = NULL;
	if (fcur_u32(c, &len, what))
		return c->rc;
	if (len > fcur_left(c))
		return fcur_fail(c, what);
	s = malloc((size_t)len + 1);
	if (!s) {
		c->rc = xb_error_set(c->err, -ENOMEM, "feature %s: out of memory", feat_name(c->bit));
		return c->rc;
	}
	memcpy(s, c->p + c->pos, len);
	/* The NUL perf writes is inside len; force one so a bad file cannot run us off the end. */
	s[len] = '\0';
	c->pos += len;
	*out = s;
	return 0;
}

static void fbuf_grow(struct fbuf *b, size_t n)
{
	if (b->failed)
		return;
	if (n > SIZE_MAX - b->len || XB_ARRAY_RESERVE(b->buf, b->cap, b->len + n, 256))
		b->failed = true;
}

void fbuf_put(struct fbuf *b, const void *data, size_t n)
{
	fbuf_grow(b, n);
	if (b->failed || !n)
		return;
	memcpy(b->buf + b->len, data, n);
	b->len += n;
}

void fbuf_zero(struct fbuf *b, size_t n)
{
	fbuf_grow(b, n);
	if (b->failed || !n)
		return;
	memset(b->buf + b->len, 0, n);
	b->len += n;
}

void fbuf_u32(struct fbuf *b, uint32_t v)
{
	fbuf_put(b, &v, 4);
}

void fbuf_u64(struct fbuf *b, uint64_t v)
{
	fbuf_put(b, &v, 8);
}

void fbuf_string(struct fbuf *b, const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	size_t len = (n + XPF_NAME_ALIGN - 1) / XPF_NAME_ALIGN * XPF_NAME_ALIGN;

	fbuf_u32(b, (uint32_t)len);
	fbuf_put(b, s ? s : "", n);
	fbuf_zero(b, len - n);
}

/* Reverse the bits of each byte: bitfields are allocated from the other end in the other order. */
static uint8_t revbyte(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

void xpf_attr_swap_inplace(void *attr, uint32_t size)
{
	/* Field widths of perf_event_attr up to PERF_ATTR_SIZE_VER8, by offset. */
	static const struct { uint16_t off; uint8_t width; } fields[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 40, 0 },
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 },
		{ 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 },
		{ 116, 4 }, { 120, 8 }, { 128, 8 },
	};
	uint8_t *p = attr;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		uint8_t *f = p + fields[i].off;
		unsigned int w = fields[i].width ? fields[i].width : 8;

		if (fields[i].off + w > size)
			break;
		if (fields[i].width == 0) {
			/* the flag bitfield word: perf swaps it bit by bit within each byte */
			for (unsigned int k = 0; k < 8; k++)
				f[k] = revbyte(f[k]);
		} else if (w == 2) {
			uint16_t v;
			memcpy(&v, f, 2);
			v = bswap_16(v);
			memcpy(f, &v, 2);
		} else if (w == 4) {
			uint32_t v;
			memcpy(&v, f, 4);
			v = bswap_32(v);
			memcpy(f, &v, 4);
		} else {
			uint64_t v;
			memcpy(&v, f, 8);
			v = bswap_64(v);
			memcpy(f, &v, 8);
		}
	}
}
