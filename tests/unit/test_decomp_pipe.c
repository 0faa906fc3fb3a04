/* The decompression thread gives the same records, offsets and errors as the plain path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/decompress.h"
#include "format/xpf_abi.h"
#include "unit.h"

struct buf {
	uint8_t *b;
	size_t n, cap;
};

static void put(struct buf *m, const void *p, size_t n)
{
	if (m->n + n > m->cap) {
		m->cap = (m->n + n) * 2;
		m->b = realloc(m->b, m->cap);
	}
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Plain records of many sizes (a few near the 64 KiB limit); bad_at: one of size 4 there. */
static void make_plain(struct buf *m, int nr, uint32_t seed, int bad_at)
{
	for (int i = 0; i < nr; i++) {
		uint32_t r = rnd(&seed);
		uint16_t size = (uint16_t)(i % 97 == 5 ? 65000 + r % 500 : 8 + 8 * (r % 300));
		struct perf_event_header h = { PERF_RECORD_SAMPLE, (uint16_t)i, size };
		uint8_t body[65536];

		if (i == bad_at)
			h.size = 4;
		for (size_t j = 0; j + 8 < size; j++)
			body[j] = (uint8_t)(j % 13 == 0 ? rnd(&seed) : i + j / 64);
		put(m, &h, sizeof(h));
		put(m, body, size - 8u);
	}
}

/* Data section: COMPRESSED records of `chunk` plain bytes each, some frames ended. */
static void make_data(struct buf *d, const struct buf *plain, size_t chunk, bool comp2)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	static uint8_t out[65536];
	int k = 0;

	for (size_t off = 0; off < plain->n; off += chunk, k++) {
		size_t len = plain->n - off < chunk ? plain->n - off : chunk;
		ZSTD_inBuffer in = { plain->b + off, len, 0 };
		ZSTD_outBuffer ob = { out, 65000, 0 };
		struct perf_event_header h = { comp2 ? XPF_RECORD_COMPRESSED2 : XPF_RECORD_COMPRESSED,
					      0, 0 };
		struct perf_event_header fr = { XPF_RECORD_FINISHED_ROUND, 0, 8 };
		size_t l;

		ZSTD_compressStream2(cc, &ob, &in, k % 5 == 4 ? ZSTD_e_end : ZSTD_e_flush);
		if (in.pos < in.size) /* did not fit one record: chunk too large for the data */
			abort();
		l = ob.pos;
		/* COMPRESSED2 says how much is data and pads to 8 bytes; COMPRESSED is all data */
		l = comp2 ? (ob.pos + 7) & ~(size_t)7 : ob.pos;
		memset(out + ob.pos, 0, 8);
		h.size = (uint16_t)(8 + (comp2 ? 8 : 0) + l);
		put(d, &h, sizeof(h));
		if (comp2)
			put(d, &ob.pos, 8);
		put(d, out, l);
		if (k % 3 == 1)
			put(d, &fr, sizeof(fr));
	}
	ZSTD_freeCCtx(cc);
}

struct seen {
	uint8_t *hash;      /* one line per record: size, offset, checksum */
	size_t n, cap;
	int ret;
	char msg[600];
	int nr;
};

static void seen_add(struct seen *s, const struct perf_event_header *h, uint64_t off, bool inner)
{
	struct perf_event_header hh;
	uint64_t sum = 0;
	char line[96];
	int n;

	memcpy(&hh, h, sizeof(hh)); /* records may be unaligned: the reader copies those */
	for (size_t i = 0; i < hh.size; i++)
		sum = sum * 31 + ((const uint8_t *)h)[i];
	n = snprintf(line, sizeof(line), "%d %u %u %llx %llx\n", inner, hh.type, hh.size,
		     (unsigned long long)off, (unsigned long long)sum);
	if (s->n + (size_t)n > s->cap) {
		s->cap = (s->n + n) * 2;
		s->hash = realloc(s->hash, s->cap);
	}
	memcpy(s->hash + s->n, line, n);
	s->n += n;
	s->nr++;
}

/* Walk the data section as the reader does; pipe_chunk < 0: no thread. stop: records. */
static void walk(const struct buf *d, long pipe_chunk, int stop, struct seen *s)
{
	struct xpf_decomp *dc = xpf_decomp_new(0);
	struct xb_error err = { 0 };
	uint64_t pos = 0;

	memset(s, 0, sizeof(*s));
	if (pipe_chunk >= 0 && xpf_decomp_start_pipe(dc, d->b, 0, d->n, false, pipe_chunk)) {
		s->ret = -999;
		goto out;
	}
	for (;;) {
		struct perf_event_header *h;
		uint64_t off;
		int ret;

		if (stop && s->nr >= stop)
			break;
		ret = xpf_decomp_next(dc, false, &h, &off, "f", &err);
		if (ret < 0) {
			s->ret = ret;
			snprintf(s->msg, sizeof(s->msg), "%s", err.msg);
			break;
		}
		if (ret == 1) {
			seen_add(s, h, off, true);
			continue;
		}
		if (pos >= d->n)
			break;
		struct perf_event_header fh;

		memcpy(&fh, d->b + pos, sizeof(fh));
		seen_add(s, (const struct perf_event_header *)(const void *)(d->b + pos), pos, false);
		if (fh.type == XPF_RECORD_COMPRESSED)
			xpf_decomp_feed(dc, d->b + pos + 8, fh.size - 8u, pos);
		else if (fh.type == XPF_RECORD_COMPRESSED2) {
			uint64_t l;

			memcpy(&l, d->b + pos + 8, 8);
			xpf_decomp_feed(dc, d->b + pos + 16, l, pos);
		}
		pos += fh.size;
	}
	s->msg[sizeof(s->msg) - 1] = 0;
	if (!s->ret && xpf_decomp_pending(dc))
		s->ret = (int)xpf_decomp_pending(dc); /* left over: compared too */
out:
	xpf_decomp_free(dc);
}

static void compare(const struct buf *d, long chunk)
{
	struct seen a, b;

	walk(d, -1, 0, &a);
	walk(d, chunk, 0, &b);
	CHECK(a.nr > 10);
	if (a.nr <= 10 || a.nr != b.nr) printf("# nr %d/%d ret %d/%d msg %s / %s\n", a.nr, b.nr, a.ret, b.ret, a.msg, b.msg);
	CHECK_EQ_U64(a.nr, b.nr);
	CHECK_EQ_U64(a.ret, b.ret);
	CHECK_STR(a.msg, b.msg);
	CHECK(a.n == b.n && !memcmp(a.hash, b.hash, a.n));
	if (a.n != b.n || memcmp(a.hash, b.hash, a.n)) {
		size_t i = 0;

		while (i < a.n && i < b.n && a.hash[i] == b.hash[i])
			i++;
		while (i && a.hash[i - 1] != '\n')
			i--;
		printf("# chunk %ld: at %.60s vs %.60s\n", chunk, (char *)a.hash + i, (char *)b.hash + i);
	}
	free(a.hash);
	free(b.hash);
}

static const long chunks[] = { 509, 4096, 65536, 300000, 0 };

/* Damage the zstd data of the compressed record nearest the middle; its offset. */
static size_t corrupt(struct buf *d)
{
	size_t pos = 0;

	for (;;) {
		struct perf_event_header h;

		memcpy(&h, d->b + pos, sizeof(h));
		if (h.type == XPF_RECORD_COMPRESSED && pos >= d->n / 2 && h.size > 64)
			break;
		pos += h.size;
	}
	/* a flushed record starts with a block (or frame) header: make it invalid */
	memset(d->b + pos + 8, 0xff, 40);
	return pos;
}

static void check_all(size_t per_record, bool comp2, int bad_at, bool damage)
{
	struct buf plain = { 0 }, d = { 0 };

	make_plain(&plain, 1000, 42, bad_at);
	make_data(&d, &plain, per_record, comp2);
	if (damage)
		corrupt(&d);
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		compare(&d, chunks[i]);
	free(plain.b);
	free(d.b);
}

static void test_straddling(void) { check_all(37, false, -1, false); }
static void test_medium(void) { check_all(9000, false, -1, false); }
static void test_large_records(void) { check_all(64000, false, -1, false); }
static void test_compressed2(void) { check_all(5000, true, -1, false); }
static void test_bad_inner_size(void) { check_all(3000, false, 500, false); }
static void test_zstd_error(void) { check_all(3000, false, -1, true); }

/* The error names the damaged compressed record, with and without the thread. */
static void test_error_message(void)
{
	struct buf plain = { 0 }, d = { 0 };
	char want[64];
	struct seen s;

	make_plain(&plain, 1000, 7, -1);
	make_data(&d, &plain, 3000, false);
	snprintf(want, sizeof(want), "f: compressed record at offset 0x%zx: zstd: ", corrupt(&d));
	for (long chunk = -1; chunk <= 4096; chunk += 4097) {
		walk(&d, chunk, 0, &s);
		CHECK(s.ret < 0);
		CHECK(!strncmp(s.msg, want, strlen(want)));
		if (strncmp(s.msg, want, strlen(want)))
			printf("# got %s, want %s\n", s.msg, want);
		free(s.hash);
	}
	free(plain.b);
	free(d.b);
}

/* Closing in the middle stops the thread (no leak, no hang under ASan). */
static void test_early_close(void)
{
	struct buf plain = { 0 }, d = { 0 };
	struct seen s;

	make_plain(&plain, 1000, 9, -1);
	make_data(&d, &plain, 2000, false);
	for (int stop = 1; stop < 1000; stop *= 3) {
		walk(&d, 4096, stop, &s);
		CHECK_EQ_U64(s.nr, stop);
		free(s.hash);
	}
	free(plain.b);
	free(d.b);
}

int main(void)
{
	RUN(test_straddling);
	RUN(test_medium);
	RUN(test_large_records);
	RUN(test_compressed2);
	RUN(test_bad_inner_size);
	RUN(test_zstd_error);
	RUN(test_error_message);
	RUN(test_early_close);
	UNIT_MAIN_END();
}
