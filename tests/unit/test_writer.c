/* Unit tests of the perf.data writer: the bytes it writes, parsed by hand, in every mode. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "format/xpf_reader.h"
#include "format/xpf_writer.h"
#include "unit.h"

#define TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

static void bytes_put(struct bytes *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static char tmpl[64];

static const char *tmpfile_name(void)
{
	snprintf(tmpl, sizeof(tmpl), "/tmp/xpf-test-writer.%d", (int)getpid());
	return tmpl;
}

static struct bytes slurp(const char *path)
{
	struct bytes b = { 0 };
	uint8_t buf[65536];
	ssize_t r;
	int fd = open(path, O_RDONLY);

	while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
		bytes_put(&b, buf, (size_t)r);
	if (fd >= 0)
		close(fd);
	return b;
}

static void attr_init(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_type = TYPE;
	a->sample_period = 1000;
}

/*
 * One sample: identifier, ip, pid/tid, time, then `extra` bytes of noise (a body only we
 * give meaning to) so the data can be made hard to compress.
 */
static void make_sample(uint8_t *buf, uint64_t id, uint64_t time, size_t extra, unsigned *seed)
{
	struct perf_event_header *h = (void *)buf;
	uint64_t *u = (uint64_t *)(buf + 8);

	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(8 + 32 + extra);
	u[0] = id;
	u[1] = 0x401000 + time % 77;
	u[2] = 42 | (42ull << 32);
	u[3] = time;
	for (size_t i = 0; i < extra; i++)
		buf[40 + i] = (uint8_t)(rand_r(seed) & 0xff);
}

/* What the data section of a file holds, decompressed and flattened. */
struct parsed {
	struct bytes logical;      /* every record, COMPRESSED ones replaced by their content */
	unsigned nr_compressed, nr_plain;
	size_t max_decomp, min_decomp, max_comp_rec;
	int bad;                   /* a record walk or zstd error */
};

static void parse_records(const uint8_t *p, size_t len, struct parsed *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	uint8_t *dbuf = malloc(1 << 20);
	size_t at = 0;

	ZSTD_initDStream(ds);
	out->min_decomp = SIZE_MAX;
	while (at + 8 <= len) {
		/* COMPRESSED records have any size, so what follows them may be unaligned */
		struct perf_event_header hh, *h = &hh;

		memcpy(&hh, p + at, sizeof(hh));

		if (h->size < 8 || at + h->size > len) {
			out->bad = 1;
			break;
		}
		if (h->type == XPF_RECORD_COMPRESSED) {
			ZSTD_inBuffer in = { p + at + 8, h->size - 8u, 0 };
			size_t got = 0;

			while (in.pos < in.size) {
				ZSTD_outBuffer o = { dbuf, 1 << 20, 0 };
				size_t r = ZSTD_decompressStream(ds, &o, &in);

				if (ZSTD_isError(r)) {
					out->bad = 2;
					break;
				}
				bytes_put(&out->logical, dbuf, o.pos);
				got += o.pos;
			}
			out->nr_compressed++;
			if (got > out->max_decomp)
				out->max_decomp = got;
			if (got < out->min_decomp)
				out->min_decomp = got;
			if (h->size > out->max_comp_rec)
				out->max_comp_rec = h->size;
		} else {
			bytes_put(&out->logical, p + at, h->size);
			out->nr_plain++;
		}
		at += h->size;
	}
	if (at != len)
		out->bad = 3;
	ZSTD_freeDStream(ds);
	free(dbuf);
}

struct fileview {
	struct bytes raw;
	struct xpf_file_header h;
	struct xpf_features feat;
	uint64_t feat_end;         /* end of the last feature payload */
	int bad;
};

/* Header and feature table of a file, checked on the way. */
static void parse_file(const char *path, struct fileview *v)
{
	unsigned n = 0;

	memset(v, 0, sizeof(*v));
	v->raw = slurp(path);
	if (v->raw.len < sizeof(v->h)) {
		v->bad = 1;
		return;
	}
	memcpy(&v->h, v->raw.p, sizeof(v->h));
	for (unsigned bit = 0; bit < XPF_FEAT_BITS; bit++) {
		struct xpf_file_section s;
		uint64_t at = v->h.data.offset + v->h.data.size + n * sizeof(s);
		struct xb_error err;

		if (!((v->h.adds_features[bit / 64] >> (bit % 64)) & 1))
			continue;
		n++;
		if (at + sizeof(s) > v->raw.len) {
			v->bad = 2;
			return;
		}
		memcpy(&s, v->raw.p + at, sizeof(s));
		if (s.offset + s.size > v->feat_end)
			v->feat_end = s.offset + s.size;
		if (s.offset + s.size > v->raw.len ||
		    xpf_feature_decode(&v->feat, bit, v->raw.p + s.offset, s.size, false, s.offset,
				       &err)) {
			v->bad = 3;
			return;
		}
	}
}

static void fileview_free(struct fileview *v)
{
	free(v->raw.p);
	xpf_features_free(&v->feat);
}

/* Write `nr` samples for two events in rounds of `per_round`; expected stream into exp. */
static int write_file(xpf_writer *w, unsigned nr, size_t extra, unsigned per_round,
		      struct bytes *exp,
		      uint64_t *tmin, uint64_t *tmax)
{
	struct perf_event_attr a, b;
	uint64_t ids_a[2] = { 7, 8 }, ids_b[1] = { 9 };
	struct perf_event_header fr = { .type = XPF_RECORD_FINISHED_ROUND, .size = 8 };
	uint8_t buf[2048];
	unsigned seed = 1;
	struct xb_error err;

	attr_init(&a, PERF_COUNT_SW_CPU_CLOCK);
	attr_init(&b, PERF_COUNT_SW_TASK_CLOCK);
	if (xpf_writer_add_attr(w, &a, ids_a, 2, "cpu-clock", &err) ||
	    xpf_writer_add_attr(w, &b, ids_b, 1, "task-clock", &err))
		return -1;
	*tmin = UINT64_MAX;
	*tmax = 0;
	for (unsigned i = 0; i < nr; i++) {
		uint64_t t = 1000000 + (uint64_t)(i * 7919) % 100000;

		make_sample(buf, i % 2 ? 9 : 7, t, extra, &seed);
		if (xpf_writer_write(w, (void *)buf, &err))
			return -1;
		bytes_put(exp, buf, ((struct perf_event_header *)buf)->size);
		*tmin = t < *tmin ? t : *tmin;
		*tmax = t > *tmax ? t : *tmax;
		if (i % per_round == per_round - 1) {
			if (xpf_writer_finished_round(w, &err))
				return -1;
			bytes_put(exp, &fr, sizeof(fr));
		}
	}
	return xpf_writer_close(w, &err);
}

static void check_file(int level, unsigned nr, size_t extra, unsigned per_round)
{
	struct xpf_writer_opts opts = { .compress_level = level };
	struct bytes exp = { 0 };
	struct parsed d = { 0 };
	struct fileview v;
	xpf_writer *w;
	uint64_t tmin, tmax;
	struct perf_event_attr at;
	struct xpf_file_section ids;

	REQUIRE(xpf_writer_open(&w, tmpfile_name(), &opts, NULL) == 0);
	REQUIRE(write_file(w, nr, extra, per_round, &exp, &tmin, &tmax) == 0);
	parse_file(tmpfile_name(), &v);
	REQUIRE(!v.bad);
	CHECK_EQ_U64(v.h.magic, XPF_MAGIC);
	CHECK_EQ_U64(v.feat_end, v.raw.len);
	CHECK_EQ_U64(v.h.size, 104);
	CHECK_EQ_U64(v.h.attr_size, sizeof(struct perf_event_attr) + 16);
	CHECK_EQ_U64(v.h.attrs.size, 2 * v.h.attr_size);
	CHECK_EQ_U64(v.h.data.offset, v.h.attrs.offset + v.h.attrs.size);
	/* second attr entry: task-clock, one id (9), sample_id_all forced */
	memcpy(&at, v.raw.p + v.h.attrs.offset + v.h.attr_size, sizeof(at));
	memcpy(&ids, v.raw.p + v.h.attrs.offset + 2 * v.h.attr_size - 16, sizeof(ids));
	CHECK_EQ_U64(at.config, PERF_COUNT_SW_TASK_CLOCK);
	CHECK(at.sample_id_all);
	CHECK_EQ_U64(at.size, sizeof(at));
	REQUIRE(ids.size == 8 && ids.offset + 8 <= v.raw.len);
	CHECK_EQ_U64(*(uint64_t *)(v.raw.p + ids.offset), 9);

	REQUIRE(v.h.data.offset + v.h.data.size <= v.raw.len);
	parse_records(v.raw.p + v.h.data.offset, v.h.data.size, &d);
	CHECK(!d.bad);
	CHECK_EQ_U64(d.logical.len, exp.len);
	CHECK(d.logical.len == exp.len && memcmp(d.logical.p, exp.p, exp.len) == 0);

	CHECK(xpf_features_has(&v.feat, XPF_FEAT_HOSTNAME));
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_NRCPUS) && v.feat.nr_cpus_online > 0);
	REQUIRE(xpf_features_has(&v.feat, XPF_FEAT_EVENT_DESC) && v.feat.nr_event_desc == 2);
	CHECK_STR(v.feat.event_desc[1].name, "task-clock");
	CHECK_EQ_U64(v.feat.event_desc[0].nr_ids, 2);
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_SAMPLE_TIME));
	CHECK_EQ_U64(v.feat.sample_time_first, tmin);
	CHECK_EQ_U64(v.feat.sample_time_last, tmax);
	if (level) {
		REQUIRE(xpf_features_has(&v.feat, XPF_FEAT_COMPRESSED));
		CHECK_EQ_U64(v.feat.compressed.type, XPF_COMP_ZSTD);
		CHECK_EQ_U64(v.feat.compressed.level, level);
		CHECK(d.nr_compressed > 0);
		/* perf sizes its decompression buffer from mmap_len; an empty result is fatal */
		CHECK(d.max_decomp <= v.feat.compressed.mmap_len);
		CHECK(d.min_decomp > 0);
		CHECK(d.max_comp_rec <= XPF_COMPRESSED_RECORD_MAX);
		/* FINISHED_ROUND stays outside the compressed records, as perf writes it */
		CHECK_EQ_U64(d.nr_plain, nr / per_round);
	} else {
		CHECK(!xpf_features_has(&v.feat, XPF_FEAT_COMPRESSED));
		CHECK_EQ_U64(d.nr_compressed, 0);
	}
	fileview_free(&v);
	free(d.logical.p);
	free(exp.p);
	unlink(tmpfile_name());
}

static void file_plain(void)
{
	check_file(0, 1000, 0, 50);
}

static void file_compressed(void)
{
	check_file(1, 1000, 0, 50);
}

/*
 * Noise makes each round (77 KB) need two COMPRESSED records with a sample straddling them;
 * rounds of 4000 samples (6 MB) also pass the writer's 4 MB flush point between rounds.
 */
static void file_compressed_incompressible(void)
{
	check_file(3, 1000, 1500, 50);
	check_file(1, 4000, 1500, 4000);
}

static void pipe_structure(void)
{
	struct xpf_writer_opts opts = { .compress_level = 1 };
	struct bytes exp = { 0 };
	struct parsed d = { 0 };
	struct bytes raw;
	xpf_writer *w;
	uint64_t tmin, tmax, feats[40] = { 0 };
	size_t at = 16;
	unsigned nattr = 0, nfeat = 0;
	int fd = open(tmpfile_name(), O_WRONLY | O_CREAT | O_TRUNC, 0600);

	REQUIRE(fd >= 0);
	REQUIRE(xpf_writer_open_fd(&w, fd, true, &opts, NULL) == 0);
	REQUIRE(write_file(w, 200, 0, 50, &exp, &tmin, &tmax) == 0);
	raw = slurp(tmpfile_name());
	REQUIRE(raw.len > 16);
	CHECK_EQ_U64(((uint64_t *)raw.p)[0], XPF_MAGIC);
	CHECK_EQ_U64(((uint64_t *)raw.p)[1], 16);
	/* attrs, then features ending with the LAST_FEATURE marker, then the data */
	while (at + 8 <= raw.len) {
		struct perf_event_header *h = (void *)(raw.p + at);

		if (h->type == XPF_RECORD_HEADER_ATTR) {
			struct perf_event_attr *a = (void *)(raw.p + at + 8);

			CHECK_EQ_U64(nfeat, 0);
			CHECK_EQ_U64(h->size, 8 + sizeof(*a) + 8 * (nattr ? 1 : 2));
			CHECK(a->sample_id_all);
			nattr++;
		} else if (h->type == XPF_RECORD_HEADER_FEATURE) {
			uint64_t id;

			/* perf leaves feature records unpadded (COMPRESSED: 36 bytes) */
			memcpy(&id, raw.p + at + 8, 8);

			if (id < 40)
				feats[id]++;
			nfeat++;
			if (id == XPF_FEAT_LAST_KNOWN) {
				at += h->size;
				break;
			}
		} else {
			break;
		}
		at += h->size;
	}
	CHECK_EQ_U64(nattr, 2);
	CHECK_EQ_U64(feats[XPF_FEAT_LAST_KNOWN], 1);
	CHECK_EQ_U64(feats[XPF_FEAT_HOSTNAME], 1);
	CHECK_EQ_U64(feats[XPF_FEAT_NRCPUS], 1);
	CHECK_EQ_U64(feats[XPF_FEAT_EVENT_DESC], 1);
	CHECK_EQ_U64(feats[XPF_FEAT_COMPRESSED], 1);
	parse_records(raw.p + at, raw.len - at, &d);
	CHECK(!d.bad);
	CHECK(d.nr_compressed > 0);
	CHECK(d.logical.len == exp.len && memcmp(d.logical.p, exp.p, exp.len) == 0);
	free(raw.p);
	free(d.logical.p);
	free(exp.p);
	unlink(tmpfile_name());
}

/* After finished_round the header already describes every byte written: kill-safe. */
static void rounds_are_durable(void)
{
	struct xpf_writer_opts opts = { .compress_level = 1 };
	struct perf_event_attr a;
	uint64_t id = 5;
	uint8_t buf[256];
	unsigned seed = 3;
	struct xpf_file_header h;
	struct fileview v;
	struct parsed d = { 0 };
	xpf_writer *w;

	attr_init(&a, 0);
	REQUIRE(xpf_writer_open(&w, tmpfile_name(), &opts, NULL) == 0);
	REQUIRE(xpf_writer_add_attr(w, &a, &id, 1, "cpu-clock", NULL) == 0);
	for (int i = 0; i < 300; i++) {
		make_sample(buf, 5, (uint64_t)i, 16, &seed);
		REQUIRE(xpf_writer_write(w, (void *)buf, NULL) == 0);
	}
	REQUIRE(xpf_writer_finished_round(w, NULL) == 0);
	/* more records, not yet a round: they may sit in memory */
	for (int i = 0; i < 10; i++) {
		make_sample(buf, 5, (uint64_t)(1000 + i), 16, &seed);
		REQUIRE(xpf_writer_write(w, (void *)buf, NULL) == 0);
	}
	/* as a killed writer leaves it: data up to the round, features after it */
	parse_file(tmpfile_name(), &v);
	REQUIRE(!v.bad);
	h = v.h;
	CHECK(h.data.size > 0);
	CHECK(h.data.offset + h.data.size < v.raw.len);
	CHECK_EQ_U64(h.attr_size, sizeof(a) + 16);
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_HOSTNAME));
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_COMPRESSED));
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_SAMPLE_TIME));
	CHECK_EQ_U64(v.feat.sample_time_last, 299);
	parse_records(v.raw.p + h.data.offset, h.data.size, &d);
	CHECK(!d.bad);
	CHECK_EQ_U64(d.logical.len, 300 * (8 + 32 + 16) + 8);
	fileview_free(&v);
	/* the next round overwrites those features; close writes the final ones */
	REQUIRE(xpf_writer_finished_round(w, NULL) == 0);
	REQUIRE(xpf_writer_close(w, NULL) == 0);
	parse_file(tmpfile_name(), &v);
	REQUIRE(!v.bad);
	CHECK_EQ_U64(v.feat.sample_time_last, 1009);
	CHECK_EQ_U64(v.feat_end, v.raw.len);
	free(d.logical.p);
	memset(&d, 0, sizeof(d));
	parse_records(v.raw.p + v.h.data.offset, v.h.data.size, &d);
	CHECK(!d.bad);
	CHECK_EQ_U64(d.logical.len, 310 * (8 + 32 + 16) + 16);
	fileview_free(&v);
	free(d.logical.p);
	unlink(tmpfile_name());
}

/* Rounds rewrite only small features; close writes the big ones (TRACING_DATA) too. */
static void big_features_at_close(void)
{
	struct perf_event_attr a;
	struct xpf_features f = { 0 };
	uint64_t id = 5;
	uint8_t buf[128];
	unsigned seed = 1;
	static uint8_t tracing[200000];
	struct fileview v;
	xpf_writer *w;

	for (size_t i = 0; i < sizeof(tracing); i++)
		tracing[i] = (uint8_t)i;
	attr_init(&a, 0);
	REQUIRE(xpf_features_set_raw(&f, XPF_FEAT_TRACING_DATA, tracing, sizeof(tracing)) == 0);
	REQUIRE(xpf_writer_open(&w, tmpfile_name(), NULL, NULL) == 0);
	REQUIRE(xpf_writer_add_attr(w, &a, &id, 1, "cpu-clock", NULL) == 0);
	REQUIRE(xpf_writer_set_features(w, &f, NULL) == 0);
	make_sample(buf, 5, 1, 0, &seed);
	REQUIRE(xpf_writer_write(w, (void *)buf, NULL) == 0);
	REQUIRE(xpf_writer_finished_round(w, NULL) == 0);
	parse_file(tmpfile_name(), &v);
	CHECK(!v.bad);
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_HOSTNAME));
	CHECK(!xpf_features_has(&v.feat, XPF_FEAT_TRACING_DATA));
	fileview_free(&v);
	REQUIRE(xpf_writer_close(w, NULL) == 0);
	parse_file(tmpfile_name(), &v);
	CHECK(!v.bad);
	REQUIRE(xpf_features_has(&v.feat, XPF_FEAT_TRACING_DATA));
	CHECK_EQ_U64(v.feat.raw[XPF_FEAT_TRACING_DATA].size, sizeof(tracing));
	CHECK(memcmp(v.feat.raw[XPF_FEAT_TRACING_DATA].data, tracing, sizeof(tracing)) == 0);
	CHECK_EQ_U64(v.feat_end, v.raw.len);
	fileview_free(&v);
	xpf_features_free(&f);
	unlink(tmpfile_name());
}

static void attr_rules(void)
{
	struct perf_event_attr a, b;
	struct xb_error err = { 0 };
	xpf_writer *w;
	uint8_t buf[128];
	unsigned seed = 0;

	attr_init(&a, 0);
	attr_init(&b, 1);
	b.sample_type |= PERF_SAMPLE_CPU;
	REQUIRE(xpf_writer_open(&w, tmpfile_name(), NULL, NULL) == 0);
	CHECK(xpf_writer_add_attr(w, &a, NULL, 0, NULL, &err) == 0);
	CHECK(xpf_writer_add_attr(w, &b, NULL, 0, NULL, &err) == -EINVAL);
	CHECK(strstr(err.msg, "sample_type") != NULL);
	b.sample_type = a.sample_type;
	b.read_format = PERF_FORMAT_ID;
	CHECK(xpf_writer_add_attr(w, &b, NULL, 0, NULL, &err) == -EINVAL);
	make_sample(buf, 1, 1, 0, &seed);
	CHECK(xpf_writer_write(w, (void *)buf, &err) == 0);
	b.read_format = 0;
	CHECK(xpf_writer_add_attr(w, &b, NULL, 0, NULL, &err) == -EBUSY);
	((struct perf_event_header *)buf)->size = 4;
	CHECK(xpf_writer_write(w, (void *)buf, &err) == -EINVAL);
	CHECK(xpf_writer_close(w, &err) == 0);
	unlink(tmpfile_name());
}

static void no_space(void)
{
	struct xb_error err = { 0 };
	xpf_writer *w = NULL;
	int rc = xpf_writer_open(&w, "/dev/full", NULL, &err);

	CHECK_EQ_U64(-rc, ENOSPC);
	CHECK(w == NULL);
	CHECK(strstr(err.msg, "/dev/full") != NULL);
	CHECK(strstr(err.msg, strerror(ENOSPC)) != NULL);
	CHECK(xpf_writer_open(&w, "/nonexistent-dir/x", NULL, &err) == -ENOENT);
}

/*
 * A write that fails mid-file (here: EFBIG, as a full disk) is sticky and leaves the last
 * round readable, with its features (a compressed file is unreadable to perf without
 * HEADER_COMPRESSED), and the counters say what the file kept.
 */
static void write_error_keeps_last_round_mode(int level)
{
	struct xpf_writer_opts opts = { .compress_level = level };
	struct perf_event_attr a;
	struct rlimit old, lim;
	struct xb_error err = { 0 };
	uint64_t id = 5, kept;
	uint8_t buf[1024];
	unsigned seed = 9;
	xpf_writer *w;
	int rc = 0, i;
	struct fileview v;
	struct parsed d = { 0 };

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	attr_init(&a, 0);
	REQUIRE(xpf_writer_open(&w, tmpfile_name(), &opts, NULL) == 0);
	REQUIRE(xpf_writer_add_attr(w, &a, &id, 1, "cpu-clock", NULL) == 0);
	lim = old;
	lim.rlim_cur = 100000;
	REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	/* random bodies: zstd cannot shrink them, so the limit is reached either way */
	for (i = 0; i < 1000 && !rc; i++) {
		make_sample(buf, 5, (uint64_t)i, 500, &seed);
		rc = xpf_writer_write(w, (void *)buf, &err);
		if (!rc && i % 10 == 9)
			rc = xpf_writer_finished_round(w, &err);
	}
	CHECK_EQ_U64(-rc, EFBIG);
	CHECK(strstr(err.msg, tmpfile_name()) != NULL);
	CHECK(xpf_writer_finished_round(w, &err) == rc);
	CHECK(xpf_writer_finish(w, &err) == rc);
	kept = xpf_writer_samples_written(w);
	CHECK(kept > 0 && kept % 10 == 0 && kept < (uint64_t)i);
	setrlimit(RLIMIT_FSIZE, &old);
	parse_file(tmpfile_name(), &v);
	CHECK(!v.bad);
	CHECK_EQ_U64(xpf_writer_bytes_written(w), v.raw.len);
	CHECK(xpf_writer_close(w, &err) == rc);
	CHECK(v.h.data.size > 0 && v.h.data.offset + v.h.data.size <= v.raw.len);
	/* the features follow the data and end the file, as after a good close */
	CHECK(xpf_features_has(&v.feat, XPF_FEAT_HOSTNAME));
	CHECK_EQ_U64(xpf_features_has(&v.feat, XPF_FEAT_COMPRESSED), level > 0);
	CHECK_EQ_U64(v.feat_end, v.raw.len);
	parse_records(v.raw.p + v.h.data.offset, v.h.data.size, &d);
	CHECK(!d.bad);
	/* whole rounds only: ten samples and a FINISHED_ROUND each */
	CHECK_EQ_U64(d.logical.len, kept / 10 * (10 * (8 + 32 + 500) + 8));
	CHECK_EQ_U64(v.feat.sample_time_last, kept - 1);
	fileview_free(&v);
	free(d.logical.p);
	unlink(tmpfile_name());
}

static void write_error_keeps_last_round(void)
{
	write_error_keeps_last_round_mode(0);
	write_error_keeps_last_round_mode(1);
}

/* Through our own reader: the same records come back, in order, with names and features. */
static void reader_roundtrip_mode(int level, bool pipe, bool killed)
{
	struct xpf_writer_opts opts = { .compress_level = level };
	struct bytes exp = { 0 }, got = { 0 };
	struct xb_error err = { 0 };
	xpf_writer *w;
	xpf_reader *r;
	struct xpf_record rec;
	uint64_t tmin, tmax;
	int fd = open(tmpfile_name(), O_WRONLY | O_CREAT | O_TRUNC, 0600), rc;
	unsigned samples = 0, compressed = 0;

	REQUIRE(fd >= 0);
	REQUIRE(xpf_writer_open_fd(&w, fd, pipe, &opts, NULL) == 0);
	if (killed) {
		/* as a writer killed after its last round leaves the file */
		struct perf_event_attr a;
		uint64_t id = 7;
		uint8_t buf[256];
		unsigned seed = 5;
		struct perf_event_header fr = { .type = XPF_RECORD_FINISHED_ROUND, .size = 8 };

		attr_init(&a, 0);
		REQUIRE(xpf_writer_add_attr(w, &a, &id, 1, "cpu-clock", NULL) == 0);
		for (int i = 0; i < 120; i++) {
			make_sample(buf, 7, (uint64_t)i, 8, &seed);
			REQUIRE(xpf_writer_write(w, (void *)buf, NULL) == 0);
			bytes_put(&exp, buf, 48);
		}
		REQUIRE(xpf_writer_finished_round(w, NULL) == 0);
		bytes_put(&exp, &fr, 8);
		make_sample(buf, 7, 999, 8, &seed);
		REQUIRE(xpf_writer_write(w, (void *)buf, NULL) == 0);
		xpf_writer_abort(w);
	} else {
		REQUIRE(write_file(w, 500, 24, 50, &exp, &tmin, &tmax) == 0);
	}
	rc = xpf_reader_open(&r, tmpfile_name(), &err);
	if (rc) {
		UNIT_FAIL("xpf_reader_open: %s", err.msg);
		goto out;
	}
	while ((rc = xpf_reader_next(r, &rec, &err)) == 1) {
		uint32_t t = rec.hdr->type;

		if (t == XPF_RECORD_COMPRESSED || t == XPF_RECORD_COMPRESSED2) {
			compressed++;
			continue;
		}
		if (t == XPF_RECORD_HEADER_ATTR || t == XPF_RECORD_HEADER_FEATURE)
			continue;
		samples += t == PERF_RECORD_SAMPLE;
		bytes_put(&got, rec.hdr, rec.hdr->size);
	}
	CHECK(rc == 0);
	if (rc)
		UNIT_FAIL("xpf_reader_next: %s", err.msg);
	CHECK(got.len == exp.len && memcmp(got.p, exp.p, exp.len) == 0);
	CHECK(level ? compressed > 0 : compressed == 0);
	CHECK_EQ_U64(xpf_reader_nr_attrs(r), killed ? 1 : 2);
	if (xpf_reader_nr_attrs(r) >= 1) {
		const struct xpf_attr *a = xpf_reader_attr(r, 0);

		CHECK_STR(a->name, "cpu-clock");
		CHECK(a->attr.sample_id_all);
	}
	if (!killed) {
		const struct xpf_features *f = xpf_reader_features(r);

		CHECK(xpf_features_has(f, XPF_FEAT_HOSTNAME));
		CHECK(xpf_features_has(f, XPF_FEAT_NRCPUS));
		CHECK_EQ_U64(samples, 500);
		if (!pipe)
			CHECK_EQ_U64(f->sample_time_last, tmax);
	}
	xpf_reader_close(r);
out:
	free(got.p);
	free(exp.p);
	unlink(tmpfile_name());
}

static void reader_roundtrip(void)
{
	reader_roundtrip_mode(0, false, false);
	reader_roundtrip_mode(1, false, false);
	reader_roundtrip_mode(0, true, false);
	reader_roundtrip_mode(1, true, false);
}

static void reader_reads_killed_file(void)
{
	reader_roundtrip_mode(1, false, true);
	reader_roundtrip_mode(0, false, true);
}

int main(void)
{
	RUN(file_plain);
	RUN(file_compressed);
	RUN(file_compressed_incompressible);
	RUN(pipe_structure);
	RUN(rounds_are_durable);
	RUN(big_features_at_close);
	RUN(attr_rules);
	RUN(no_space);
	RUN(write_error_keeps_last_round);
	RUN(reader_roundtrip);
	RUN(reader_reads_killed_file);
	UNIT_MAIN_END();
}
