/* The thread and map model of a report: threads, processes and their maps, from side-band records. */
#ifndef XPERF_REPORT_MACHINE_H
#define XPERF_REPORT_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "profile/session/intern.h"
#include "profile/symbols/dso.h"

/*
 * One executable mapping: [start, end) of a process (or of the kernel) backed by a DSO; or,
 * where the machine keeps data maps (xpp_machine_keep_data()), a data mapping (`data` 1 a
 * file's, 2 memory without a file, addressed as is), which code lookups pass over. maj,
 * min, ino, ino_gen: the file's id as MMAP2 gave it (perf's dso_id, 0s without one);
 * shared: mapped MAP_SHARED (what perf's dcacheline key reads of a data address's map).
 */
struct xpp_map {
	uint64_t start, end, pgoff;
	uint64_t ino, ino_gen;
	uint32_t maj, min;
	uint32_t dso;
	uint8_t data;
	bool shared;
};

struct xpp_thread {
	int32_t tid, pid;
	uint32_t comm;    /* intern id of its current name */
	uint32_t proc;    /* index of its process (shared by the threads of one pid) */
};

typedef struct xpp_machine xpp_machine;

/*
 * The machine borrows dsos and comms (they outlive it): comm names are interned into
 * `comms`, map file names become DSOs of `dsos`.
 */
xpp_machine *xpp_machine_create(xpp_dso_table *dsos, xpp_intern *comms);
void xpp_machine_free(xpp_machine *m);

/*
 * Apply one side-band record in its time order: COMM, FORK, EXIT, MMAP, MMAP2 (others are
 * ignored). hdr is the whole record, native byte order. 0, or a negative errno (only for
 * memory exhaustion: malformed records are ignored, as perf skips them).
 */
int xpp_machine_apply(xpp_machine *m, const struct perf_event_header *hdr);

/* The thread of (pid, tid), created (named ":tid", as perf does) if unknown; NULL on ENOMEM. */
struct xpp_thread *xpp_machine_thread(xpp_machine *m, int32_t pid, int32_t tid);

/*
 * Where ip lands for a sample of thread th in cpumode (PERF_RECORD_MISC_CPUMODE_MASK bits):
 * fills *dso and *addr (the address inside the DSO: a file offset for files) and returns
 * true; false when no map holds ip. Kernel-mode ips outside every kernel map are taken as
 * [kernel.kallsyms] addresses.
 */
bool xpp_machine_resolve_ip(xpp_machine *m, const struct xpp_thread *th, uint16_t cpumode, uint64_t ip,
			uint32_t *dso, uint64_t *addr);

/*
 * Keep data maps too (MMAP records with PERF_RECORD_MISC_MMAP_DATA, MMAP2 ones without
 * PROT_EXEC), as perf's one tree of maps per thread: a data map over code hides that code,
 * as perf's. Off by default: code lookups then see executable maps only.
 */
void xpp_machine_keep_data(xpp_machine *m);

/*
 * perf's ip__resolve_data(): where a sample's data address lands, in cpumode's maps (the
 * kernel's for a kernel-mode sample, whatever the address), code or data, with no fallback:
 * *dso and *al_addr (the address in the map, as perf's map_ip(): identity for memory
 * without a file and the kernel) and true; false when no map holds addr. The map itself
 * in *map where map is not NULL (valid until the next xpp_machine_apply()).
 */
bool xpp_machine_resolve_data(xpp_machine *m, const struct xpp_thread *th, uint16_t cpumode,
			      uint64_t addr, uint32_t *dso, uint64_t *al_addr,
			      const struct xpp_map **map);

/*
 * Per-process access for consumers that keep their own state per address space (the DWARF
 * unwinder keeps one Dwfl per process): `proc` is an xpp_thread's proc index, stable for
 * the machine's life. The map of ip in that process (executable maps only), or NULL; the
 * pointer is valid until the next xpp_machine_apply().
 */
const struct xpp_map *xpp_machine_proc_map(xpp_machine *m, uint32_t proc, uint64_t ip);
/* A number that changes whenever the process's maps change (mmap, fork over a reused pid). */
uint32_t xpp_machine_proc_gen(const xpp_machine *m, uint32_t proc);
int32_t xpp_machine_proc_pid(const xpp_machine *m, uint32_t proc);

#endif
