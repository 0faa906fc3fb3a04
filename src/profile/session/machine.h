/* The thread and map model of a report: threads, processes and their maps, from side-band records. */
#ifndef XPERF_REPORT_MACHINE_H
#define XPERF_REPORT_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "profile/session/intern.h"
#include "profile/symbols/dso.h"

/* One executable mapping: [start, end) of a process (or of the kernel) backed by a DSO. */
struct xpp_map {
	uint64_t start, end, pgoff;
	uint32_t dso;
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
