/* The feature sections of a perf.data file, decoded: what the reader fills and the writer writes. */
#ifndef XPF_FEATURES_H
#define XPF_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/xpf_abi.h"
#include "base/error.h"

struct xpf_build_id_entry {
	int32_t pid;          /* -1 for the kernel and shared objects, as perf writes */
	uint16_t misc;        /* PERF_RECORD_MISC_KERNEL / _USER ... */
	uint8_t size;         /* bytes of build_id in use (20 for SHA-1) */
	uint8_t build_id[20];
	char *filename;       /* owned */
};

struct xpf_event_desc {
	char *name;           /* owned */
	uint64_t *ids;        /* owned */
	uint32_t nr_ids;
	struct perf_event_attr attr;
};

/*
 * Decoded features. A feature is present when its bit is set in `present`; the fields it
 * fills are then valid. All pointers are owned by the struct: xpf_features_free() releases
 * them. The writer copies what it is given.
 */
struct xpf_features {
	uint64_t present[XPF_FEAT_BITS / 64];

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_online, nr_cpus_avail;  /* NRCPUS */
	uint64_t total_mem_kb;                   /* TOTAL_MEM */
	char **cmdline; uint32_t cmdline_argc;   /* CMDLINE */

	struct xpf_event_desc *event_desc; uint32_t nr_event_desc;   /* EVENT_DESC */
	struct xpf_build_id_entry *build_ids; uint32_t nr_build_ids; /* BUILD_ID */

	uint64_t sample_time_first, sample_time_last;  /* SAMPLE_TIME, ns */
	struct xpf_compressed_desc compressed;         /* COMPRESSED */
	uint64_t clockid_res_ns;                       /* CLOCKID */

	/* CPU_TOPOLOGY: sibling lists as strings ("0-1"), owned */
	char **core_siblings; uint32_t nr_core_siblings;
	char **thread_siblings; uint32_t nr_thread_siblings;

	/* PMU_MAPPINGS: type -> name */
	struct xpf_pmu_mapping { uint32_t type; char *name; } *pmu_mappings;
	uint32_t nr_pmu_mappings;

	/* GROUP_DESC */
	struct xpf_group_desc { char *name; uint32_t leader_idx, nr_members; } *groups;
	uint32_t nr_groups;

	/*
	 * Features we keep as raw bytes (payload as found, in file byte order), so --header-only
	 * can at least show their size and pipe/file round trips keep them. Indexed by bit.
	 */
	struct xpf_raw_feature { void *data; uint64_t size; } raw[XPF_FEAT_LAST_KNOWN];
};

static inline bool xpf_features_has(const struct xpf_features *f, unsigned int bit)
{
	return bit < XPF_FEAT_BITS && (f->present[bit / 64] >> (bit % 64)) & 1;
}
static inline void xpf_features_mark(struct xpf_features *f, unsigned int bit)
{
	if (bit < XPF_FEAT_BITS)
		f->present[bit / 64] |= 1ULL << (bit % 64);
}

/* Release everything the struct owns and zero it. Accepts NULL. */
void xpf_features_free(struct xpf_features *f);

/*
 * Decode one feature payload (file byte order given by `swap`) into f. `file_offset` is
 * where the payload starts, for error messages. Unknown bits are kept raw. Every count and
 * length is checked against `size`.
 */
int xpf_feature_decode(struct xpf_features *f, unsigned int bit, const void *payload,
		       uint64_t size, bool swap, uint64_t file_offset, struct xb_error *err);

/*
 * Encode feature `bit` of f into a newly allocated buffer (*out, *out_size), native byte
 * order, padded as perf pads. -ENOENT if f does not hold that feature.
 */
int xpf_feature_encode(const struct xpf_features *f, unsigned int bit, void **out,
		       uint64_t *out_size, struct xb_error *err);

/* Convenience setters for writers: copy the string(s) and mark the bit. */
int xpf_features_set_string(struct xpf_features *f, unsigned int bit, const char *value);
int xpf_features_set_cmdline(struct xpf_features *f, int argc, const char *const *argv);
int xpf_features_add_build_id(struct xpf_features *f, int32_t pid, uint16_t misc,
			      const uint8_t *build_id, uint8_t size, const char *filename);
int xpf_features_add_event_desc(struct xpf_features *f, const struct perf_event_attr *attr,
				const char *name, const uint64_t *ids, uint32_t nr_ids);

/* Keep `size` bytes as the raw payload of a feature we do not decode (TRACING_DATA, CACHE...). */
int xpf_features_set_raw(struct xpf_features *f, unsigned int bit, const void *data,
			 uint64_t size);

/*
 * Every feature src has, copied into dst over the same feature there; dst's other features
 * stay. On an error the features before the failing one are already copied.
 */
int xpf_features_merge(struct xpf_features *dst, const struct xpf_features *src,
		       struct xb_error *err);

/* Deep copy of src into dst (which is overwritten, not freed first). */
int xpf_features_copy(struct xpf_features *dst, const struct xpf_features *src,
		      struct xb_error *err);

#endif
