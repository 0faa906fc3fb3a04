/* Internal to libxperf-format: packing the record stream into PERF_RECORD_COMPRESSED records. */
#ifndef XPF_COMPRESS_H
#define XPF_COMPRESS_H

#include <stddef.h>

#include "format/feature_io.h"

/*
 * At most this many input bytes go into one zstd flush, and a flush always fits one
 * COMPRESSED record (ZSTD_compressBound of it is below XPF_COMPRESSED_RECORD_MAX). So no
 * record decompresses to more than this, and none decompresses to nothing (perf 6.1 treats
 * an empty result as an error). It is what we write as HEADER_COMPRESSED mmap_len.
 */
#define XPF_COMP_CHUNK (63 * 1024)

struct xpf_compressor;

/* level 1..22 */
int xpf_compressor_create(struct xpf_compressor **out, int level, struct xb_error *err);
void xpf_compressor_free(struct xpf_compressor *c);

/*
 * Compress len bytes of records (one zstd stream for the whole file, as perf does) and
 * append whole COMPRESSED records to out. Records in src may straddle two COMPRESSED
 * records; the concatenated decompressed payloads are src.
 */
int xpf_compress_records(struct xpf_compressor *c, const void *src, size_t len, struct fbuf *out,
			 struct xb_error *err);

#endif
