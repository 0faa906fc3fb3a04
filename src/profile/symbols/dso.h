/* The DSOs of a report: names, kinds, symbol tables loaded on first hit, and an address cache. */
#ifndef XPERF_REPORT_DSO_H
#define XPERF_REPORT_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/symbols/symtab.h"

enum xpp_dso_kind {
	XPP_DSO_USER,     /* an ELF file on disk; addresses are file offsets */
	XPP_DSO_KERNEL,   /* [kernel.kallsyms]; addresses are kernel virtual addresses */
	XPP_DSO_MODULE,   /* a kernel module ([name]); no symbols yet */
	XPP_DSO_VDSO,     /* [vdso]: read from this process, the same kernel's image */
	XPP_DSO_ANON,     /* anonymous executable memory (JIT): long name /tmp/perf-PID.map, shown
		       * as "[JIT] tid PID"; symbols from that file if it exists; absolute
		       * addresses */
};

struct xpp_dso {
	char *long_name;        /* as in the MMAP record (or perf's rewrite of it) */
	const char *short_name; /* what the Shared Object column shows */
	char *short_buf;        /* short_name when built, not borrowed from long_name */
	enum xpp_dso_kind kind;
	bool loaded;            /* a load was tried (successful or not) */
	bool hit;
	struct xpp_symtab syms;
	/* the build-id recorded for it (BUILD_ID feature, MMAP2 records), 0 bytes: none */
	uint8_t build_id[20];
	uint8_t build_id_size;
	/* perf's order of making its DSOs (which it compares by address, so the order they
	 * were allocated in): those the BUILD_ID feature lists, in its order (perf makes them
	 * as it reads the header), then the others as the records meet them */
	uint32_t made;
	/* its file (or kernel) has another build-id and the recorded one was found nowhere:
	 * no symbols were read (set by the load) */
	bool build_id_mismatch;
	char *file;             /* the file with its code, when not long_name (see
				   xpp_dso_table_file()) */
	bool no_file;           /* no file with its recorded code is known */
	/* the kernel's: its kallsyms showed every address as 0 (kptr_restrict, or not allowed
	 * them): no symbols, its samples are shown by address */
	bool addrs_hidden;
	/* the file the profile names for it was refused (a FIFO, a device, a directory, too
	 * large, a perf-PID.map of another user), never read: "'PATH': why", else NULL */
	char *refused;
};

struct xpf_build_id_entry;

typedef struct xpp_dso_table xpp_dso_table;

struct xpp_dso_table_opts {
	const char *kallsyms;   /* default /proc/kallsyms (or the recorded kernel's, see below) */
	const char *vmlinux;    /* perf's --vmlinux: the kernel's symbols from this ELF file
				   (xpp_elf_vmlinux_load()), kallsyms unread; NULL: kallsyms */
	const char *debug_root; /* default /usr/lib/debug (under symfs when given) */
	bool no_demangle;       /* symbol names as the files have them */
	bool objects;           /* files' variables too (struct xpp_symtab's objects) */
	const char *symfs;      /* perf's --symfs: files are looked for under it; NULL: / */
	const char *buildid_dir;/* perf's build-id cache (~/.debug); NULL: none */
	const char *kallsyms_cache; /* the kallsyms cache's directory; NULL: none */
	struct xpp_debuginfod *debuginfod; /* servers asked for missing debug files; NULL:
					      none (borrowed: it outlives the table) */
};

/* opts may be NULL. The strings in opts must outlive the table. */
xpp_dso_table *xpp_dso_table_create(const struct xpp_dso_table_opts *opts);
void xpp_dso_table_free(xpp_dso_table *t);

/*
 * The id of the DSO named `filename` (an MMAP record's file name, "[kernel.kallsyms]",
 * "[vdso]", ...), added if new. `kernel`: the name came from a kernel map (pid -1).
 * Returns the id, or a negative errno.
 */
int64_t xpp_dso_table_findnew(xpp_dso_table *t, const char *filename, bool kernel);

/*
 * Start reading the kernel's symbols on another thread, for a file whose samples may be in
 * the kernel; the first kernel address resolved waits for it. Without a thread, symbols
 * are read on first use as usual.
 */
void xpp_dso_table_prefetch_kernel(xpp_dso_table *t);

/*
 * Whether the prefetch is still reading: resolving a kernel address now would wait for
 * it. The pass puts kernel samples aside meanwhile and goes on with the others.
 */
bool xpp_dso_table_kernel_pending(const xpp_dso_table *t);

/*
 * The build-ids the file recorded (its BUILD_ID feature; borrowed, must outlive the
 * table): DSOs created from now on take theirs by file name. Call before the pass.
 */
void xpp_dso_table_set_recorded(xpp_dso_table *t, const struct xpf_build_id_entry *e,
				uint32_t nr);

/* A build-id for DSO id from an MMAP2 record; the first one given stays. */
void xpp_dso_set_build_id(xpp_dso_table *t, uint32_t id, const uint8_t *bid, uint8_t size);

/*
 * The path of the ELF file that holds the DSO's code as recorded (the mapped file, under
 * symfs, or a build-id cache copy), for readers of its code (the unwinder); NULL when there
 * is none (no file, or a build-id mismatch). Loads the DSO's symbols first.
 */
const char *xpp_dso_table_file(xpp_dso_table *t, uint32_t id);

/*
 * The ELF image of a [vdso] DSO: this process's vdso, which is the running kernel's, when
 * the recorded build-id (if any) agrees; NULL otherwise, or when the DSO is not the vdso.
 * The image is not owned by the caller. Loads the DSO's symbols first.
 */
const void *xpp_dso_table_vdso_image(xpp_dso_table *t, uint32_t id, size_t *size);

/* The id of the kernel DSO ([kernel.kallsyms]), created on first use; negative errno. */
int64_t xpp_dso_table_kernel(xpp_dso_table *t);

uint32_t xpp_dso_table_nr(const xpp_dso_table *t);
struct xpp_dso *xpp_dso_table_get(const xpp_dso_table *t, uint32_t id);

/*
 * The symbol holding addr (a file offset for user DSOs, a virtual address for the kernel)
 * in DSO id: its index in the DSO's symtab, or -1. Loads the DSO's symbols on first use;
 * a DSO that fails to load keeps an empty table (perf shows raw addresses then).
 */
int64_t xpp_dso_table_resolve(xpp_dso_table *t, uint32_t id, uint64_t addr);

/*
 * Whether DSO id may have a symbol named `name` (as xpp_dso_sym_name() names them), asked
 * before its symbols are loaded: false only when its file's symbol table certainly has
 * none, so a view looking for one name need not load the DSO's symbols. A DSO already
 * loaded, not a file, or whose file cannot be read: true.
 */
bool xpp_dso_table_may_have(xpp_dso_table *t, uint32_t id, const char *name);

/*
 * One line naming the files the profile names that were refused (xpp_dso.refused), for a
 * warning: into buf, or false when there were none. Each file is named once, however many
 * samples it had; a long list ends with "...".
 */
bool xpp_dso_table_refused_line(const xpp_dso_table *t, char *buf, size_t size);

/*
 * Whether perf's addr2line (binutils: perf 6.1 runs it as a command) names a function at
 * DSO address addr of a loaded DSO whose DWARF gives no line there. bfd then takes the
 * nearest symbol at or before the address, whatever its size, and answers "name, ??:?",
 * which perf prints as "??:0"; with no symbol before it in its section (a PLT section
 * has none) it answers "??, ??:0", which perf takes for a failure and replaces with
 * "sym+offset" or "dso[address]". Only ELF files on disk: addr2line reads nothing else.
 */
bool xpp_dso_a2l_names_function(const struct xpp_dso *d, uint64_t addr);

/*
 * Where xpp_dso_a2l_names_function(), the source file bfd names with the function: the
 * STT_FILE symbol the function's symbol belongs to (struct xpp_sym.file), base name, which
 * perf prints as "string-table.cc:0"; NULL where it names none ("??:0").
 */
const char *xpp_dso_a2l_file(const struct xpp_dso *d, uint64_t addr);

static inline const char *xpp_dso_sym_name(const struct xpp_dso *d, uint32_t idx)
{
	return xpp_symtab_name(&d->syms, idx);
}

#endif
