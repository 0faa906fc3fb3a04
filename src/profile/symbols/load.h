/* Loaders that fill a symtab: ELF files (with their debug files), ELF images in memory, kallsyms. */
#ifndef XPERF_REPORT_SYMBOLS_LOAD_H
#define XPERF_REPORT_SYMBOLS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/symbols/debuginfod.h"
#include "profile/symbols/symtab.h"

/*
 * The function symbols of the ELF file at `path`, with addresses as offsets in that file
 * (what a sample's ip minus its map's start plus pgoff gives). The symbols come, as perf
 * takes them, from the first .symtab found in: the build-id debug file
 * (/usr/lib/debug/.build-id/xx/yyy.debug), the .gnu_debuglink file, the file itself; else
 * from the debug file a debuginfod server has (dfd, NULL: none asked), else from the
 * file's .dynsym. `debug_root` replaces /usr/lib/debug (tests), NULL for it.
 * t is finished on success (symtab_finish). 0 or a negative errno with err set.
 */
int xpp_elf_syms_load(struct xpp_symtab *t, const char *path, const char *debug_root,
		      xpp_debuginfod *dfd, struct xb_error *err);

/*
 * The names objdump gives addresses of the ELF file at path (`<sink>`, `<foo(int)+0x12>`,
 * `<printf@plt>`): every named symbol of the table xpp_elf_syms_load() reads (functions,
 * objects, labels; not sections or files), C++ names with their parameters as objdump -C
 * writes them, and the name@plt entries; at file offsets, as xpp_elf_syms_load() has them.
 * t is finished on success. 0 or a negative errno with err set.
 */
int xpp_elf_addr_names_load(struct xpp_symtab *t, const char *path, const char *debug_root,
			    xpp_debuginfod *dfd, struct xb_error *err);

/*
 * Whether xpp_elf_syms_load() of the same file would give a symbol named `name` (demangled
 * unless no_demangle), without building the table: reading the names costs a fraction of
 * sorting them into one. 1 it may (a name@plt is not looked for: always 1), 0 it would
 * not, or a negative errno when the file cannot be read.
 */
int xpp_elf_syms_may_have(const char *path, const char *debug_root, xpp_debuginfod *dfd,
			  bool no_demangle, const char *name);

/*
 * The file holding the DWARF line tables of the ELF file at `path`, looked for where
 * xpp_elf_syms_load() looks for symbols (build-id debug file, .gnu_debuglink, the file
 * itself), then from a debuginfod server (dfd, NULL: none asked): its name into out. 0, or
 * a negative errno (-ENOENT: no line tables anywhere).
 */
int xpp_elf_dwarf_file(const char *path, const char *debug_root, xpp_debuginfod *dfd,
		       char *out, size_t size);

/*
 * The GNU build-id note of the ELF file at path (or of an image in memory) into id (at
 * most cap bytes): its size, 0 when it has none, or a negative errno (-ENOEXEC: not ELF).
 */
int xpp_elf_build_id(const char *path, uint8_t *id, size_t cap);
int xpp_elf_build_id_mem(const void *image, size_t size, uint8_t *id, size_t cap);

#define XPP_BUILD_ID_MAX 20 /* perf's BUILD_ID_SIZE: a SHA-1 */


/*
 * Where the recorded file with build-id `id` is, perf's order aside (all hold the same
 * symbols): `file` itself (the mapped path, joined to --symfs) when its build-id matches,
 * else perf's build-id cache (buildid_dir/.build-id/xx/rest/elf, buildid_dir NULL: none),
 * else its debug file (debug_root/.build-id/xx/rest.debug, NULL: /usr/lib/debug). 0 with
 * the path in out; -ENOENT when none is there, with *mismatch set when `file` exists with
 * another build-id (or none): the caller must not read it.
 */
int xpp_build_id_find(const char *file, const uint8_t *id, size_t size, const char *buildid_dir,
		      const char *debug_root, char *out, size_t cap, bool *mismatch);

/*
 * The kallsyms file of the kernel with build-id `id`: /proc/kallsyms when the running kernel
 * is that one (or does not say), else perf's cache (buildid_dir/[kernel.kallsyms]/HEX/
 * kallsyms). 0 with the path in out, or -ENOENT with *mismatch set.
 */
int xpp_build_id_find_kallsyms(const uint8_t *id, size_t size, const char *buildid_dir,
			       char *out, size_t cap, bool *mismatch);

/* The same for an ELF image in memory (the vdso); no debug files are looked for. */
/*
 * perf's --vmlinux: the kernel's symbols from the ELF file at path (its .symtab, else its
 * .dynsym), at their addresses (a kernel image is not relocated here: perf's reference
 * symbol moves nothing for an image linked where the kernel ran). With a recorded build
 * id (bid_size > 0), a file whose build id differs or is missing is not read and
 * *mismatch is set, as perf rejects it. 0 (nothing read on a mismatch) or a negative
 * errno with err set.
 */
int xpp_elf_vmlinux_load(struct xpp_symtab *t, const char *path, const uint8_t *bid,
			 size_t bid_size, bool *mismatch, struct xb_error *err);
int xpp_elf_syms_load_mem(struct xpp_symtab *t, const void *image, size_t size, struct xb_error *err);

/* The vdso of this process, which is the same kernel's vdso: its image and size, or NULL. */
const void *xpp_vdso_image(size_t *size);

/*
 * Kernel text symbols (types T, t, W, w; module symbols are skipped) from a kallsyms file
 * such as /proc/kallsyms. -EPERM when every address reads 0 (kptr_restrict).
 */
int xpp_kallsyms_load(struct xpp_symtab *t, const char *path, struct xb_error *err);

/* One line of a kallsyms, "addr type name" or "addr type name\t[module]". */
struct xpp_kallsyms_line {
	uint64_t addr;
	int type;
	const char *name;   /* name_len bytes, up to the line's end (a module's "\t[mod]" too) */
	size_t name_len;
	bool module;        /* a module's symbol */
	bool text;          /* code: types T, t, W, w */
};

/*
 * Parse the line [p, eol) into *l: whether it is a kallsyms line. *eol must be '\n' or NUL
 * (the address's digits stop there).
 */
bool xpp_kallsyms_line(const char *p, const char *eol, struct xpp_kallsyms_line *l);

/*
 * What xpp_kallsyms_load() and xpp_symtab_finish() make of a kallsyms: raise it with any
 * change to which symbols they keep, which alias wins or where a symbol ends, so a cache
 * written by an older xperf on the same boot is not taken for this one's.
 */
#define XPP_KALLSYMS_PARSER 2

/*
 * The kallsyms cache: the running kernel's text symbols as xpp_kallsyms_load() leaves them,
 * in a binary file read without parsing (reading /proc/kallsyms costs the kernel tens of
 * milliseconds of formatting). It is valid for one key: the kernel's build-id (or, for a
 * kernel without one, the boot) and the parser. Another boot of the same kernel moves every
 * symbol by one offset (KASLR): the cache's are moved by as much as the head's anchor moved,
 * and used only where they then hold every symbol of the head. Loaded modules are not part
 * of it: their symbols are not kept (xpp_kallsyms_load() skips them), and the kernel's own
 * do not change. A file that is not ours (another owner, group or world access), another
 * key, damaged or short is never used.
 */
struct xpp_kallsyms_key {
	char boot_id[40];          /* /proc/sys/kernel/random/boot_id, zero-padded; all zero
				      where the kernel has a build-id */
	uint8_t build_id[20];      /* /sys/kernel/notes; build_id_size 0: none */
	uint32_t build_id_size;
	/* /proc/sys/kernel/kptr_restrict + 1 (0: unknown): raised, it hides the addresses
	 * from /proc/kallsyms, and the cache must not show them all the same */
	uint32_t kptr_restrict;
	uint32_t parser;           /* XPP_KALLSYMS_PARSER of the xperf that wrote it */
};

/* The running kernel's key: 0, or a negative errno when it has neither a build-id nor a
   boot id (no cache then). */
int xpp_kallsyms_key_running(struct xpp_kallsyms_key *k);

/*
 * The first lines of a kallsyms, read before a cache is trusted (a page for the kernel to
 * format, microseconds): whether its addresses are shown to us, and its anchor, the first
 * code symbol with an address, where this boot put it.
 */
#define XPP_KALLSYMS_ANCHOR_MAX 64
struct xpp_kallsyms_head {
	bool shown;                /* an address but 0 in the first page */
	uint64_t anchor_addr;
	char anchor[XPP_KALLSYMS_ANCHOR_MAX];   /* "": none (or a longer name) */
	size_t len;                /* bytes of buf: whole lines */
	char buf[64 << 10];
};

/* The head of the kallsyms at path: 0, or a negative errno. */
int xpp_kallsyms_head_read(struct xpp_kallsyms_head *h, const char *path);

/*
 * t (zeroed, finished) from the cache file when it holds key, moved to where head's anchor
 * is, and holds head's symbols: 0 (used where it is mapped), 1 (moved from another boot's
 * addresses), or a negative errno.
 */
int xpp_kallsyms_cache_read(struct xpp_symtab *t, const char *file,
			    const struct xpp_kallsyms_key *key, const struct xpp_kallsyms_head *head);

/* A finished t, read where head was, into the cache file for key, atomically (a private file
   renamed over it). */
int xpp_kallsyms_cache_write(const struct xpp_symtab *t, const char *file,
			     const struct xpp_kallsyms_key *key,
			     const struct xpp_kallsyms_head *head);

/* A cache file to write once the symbols are in use (xpp_kallsyms_load_running()). */
struct xpp_kallsyms_store {
	bool wanted;
	struct xpp_kallsyms_key key;   /* taken before kallsyms was read */
	char dir[4096];
	struct xpp_kallsyms_head head; /* read before kallsyms was */
};

/*
 * The running kernel's symbols from `path` (its kallsyms, /proc/kallsyms) through the cache
 * in cache_dir (NULL: no cache): from the cache when it holds the running key and the head
 * of path, else from path; store->wanted then says the cache is to be written (also when it
 * was moved from another boot's addresses): xpp_kallsyms_store_write(),
 * which may run later, on another thread (writing takes milliseconds nobody should wait
 * for). As xpp_kallsyms_load() otherwise.
 */
int xpp_kallsyms_load_running(struct xpp_symtab *t, const char *path, const char *cache_dir,
			      struct xpp_kallsyms_store *store, struct xb_error *err);

/*
 * Write the cache for store (nothing unless wanted): the directory made private to the user
 * where missing, the file atomically. t is only read. A failure is not an error: the next
 * run reads kallsyms again.
 */
void xpp_kallsyms_store_write(const struct xpp_symtab *t, const struct xpp_kallsyms_store *store);

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
/* The same as objdump -C writes it: with parameters (and a template's return type). */
char *xpp_demangle_params(const char *name);

#endif
