/* Decoding PERF_RECORD_SAMPLE bodies and the sample_id_all trailers of other records. */
#ifndef XPF_SAMPLE_H
#define XPF_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"

/* PERF_SAMPLE_READ values, as laid out by read_format. */
struct xpf_read_values {
	uint64_t time_enabled, time_running; /* when read_format asks for them */
	uint64_t nr;                         /* 1 unless PERF_FORMAT_GROUP */
	/*
	 * PERF_FORMAT_GROUP: nr entries of {value, [id], [lost]}, `stride` u64s apart; points
	 * into the record. Without GROUP the one entry is not contiguous in the record (the
	 * times sit between value and id), so entries is NULL and value/id/lost hold it.
	 * Use xpf_read_entry() to read either form.
	 */
	const uint64_t *entries;
	uint32_t stride;
	bool has_id, has_lost;
	uint64_t value, id, lost; /* entry 0 (the only one without GROUP) */
};

/* Entry i (< rv->nr) of a PERF_SAMPLE_READ value; id/lost are 0 when not in read_format. */
static inline void xpf_read_entry(const struct xpf_read_values *rv, uint64_t i, uint64_t *value,
				  uint64_t *id, uint64_t *lost)
{
	if (!rv->entries) {
		*value = rv->value, *id = rv->id, *lost = rv->lost;
		return;
	}
	const uint64_t *e = rv->entries + i * rv->stride;
	*value = e[0];
	*id = rv->has_id ? e[1] : 0;
	*lost = rv->has_lost ? e[rv->has_id ? 2 : 1] : 0;
}

/*
 * A decoded sample. Only fields whose PERF_SAMPLE_* bit is in `type` are valid; the rest
 * are zero. Pointers point into the record passed to xpf_sample_decode() and live as long
 * as it does.
 */
struct xpf_sample {
	uint64_t type;          /* attr.sample_type this was decoded with */
	uint64_t id, ip, time, addr, stream_id, period, weight, data_src, transaction;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint32_t pid, tid, cpu;
	/* PERF_SAMPLE_WEIGHT_STRUCT: weight holds var1_dw; these hold the other parts */
	uint16_t weight_var2, weight_var3;

	struct xpf_read_values read;

	struct { uint64_t nr; const uint64_t *ips; } callchain;
	struct { uint32_t size; const void *data; } raw;
	struct {
		uint64_t nr;
		uint64_t hw_idx;   /* valid when has_hw_idx (PERF_SAMPLE_BRANCH_HW_INDEX) */
		bool has_hw_idx;
		const struct perf_branch_entry *entries;
	} branch_stack;
	struct { uint64_t abi; uint64_t mask; uint32_t nr; const uint64_t *regs; } user_regs, intr_regs;
	struct { uint64_t size; uint64_t dyn_size; const void *data; } user_stack;
	struct { uint64_t size; const void *data; } aux;
};

/*
 * Decode a PERF_RECORD_SAMPLE record (native byte order) as described by attr. Every
 * variable-length part is checked against header->size; -EINVAL with a message naming the
 * field that overruns.
 */
int xpf_sample_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
		      struct xpf_sample *out, struct xb_error *err);

/*
 * Decode a PERF_RECORD_READ (a thread's counts at its exit, attr.inherit_stat): the pid and
 * tid, then the values as attr->read_format lays them out. -EINVAL with err when the record
 * is not a READ or is too short for its read_format.
 */
int xpf_read_event_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
			  uint32_t *pid, uint32_t *tid, struct xpf_read_values *rv,
			  struct xb_error *err);

/*
 * Decode the sample_id trailer of a non-sample record (attr.sample_id_all): fills the
 * pid/tid, time, id/stream_id, cpu and identifier fields of out. -ENOENT if attr has no
 * sample_id_all or the record type carries none.
 */
int xpf_sample_id_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
			 struct xpf_sample *out, struct xb_error *err);

/* Bytes of the sample_id trailer that sample_id_all appends to a non-sample record. */
unsigned int xpf_sample_id_size(uint64_t sample_type);

/* Byte offset (from the record header) of TIME in a PERF_RECORD_SAMPLE; -1 without TIME. */
int xpf_sample_time_offset(uint64_t sample_type);

/*
 * The one place that knows where TIME sits in a record: a sample's TIME field, or the
 * sample_id trailer's of another kernel record (sample_id_all). false when the record
 * carries none (no TIME in sample_type, no trailer, a user record, too short).
 */
bool xpf_record_time(uint64_t sample_type, bool sample_id_all, const struct perf_event_header *hdr,
		     uint64_t *time);

/*
 * Where a record keeps its event id, so a reader can find the attr of a record when a file
 * has several: returns the id through *id, or -ENOENT when the sample_type carries no id.
 */
int xpf_record_id(uint64_t sample_type, bool sample_id_all, const struct perf_event_header *hdr,
		  uint64_t *id);

#endif
