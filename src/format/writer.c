/* Writing perf.data files and pipe streams (see xpf_writer.h): layout, buffering, rounds. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format/compress.h"
#include "format/feature_io.h"
#include "format/output.h"
#include "format/xpf_sample.h"
#include "format/xpf_writer.h"

#define FLUSH_AT (4u << 20)  /* buffered bytes that force a flush between rounds */
#define HEADER_LAST_FEATURE XPF_FEAT_LAST_KNOWN /* pipe mode: "all features sent" marker */

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;
};

struct xpf_writer {
	int fd;
	bool own_fd, pipe;
	char *name;                 /* for messages */
	struct xpf_output dest;     /* the file's placement (xpf_writer_open); its fd is ours */
	int level;
	struct xpf_compressor *comp;

	struct wattr *attrs;
	uint32_t nr_attrs, attr_sz; /* attr_sz: bytes of each attr on disk */
	struct xpf_features feat;

	bool laid_out;              /* attrs (and pipe features) written; records may follow */
	bool finished;              /* xpf_writer_finish() ran: nothing more is written */
	uint64_t data_offset, data_size; /* data_size: bytes of the data section on disk */
	uint64_t synced_size;       /* data_size as last written into the header */
	bool feats_on_disk;         /* the header points at features written after the data */
	bool user_sample_time;      /* the caller set SAMPLE_TIME: keep theirs */
	struct fbuf in, out;        /* buffered records; compressed scratch */
	uint64_t bytes_in, bytes_written;
	uint64_t samples_in;        /* SAMPLE records in `in`, not yet flushed */
	uint64_t samples_out;       /* SAMPLE records flushed into the data section */
	/*
	 * The file as the last round left it on disk: what close goes back to when a later
	 * write fails (a full disk), so the file keeps its features and stays readable by
	 * perf, whose compressed files need HEADER_COMPRESSED.
	 */
	struct {
		bool valid;
		struct fbuf feats;  /* feature table and payloads, at data_offset + synced_size */
		uint64_t bits[XPF_FEAT_BITS / 64];
		uint64_t samples, bytes_in;
		bool have_time;
		uint64_t first_time, last_time;
	} last;

	int time_pos;               /* byte offset of the time in a SAMPLE, or -1 */
	bool have_time;
	uint64_t first_time, last_time;
	int failed;                 /* sticky negative errno after a failed write */
};

/* ---- low-level output ------------------------------------------------------------------- */

static int io_fail(xpf_writer *w, int code, struct xb_error *err)
{
	w->failed = code;
	return xb_error_set(err, code, "writing '%s': %s", w->name, strerror(-code));
}

/*
 * The one loop behind write_all() and pwrite_all(): retries EINTR and short writes. Only
 * appends (positioned false) move the file's end, so only they count in bytes_written.
 */
static int put_all(xpf_writer *w, const void *buf, size_t n, bool positioned, uint64_t off,
		   struct xb_error *err)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t r = positioned ? pwrite(w->fd, p, n, (off_t)off) : write(w->fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return io_fail(w, r < 0 ? -errno : -EIO, err);
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
		if (!positioned)
			w->bytes_written += (uint64_t)r;
	}
	return 0;
}

static int write_all(xpf_writer *w, const void *buf, size_t n, struct xb_error *err)
{
	if (w->failed)
		return xb_error_set(err, w->failed, "writing '%s': an earlier write failed: %s",
				     w->name, strerror(-w->failed));
	return put_all(w, buf, n, false, 0, err);
}

static int pwrite_all(xpf_writer *w, const void *buf, size_t n, uint64_t off,
		      struct xb_error *err)
{
	return put_all(w, buf, n, true, off, err);
}

static int hide_features(xpf_writer *w, struct xb_error *err);

/* Data-section bytes: counted into data_size once on disk. */
static int write_data(xpf_writer *w, const void *buf, size_t n, struct xb_error *err)
{
	int rc = hide_features(w, err);

	if (!rc)
		rc = write_all(w, buf, n, err);

	if (!rc)
		w->data_size += n;
	return rc;
}

static void fill_header(xpf_writer *w, struct xpf_file_header *h)
{
	memset(h, 0, sizeof(*h));
	h->magic = XPF_MAGIC;
	h->size = XPF_HEADER_SIZE;
	if (!w->laid_out)
		return;
	h->attr_size = w->attr_sz + sizeof(struct xpf_file_section);
	h->attrs.offset = w->data_offset - (uint64_t)w->nr_attrs * h->attr_size;
	h->attrs.size = (uint64_t)w->nr_attrs * h->attr_size;
	h->data.offset = w->data_offset;
	h->data.size = w->data_size;
}

/* ---- defaults ---------------------------------------------------------------------------- */

static int set_default_string(xpf_writer *w, unsigned int bit, const char *v)
{
	if (xpf_features_has(&w->feat, bit) || !v || !*v)
		return 0;
	return xpf_features_set_string(&w->feat, bit, v);
}

/* What every file carries even when the caller gave nothing: perf reads these unasked. */
static int fill_default_features(xpf_writer *w, struct xb_error *err)
{
	struct xpf_features *f = &w->feat;
	struct utsname u;
	int rc = 0;

	if (uname(&u) == 0) {
		rc = set_default_string(w, XPF_FEAT_HOSTNAME, u.nodename);
		if (!rc)
			rc = set_default_string(w, XPF_FEAT_OSRELEASE, u.release);
		if (!rc)
			rc = set_default_string(w, XPF_FEAT_ARCH, u.machine);
	}
	if (!rc && !xpf_features_has(f, XPF_FEAT_HOSTNAME))
		rc = xpf_features_set_string(f, XPF_FEAT_HOSTNAME, "localhost");
	if (!xpf_features_has(f, XPF_FEAT_NRCPUS)) {
		long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

		f->nr_cpus_avail = conf > 0 ? (uint32_t)conf : 1;
		f->nr_cpus_online = onln > 0 ? (uint32_t)onln : f->nr_cpus_avail;
		xpf_features_mark(f, XPF_FEAT_NRCPUS);
	}
	/*
	 * EVENT_DESC names the events. An entry without ids would make perf 6.1 read id[0]
	 * of an empty array, so only events with a name and ids go in.
	 */
	if (!rc && !xpf_features_has(f, XPF_FEAT_EVENT_DESC)) {
		for (uint32_t i = 0; !rc && i < w->nr_attrs; i++) {
			struct wattr *a = &w->attrs[i];

			if (a->name && a->nr_ids)
				rc = xpf_features_add_event_desc(f, &a->attr, a->name, a->ids,
								 a->nr_ids);
		}
	}
	if (!rc && w->comp) {
		f->compressed.version = 0;
		f->compressed.type = XPF_COMP_ZSTD;
		f->compressed.level = (uint32_t)w->level;
		f->compressed.mmap_len = XPF_COMP_CHUNK;
		if (!f->compressed.ratio)
			f->compressed.ratio = 1;
		xpf_features_mark(f, XPF_FEAT_COMPRESSED);
	}
	if (rc)
		return xb_error_set(err, rc, "'%s': cannot fill the default features: %s", w->name,
				     strerror(-rc));
	return 0;
}

/* ---- layout ------------------------------------------------------------------------------ */

/* File: ids arrays, then the attr entries {attr, section of its ids}, then the data. */
static int layout_file(xpf_writer *w, struct xb_error *err)
{
	uint64_t off = XPF_HEADER_SIZE, ids_off;
	struct fbuf b = { 0 };
	int rc;

	for (uint32_t i = 0; i < w->nr_attrs; i++)
		fbuf_put(&b, w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(uint64_t));
	ids_off = off;
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		struct xpf_file_section s = { ids_off, w->attrs[i].nr_ids * sizeof(uint64_t) };

		fbuf_put(&b, &w->attrs[i].attr, w->attr_sz);
		fbuf_put(&b, &s, sizeof(s));
		ids_off += s.size;
	}
	if (b.failed) {
		free(b.buf);
		return xb_error_set(err, -ENOMEM, "'%s': out of memory", w->name);
	}
	rc = write_all(w, b.buf, b.len, err);
	free(b.buf);
	if (rc)
		return rc;
	w->data_offset = off + b.len;
	w->laid_out = true;
	return 0;
}

static int put_record(struct fbuf *b, uint32_t type, const void *body, size_t n,
		      const void *tail, size_t tn)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(sizeof(h) + n + tn) };

	if (sizeof(h) + n + tn > XPF_RECORD_SIZE_MAX)
		return -E2BIG;
	fbuf_put(b, &h, sizeof(h));
	fbuf_put(b, body, n);
	fbuf_put(b, tail, tn);
	return 0;
}

/*
 * Pipe: HEADER_ATTR records, then HEADER_FEATURE records ending with the LAST_FEATURE
 * marker (perf report --header-only stops there), then build-ids as HEADER_BUILD_ID
 * records, as perf 6.1's record synthesizes them. These go out uncompressed.
 */
static int layout_pipe(xpf_writer *w, struct xb_error *err)
{
	struct fbuf b = { 0 };
	int rc = 0;

	for (uint32_t i = 0; !rc && i < w->nr_attrs; i++)
		rc = put_record(&b, XPF_RECORD_HEADER_ATTR, &w->attrs[i].attr, w->attr_sz,
				w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(uint64_t));
	if (rc) {
		free(b.buf);
		return xb_error_set(err, rc, "'%s': too many ids for one HEADER_ATTR record",
				     w->name);
	}
	for (unsigned int bit = 1; bit < XPF_FEAT_LAST_KNOWN; bit++) {
		void *p;
		uint64_t n, id = bit;

		/* TRACING_DATA and BUILD_ID travel as their own records in a pipe */
		if (bit == XPF_FEAT_TRACING_DATA || bit == XPF_FEAT_BUILD_ID ||
		    !xpf_features_has(&w->feat, bit))
			continue;
		rc = xpf_feature_encode(&w->feat, bit, &p, &n, err);
		if (rc)
			break;
		/* a feature too large for one record is left out, as perf does */
		put_record(&b, XPF_RECORD_HEADER_FEATURE, &id, sizeof(id), p, n);
		free(p);
	}
	if (!rc) {
		uint64_t id = HEADER_LAST_FEATURE;

		put_record(&b, XPF_RECORD_HEADER_FEATURE, &id, sizeof(id), NULL, 0);
	}
	if (!rc && xpf_features_has(&w->feat, XPF_FEAT_TRACING_DATA) &&
	    w->feat.raw[XPF_FEAT_TRACING_DATA].size <= UINT32_MAX - 8) {
		/* perf's HEADER_TRACING_DATA: {header, u32 size, u32 pad}, the data after it */
		const struct xpf_raw_feature *td = &w->feat.raw[XPF_FEAT_TRACING_DATA];
		uint32_t sz[2] = { (uint32_t)((td->size + 7) & ~7ULL), 0 };
		static const uint8_t zeros[8];

		put_record(&b, XPF_RECORD_HEADER_TRACING_DATA, sz, sizeof(sz), NULL, 0);
		fbuf_put(&b, td->data, td->size);
		fbuf_put(&b, zeros, sz[0] - td->size);
	}
	if (!rc && xpf_features_has(&w->feat, XPF_FEAT_BUILD_ID)) {
		void *p;
		uint64_t n;

		/* the feature payload is a run of build-id records with type 0; retype them */
		rc = xpf_feature_encode(&w->feat, XPF_FEAT_BUILD_ID, &p, &n, err);
		if (!rc) {
			for (uint64_t at = 0; at + 8 <= n;) {
				struct perf_event_header *h = (void *)((uint8_t *)p + at);

				h->type = XPF_RECORD_HEADER_BUILD_ID;
				at += h->size;
			}
			fbuf_put(&b, p, n);
			free(p);
		}
	}
	if (!rc && b.failed)
		rc = xb_error_set(err, -ENOMEM, "'%s': out of memory", w->name);
	if (!rc)
		rc = write_all(w, b.buf, b.len, err);
	free(b.buf);
	if (!rc)
		w->laid_out = true;
	return rc;
}

static int layout(xpf_writer *w, struct xb_error *err)
{
	int rc;

	if (w->laid_out)
		return 0;
	if (w->failed)
		return write_all(w, NULL, 0, err);
	if (!w->nr_attrs)
		return xb_error_set(err, -EINVAL, "'%s': no event was added before the first record",
				     w->name);
	rc = fill_default_features(w, err);
	if (rc)
		return rc;
	return w->pipe ? layout_pipe(w, err) : layout_file(w, err);
}

/* ---- open / attrs / features ------------------------------------------------------------- */

static int open_common(xpf_writer **out, int fd, bool own_fd, bool pipe, const char *name,
		       const struct xpf_writer_opts *opts, struct xb_error *err)
{
	xpf_writer *w;
	int rc;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w || !(w->name = strdup(name))) {
		free(w);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	w->fd = fd;
	w->pipe = pipe;
	w->time_pos = -1;
	w->level = opts ? opts->compress_level : 0;
	if (w->level > 0) {
		rc = xpf_compressor_create(&w->comp, w->level, err);
		if (rc) {
			xpf_writer_abort(w);
			return rc;
		}
	}
	if (pipe) {
		struct xpf_pipe_header h = { XPF_MAGIC, XPF_PIPE_HEADER_SIZE };

		rc = write_all(w, &h, sizeof(h), err);
	} else {
		struct xpf_file_header h;

		fill_header(w, &h);
		rc = write_all(w, &h, sizeof(h), err);
	}
	if (rc) {
		xpf_writer_abort(w); /* the fd is not ours yet: the caller keeps it on failure */
		return rc;
	}
	w->own_fd = own_fd;
	*out = w;
	return 0;
}

int xpf_writer_open_fd(xpf_writer **out, int fd, bool pipe, const struct xpf_writer_opts *opts,
		       struct xb_error *err)
{
	return open_common(out, fd, true, pipe, pipe ? "-" : "perf.data", opts, err);
}

int xpf_writer_open(xpf_writer **out, const char *path, const struct xpf_writer_opts *opts,
		    struct xb_error *err)
{
	struct xpf_output dest;
	int flags = 0, rc;

	*out = NULL;
	if (!strcmp(path, "-"))
		/* standard output stays open for the caller */
		return open_common(out, STDOUT_FILENO, false, true, "-", opts, err);
	if (opts && opts->keep_old)
		flags |= XPF_OUTPUT_KEEP_OLD;
	if (opts && opts->via_temp)
		flags |= XPF_OUTPUT_VIA_TEMP;
	rc = xpf_output_open(&dest, path, flags, err);
	if (rc)
		return rc;
	rc = open_common(out, dest.fd, true, false, path, opts, err);
	if (rc) {
		xpf_output_discard(&dest); /* closes the fd, removes what it created */
		xpf_output_release(&dest);
		return rc;
	}
	dest.fd = -1; /* the writer's own_fd now */
	(*out)->dest = dest;
	return 0;
}

const char *xpf_writer_temp_path(const xpf_writer *w)
{
	return w ? w->dest.tmp : NULL;
}

int xpf_writer_add_attr(xpf_writer *w, const struct perf_event_attr *attr, const uint64_t *ids,
			uint32_t nr_ids, const char *name, struct xb_error *err)
{
	struct wattr *v, *a;
	uint32_t sz = attr->size ? attr->size : sizeof(*attr);

	if (w->laid_out)
		return xb_error_set(err, -EBUSY, "'%s': events must be added before the first record",
				     w->name);
	if (sz > XPF_ATTR_SIZE_MAX)
		sz = XPF_ATTR_SIZE_MAX;
	if (sz > sizeof(*attr))
		sz = sizeof(*attr);
	if (sz < PERF_ATTR_SIZE_VER0)
		return xb_error_set(err, -EINVAL, "'%s': attr size %u is too small", w->name, sz);
	if (w->nr_attrs) {
		const struct perf_event_attr *f = &w->attrs[0].attr;

		if (f->sample_type != attr->sample_type || f->read_format != attr->read_format)
			return xb_error_set(err, -EINVAL,
					     "'%s': all events of a file must share sample_type and read_format",
					     w->name);
	}
	v = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*v));
	if (!v)
		return xb_error_set(err, -ENOMEM, "out of memory");
	w->attrs = v;
	a = &v[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->ids = malloc(nr_ids ? nr_ids * sizeof(uint64_t) : 1);
	a->name = name ? strdup(name) : NULL;
	if (!a->ids || (name && !a->name)) {
		free(a->ids);
		free(a->name);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
	a->nr_ids = nr_ids;
	memcpy(&a->attr, attr, sz);
	a->attr.sample_id_all = 1;
	w->nr_attrs++;
	/* one size for every attr entry: the largest asked for */
	if (sz > w->attr_sz)
		w->attr_sz = sz;
	for (uint32_t i = 0; i < w->nr_attrs; i++)
		w->attrs[i].attr.size = w->attr_sz;

	if (attr->sample_type & PERF_SAMPLE_TIME)
		w->time_pos = xpf_sample_time_offset(attr->sample_type);
	return 0;
}

int xpf_writer_set_features(xpf_writer *w, const struct xpf_features *f, struct xb_error *err)
{
	if (w->pipe && w->laid_out)
		return xb_error_set(err, -EBUSY,
				     "'%s': in a pipe, features must be set before the first record",
				     w->name);
	if (xpf_features_has(f, XPF_FEAT_SAMPLE_TIME))
		w->user_sample_time = true;
	return xpf_features_merge(&w->feat, f, err);
}

/* ---- records ----------------------------------------------------------------------------- */

/* Write out what is buffered, compressed or plain. Records stay whole across the call. */
static int flush(xpf_writer *w, struct xb_error *err)
{
	int rc;

	if (!w->in.len)
		return 0;
	if (w->comp) {
		w->out.len = 0;
		rc = xpf_compress_records(w->comp, w->in.buf, w->in.len, &w->out, err);
		if (rc && err) {
			/* every writer error names the file: the compressor does not know it */
			char msg[sizeof(err->msg)];

			memcpy(msg, err->msg, sizeof(msg));
			xb_error_set(err, rc, "'%s': %.400s", w->name, msg);
		}
		if (!rc)
			rc = write_data(w, w->out.buf, w->out.len, err);
	} else {
		rc = write_data(w, w->in.buf, w->in.len, err);
	}
	if (!rc)
		w->samples_out += w->samples_in;
	w->in.len = 0;
	w->samples_in = 0;
	return rc;
}

static void note_time(xpf_writer *w, const struct perf_event_header *rec)
{
	uint64_t t;

	if (rec->type != PERF_RECORD_SAMPLE || w->time_pos < 0 ||
	    (size_t)w->time_pos + 8 > rec->size)
		return;
	memcpy(&t, (const uint8_t *)rec + w->time_pos, 8);
	if (!w->have_time || t < w->first_time)
		w->first_time = t;
	if (!w->have_time || t > w->last_time)
		w->last_time = t;
	w->have_time = true;
}

int xpf_writer_write(xpf_writer *w, const struct perf_event_header *rec, struct xb_error *err)
{
	int rc;

	if (rec->size < sizeof(*rec))
		return xb_error_set(err, -EINVAL, "'%s': record of type %u has size %u", w->name,
				     rec->type, rec->size);
	if (w->finished)
		return xb_error_set(err, -EBUSY, "'%s': a record after the file was finished",
				     w->name);
	rc = layout(w, err);
	if (rc)
		return rc;
	if (w->failed)
		return write_all(w, NULL, 0, err);
	note_time(w, rec);
	fbuf_put(&w->in, rec, rec->size);
	if (w->in.failed) {
		w->in.failed = false;
		return xb_error_set(err, -ENOMEM, "'%s': out of memory buffering records", w->name);
	}
	w->bytes_in += rec->size;
	w->samples_in += rec->type == PERF_RECORD_SAMPLE;
	if (w->in.len >= FLUSH_AT)
		return flush(w, err);
	return 0;
}

static int write_features(xpf_writer *w, uint64_t feat_off, bool provisional, uint64_t *bits,
			  uint64_t *end, struct fbuf *keep, struct xb_error *err);
static void update_derived_features(xpf_writer *w);

/*
 * Crash safety. After each round the file is complete: the features are written after the
 * data and the header points at both, so even perf reads a killed recording (a compressed
 * one needs HEADER_COMPRESSED). Before the next data overwrites those features, the header
 * stops pointing at them (hide_features), so at no moment does it describe garbage.
 */
static int sync_file(xpf_writer *w, bool final, uint64_t *end, struct xb_error *err)
{
	struct xpf_file_header h;
	uint64_t bits[XPF_FEAT_BITS / 64] = { 0 };
	struct fbuf blob = { 0 };
	int rc;

	if (w->pipe || (!final && w->synced_size == w->data_size && w->feats_on_disk))
		return 0;
	update_derived_features(w);
	rc = write_features(w, w->data_offset + w->data_size, !final, bits, end, &blob, err);
	if (!rc) {
		fill_header(w, &h);
		memcpy(h.adds_features, bits, sizeof(bits));
		rc = pwrite_all(w, &h, sizeof(h), 0, err);
	}
	if (rc) {
		free(blob.buf);
		return rc;
	}
	w->synced_size = w->data_size;
	w->feats_on_disk = true;
	free(w->last.feats.buf);
	w->last.feats = blob;
	memcpy(w->last.bits, bits, sizeof(bits));
	w->last.samples = w->samples_out;
	w->last.bytes_in = w->bytes_in;
	w->last.have_time = w->have_time;
	w->last.first_time = w->first_time;
	w->last.last_time = w->last_time;
	w->last.valid = true;
	return 0;
}

static int hide_features(xpf_writer *w, struct xb_error *err)
{
	struct xpf_file_header h;

	if (w->pipe || !w->feats_on_disk)
		return 0;
	fill_header(w, &h);
	h.data.size = w->synced_size;
	if (pwrite_all(w, &h, sizeof(h), 0, err))
		return w->failed;
	w->feats_on_disk = false;
	return 0;
}

/* Flush, then one user record written as itself, outside any COMPRESSED record (as perf). */
static int plain_record(xpf_writer *w, uint32_t type, struct xb_error *err)
{
	struct perf_event_header h = { .type = type, .size = sizeof(h) };
	int rc = layout(w, err);

	if (!rc)
		rc = flush(w, err);
	if (!rc)
		rc = write_data(w, &h, sizeof(h), err);
	if (!rc)
		w->bytes_in += sizeof(h);
	if (!rc)
		rc = sync_file(w, false, NULL, err);
	return rc;
}

int xpf_writer_finished_round(xpf_writer *w, struct xb_error *err)
{
	return plain_record(w, XPF_RECORD_FINISHED_ROUND, err);
}

int xpf_writer_finished_init(xpf_writer *w, struct xb_error *err)
{
	return plain_record(w, XPF_RECORD_FINISHED_INIT, err);
}

uint64_t xpf_writer_bytes_written(const xpf_writer *w)
{
	return w ? w->bytes_written : 0;
}

uint64_t xpf_writer_bytes_in(const xpf_writer *w)
{
	return w ? w->bytes_in : 0;
}

uint64_t xpf_writer_samples_written(const xpf_writer *w)
{
	return w ? w->samples_out : 0;
}

/* ---- close ------------------------------------------------------------------------------- */

/*
 * After the data: {offset, size} per set bit, then the payloads in bit order. The
 * provisional copy written after each round leaves out payloads larger than PROVISIONAL_MAX
 * (TRACING_DATA can be megabytes) so rounds stay cheap; close writes them all.
 */
#define PROVISIONAL_MAX (64u << 10)

/* The table then the payloads, in one buffer: what sync_file keeps to restore a round. */
static int write_features(xpf_writer *w, uint64_t feat_off, bool provisional, uint64_t *bits,
			  uint64_t *end, struct fbuf *keep, struct xb_error *err)
{
	struct fbuf out = { 0 };
	void *enc[XPF_FEAT_LAST_KNOWN] = { 0 };
	uint64_t size[XPF_FEAT_LAST_KNOWN] = { 0 };
	unsigned int nr = 0, bit;
	uint64_t off;
	int rc = 0;

	for (bit = 1; !rc && bit < XPF_FEAT_LAST_KNOWN; bit++) {
		if (!xpf_features_has(&w->feat, bit))
			continue;
		rc = xpf_feature_encode(&w->feat, bit, &enc[bit], &size[bit], err);
		if (!rc && provisional && size[bit] > PROVISIONAL_MAX) {
			free(enc[bit]);
			enc[bit] = NULL;
		}
		nr += enc[bit] != NULL;
	}
	off = feat_off + (uint64_t)nr * sizeof(struct xpf_file_section);
	for (bit = 1; !rc && bit < XPF_FEAT_LAST_KNOWN; bit++) {
		struct xpf_file_section s = { off, size[bit] };

		if (!enc[bit])
			continue;
		fbuf_put(&out, &s, sizeof(s));
		off += size[bit];
		bits[bit / 64] |= 1ULL << (bit % 64);
	}
	for (bit = 1; !rc && bit < XPF_FEAT_LAST_KNOWN; bit++)
		if (enc[bit])
			fbuf_put(&out, enc[bit], size[bit]);
	for (bit = 0; bit < XPF_FEAT_LAST_KNOWN; bit++)
		free(enc[bit]);
	if (!rc && out.failed)
		rc = xb_error_set(err, -ENOMEM, "'%s': out of memory", w->name);
	if (!rc)
		rc = pwrite_all(w, out.buf, out.len, feat_off, err);
	if (!rc && keep)
		*keep = out;
	else
		free(out.buf);
	if (end)
		*end = off;
	return rc;
}

/* SAMPLE_TIME and the compression ratio follow the data written so far. */
static void update_derived_features(xpf_writer *w)
{
	if (w->have_time && !w->user_sample_time) {
		w->feat.sample_time_first = w->first_time;
		w->feat.sample_time_last = w->last_time;
		xpf_features_mark(&w->feat, XPF_FEAT_SAMPLE_TIME);
	}
	if (w->comp) {
		uint64_t ratio = w->data_size ? w->bytes_in / w->data_size : 1;

		w->feat.compressed.ratio = ratio ? (uint32_t)ratio : 1;
	}
}

/* Cut what an earlier, longer feature section or a failed write left past `end`. */
static int truncate_to(xpf_writer *w, uint64_t end, struct xb_error *err)
{
	struct stat st;

	if (!fstat(w->fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size > end &&
	    ftruncate(w->fd, (off_t)end))
		return io_fail(w, -errno, err);
	return 0;
}

static int finish_file(xpf_writer *w, struct xb_error *err)
{
	uint64_t end = 0;
	int rc = sync_file(w, true, &end, err);

	if (!rc)
		rc = truncate_to(w, end, err);
	if (!rc)
		w->bytes_written = end;
	return rc;
}

/*
 * A write failed (a full disk, a file size limit): make the file what the last round left,
 * with its features. The complete ones go first; should they not fit, the provisional copy
 * of that round goes back where it was, over blocks the file already holds. Without any
 * round on disk there is nothing to keep: the caller removes the file.
 */
static void restore_last_round(xpf_writer *w)
{
	struct xb_error ignored = { 0 };
	struct xpf_file_header h;
	uint64_t feat_off = w->data_offset + w->synced_size, end = 0;
	uint64_t bits[XPF_FEAT_BITS / 64] = { 0 };
	int saved = w->failed;

	if (w->pipe || !w->last.valid)
		return;
	w->data_size = w->synced_size;
	w->bytes_in = w->last.bytes_in;
	w->samples_out = w->last.samples;
	w->have_time = w->last.have_time;
	w->first_time = w->last.first_time;
	w->last_time = w->last.last_time;
	update_derived_features(w);
	if (write_features(w, feat_off, false, bits, &end, NULL, &ignored)) {
		memcpy(bits, w->last.bits, sizeof(bits));
		end = feat_off + w->last.feats.len;
		if (pwrite_all(w, w->last.feats.buf, w->last.feats.len, feat_off, &ignored))
			goto out;
	}
	fill_header(w, &h);
	memcpy(h.adds_features, bits, sizeof(bits));
	if (pwrite_all(w, &h, sizeof(h), 0, &ignored))
		goto out;
	w->feats_on_disk = true;
	if (!truncate_to(w, end, &ignored))
		w->bytes_written = end;
out:
	w->failed = saved;
}

int xpf_writer_finish(xpf_writer *w, struct xb_error *err)
{
	int rc;

	if (w->finished)
		return w->failed;
	w->finished = true;
	rc = w->failed ? write_all(w, NULL, 0, err) : layout(w, err);
	if (!rc)
		rc = flush(w, err);
	if (!rc && !w->pipe)
		rc = finish_file(w, err);
	if (rc && !w->failed)
		w->failed = rc;
	if (rc)
		restore_last_round(w);
	return rc;
}

int xpf_writer_close(xpf_writer *w, struct xb_error *err)
{
	int rc;

	if (!w)
		return 0;
	rc = xpf_writer_finish(w, err);
	if (w->own_fd && close(w->fd) && !rc)
		rc = xb_error_set(err, -errno, "closing '%s': %s", w->name, strerror(errno));
	w->own_fd = false;
	if (w->dest.path) {
		/* complete: a temporary takes the name; failed: it goes, the name keeps its file */
		if (!rc)
			rc = xpf_output_commit(&w->dest, err);
		if (rc && w->dest.tmp)
			xpf_output_discard(&w->dest);
		xpf_output_release(&w->dest);
	}
	xpf_writer_abort(w);
	return rc;
}

void xpf_writer_abort(xpf_writer *w)
{
	if (!w)
		return;
	if (w->own_fd)
		close(w->fd);
	if (w->dest.path) {
		xpf_output_discard(&w->dest);
		xpf_output_release(&w->dest);
	}
	for (uint32_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	xpf_features_free(&w->feat);
	xpf_compressor_free(w->comp);
	free(w->in.buf);
	free(w->out.buf);
	free(w->last.feats.buf);
	free(w->name);
	free(w);
}
