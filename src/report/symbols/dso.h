/* The DSOs of a report: names, kinds, symbol tables loaded on first hit, and an address cache. */
#ifndef XPERF_REPORT_DSO_H
#define XPERF_REPORT_DSO_H

#include <stdbool.h>
#include <stdint.h>

#include "report/symbols/symtab.h"

enum dso_kind {
	DSO_USER,     /* an ELF file on disk; addresses are file offsets */
	DSO_KERNEL,   /* [kernel.kallsyms]; addresses are kernel virtual addresses */
	DSO_MODULE,   /* a kernel module ([name]); no symbols yet */
	DSO_VDSO,     /* [vdso]: read from this process, the same kernel's image */
	DSO_ANON,     /* anonymous executable memory (JIT): long name /tmp/perf-PID.map, shown
		       * as "[JIT] tid PID"; symbols from that file if it exists; absolute
		       * addresses */
};

struct dso {
	char *long_name;        /* as in the MMAP record (or perf's rewrite of it) */
	const char *short_name; /* what the Shared Object column shows */
	char *short_buf;        /* short_name when built, not borrowed from long_name */
	enum dso_kind kind;
	bool loaded;            /* a load was tried (successful or not) */
	bool hit;
	struct symtab syms;
};

typedef struct dso_table dso_table;

struct dso_table_opts {
	const char *kallsyms;   /* default /proc/kallsyms */
	const char *debug_root; /* default /usr/lib/debug */
};

/* opts may be NULL. The strings in opts must outlive the table. */
dso_table *dso_table_create(const struct dso_table_opts *opts);
void dso_table_free(dso_table *t);

/*
 * The id of the DSO named `filename` (an MMAP record's file name, "[kernel.kallsyms]",
 * "[vdso]", ...), added if new. `kernel`: the name came from a kernel map (pid -1).
 * Returns the id, or a negative errno.
 */
int64_t dso_table_findnew(dso_table *t, const char *filename, bool kernel);

/* The id of the kernel DSO ([kernel.kallsyms]), created on first use; negative errno. */
int64_t dso_table_kernel(dso_table *t);

uint32_t dso_table_nr(const dso_table *t);
struct dso *dso_table_get(const dso_table *t, uint32_t id);

/*
 * The symbol holding addr (a file offset for user DSOs, a virtual address for the kernel)
 * in DSO id: its index in the DSO's symtab, or -1. Loads the DSO's symbols on first use;
 * a DSO that fails to load keeps an empty table (perf shows raw addresses then).
 */
int64_t dso_table_resolve(dso_table *t, uint32_t id, uint64_t addr);

static inline const char *dso_sym_name(const struct dso *d, uint32_t idx)
{
	return symtab_name(&d->syms, idx);
}

#endif
