/* Loaders that fill a symtab: ELF files (with their debug files), ELF images in memory, kallsyms. */
#ifndef XPERF_REPORT_SYMBOLS_LOAD_H
#define XPERF_REPORT_SYMBOLS_LOAD_H

#include <stddef.h>

#include "base/error.h"
#include "profile/symbols/symtab.h"

/*
 * The function symbols of the ELF file at `path`, with addresses as offsets in that file
 * (what a sample's ip minus its map's start plus pgoff gives). The symbols come, as perf
 * takes them, from the first .symtab found in: the build-id debug file
 * (/usr/lib/debug/.build-id/xx/yyy.debug), the .gnu_debuglink file, the file itself; else
 * from the file's .dynsym. `debug_root` replaces /usr/lib/debug (tests), NULL for it.
 * t is finished on success (symtab_finish). 0 or a negative errno with err set.
 */
int xpp_elf_syms_load(struct xpp_symtab *t, const char *path, const char *debug_root,
		  struct xb_error *err);

/*
 * The file holding the DWARF line tables of the ELF file at `path`, looked for where
 * xpp_elf_syms_load() looks for symbols (build-id debug file, .gnu_debuglink, the file
 * itself): its name into out. 0, or a negative errno (-ENOENT: no line tables anywhere).
 */
int xpp_elf_dwarf_file(const char *path, const char *debug_root, char *out, size_t size);

/* The same for an ELF image in memory (the vdso); no debug files are looked for. */
int xpp_elf_syms_load_mem(struct xpp_symtab *t, const void *image, size_t size, struct xb_error *err);

/* The vdso of this process, which is the same kernel's vdso: its image and size, or NULL. */
const void *xpp_vdso_image(size_t *size);

/*
 * Kernel text symbols (types T, t, W, w; module symbols are skipped) from a kallsyms file
 * such as /proc/kallsyms. -EPERM when every address reads 0 (kptr_restrict).
 */
int xpp_kallsyms_load(struct xpp_symtab *t, const char *path, struct xb_error *err);

/*
 * The symbols a JIT wrote for perf into `path` (/tmp/perf-PID.map): "START SIZE name" lines,
 * hex numbers, absolute addresses, parsed as perf 6.1 parses them. t is finished on success.
 * The number of symbols read, or a negative errno with err set.
 */
int xpp_perf_map_load(struct xpp_symtab *t, const char *path, struct xb_error *err);

/*
 * A C++ ("_Z...") or Rust (legacy "_ZN...17h<hash>E", v0 "_R...") name as perf shows it:
 * demangled by libiberty as perf calls it, without parameters and without Rust's hash. A
 * new string to free, or NULL when name is not mangled.
 */
char *xpp_demangle(const char *name);

#endif
