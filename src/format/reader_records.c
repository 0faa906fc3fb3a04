/* Iterating the records of a perf.data file or stream: bounds, byte order, decompression. */
#include <byteswap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/reader_int.h"

enum { EVENT_UPDATE_NAME = 2 }; /* PERF_EVENT_UPDATE__NAME */

/* The attr whose layout a swapped record needs; the id of a sample is a whole u64. */
static const struct perf_event_attr *swap_attr(const struct xpf_reader *r,
					       const struct perf_event_header *hdr)
{
	const struct perf_event_attr *first;
	uint64_t id;

	if (!r->nr_attrs)
		return NULL;
	first = &r->attrs[0]->attr;
	if (hdr->type == PERF_RECORD_SAMPLE && r->nr_attrs > 1 &&
	    !xpf_record_id(first->sample_type, first->sample_id_all, hdr, &id)) {
		const struct xpf_attr *a = xpf_reader_attr_by_id(r, bswap_64(id));

		if (a)
			return &a->attr;
	}
	return first;
}

static void swap_hdr(struct perf_event_header *h)
{
	h->type = bswap_32(h->type);
	h->misc = bswap_16(h->misc);
	h->size = bswap_16(h->size);
}

static int apply_attr(struct xpf_reader *r, const struct perf_event_header *hdr, uint64_t off,
		      struct xb_error *err)
{
	const uint8_t *p = (const uint8_t *)hdr + sizeof(*hdr);
	uint32_t asz = hdr->size >= 16 ? ((const struct perf_event_attr *)(const void *)p)->size : 0;

	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > hdr->size - sizeof(*hdr))
		return xb_error_set(err, -EINVAL,
				     "%s: attr record at offset 0x%llx: attr size %u does not fit its size %u",
				     r->name, (unsigned long long)off, asz, hdr->size);
	return xpf_reader_add_attr(r, p, asz, p + asz, (hdr->size - sizeof(*hdr) - asz) / 8, false,
				   err);
}

static int apply_feature(struct xpf_reader *r, const struct perf_event_header *hdr, uint64_t off,
			 struct xb_error *err)
{
	const uint8_t *p = (const uint8_t *)hdr;
	uint64_t bit;
	int ret;

	if (hdr->size < 16)
		return xb_error_set(err, -EINVAL, "%s: feature record at offset 0x%llx has size %u",
				     r->name, (unsigned long long)off, hdr->size);
	memcpy(&bit, p + 8, 8);
	if (bit == XPF_FEAT_RESERVED || bit >= XPF_FEAT_LAST_KNOWN)
		return 0; /* unknown to us: skipped, as perf does */
	/*
	 * A feature comes once. Readers keep pointers into what it holds (attr names into
	 * EVENT_DESC, the recorded build-ids), so a repeat must not replace it: the first
	 * one stays, for as long as the reader.
	 */
	if (xpf_features_has(&r->feat, (unsigned int)bit)) {
		xpf_reader_warn(r, "%s: feature record at offset 0x%llx repeats feature %s; "
			       "the first one is kept", r->name, (unsigned long long)off,
			       xpf_feature_name((unsigned int)bit) ? xpf_feature_name((unsigned int)bit)
								  : "?");
		return 0;
	}
	ret = xpf_feature_decode(&r->feat, (unsigned int)bit, p + 16, hdr->size - 16u, r->swap,
				 off + 16, err);
	if (ret)
		return ret;
	r->hi.adds_features[bit / 64] |= 1ULL << (bit % 64);
	if (bit == XPF_FEAT_EVENT_DESC)
		xpf_reader_name_attrs(r);
	return 0;
}

static int apply_event_update(struct xpf_reader *r, const struct perf_event_header *hdr)
{
	const uint8_t *p = (const uint8_t *)hdr;
	uint64_t type, id;
	struct xpf_attr *a;
	char **names, *name;

	if (hdr->size <= 24)
		return 0;
	memcpy(&type, p + 8, 8);
	memcpy(&id, p + 16, 8);
	a = (struct xpf_attr *)xpf_reader_attr_by_id(r, id);
	if (type != EVENT_UPDATE_NAME || !a)
		return 0;
	/* one name per attr: the first update's stays (views hold it), and a stream that
	 * repeats updates cannot grow the list without bound */
	for (uint32_t i = 0; i < r->nr_own_names; i++)
		if (a->name == r->own_names[i])
			return 0;
	name = strndup((const char *)p + 24, hdr->size - 24u);
	names = name ? realloc(r->own_names, (r->nr_own_names + 1) * sizeof(*names)) : NULL;
	if (!names) {
		free(name);
		return -ENOMEM;
	}
	r->own_names = names;
	r->own_names[r->nr_own_names++] = name;
	a->name = name;
	return 0;
}

/* Bring a record into native order, apply what it says about the stream, fill rec. */
static int emit(struct xpf_reader *r, struct xpf_record *rec, const uint8_t *src, uint64_t off,
		bool from_compressed, bool writable, struct xb_error *err)
{
	struct perf_event_header *h = (struct perf_event_header *)(uintptr_t)src;
	int ret = 0;

	if (r->swap || ((uintptr_t)src & 7)) {
		uint16_t size;

		memcpy(&size, src + 6, 2);
		if (r->swap)
			size = bswap_16(size);
		if (!writable || ((uintptr_t)src & 7)) {
			memcpy(r->scratch, src, size);
			h = (struct perf_event_header *)(void *)r->scratch;
		}
		if (r->swap) {
			swap_hdr(h);
			xpf_swap_record(h, swap_attr(r, h));
		}
	}
	rec->hdr = h;
	rec->file_offset = off;
	rec->from_compressed = from_compressed;
	/* a stream's buffer moves as it grows; the map and the decompression chunks stay */
	rec->lasting = h != (struct perf_event_header *)(void *)r->scratch &&
		       (from_compressed || !r->stream);
	rec->extra = NULL;
	rec->extra_size = 0;
	r->last_hdr = h;
	r->last_off = off;
	switch (h->type) {
	case XPF_RECORD_HEADER_ATTR:
		ret = apply_attr(r, h, off, err);
		break;
	case XPF_RECORD_HEADER_FEATURE:
		ret = apply_feature(r, h, off, err);
		break;
	case XPF_RECORD_EVENT_UPDATE:
		if (apply_event_update(r, h))
			ret = xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
		break;
	}
	if (ret)
		r->done = true;
	return ret ? ret : 1;
}

/* End of input: one warning if a record was left unfinished. */
static int finish(struct xpf_reader *r)
{
	size_t pending = xpf_decomp_pending(r->dc);

	if (pending) {
		char what[128];

		snprintf(what, sizeof(what), "the compressed data ends inside a record "
			 "(%zu bytes left over)", pending);
		xpf_reader_warn_cut(r, r->last_comp_off, what);
	}
	r->done = true;
	return 0;
}

/* A record that does not fit: the end of an unfinished file, or damage. */
static int cut_short(struct xpf_reader *r, uint64_t need, struct xb_error *err)
{
	if (r->end_soft) {
		xpf_reader_warn_cut(r, r->pos, "a record is cut short");
		return finish(r);
	}
	r->done = true;
	return xb_error_set(err, -EINVAL,
			     "%s: record at offset 0x%llx of size %llu overruns the data section (ends at 0x%llx)",
			     r->name, (unsigned long long)r->pos, (unsigned long long)need,
			     (unsigned long long)r->end);
}

/* Payload that follows a record without being part of it (perf skips it the same way). */
static int extra_size(const struct xpf_reader *r, const struct perf_event_header *hdr,
		      const uint8_t *raw, uint64_t *extra)
{
	*extra = 0;
	if (hdr->type == XPF_RECORD_HEADER_TRACING_DATA && hdr->size >= 12) {
		uint32_t sz;

		memcpy(&sz, raw + 8, 4);
		*extra = ((uint64_t)(r->swap ? bswap_32(sz) : sz) + 7) & ~7ULL;
	} else if (hdr->type == XPF_RECORD_AUXTRACE && hdr->size >= 16) {
		memcpy(extra, raw + 8, 8);
		if (r->swap)
			*extra = bswap_64(*extra);
	}
	return 0;
}

/*
 * A pipe carries the event formats as a TRACING_DATA record, not a feature section: keep
 * them as the feature, so readers find them in one place whatever the input.
 */
static int keep_tracing_data(struct xpf_reader *r, const uint8_t *rec, uint16_t rec_size,
			     uint64_t extra, struct xb_error *err)
{
	uint32_t size;
	int ret;

	if (xpf_features_has(&r->feat, XPF_FEAT_TRACING_DATA))
		return 1;
	memcpy(&size, rec + 8, 4);
	if (r->swap)
		size = bswap_32(size);
	ret = xpf_features_set_raw(&r->feat, XPF_FEAT_TRACING_DATA, rec + rec_size,
				   size < extra ? size : extra);
	if (ret < 0) {
		r->done = true;
		return xb_error_set(err, ret, "%s: out of memory", r->name);
	}
	return 1;
}

/*
 * A mapped file's pages behind the cursor are given back every DROP_STEP bytes, so a
 * report's peak RSS follows its own structures, not the size of the file. Safe whatever
 * still points there: the mapping is private and read-only, so a dropped page that is
 * touched again is read back from the file. The pages of the last DROP_LAG bytes before
 * `upto` stay: records kept in place by an ordering queue (a round or two) are mostly
 * there, and the reuse hook is told of the rest, so it can copy them rather than read them
 * back from the file.
 */
#define DROP_STEP (2u << 20)
#define DROP_LAG (2u << 20)

static void drop_behind(struct xpf_reader *r, uint64_t upto)
{
	uint64_t to = (upto > DROP_LAG ? upto - DROP_LAG : 0) & ~(uint64_t)4095;

	if (!r->mapped || to < r->dropped + DROP_STEP)
		return;
	if (r->reuse)
		r->reuse(r->reuse_ctx, r->map + r->dropped, r->map + to);
	madvise((void *)(r->map + r->dropped), to - r->dropped, MADV_DONTNEED);
	r->dropped = to;
}

void xpf_reader_set_reuse_hook(xpf_reader *r, xpf_reuse_fn fn, void *ctx)
{
	r->reuse = fn;
	r->reuse_ctx = ctx;
	if (r->dc)
		xpf_decomp_set_reuse_hook(r->dc, fn, ctx);
}

static int next_file_record(struct xpf_reader *r, struct xpf_record *rec, struct xb_error *err)
{
	struct perf_event_header h;
	const uint8_t *p;
	uint64_t off = r->pos, extra, total;
	int ret;

	if (r->pos >= r->end)
		return finish(r);
	if (r->end - r->pos < sizeof(h))
		return cut_short(r, sizeof(h), err);
	ret = xpf_src_get(r, r->pos, sizeof(h), &p, err);
	if (ret < 0)
		return r->done = true, ret;
	if (ret == 0) {
		/* a stream that ends between records ends normally */
		if (r->stream && r->pbase + r->plen == r->pos)
			return finish(r);
		return cut_short(r, sizeof(h), err);
	}
	memcpy(&h, p, sizeof(h));
	if (r->swap)
		swap_hdr(&h);
	if (h.size < sizeof(h)) {
		if (r->end_soft && !r->hi.pipe) {
			char what[64];

			snprintf(what, sizeof(what), "a record has size %u", h.size);
			xpf_reader_warn_cut(r, r->pos, what);
			return finish(r);
		}
		r->done = true;
		return xb_error_set(err, -EINVAL, "%s: record at offset 0x%llx has size %u", r->name,
				     (unsigned long long)r->pos, h.size);
	}
	if (h.size > r->end - r->pos)
		return cut_short(r, h.size, err);
	ret = xpf_src_get(r, r->pos, h.size, &p, err);
	if (ret <= 0)
		return ret < 0 ? (r->done = true, ret) : cut_short(r, h.size, err);
	extra_size(r, &h, p, &extra);
	total = h.size + extra;
	if (extra) {
		if (extra > r->end - r->pos - h.size)
			return cut_short(r, total, err);
		ret = xpf_src_get(r, r->pos, total, &p, err);
		if (ret <= 0)
			return ret < 0 ? (r->done = true, ret) : cut_short(r, total, err);
	}
	r->pos += total;
	drop_behind(r, off);
	if (h.type == XPF_RECORD_COMPRESSED || h.type == XPF_RECORD_COMPRESSED2) {
		uint64_t data = sizeof(h), len = h.size - sizeof(h);

		if (h.type == XPF_RECORD_COMPRESSED2) {
			if (h.size < 16) {
				r->done = true;
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx has size %u",
						     r->name, (unsigned long long)off, h.size);
			}
			memcpy(&len, p + 8, 8);
			if (r->swap)
				len = bswap_64(len);
			data = 16;
			if (len > h.size - 16u) {
				r->done = true;
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx: data size %llu exceeds its size %u",
						     r->name, (unsigned long long)off,
						     (unsigned long long)len, h.size);
			}
		}
		/* the payload stays in the map or stream buffer until it is used up */
		xpf_decomp_feed(r->dc, p + data, (size_t)len, off);
		r->comp_in += len;
		r->last_comp_off = off;
	}
	ret = emit(r, rec, p, off, false, false, err);
	if (ret == 1 && extra) {
		rec->extra = p + h.size;
		rec->extra_size = extra;
		if (h.type == XPF_RECORD_HEADER_TRACING_DATA)
			ret = keep_tracing_data(r, p, h.size, extra, err);
	}
	return ret;
}

/*
 * A compressed file spends a third or more of its time in zstd: decompress on a second
 * thread while this one parses. Files in memory only (the thread walks the image); small
 * files (a thread, its ring and its wake-ups cost more than they save) and streams are not
 * worth a thread. Failing to start one is not an error.
 */
static void maybe_pipe(struct xpf_reader *r)
{
	uint64_t min = r->pipe_min ? r->pipe_min : 1u << 20;

	r->pipe_tried = true;
	if (r->stream || r->hi.pipe || !r->map || r->end > r->map_size || r->pos >= r->end ||
	    r->end - r->pos < min || !xpf_features_has(&r->feat, XPF_FEAT_COMPRESSED))
		return;
	/* on one CPU the two threads would only take turns */
	if (!r->pipe_min && sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	xpf_decomp_start_pipe(r->dc, r->map, r->pos, r->end, r->swap, r->pipe_chunk);
}

/* A record unpacked from COMPRESSED records: refuse the file once they inflate too much. */
static int check_inflation(struct xpf_reader *r, const struct xpf_record *rec,
			   struct xb_error *err)
{
	r->comp_out += rec->hdr->size;
	if (r->comp_out <= XPF_INFLATE_FREE || r->comp_out / XPF_INFLATE_RATIO_MAX <= r->comp_in)
		return 1;
	r->done = true;
	return xb_error_set(err, -EINVAL,
			     "%s: compressed record at offset 0x%llx: %llu KiB of compressed data "
			     "inflate to more than %llu MiB, over %u times as much: no recording "
			     "compresses so well (damaged or hostile file)", r->name,
			     (unsigned long long)rec->file_offset,
			     (unsigned long long)(r->comp_in >> 10),
			     (unsigned long long)(r->comp_out >> 20), XPF_INFLATE_RATIO_MAX);
}

int xpf_reader_next(xpf_reader *r, struct xpf_record *rec, struct xb_error *err)
{
	struct perf_event_header *h;
	uint64_t off;
	int ret;

	if (r->done)
		return 0;
	if (!r->pipe_tried)
		maybe_pipe(r);
	ret = xpf_decomp_next(r->dc, r->swap, &h, &off, r->name, err);
	if (ret < 0) {
		r->done = true;
		return ret;
	}
	if (ret == 1) {
		ret = emit(r, rec, (const uint8_t *)h, off, true, true, err);
		if (ret == 1)
			ret = check_inflation(r, rec, err);
		return ret;
	}
	return next_file_record(r, rec, err);
}

int xpf_reader_decode_sample(const xpf_reader *r, const struct perf_event_header *hdr,
			     struct xpf_sample *out, struct xb_error *err)
{
	const struct xpf_attr *a = xpf_reader_attr_of(r, hdr);
	int ret;

	if (!a) {
		uint64_t id = 0;

		memset(out, 0, sizeof(*out));
		if (r->nr_attrs)
			xpf_record_id(r->attrs[0]->attr.sample_type, r->attrs[0]->attr.sample_id_all,
				      hdr, &id);
		if (hdr == r->last_hdr)
			return xb_error_set(err, -ENOENT,
					     "%s: sample at offset 0x%llx has unknown id %llu", r->name,
					     (unsigned long long)r->last_off, (unsigned long long)id);
		return xb_error_set(err, -ENOENT, "%s: sample has unknown id %llu", r->name,
				     (unsigned long long)id);
	}
	ret = xpf_sample_decode(&a->attr, hdr, out, err);
	if (ret && err) {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		if (hdr == r->last_hdr)
			xb_error_set(err, ret, "%s: record at offset 0x%llx: %.400s", r->name,
				      (unsigned long long)r->last_off, msg);
		else
			xb_error_set(err, ret, "%s: %.400s", r->name, msg);
	}
	return ret;
}
