/* The perf.data on-disk layout: constants and structs beyond linux/perf_event.h. */
#ifndef XPF_ABI_H
#define XPF_ABI_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * Authority: perf's tools/perf/util/header.c and session.c (6.1); the format document in
 * the kernel tree is older. Everything on disk is in the writer's byte order; the reader
 * detects the other order from the magic and swaps.
 */

#define XPF_MAGIC          0x32454c4946524550ULL /* "PERFILE2" read as a little-endian u64 */
#define XPF_MAGIC_SWAPPED  0x50455246494c4532ULL
#define XPF_HEADER_SIZE    104  /* struct xpf_file_header */
#define XPF_PIPE_HEADER_SIZE 16 /* magic + size, then records */
#define XPF_ATTR_SIZE_MAX  136  /* PERF_ATTR_SIZE_VER8: perf 6.1 refuses larger attrs */
#define XPF_RECORD_SIZE_MAX 65535 /* header.size is a u16 */
#define XPF_COMPRESSED_RECORD_MAX 65528 /* keep COMPRESSED records at or under this */

struct xpf_file_section {
	uint64_t offset;
	uint64_t size;
};

/* 256 feature bits, as perf's HEADER_FEAT_BITS. */
#define XPF_FEAT_BITS 256

struct xpf_file_header {
	uint64_t magic;
	uint64_t size;        /* sizeof(struct xpf_file_header) = 104 */
	uint64_t attr_size;   /* size of one attr entry: attr.size + sizeof(struct xpf_file_section) */
	struct xpf_file_section attrs;
	struct xpf_file_section data;
	struct xpf_file_section event_types; /* unused, zero */
	uint64_t adds_features[XPF_FEAT_BITS / 64];
};

struct xpf_pipe_header {
	uint64_t magic;
	uint64_t size; /* 16 */
};

/* Record types that perf itself defines (user records; the kernel's stop at 21). */
enum xpf_user_record_type {
	XPF_RECORD_HEADER_ATTR = 64,
	XPF_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	XPF_RECORD_HEADER_TRACING_DATA = 66,
	XPF_RECORD_HEADER_BUILD_ID = 67,
	XPF_RECORD_FINISHED_ROUND = 68,
	XPF_RECORD_ID_INDEX = 69,
	XPF_RECORD_AUXTRACE_INFO = 70,
	XPF_RECORD_AUXTRACE = 71,
	XPF_RECORD_AUXTRACE_ERROR = 72,
	XPF_RECORD_THREAD_MAP = 73,
	XPF_RECORD_CPU_MAP = 74,
	XPF_RECORD_STAT_CONFIG = 75,
	XPF_RECORD_STAT = 76,
	XPF_RECORD_STAT_ROUND = 77,
	XPF_RECORD_EVENT_UPDATE = 78,
	XPF_RECORD_TIME_CONV = 79,
	XPF_RECORD_HEADER_FEATURE = 80,
	XPF_RECORD_COMPRESSED = 81,
	XPF_RECORD_FINISHED_INIT = 82,
	XPF_RECORD_COMPRESSED2 = 83, /* newer perf: payload size field, 8-byte aligned */
	XPF_RECORD_TYPE_MAX
};

/* Feature bits (HEADER_* in perf's header.h). */
enum xpf_feature {
	XPF_FEAT_RESERVED = 0,
	XPF_FEAT_TRACING_DATA = 1,
	XPF_FEAT_BUILD_ID,
	XPF_FEAT_HOSTNAME,
	XPF_FEAT_OSRELEASE,
	XPF_FEAT_VERSION,
	XPF_FEAT_ARCH,
	XPF_FEAT_NRCPUS,
	XPF_FEAT_CPUDESC,
	XPF_FEAT_CPUID,
	XPF_FEAT_TOTAL_MEM,
	XPF_FEAT_CMDLINE,
	XPF_FEAT_EVENT_DESC,
	XPF_FEAT_CPU_TOPOLOGY,
	XPF_FEAT_NUMA_TOPOLOGY,
	XPF_FEAT_BRANCH_STACK,
	XPF_FEAT_PMU_MAPPINGS,
	XPF_FEAT_GROUP_DESC,
	XPF_FEAT_AUXTRACE,
	XPF_FEAT_STAT,
	XPF_FEAT_CACHE,
	XPF_FEAT_SAMPLE_TIME,
	XPF_FEAT_MEM_TOPOLOGY,
	XPF_FEAT_CLOCKID,
	XPF_FEAT_DIR_FORMAT,
	XPF_FEAT_BPF_PROG_INFO,
	XPF_FEAT_BPF_BTF,
	XPF_FEAT_COMPRESSED,
	XPF_FEAT_CPU_PMU_CAPS,
	XPF_FEAT_CLOCK_DATA,
	XPF_FEAT_HYBRID_TOPOLOGY,
	XPF_FEAT_PMU_CAPS,
	XPF_FEAT_LAST_KNOWN
};

/* PERF_RECORD_COMPRESSED: header, then zstd data up to header.size. */
struct xpf_compressed_record {
	struct perf_event_header header;
	char data[];
};

/* The HEADER_COMPRESSED feature payload. */
struct xpf_compressed_desc {
	uint32_t version;  /* 0 */
	uint32_t type;     /* 1 = zstd */
	uint32_t level;
	uint32_t ratio;
	uint32_t mmap_len; /* perf sizes its decompression buffer from this */
};
#define XPF_COMP_ZSTD 1

/* Name of a record type ("SAMPLE", "MMAP2", "FINISHED_ROUND"), as perf prints it; NULL if unknown. */
const char *xpf_record_type_name(uint32_t type);

/* Name of a feature bit ("HOSTNAME"); NULL if unknown. */
const char *xpf_feature_name(unsigned int feat);

#endif
