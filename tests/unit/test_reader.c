/* Unit tests of the perf.data reader on hand-built images: byte orders, compression, pipes, damage. */
#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "format/xpf_reader.h"
#include "unit.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
#define NR_SAMPLES 40

/* An image under construction in either byte order. */
struct img {
	uint8_t *b;
	size_t n, cap;
	bool be;
};

static void img_init(struct img *m, bool be)
{
	memset(m, 0, sizeof(*m));
	m->cap = 1 << 18;
	m->b = calloc(1, m->cap);
	m->be = be;
}
static void put(struct img *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}
static void put16(struct img *m, uint16_t v) { v = m->be ? bswap_16(v) : v; put(m, &v, 2); }
static void put32(struct img *m, uint32_t v) { v = m->be ? bswap_32(v) : v; put(m, &v, 4); }
static void put64(struct img *m, uint64_t v) { v = m->be ? bswap_64(v) : v; put(m, &v, 8); }
static void set64(struct img *m, size_t off, uint64_t v)
{
	v = m->be ? bswap_64(v) : v;
	memcpy(m->b + off, &v, 8);
}
/* Start a record; rec_end() patches its size. */
static size_t rec_begin(struct img *m, uint32_t type, uint16_t misc)
{
	size_t at = m->n;

	put32(m, type);
	put16(m, misc);
	put16(m, 0);
	return at;
}
static void rec_end(struct img *m, size_t at)
{
	uint16_t size = (uint16_t)(m->n - at);

	size = m->be ? bswap_16(size) : size;
	memcpy(m->b + at + 6, &size, 2);
}

static uint8_t revbyte(uint8_t b)
{
	uint8_t r = 0;

	for (int i = 0; i < 8; i++)
		if (b & (1 << i))
			r |= (uint8_t)(1 << (7 - i));
	return r;
}

/* A 128-byte perf_event_attr (PERF_ATTR_SIZE_VER7) written field by field. */
static void put_attr(struct img *m, uint64_t config)
{
	struct perf_event_attr a = { 0 };
	uint64_t bits;

	a.sample_id_all = 1;
	a.disabled = 1;
	memcpy(&bits, (char *)&a + 40, 8);
	put32(m, PERF_TYPE_SOFTWARE);
	put32(m, PERF_ATTR_SIZE_VER7);
	put64(m, config);
	put64(m, 4000);        /* sample_period */
	put64(m, SAMPLE_TYPE);
	put64(m, 0);           /* read_format */
	if (m->be) {
		/* bitfields run from the other end: perf reverses the bits of each byte */
		uint8_t bytes[8];

		memcpy(bytes, &bits, 8);
		for (int i = 0; i < 8; i++)
			bytes[i] = revbyte(bytes[i]);
		put(m, bytes, 8);
	} else {
		put(m, &bits, 8);
	}
	put32(m, 1); put32(m, 0);               /* wakeup_events, bp_type */
	put64(m, 0); put64(m, 0); put64(m, 0);  /* config1, config2, branch_sample_type */
	put64(m, 0); put32(m, 0); put32(m, 1);  /* regs_user, stack_user, clockid */
	put64(m, 0); put32(m, 0); put16(m, 127); put16(m, 0);
	put32(m, 0); put32(m, 0); put64(m, 0);  /* aux_sample_size, reserved, sig_data */
}

static void put_trailer(struct img *m, uint32_t pid, uint64_t time, uint64_t id)
{
	put32(m, pid); put32(m, pid + 1);  /* TID */
	put64(m, time);                    /* TIME */
	put64(m, id);                      /* IDENTIFIER */
}

/* The data records: COMM, MMAP2, then samples of two events and a round marker. */
static int put_records(struct img *m)
{
	size_t at;
	int n = 0;

	at = rec_begin(m, PERF_RECORD_COMM, 0);
	put32(m, 1000); put32(m, 1001);
	put(m, "worker\0\0", 8);
	put_trailer(m, 1000, 5, 100);
	rec_end(m, at), n++;

	at = rec_begin(m, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(m, 1000); put32(m, 1001);
	put64(m, 0x400000); put64(m, 0x1000); put64(m, 0);
	put32(m, 8); put32(m, 1); put64(m, 1234); put64(m, 0);
	put32(m, 5); put32(m, 2);
	put(m, "/bin/worker\0\0\0\0\0", 16);
	put_trailer(m, 1000, 6, 100);
	rec_end(m, at), n++;

	for (int i = 0; i < NR_SAMPLES; i++) {
		at = rec_begin(m, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(m, i % 2 ? 200 : 100);        /* identifier: both events */
		put64(m, 0x401000 + (uint64_t)i);   /* ip */
		put32(m, 1000); put32(m, 1001);
		put64(m, 10 + (uint64_t)i);         /* time */
		put64(m, 4000);                     /* period */
		put64(m, 2); put64(m, 0x401000 + (uint64_t)i); put64(m, 0x402000);
		put32(m, 4); put(m, "RAW!", 4);     /* raw stays in file order */
		rec_end(m, at), n++;
		if (i == NR_SAMPLES / 2) {
			at = rec_begin(m, XPF_RECORD_FINISHED_ROUND, 0);
			rec_end(m, at), n++;
		}
	}
	return n;
}

enum comp { COMP_NONE, COMP_81, COMP_83 };

/* Pack plain records into COMPRESSED records of `chunk` input bytes each, so records
 * straddle; a FINISHED_ROUND goes between compressed records, as perf writes them. */
static int put_compressed(struct img *m, const struct img *plain, enum comp kind, size_t chunk,
			  int *nr_outer)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	uint8_t out[4096];
	int outer = 0;

	for (size_t off = 0; off < plain->n; off += chunk) {
		size_t len = plain->n - off < chunk ? plain->n - off : chunk;
		ZSTD_inBuffer in = { plain->b + off, len, 0 };
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };
		size_t at;

		/* perf ends a frame per record; flush-only keeps one frame across records */
		if (ZSTD_isError(ZSTD_compressStream2(cc, &ob, &in, off % (3 * chunk) ? ZSTD_e_flush : ZSTD_e_end)))
			return -1;
		at = rec_begin(m, kind == COMP_81 ? XPF_RECORD_COMPRESSED : XPF_RECORD_COMPRESSED2, 0);
		if (kind == COMP_83)
			put64(m, ob.pos);
		put(m, out, ob.pos);
		while (kind == COMP_83 && (m->n - at) % 8)
			m->b[m->n++] = 0;
		rec_end(m, at);
		at = rec_begin(m, XPF_RECORD_FINISHED_ROUND, 0);
		rec_end(m, at);
		outer += 2;
	}
	ZSTD_freeCCtx(cc);
	*nr_outer = outer;
	return 0;
}

struct layout {
	size_t data_off, data_size, first_rec;
	int nr_records;   /* records a reader returns */
	int nr_inner;     /* of which unpacked from compressed records */
};

/* A complete file image: header, 2 attrs, ids, data, HOSTNAME feature. */
static void build_file(struct img *m, bool be, enum comp comp, size_t chunk, struct layout *lo)
{
	size_t ids_off, attrs_off, table;
	int n;

	img_init(m, be);
	put64(m, 0x32454c4946524550ULL); /* "PERFILE2": put64 writes it in the chosen order */
	put64(m, 104);
	put64(m, PERF_ATTR_SIZE_VER7 + 16);
	for (int i = 0; i < 10; i++)
		put64(m, 0);
	ids_off = m->n;
	put64(m, 100); put64(m, 101); put64(m, 200);
	attrs_off = m->n;
	put_attr(m, PERF_COUNT_SW_CPU_CLOCK);
	put64(m, ids_off); put64(m, 16);
	put_attr(m, PERF_COUNT_SW_PAGE_FAULTS);
	put64(m, ids_off + 16); put64(m, 8);
	lo->data_off = m->n;
	if (comp == COMP_NONE) {
		n = put_records(m);
		lo->nr_records = n;
		lo->nr_inner = 0;
	} else {
		struct img plain;
		int outer;

		img_init(&plain, be);
		n = put_records(&plain);
		put_compressed(m, &plain, comp, chunk, &outer);
		free(plain.b);
		lo->nr_records = n + outer;
		lo->nr_inner = n;
	}
	lo->data_size = m->n - lo->data_off;
	/* feature table, then the HOSTNAME string: u32 len (padded to 64) + bytes */
	table = m->n;
	put64(m, table + 16);
	put64(m, 4 + 64);
	put32(m, 64);
	char host[64] = "testhost";
	put(m, host, 64);
	set64(m, 24, attrs_off);
	set64(m, 32, 2 * (PERF_ATTR_SIZE_VER7 + 16));
	set64(m, 40, lo->data_off);
	set64(m, 48, lo->data_size);
	set64(m, 72, 1ULL << XPF_FEAT_HOSTNAME);
}

struct counts {
	int total, samples, comm, mmap2, rounds, compressed, inner;
	uint64_t first_inner_off;
	int ret;
};

/* Read everything; check each sample decodes to what put_records wrote. */
static void read_all(xpf_reader *r, struct counts *c)
{
	struct xpf_record rec;
	struct xb_error err = { 0 };
	int i = 0;

	memset(c, 0, sizeof(*c));
	while ((c->ret = xpf_reader_next(r, &rec, &err)) == 1) {
		c->total++;
		if (rec.from_compressed && !c->inner++)
			c->first_inner_off = rec.file_offset;
		switch (rec.hdr->type) {
		case PERF_RECORD_SAMPLE: {
			struct xpf_sample s;
			const struct xpf_attr *a = xpf_reader_attr_of(r, rec.hdr);

			if (xpf_reader_decode_sample(r, rec.hdr, &s, &err)) {
				UNIT_FAIL("decode: %s", err.msg);
				return;
			}
			CHECK_EQ_U64(s.ip, 0x401000 + (uint64_t)i);
			CHECK_EQ_U64(s.pid, 1000);
			CHECK_EQ_U64(s.tid, 1001);
			CHECK_EQ_U64(s.time, 10 + (uint64_t)i);
			CHECK_EQ_U64(s.period, 4000);
			CHECK_EQ_U64(s.callchain.nr, 2);
			CHECK_EQ_U64(s.callchain.ips[1], 0x402000);
			CHECK_EQ_U64(s.raw.size, 4);
			CHECK(s.raw.data && !memcmp(s.raw.data, "RAW!", 4));
			CHECK_EQ_U64(s.id, i % 2 ? 200 : 100);
			CHECK(a == xpf_reader_attr(r, i % 2));
			i++;
			c->samples++;
			break;
		}
		case PERF_RECORD_COMM: {
			struct xpf_sample s;
			const struct xpf_attr *a = xpf_reader_attr_of(r, rec.hdr);

			c->comm++;
			CHECK(a == xpf_reader_attr(r, 0));
			CHECK(a && xpf_sample_id_decode(&a->attr, rec.hdr, &s, &err) == 0);
			CHECK_EQ_U64(s.pid, 1000);
			CHECK_EQ_U64(s.tid, 1001);
			CHECK_EQ_U64(s.time, 5);
			CHECK_STR((const char *)rec.hdr + 16, "worker");
			break;
		}
		case PERF_RECORD_MMAP2: {
			const uint64_t *w = (const uint64_t *)(const void *)rec.hdr;

			c->mmap2++;
			CHECK_EQ_U64(w[2], 0x400000);
			CHECK_EQ_U64(w[6], 1234); /* ino */
			CHECK_STR((const char *)rec.hdr + 72, "/bin/worker");
			break;
		}
		case XPF_RECORD_FINISHED_ROUND:
			c->rounds++;
			break;
		case XPF_RECORD_COMPRESSED:
		case XPF_RECORD_COMPRESSED2:
			c->compressed++;
			break;
		}
	}
	if (c->ret < 0)
		UNIT_FAIL("next: %s", err.msg);
}

static void check_file(bool be, enum comp comp, size_t chunk)
{
	struct img m;
	struct layout lo;
	struct counts c;
	xpf_reader *r;
	struct xb_error err = { 0 };

	build_file(&m, be, comp, chunk, &lo);
	if (xpf_reader_open_mem(&r, m.b, m.n, "test.data", &err)) {
		UNIT_FAIL("open: %s", err.msg);
		free(m.b);
		return;
	}
	const struct xpf_header_info *hi = xpf_reader_header(r);
	CHECK(hi->swapped == be);
	CHECK(!hi->pipe);
	CHECK_EQ_U64(hi->data.offset, lo.data_off);
	CHECK_EQ_U64(xpf_reader_nr_attrs(r), 2);
	const struct xpf_attr *a0 = xpf_reader_attr(r, 0), *a1 = xpf_reader_attr(r, 1);
	REQUIRE(a0 && a1);
	CHECK_EQ_U64(a0->attr.sample_type, SAMPLE_TYPE);
	CHECK_EQ_U64(a0->attr.sample_id_all, 1);
	CHECK_EQ_U64(a0->attr.disabled, 1);
	CHECK_EQ_U64(a0->attr.inherit, 0);
	CHECK_EQ_U64(a0->attr.size, PERF_ATTR_SIZE_VER7);
	CHECK_EQ_U64(a0->attr.sample_max_stack, 127);
	CHECK_EQ_U64(a1->attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	CHECK_EQ_U64(a0->nr_ids, 2);
	CHECK_EQ_U64(a0->ids[1], 101);
	CHECK(xpf_reader_attr_by_id(r, 200) == a1);
	CHECK(xpf_reader_attr_by_id(r, 999) == NULL);
	CHECK(xpf_features_has(xpf_reader_features(r), XPF_FEAT_HOSTNAME));
	CHECK_STR(xpf_reader_features(r)->hostname, "testhost");

	read_all(r, &c);
	CHECK_EQ_U64(c.ret, 0);
	CHECK_EQ_U64(c.total, lo.nr_records);
	CHECK_EQ_U64(c.samples, NR_SAMPLES);
	CHECK_EQ_U64(c.comm, 1);
	CHECK_EQ_U64(c.mmap2, 1);
	CHECK_EQ_U64(c.inner, lo.nr_inner);
	if (comp != COMP_NONE) {
		CHECK(c.compressed >= 1);
		CHECK_EQ_U64(c.first_inner_off, lo.data_off);
	}
	CHECK(xpf_reader_warning(r) == NULL);
	xpf_reader_close(r);
	free(m.b);
}

static void test_plain_native(void) { check_file(false, COMP_NONE, 0); }
static void test_plain_swapped(void) { check_file(true, COMP_NONE, 0); }
static void test_compressed_straddling(void) { check_file(false, COMP_81, 37); }
static void test_compressed_swapped(void) { check_file(true, COMP_81, 100); }
static void test_compressed2(void) { check_file(false, COMP_83, 64); }
static void test_compressed_one_chunk(void) { check_file(false, COMP_81, 60000); }

static void test_data_size_zero(void)
{
	struct img m;
	struct layout lo;
	struct counts c;
	xpf_reader *r;
	struct xb_error err = { 0 };

	build_file(&m, false, COMP_NONE, 0, &lo);
	set64(&m, 48, 0);
	m.n = lo.data_off + lo.data_size; /* a killed recorder wrote no features */
	REQUIRE(xpf_reader_open_mem(&r, m.b, m.n, "test.data", &err) == 0);
	read_all(r, &c);
	CHECK_EQ_U64(c.ret, 0);
	CHECK_EQ_U64(c.total, lo.nr_records);
	CHECK(xpf_reader_warning(r) != NULL);
	CHECK(strstr(xpf_reader_warning(r), "data size") != NULL);
	xpf_reader_close(r);
	free(m.b);
}

static void test_truncated_tail(void)
{
	struct img m;
	struct layout lo;
	struct counts c;
	xpf_reader *r;
	struct xb_error err = { 0 };

	/* cut in the middle of the last record: every record before it is read */
	build_file(&m, false, COMP_NONE, 0, &lo);
	REQUIRE(xpf_reader_open_mem(&r, m.b, lo.data_off + lo.data_size - 20, "test.data", &err) == 0);
	read_all(r, &c);
	CHECK_EQ_U64(c.ret, 0);
	CHECK_EQ_U64(c.total, lo.nr_records - 1);
	CHECK_EQ_U64(c.samples, NR_SAMPLES - 1);
	CHECK(xpf_reader_warning(r) != NULL);
	xpf_reader_close(r);

	/* the same with compressed data: the cut compressed record is dropped, one warning */
	free(m.b);
	build_file(&m, true, COMP_81, 50, &lo);
	REQUIRE(xpf_reader_open_mem(&r, m.b, lo.data_off + lo.data_size - 30, "test.data", &err) == 0);
	read_all(r, &c);
	CHECK_EQ_U64(c.ret, 0);
	CHECK(c.samples < NR_SAMPLES);
	CHECK(c.samples > NR_SAMPLES / 2);
	CHECK(xpf_reader_warning(r) != NULL);
	xpf_reader_close(r);
	free(m.b);
}

/* Open an image and expect an error whose message contains `want`, at open or while reading. */
static void expect_error(const struct img *m, const char *want)
{
	xpf_reader *r;
	struct xb_error err = { 0 };
	struct xpf_record rec;
	int ret = xpf_reader_open_mem(&r, m->b, m->n, "test.data", &err);

	if (!ret) {
		while ((ret = xpf_reader_next(r, &rec, &err)) == 1)
			;
		xpf_reader_close(r);
	}
	if (ret >= 0) {
		UNIT_FAIL("no error, expected \"%s\"", want);
		return;
	}
	CHECK(err.code == ret);
	if (!strstr(err.msg, want))
		UNIT_FAIL("message \"%s\" lacks \"%s\"", err.msg, want);
	CHECK(strncmp(err.msg, "test.data: ", 11) == 0);
	CHECK(strchr(err.msg, '\n') == NULL);
}

static void test_bad_headers(void)
{
	struct img m;
	struct layout lo;
	char want[128];

	build_file(&m, false, COMP_NONE, 0, &lo);
	uint8_t *orig = malloc(m.n);
	memcpy(orig, m.b, m.n);
#define RESET() memcpy(m.b, orig, m.n)

	m.b[0] = 'X';
	expect_error(&m, "bad magic 0x");
	RESET();
	set64(&m, 8, 100);
	expect_error(&m, "has size 100");
	RESET();
	set64(&m, 16, 0);
	expect_error(&m, "bad attr_size 0");
	RESET();
	set64(&m, 24, m.n - 8);
	expect_error(&m, "attr section");
	RESET();
	set64(&m, 40, 50);
	expect_error(&m, "data section offset 0x32");
	RESET();
	set64(&m, 64 + 8, 0); /* feature bits cleared: the table is not read */
	set64(&m, 72, 0xff);  /* eight features, more entries than the file holds */
	expect_error(&m, "feature");
	RESET();
	/* the first record's size becomes 0 */
	m.b[lo.data_off + 6] = 0;
	m.b[lo.data_off + 7] = 0;
	snprintf(want, sizeof(want), "test.data: record at offset 0x%zx has size 0", lo.data_off);
	expect_error(&m, want);
	RESET();
	/* the data section ends inside a record (the file goes on: no truncation) */
	set64(&m, 48, lo.data_size - 8);
	set64(&m, 72, 0);
	expect_error(&m, "overruns the data section");
	RESET();
	{
		struct img shortm = m;

		shortm.n = 10;
		expect_error(&shortm, "too short");
	}
	free(orig);
	free(m.b);
}

static void test_bad_zstd(void)
{
	struct img m;
	struct layout lo;
	char want[128];

	build_file(&m, false, COMP_81, 1000, &lo);
	/* garble the frame of the first compressed record */
	for (size_t i = 8; i < 40; i++)
		m.b[lo.data_off + i] ^= 0x5a;
	snprintf(want, sizeof(want), "compressed record at offset 0x%zx: zstd: ", lo.data_off);
	expect_error(&m, want);
	free(m.b);
}

/* A pipe stream: 16-byte header, HEADER_ATTR, HEADER_FEATURE, TRACING_DATA + payload, data. */
static void build_pipe(struct img *m, bool be, int *nr)
{
	size_t at;

	img_init(m, be);
	put64(m, 0x32454c4946524550ULL);
	put64(m, 16);
	for (int i = 0; i < 2; i++) {
		at = rec_begin(m, XPF_RECORD_HEADER_ATTR, 0);
		put_attr(m, i ? PERF_COUNT_SW_PAGE_FAULTS : PERF_COUNT_SW_CPU_CLOCK);
		if (i) {
			put64(m, 200);
		} else {
			put64(m, 100);
			put64(m, 101);
		}
		rec_end(m, at);
	}
	at = rec_begin(m, XPF_RECORD_HEADER_FEATURE, 0);
	put64(m, XPF_FEAT_HOSTNAME);
	put32(m, 64);
	char host[64] = "pipehost";
	put(m, host, 64);
	while ((m->n - at) % 8)
		m->b[m->n++] = 0;
	rec_end(m, at);
	at = rec_begin(m, XPF_RECORD_HEADER_TRACING_DATA, 0);
	put32(m, 13);
	put32(m, 0);
	rec_end(m, at);
	put(m, "tracing-data!\0\0\0", 16); /* 13 bytes padded to 16, not part of the record */
	*nr = 4 + put_records(m);
}

static void check_pipe_reader(xpf_reader *r, int nr)
{
	struct counts c;

	CHECK(xpf_reader_header(r)->pipe);
	read_all(r, &c);
	CHECK_EQ_U64(c.ret, 0);
	CHECK_EQ_U64(c.total, nr);
	CHECK_EQ_U64(c.samples, NR_SAMPLES);
	CHECK_EQ_U64(xpf_reader_nr_attrs(r), 2);
	CHECK(xpf_features_has(xpf_reader_features(r), XPF_FEAT_HOSTNAME));
	CHECK_STR(xpf_reader_features(r)->hostname, "pipehost");
	CHECK(xpf_reader_warning(r) == NULL);
}

static void test_pipe_mem(void)
{
	struct img m;
	xpf_reader *r;
	struct xb_error err = { 0 };
	struct xpf_record rec;
	int nr;

	for (int be = 0; be < 2; be++) {
		build_pipe(&m, be, &nr);
		REQUIRE(xpf_reader_open_mem(&r, m.b, m.n, "test.data", &err) == 0);
		CHECK_EQ_U64(xpf_reader_nr_attrs(r), 0); /* attrs come with the records */
		check_pipe_reader(r, nr);
		xpf_reader_close(r);

		/* the tracing data payload is handed out, not read as records */
		REQUIRE(xpf_reader_open_mem(&r, m.b, m.n, "test.data", &err) == 0);
		while (xpf_reader_next(r, &rec, &err) == 1)
			if (rec.hdr->type == XPF_RECORD_HEADER_TRACING_DATA)
				break;
		CHECK_EQ_U64(rec.extra_size, 16);
		CHECK(rec.extra && !memcmp(rec.extra, "tracing-data!", 13));
		xpf_reader_close(r);

		/* a stream cut inside a record ends with a warning */
		REQUIRE(xpf_reader_open_mem(&r, m.b, m.n - 5, "test.data", &err) == 0);
		while (xpf_reader_next(r, &rec, &err) == 1)
			;
		CHECK(xpf_reader_warning(r) != NULL);
		xpf_reader_close(r);
		free(m.b);
	}
}

/* A HEADER_FEATURE record carrying feature `bit` of f, as a pipe stream holds it. */
static void put_feature_record(struct img *m, const struct xpf_features *f, unsigned int bit)
{
	struct xb_error err = { 0 };
	void *payload;
	uint64_t size;
	size_t at;

	if (xpf_feature_encode(f, bit, &payload, &size, &err))
		return;
	at = rec_begin(m, XPF_RECORD_HEADER_FEATURE, 0);
	put64(m, bit);
	put(m, payload, size);
	while ((m->n - at) % 8)
		m->b[m->n++] = 0;
	rec_end(m, at);
	free(payload);
}

/*
 * A stream whose EVENT_DESC comes twice: the attrs keep the first names, which stay valid
 * as long as the reader (the second record once freed them under the views' feet), and the
 * repeat is named in the warning.
 */
static void test_pipe_feature_repeated(void)
{
	struct xpf_features f1 = { 0 }, f2 = { 0 };
	struct xb_error err = { 0 };
	struct xpf_record rec;
	const char *name0;
	struct img m;
	xpf_reader *r;
	uint64_t id0 = 100, id1 = 200;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr) };
	int nr;

	build_pipe(&m, false, &nr);
	/* the features go right after the two HEADER_ATTR records, so the attrs are named
	 * by the first before the second comes */
	struct img p;
	size_t cut = 16;

	for (int i = 0; i < 2; i++) {
		uint16_t size;

		memcpy(&size, m.b + cut + 6, 2);
		cut += size;
	}
	img_init(&p, false);
	put(&p, m.b, cut);
	REQUIRE(xpf_features_add_event_desc(&f1, &attr, "first-a", &id0, 1) == 0);
	REQUIRE(xpf_features_add_event_desc(&f1, &attr, "first-b", &id1, 1) == 0);
	REQUIRE(xpf_features_add_event_desc(&f2, &attr, "second-a", &id0, 1) == 0);
	REQUIRE(xpf_features_add_event_desc(&f2, &attr, "second-b", &id1, 1) == 0);
	put_feature_record(&p, &f1, XPF_FEAT_EVENT_DESC);
	put_feature_record(&p, &f2, XPF_FEAT_EVENT_DESC);
	put(&p, m.b + cut, m.n - cut);
	xpf_features_free(&f1);
	xpf_features_free(&f2);

	REQUIRE(xpf_reader_open_mem(&r, p.b, p.n, "twice.data", &err) == 0);
	while (xpf_reader_next(r, &rec, &err) == 1)
		if (rec.hdr->type == PERF_RECORD_SAMPLE)
			break;
	REQUIRE(xpf_reader_nr_attrs(r) == 2);
	name0 = xpf_reader_attr(r, 0)->name;
	CHECK_STR(name0, "first-a");
	CHECK_STR(xpf_reader_attr(r, 1)->name, "first-b");
	while (xpf_reader_next(r, &rec, &err) == 1)
		;
	CHECK_STR(xpf_reader_attr(r, 0)->name, "first-a");
	CHECK(xpf_reader_warning(r) && strstr(xpf_reader_warning(r), "repeats feature EVENT_DESC"));
	xpf_reader_close(r);
	free(p.b);
	free(m.b);
}

static void test_pipe_fd(void)
{
	struct img m;
	xpf_reader *r;
	struct xb_error err = { 0 };
	int fds[2], nr;

	build_pipe(&m, false, &nr);
	REQUIRE(m.n < 60000); /* fits in the pipe buffer, so no writer thread is needed */
	REQUIRE(pipe(fds) == 0);
	REQUIRE(write(fds[1], m.b, m.n) == (ssize_t)m.n);
	close(fds[1]);
	if (xpf_reader_open_fd(&r, fds[0], "-", &err)) {
		UNIT_FAIL("open: %s", err.msg);
		free(m.b);
		return;
	}
	check_pipe_reader(r, nr);
	xpf_reader_close(r);
	free(m.b);

	/* a full file image on a pipe is read whole, then as a file */
	struct layout lo;
	struct counts c;

	build_file(&m, false, COMP_81, 200, &lo);
	REQUIRE(pipe(fds) == 0);
	REQUIRE(write(fds[1], m.b, m.n) == (ssize_t)m.n);
	close(fds[1]);
	REQUIRE(xpf_reader_open_fd(&r, fds[0], "-", &err) == 0);
	read_all(r, &c);
	CHECK_EQ_U64(c.total, lo.nr_records);
	xpf_reader_close(r);
	free(m.b);
}

/*
 * A stream record that claims a 2 GiB payload and ends: the buffer grows with the bytes
 * that arrive, not with the claim, so the cut is a warning, not a failed 2 GiB allocation.
 * Run in a child under a 1 GiB address-space limit (not under ASan, whose shadow needs more).
 */
static void test_pipe_claim_unbacked(void)
{
#if defined(__SANITIZE_ADDRESS__)
	UNIT_SKIP("ASan reserves more address space than the limit this needs");
#else
	struct img m;
	size_t at;
	int fds[2], status;
	pid_t pid;

	img_init(&m, false);
	put64(&m, 0x32454c4946524550ULL);
	put64(&m, 16);
	at = rec_begin(&m, XPF_RECORD_HEADER_TRACING_DATA, 0);
	put32(&m, 0x7ff00000);
	put32(&m, 0);
	rec_end(&m, at);
	REQUIRE(pipe(fds) == 0);
	fflush(stdout);
	/* a writer sends the header and 4 MiB of the payload, more than the buffer's first
	 * room, so it must grow, then the stream ends */
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		static char zeros[1 << 16];

		close(fds[0]);
		if (write(fds[1], m.b, m.n) != (ssize_t)m.n)
			_exit(1);
		for (int i = 0; i < 64; i++)
			if (write(fds[1], zeros, sizeof(zeros)) != (ssize_t)sizeof(zeros))
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	free(m.b);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 1u << 30, 1u << 30 };
		struct xb_error err = { 0 };
		struct xpf_record rec;
		xpf_reader *r;
		int ret;

		setrlimit(RLIMIT_AS, &rl);
		if (xpf_reader_open_fd(&r, fds[0], "-", &err))
			_exit(3);
		while ((ret = xpf_reader_next(r, &rec, &err)) == 1)
			;
		_exit(ret == 0 && xpf_reader_warning(r) ? 0 : ret == -ENOMEM ? 1 : 2);
	}
	close(fds[0]);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_U64(WEXITSTATUS(status), 0);
	while (waitpid(-1, NULL, 0) > 0)
		; /* the writer */
#endif
}

static void test_file_path(void)
{
	struct img m;
	struct layout lo;
	struct counts c;
	xpf_reader *r;
	struct xb_error err = { 0 };
	char path[] = "/tmp/xperf-test-reader-XXXXXX";
	int fd = mkstemp(path);

	REQUIRE(fd >= 0);
	build_file(&m, false, COMP_81, 300, &lo);
	REQUIRE(write(fd, m.b, m.n) == (ssize_t)m.n);
	close(fd);
	if (xpf_reader_open(&r, path, &err) == 0) {
		read_all(r, &c);
		CHECK_EQ_U64(c.total, lo.nr_records);
		CHECK_EQ_U64(xpf_reader_header(r)->file_size, m.n);
		xpf_reader_close(r);
	} else {
		UNIT_FAIL("open: %s", err.msg);
	}
	unlink(path);
	CHECK(xpf_reader_open(&r, path, &err) == -ENOENT);
	CHECK(strstr(err.msg, path) != NULL);
	free(m.b);
}

/*
 * A pipe stream image whose COMPRESSED records inflate to `mib` MiB of FINISHED_ROUND
 * records: a few KiB that zstd makes into as much as asked (a decompression bomb).
 */
static void build_bomb(struct img *m, unsigned int mib)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	static uint8_t plain[1 << 16], out[1 << 16];

	for (size_t i = 0; i < sizeof(plain); i += 8) {
		struct perf_event_header h = { XPF_RECORD_FINISHED_ROUND, 0, 8 };

		memcpy(plain + i, &h, 8);
	}
	img_init(m, false);
	put64(m, 0x32454c4946524550ULL);
	put64(m, 16);
	for (unsigned int i = 0; i < mib * 16; i++) {
		ZSTD_inBuffer in = { plain, sizeof(plain), 0 };
		ZSTD_outBuffer ob = { out, sizeof(out), 0 };
		size_t at;

		while (in.pos < in.size)
			if (ZSTD_isError(ZSTD_compressStream2(cc, &ob, &in, ZSTD_e_continue)))
				break;
		if (i + 1 == mib * 16)
			ZSTD_compressStream2(cc, &ob, &in, ZSTD_e_end);
		if (!ob.pos)
			continue;
		if (m->n + ob.pos + 8 > m->cap)
			break; /* the caller's REQUIRE on the ratio fails */
		at = rec_begin(m, XPF_RECORD_COMPRESSED, 0);
		put(m, out, ob.pos);
		rec_end(m, at);
	}
	ZSTD_freeCCtx(cc);
}

/*
 * Compressed data that inflates past XPF_INFLATE_FREE at more than XPF_INFLATE_RATIO_MAX
 * times is refused at the record that crosses the line, naming its offset; below the line,
 * however well it compresses, it is read whole.
 */
static void test_inflation_bound(void)
{
	struct xb_error err = { 0 };
	struct xpf_record rec;
	struct img m;
	xpf_reader *r;
	uint64_t bytes = 0;
	int ret;

	build_bomb(&m, 32);
	REQUIRE(m.n < (32u << 20) / XPF_INFLATE_RATIO_MAX); /* the test needs a bomb */
	REQUIRE(xpf_reader_open_mem(&r, m.b, m.n, "small.data", &err) == 0);
	while ((ret = xpf_reader_next(r, &rec, &err)) == 1)
		if (rec.from_compressed)
			bytes += rec.hdr->size;
	CHECK_EQ_U64(ret, 0);
	CHECK_EQ_U64(bytes, 32u << 20);
	xpf_reader_close(r);
	free(m.b);

	build_bomb(&m, 256);
	REQUIRE(m.n < (256u << 20) / XPF_INFLATE_RATIO_MAX / 2);
	REQUIRE(xpf_reader_open_mem(&r, m.b, m.n, "bomb.data", &err) == 0);
	bytes = 0;
	while ((ret = xpf_reader_next(r, &rec, &err)) == 1)
		if (rec.from_compressed)
			bytes += rec.hdr->size;
	CHECK(ret == -EINVAL);
	CHECK(bytes <= XPF_INFLATE_FREE);
	CHECK(strstr(err.msg, "bomb.data: compressed record at offset 0x") != NULL);
	CHECK(strstr(err.msg, "2048 times") != NULL);
	xpf_reader_close(r);
	free(m.b);
}

/* Damage at every position must give an error or a clean end, never a crash or a hang. */
static void test_mutations(void)
{
	struct img m;
	struct layout lo;
	uint32_t seed = 12345;

	for (int kind = 0; kind < 2; kind++) {
		build_file(&m, kind, kind ? COMP_81 : COMP_NONE, 90, &lo);
		uint8_t *copy = malloc(m.n);

		for (int iter = 0; iter < 1500; iter++) {
			xpf_reader *r;
			struct xb_error err;
			struct xpf_record rec;
			struct xpf_sample s;
			int steps = 0;

			memcpy(copy, m.b, m.n);
			for (int k = 0; k < 1 + iter % 4; k++) {
				seed = seed * 1103515245 + 12345;
				copy[(seed >> 8) % m.n] = (uint8_t)(seed >> 3);
			}
			if (xpf_reader_open_mem(&r, copy, m.n, "fuzz", &err))
				continue;
			while (xpf_reader_next(r, &rec, &err) == 1 && steps++ < 100000)
				if (rec.hdr->type == PERF_RECORD_SAMPLE)
					xpf_reader_decode_sample(r, rec.hdr, &s, &err);
			CHECK(steps < 100000);
			xpf_reader_close(r);
		}
		free(copy);
		free(m.b);
	}
}

int main(void)
{
	RUN(test_plain_native);
	RUN(test_plain_swapped);
	RUN(test_compressed_straddling);
	RUN(test_compressed_swapped);
	RUN(test_compressed2);
	RUN(test_compressed_one_chunk);
	RUN(test_data_size_zero);
	RUN(test_truncated_tail);
	RUN(test_bad_headers);
	RUN(test_bad_zstd);
	RUN(test_pipe_mem);
	RUN(test_pipe_fd);
	RUN(test_pipe_feature_repeated);
	RUN(test_pipe_claim_unbacked);
	RUN(test_file_path);
	RUN(test_inflation_bound);
	RUN(test_mutations);
	UNIT_MAIN_END();
}
