/* Reading perf.data files and pipe streams: header, attrs, features, records. */
#ifndef XPF_READER_H
#define XPF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "format/xpf_abi.h"
#include "base/error.h"
#include "format/xpf_features.h"
#include "format/xpf_sample.h"

typedef struct xpf_reader xpf_reader;

/* One event (attr) of the file and the sample ids that belong to it. */
struct xpf_attr {
	struct perf_event_attr attr; /* native byte order; fields past the file's attr.size are 0 */
	const uint64_t *ids;
	uint32_t nr_ids;
	const char *name;            /* from EVENT_DESC (or HEADER_EVENT_UPDATE); may be NULL */
};

/*
 * The name views print for an event: the file's own (EVENT_DESC), else perf's for a generic
 * software or hardware event, else "TYPE:0xCONFIG" in buf. "" for NULL. Returns a or buf.
 */
const char *xpf_attr_event_name(const struct xpf_attr *a, char *buf, size_t size);

/* What the file header said, after byte-order detection. */
struct xpf_header_info {
	bool pipe;                   /* a pipe stream (header size 16) */
	bool swapped;                /* written in the other byte order */
	uint64_t header_size;
	uint64_t attr_size;
	struct xpf_file_section attrs, data;
	uint64_t adds_features[XPF_FEAT_BITS / 64];
	uint64_t file_size;          /* 0 for a pipe */
};

/*
 * The most COMPRESSED records may inflate: past the first XPF_INFLATE_FREE bytes of
 * records, at most XPF_INFLATE_RATIO_MAX bytes for each compressed byte read so far. No
 * recording compresses so well (DWARF stack copies, the best case, come near 200); a file
 * that does is refused at the record that crosses the line, as perf refuses a COMPRESSED
 * record that outgrows its buffer, rather than spending minutes on a decompression bomb.
 */
#define XPF_INFLATE_FREE (64ULL << 20)
#define XPF_INFLATE_RATIO_MAX 2048

/* One record as returned by xpf_reader_next(). */
struct xpf_record {
	/*
	 * The record in native byte order. Valid until the next xpf_reader_next() call (it
	 * may point into the mapped file, into a decompression buffer or into a copy).
	 */
	const struct perf_event_header *hdr;
	/*
	 * Offset in the file (or stream) of this record, or, for a record unpacked from a
	 * COMPRESSED record, the offset of the COMPRESSED record that held its first byte.
	 */
	uint64_t file_offset;
	/* true for records unpacked from COMPRESSED/COMPRESSED2 records */
	bool from_compressed;
	/*
	 * hdr stays valid past the next call: until the reader's reuse hook names its memory
	 * (see xpf_reader_set_reuse_hook()) or until xpf_reader_close(). False for copies
	 * (byte-swapped or unaligned records) and for records of a stream's buffer.
	 */
	bool lasting;
	/*
	 * HEADER_TRACING_DATA and AUXTRACE records are followed in the file by a payload that
	 * is not part of the record (header.size excludes it): it is skipped and shown here.
	 * File byte order; valid as long as hdr.
	 */
	const void *extra;
	uint64_t extra_size;
};

/*
 * Open `path` ("-" for standard input), read and check the header, the attrs and the
 * feature sections (or, for a pipe, everything up to the first data record is read lazily
 * by xpf_reader_next). On success *out owns everything; close it with xpf_reader_close().
 */
int xpf_reader_open(xpf_reader **out, const char *path, struct xb_error *err);

/* As xpf_reader_open, from a file descriptor that then belongs to the reader. `name` is
 * used in messages. */
int xpf_reader_open_fd(xpf_reader **out, int fd, const char *name, struct xb_error *err);

/* Open an in-memory image (fuzzing, tests). The buffer is not copied: it must outlive r. */
int xpf_reader_open_mem(xpf_reader **out, const void *buf, size_t size, const char *name,
			struct xb_error *err);

/* Accepts NULL. */
void xpf_reader_close(xpf_reader *r);

/*
 * A reader of no file, for a live session (xperf top): it holds the attrs the caller adds
 * and reads no record (xpf_reader_next() returns 0); the records come from the rings and
 * are pushed to a profile (xpp_profile_push()), which finds their events here. Its header
 * says a stream (pipe), as attrs may be added after the start.
 */
int xpf_reader_open_live(xpf_reader **out, const char *name, struct xb_error *err);
/* Add an event of a live reader: its attr (native order), its sample ids, its name (copied;
 * NULL: none). 0 or a negative errno with err set. */
int xpf_reader_live_add_attr(xpf_reader *r, const struct perf_event_attr *attr,
			     const uint64_t *ids, uint32_t nr_ids, const char *name,
			     struct xb_error *err);


const struct xpf_header_info *xpf_reader_header(const xpf_reader *r);
const struct xpf_features *xpf_reader_features(const xpf_reader *r);

/*
 * Attrs. In pipe mode the list grows as HEADER_ATTR records are read. The pointers returned
 * stay valid until xpf_reader_close(), also while the list grows.
 */
uint32_t xpf_reader_nr_attrs(const xpf_reader *r);
const struct xpf_attr *xpf_reader_attr(const xpf_reader *r, uint32_t idx);
/* The attr that owns sample id `id`; NULL if none. */
const struct xpf_attr *xpf_reader_attr_by_id(const xpf_reader *r, uint64_t id);
/* The attr a record belongs to: the only one, or found through its id. NULL if unknown. */
const struct xpf_attr *xpf_reader_attr_of(const xpf_reader *r, const struct perf_event_header *hdr);

/*
 * Next record of the data section, in file order. COMPRESSED records are returned as
 * themselves (so counts match perf's --stats) and then their contents, one record at a
 * time, reassembling records that straddle two compressed records. User records that
 * describe the stream (HEADER_ATTR, HEADER_FEATURE, ... in pipe mode) are applied to the
 * reader's state and also returned.
 * Returns 1 with *rec filled, 0 at the end, or a negative errno with err naming the offset.
 * A file whose data size is 0 (recorder killed before finishing) or whose last record is
 * cut short ends normally (0) and sets a warning, see xpf_reader_warning().
 */
int xpf_reader_next(xpf_reader *r, struct xpf_record *rec, struct xb_error *err);

/*
 * Called by the reader, inside xpf_reader_next(), before it reuses or gives back the memory
 * [lo, hi) where `lasting` records it returned earlier may lie: a caller that keeps such
 * records (an ordering queue) copies those in the range before it returns.
 */
typedef void (*xpf_reuse_fn)(void *ctx, const void *lo, const void *hi);

/* Set the reuse hook (NULL: none). Without one, no record may be kept past the next call. */
void xpf_reader_set_reuse_hook(xpf_reader *r, xpf_reuse_fn fn, void *ctx);

/*
 * Decode a SAMPLE record with the attr it belongs to. When hdr is the record last returned
 * by xpf_reader_next(), the message names its file offset. -ENOENT if no attr owns its id.
 */
int xpf_reader_decode_sample(const xpf_reader *r, const struct perf_event_header *hdr,
			     struct xpf_sample *out, struct xb_error *err);

/* The one warning about the file (unfinished, truncated tail), or NULL. */
const char *xpf_reader_warning(const xpf_reader *r);

#endif
