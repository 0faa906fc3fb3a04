/* Internals of the perf.data reader shared by its source files (not a public header). */
#ifndef XPF_READER_INT_H
#define XPF_READER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "format/xpf_reader.h"

#include "format/decompress.h"

/* One event id and the attr that claimed it first. */
struct id_entry {
	uint64_t id;
	uint32_t attr_idx;
};

struct xpf_reader {
	char *name;
	struct xpf_header_info hi;
	struct xpf_features feat;
	bool swap;

	/* attrs; pointers stay valid while the list grows (pipe mode) */
	struct xpf_attr **attrs;
	uint32_t nr_attrs, cap_attrs;
	struct id_entry *ids;
	uint32_t nr_ids, cap_ids;
	struct xb_slots id_index;  /* by id: index in ids + 1 */

	/* input: a whole image (mmap'd file, caller's buffer or slurped stream) ... */
	const uint8_t *map;
	uint64_t map_size;
	bool mapped;         /* map comes from mmap() */
	uint64_t dropped;    /* map pages below this offset were given back (MADV_DONTNEED) */
	void *owned;         /* map is this malloc'd buffer */
	/* ... or a stream read with a growing buffer, never seeked */
	int fd;
	bool stream;
	uint8_t *pbuf;
	size_t pcap, plen;   /* bytes of pbuf in use */
	uint64_t pbase;      /* stream offset of pbuf[0] */
	bool peof;

	/* iteration over the data section (file offsets) */
	uint64_t pos, end;
	bool end_soft;       /* end is a guess (unfinished or cut file): a short tail is a warning */
	bool done;

	struct xpf_decomp *dc;
	/* compressed payload bytes fed so far, and the bytes of records they gave: the ratio
	 * is bounded (XPF_INFLATE_RATIO_MAX) */
	uint64_t comp_in, comp_out;
	/* a file with at least pipe_min bytes of data (0: 1 MiB) is decompressed on a second
	 * thread in chunks of pipe_chunk bytes (0: the default); set before the first record */
	uint64_t pipe_min;
	size_t pipe_chunk;
	bool pipe_tried;
	xpf_reuse_fn reuse;  /* told before memory of lasting records is reused or dropped */
	void *reuse_ctx;

	/* the last record handed out, to name its offset in sample errors */
	const struct perf_event_header *last_hdr;
	uint64_t last_off;
	char **own_names;    /* attr names from EVENT_UPDATE records */
	uint32_t nr_own_names;

	uint8_t *scratch;    /* native-order or aligned copy of one record */
	char warning[512];
	/* why the data's end is a guess (header data size 0, or past the end of the file);
	 * the warning it gave at open is made precise once the cut is found */
	char soft_why[200];
	uint64_t last_comp_off; /* the last COMPRESSED record fed */
};

/* reader_swap.c: bring on-disk structures into native byte order. */
void xpf_swap_header(struct xpf_file_header *h);
/* attr bytes (size `size` as found in the file) in place */
void xpf_swap_attr(void *attr, uint32_t size);
/*
 * A whole record in place; the header is already native. attr (may be NULL) gives the
 * sample layout and whether kernel records carry a sample_id trailer.
 */
void xpf_swap_record(struct perf_event_header *hdr, const struct perf_event_attr *attr);
void xpf_swap_u64s(void *p, size_t n);

/* reader_attrs.c */
int xpf_reader_add_attr(struct xpf_reader *r, const void *attr_bytes, uint32_t attr_bytes_size,
			const void *ids, uint64_t nr_ids, bool swap_ids, struct xb_error *err);
void xpf_reader_free_attrs(struct xpf_reader *r);
void xpf_reader_name_attrs(struct xpf_reader *r);

/* reader_pipe.c: the stream source */
/* 1 with *out = bytes [off, off+n), 0 when the input ends first, negative errno on failure */
int xpf_src_get(struct xpf_reader *r, uint64_t off, uint64_t n, const uint8_t **out,
		struct xb_error *err);
int xpf_stream_slurp(int fd, const char *name, uint8_t **buf, size_t *size, const void *head,
		     size_t head_len, struct xb_error *err);


/* one warning per reader: the first one wins */
void xpf_reader_warn(struct xpf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The data ends at a cut, at file offset off, for the reason `what` ("a record is cut
 * short"): one line with soft_why, if the file's end was a guess from the start (replacing
 * the warning open gave), else the first warning as usual.
 */
void xpf_reader_warn_cut(struct xpf_reader *r, uint64_t off, const char *what);

#endif
