/* Decoding PERF_RECORD_SAMPLE bodies and the sample_id_all trailers of other records. */
#ifndef XPF_SAMPLE_H
#define XPF_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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

/* Bits set in x, without the libgcc call __builtin_popcountll is on plain x86-64. */
static inline unsigned int xpf_bits_of(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((x * 0x0101010101010101ULL) >> 56);
}

/* The fields of one word each that may come before PERIOD; with CALLCHAIN, most files' layout. */
#define XPF_SAMPLE_FIXED_BITS                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |          \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |            \
	 PERF_SAMPLE_PERIOD)

/* A sample of that layout: its one-word fields (0 where sample_type has none) and chain. */
struct xpf_sample_fixed {
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t nr;            /* PERF_SAMPLE_CALLCHAIN: nr ips from ips */
	const uint64_t *ips;
};

/*
 * The common layout (fixed words, then at most a call chain) without the field-by-field
 * walk: a large file is a million of these. True exactly when the record (native byte
 * order, 8-byte aligned) is that layout, and then xpf_sample_decode() succeeds with the same
 * values; false for any other layout or a wrong size (the careful walk then says what is
 * wrong). A pass that looks a repeated sample up by these fields needs no struct
 * xpf_sample until it misses.
 *
 * Inlined, always: as a call (GCC left it one, even within the LTO unit of the pass) the
 * fields came back through memory and the sample cache's hashing of them stalled; annotate's
 * pass then took 13% more CPU than with the whole decoding.
 */
static inline __attribute__((always_inline)) bool
xpf_sample_decode_fixed(uint64_t t, const struct perf_event_header *hdr,
			struct xpf_sample_fixed *f)
{
	const uint64_t *w = (const uint64_t *)(const void *)(hdr + 1);
	size_t nw = (hdr->size - sizeof(*hdr)) / 8, i = 0;

	if ((t & ~(uint64_t)(XPF_SAMPLE_FIXED_BITS | PERF_SAMPLE_CALLCHAIN)) || (hdr->size & 7) ||
	    ((uintptr_t)hdr & 7) || hdr->type != PERF_RECORD_SAMPLE ||
	    nw < xpf_bits_of(t) || hdr->size < sizeof(*hdr))
		return false;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		size_t at = xpf_bits_of(t & XPF_SAMPLE_FIXED_BITS);

		/* the chain must fill the rest exactly */
		if (w[at] != nw - at - 1)
			return false;
	} else if (nw != xpf_bits_of(t)) {
		return false;
	}
	*f = (struct xpf_sample_fixed){ 0 };
	if (t & PERF_SAMPLE_IDENTIFIER)
		f->id = w[i++];
	if (t & PERF_SAMPLE_IP)
		f->ip = w[i++];
	if (t & PERF_SAMPLE_TID) {
		memcpy(&f->pid, &w[i], 4);
		memcpy(&f->tid, (const char *)&w[i] + 4, 4);
		i++;
	}
	if (t & PERF_SAMPLE_TIME)
		f->time = w[i++];
	if (t & PERF_SAMPLE_ADDR)
		f->addr = w[i++];
	if (t & PERF_SAMPLE_ID)
		f->id = w[i++];
	if (t & PERF_SAMPLE_STREAM_ID)
		f->stream_id = w[i++];
	if (t & PERF_SAMPLE_CPU)
		memcpy(&f->cpu, &w[i++], 4);
	if (t & PERF_SAMPLE_PERIOD)
		f->period = w[i++];
	if (t & PERF_SAMPLE_CALLCHAIN) {
		f->nr = w[i];
		f->ips = &w[i + 1];
	}
	return true;
}

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
