/* The report's model of the recorded system: threads and their names, process maps, DSOs. */
#ifndef XPERF_REPORT_SESSION_H
#define XPERF_REPORT_SESSION_H

#include <stdbool.h>
#include <stdint.h>

/* A function symbol: [start, end) in the DSO's own address space (ELF vaddr). */
struct rsym {
	uint64_t start, end;
	const char *name;
};

/* One loaded segment of an ELF file: file offset -> vaddr. */
struct rseg {
	uint64_t off, vaddr, size;
};

/* A mapped object: an ELF file, the kernel, the vdso, or an anonymous/unknown region. */
struct dso {
	char *name;             /* as the MMAP record says: path, "[kernel.kallsyms]", "[vdso]" */
	const char *short_name; /* basename, as perf's "Shared Object" column shows it */
	bool kernel;
	bool loaded;            /* symbols looked for (lazily, on the first sample that hits it) */
	bool identity;          /* addresses are used as they are (kernel): no segment mapping */
	struct rsym *syms;
	uint32_t nr_syms;
	struct rseg *segs;
	uint32_t nr_segs;
	char *strings;          /* symbol names, owned */
	struct dso *next;
};

struct session;

struct session *session_new(void);
void session_free(struct session *s);

/* Record handlers; `time` is the record's sample time (0 when it has none). */
int session_comm(struct session *s, int32_t pid, int32_t tid, const char *comm, uint64_t time);
int session_fork(struct session *s, int32_t pid, int32_t ppid, int32_t tid, int32_t ptid,
		 uint64_t time);
int session_mmap(struct session *s, int32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		 const char *filename, uint64_t time);

/* Where a sample's ip lands. */
struct resolved {
	const char *comm;       /* interned: equal names are equal pointers */
	struct dso *dso;        /* NULL: no map covers ip */
	const struct rsym *sym; /* NULL: no symbol covers it */
	uint64_t addr;          /* map-relative address (ip when no map) */
	char level;             /* 'k' kernel, '.' user, 'g', 'u' guest, 'H' hypervisor */
};

int session_resolve(struct session *s, int32_t pid, int32_t tid, uint64_t ip, uint64_t time,
		    uint16_t misc, struct resolved *out);

/* Symbols (symbols.c): load a DSO's table once; look an address up in it. */
void dso_load_symbols(struct dso *d);
const struct rsym *dso_find_symbol(const struct dso *d, uint64_t addr);
void dso_free_symbols(struct dso *d);

#endif
