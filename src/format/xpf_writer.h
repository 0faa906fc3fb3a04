/* Writing perf.data files and pipe streams, zstd-compressed by default. */
#ifndef XPF_WRITER_H
#define XPF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"
#include "format/xpf_features.h"

typedef struct xpf_writer xpf_writer;

struct xpf_writer_opts {
	/* zstd level 1..22; 0 writes plain records. Callers wanting the default pass 1. */
	int compress_level;
	/*
	 * A file output (format/output.h): keep_old moves an existing file or symbolic link to
	 * PATH.old as perf does (else an existing regular file is truncated and a link
	 * refused); via_temp writes PATH.tmp.XXXXXX, renamed over PATH by xpf_writer_close,
	 * so PATH stays as it was until the file is complete. A link is never followed.
	 */
	bool keep_old, via_temp;
};

/*
 * Create `path` ("-": a pipe stream on standard output) and write a provisional header.
 * On success *out owns the file; finish with xpf_writer_close() or xpf_writer_abort().
 * On failure nothing is left: a file it created is removed, PATH.old goes back.
 */
int xpf_writer_open(xpf_writer **out, const char *path, const struct xpf_writer_opts *opts,
		    struct xb_error *err);
/* As xpf_writer_open on an open fd, which then belongs to the writer. pipe: stream format. */
int xpf_writer_open_fd(xpf_writer **out, int fd, bool pipe, const struct xpf_writer_opts *opts,
		       struct xb_error *err);

/* The temporary being written (via_temp), or NULL: for a signal handler to remove. */
const char *xpf_writer_temp_path(const xpf_writer *w);

/*
 * Add an event before the first record. The attr is written with size min(attr->size,
 * XPF_ATTR_SIZE_MAX); the writer forces sample_id_all. `name` (may be NULL) goes to
 * EVENT_DESC. All attrs must share sample_type and read_format: -EINVAL otherwise.
 */
int xpf_writer_add_attr(xpf_writer *w, const struct perf_event_attr *attr, const uint64_t *ids,
			uint32_t nr_ids, const char *name, struct xb_error *err);

/*
 * Features. In file mode they may be set any time before close; in pipe mode, before the
 * first record (they are emitted as HEADER_FEATURE records then). The writer copies f.
 * HOSTNAME, NRCPUS, EVENT_DESC and COMPRESSED are filled in by the writer when missing.
 */
int xpf_writer_set_features(xpf_writer *w, const struct xpf_features *f, struct xb_error *err);

/* Append one record (native byte order, header->size bytes). */
int xpf_writer_write(xpf_writer *w, const struct perf_event_header *rec, struct xb_error *err);

/*
 * End a round: compress and write what is buffered, then a FINISHED_ROUND record. Call
 * after each pass over the ring buffers. Also the crash-safety point: after it returns,
 * everything so far is on disk and readable by xpf_reader even if the process dies.
 * (File mode: the header then covers the data so far and points at a provisional feature
 * table written after it, so perf 6.1 reads a killed recording too, compressed or not;
 * payloads over 64 KiB, e.g. TRACING_DATA, are only written by close. No fsync.)
 * Pipe mode: perf 6.1 cannot `report --stats` or `-D` a compressed stream (its own
 * neither); callers that want those should pass compress_level 0 for pipes.
 */
int xpf_writer_finished_round(xpf_writer *w, struct xb_error *err);

/* Write a FINISHED_INIT record (after the synthesized records). */
int xpf_writer_finished_init(xpf_writer *w, struct xb_error *err);

/*
 * For the summary, what the output holds: bytes written (after compression; once finished,
 * the file's size), the uncompressed bytes of those records, and their SAMPLE records. After
 * a failed write, and once finished, these count only what the file kept (the last round).
 */
uint64_t xpf_writer_bytes_written(const xpf_writer *w);
uint64_t xpf_writer_bytes_in(const xpf_writer *w);
uint64_t xpf_writer_samples_written(const xpf_writer *w);

/*
 * Flush, write the feature sections and rewrite the header; w stays for the counters above
 * and is freed by xpf_writer_close. Returns 0 or a negative errno: after a failed write (a
 * full disk) the file is then what the last successful round left, features included, so
 * perf reads it too. Later calls return the same status.
 */
int xpf_writer_finish(xpf_writer *w, struct xb_error *err);

/*
 * xpf_writer_finish (unless done), close the file and free w. Accepts NULL. With via_temp,
 * the temporary is renamed over PATH if all went well, else removed (PATH untouched).
 */
int xpf_writer_close(xpf_writer *w, struct xb_error *err);

/*
 * Free w without finishing the file. A file xpf_writer_open created (or its temporary) is
 * removed and a PATH.old it made goes back to PATH; a file that was there (a device, an
 * empty file) or one given to xpf_writer_open_fd stays. Accepts NULL.
 */
void xpf_writer_abort(xpf_writer *w);

#endif
