/* libxperf-events: COMM/MMAP2 records synthesized for threads and maps that existed before
 * recording (record and top share them). */
#ifndef XPE_SYNTH_H
#define XPE_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "base/error.h"

/* perf keeps 20 bytes of a build id */
#define XPE_SYNTH_BUILD_ID_MAX 20

/*
 * Records are built in native byte order and handed to `emit` one at a time; the buffer
 * is only valid during the call. emit returns 0 or a negative errno, which stops the
 * synthesis and is returned.
 *
 * Each record carries the sample_id_all trailer laid out for `sample_type` (TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER). As perf does, the trailer is zero (time 0, so ordered
 * delivery puts these records first) except ID/IDENTIFIER, which take `id`: pass 0
 * (perf's "synthesized" id, which perf report maps to the first event) unless you have a
 * reason.
 */
typedef int (*xpe_emit_fn)(void *ctx, const struct perf_event_header *rec);

/* The bodies of the records synthesized (after the header), as the kernel lays them out. */
/* PERF_RECORD_MMAP2 body; the 24 bytes after pgoff hold maj/min/ino/ino_generation, or a
 * build id when misc has PERF_RECORD_MISC_MMAP_BUILD_ID. */
struct xpe_mmap2_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size;
			uint8_t reserved_1;
			uint16_t reserved_2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct xpe_mmap_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct xpe_comm_body {
	uint32_t pid, tid;
	char comm[];
};


struct xpe_synth {
	uint64_t sample_type;   /* the file's attr.sample_type (all attrs share it) */
	bool sample_id_all;     /* append the trailer; xperf always sets it */
	uint64_t id;            /* value for PERF_SAMPLE_ID / _IDENTIFIER in the trailer */
	bool build_ids;         /* MMAP2 carry build ids read from ELF notes
				   (PERF_RECORD_MISC_MMAP_BUILD_ID), as attr.build_id would */
	bool data_mmaps;        /* also the readable non-executable mappings, misc
				   PERF_RECORD_MISC_MMAP_DATA (perf's mmap_data: -d and
				   --call-graph dwarf) */
	const char *proc;       /* procfs root, NULL for "/proc" (tests use a fake one) */
	xpe_emit_fn emit;
	void *emit_ctx;
};

/*
 * The kernel map, as perf synthesizes it for every target: one MMAP record, pid -1,
 * misc KERNEL, filename "[kernel.kallsyms]_text", start = the _text address from
 * /proc/kallsyms (pgoff = start), len up to the end of the address space. When kallsyms
 * hides addresses (all zero, kptr_restrict) nothing is emitted and 0 is returned.
 * Then one MMAP per loaded module from /proc/modules (filename = the module's path under
 * /lib/modules/`uname -r`/ when found, else "[name]").
 */
int xpe_synth_kernel(const struct xpe_synth *s, struct xb_error *err);

/*
 * One existing process, for -p, in perf's order: the leader's COMM, MMAP2 for every
 * executable mapping of /proc/PID/maps (pid = tid = PID, misc USER, prot/flags from the
 * permissions; with data_mmaps also every readable one, anonymous ones named "//anon"
 * unless the kernel names them, e.g. "[heap]"), then COMM (pid = PID, tid) for each other thread of /proc/PID/task. perf
 * 6.1 writes no FORK for them: the COMM's pid/tid pair ties a thread to its process.
 * A process that exits meanwhile is not an error (returns 0 having emitted what it could).
 */
int xpe_synth_process(const struct xpe_synth *s, pid_t pid, struct xb_error *err);

/* One thread only, for -t TID: COMM for TID (pid = its tgid), MMAP2 of its process. */
int xpe_synth_thread(const struct xpe_synth *s, pid_t tid, struct xb_error *err);

/* Every process in /proc, for -a (and -C): xpe_synth_process for each, skipping races. */
int xpe_synth_all(const struct xpe_synth *s, struct xb_error *err);

#endif
