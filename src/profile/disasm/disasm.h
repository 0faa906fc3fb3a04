/* Internal pieces of annotation: machine code of a symbol, its decoding, its line table. */
#ifndef XPERF_PROFILE_DISASM_H
#define XPERF_PROFILE_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/session/intern.h"
#include "profile/symbols/dso.h"

/* ---- code.c: the bytes of [start, end) of a DSO, and how its addresses are shown ---- */

#define XPP_CODE_MAX_LOADS 16

struct xpp_code {
	uint8_t *bytes;          /* a copy, size bytes */
	size_t size;
	uint64_t vaddr;          /* the first byte's address as objdump shows it */
	unsigned int machine;    /* ELF e_machine (EM_X86_64, ...) */
	bool is64;
	char section[64];        /* the section holding the code, "" unknown */
	/* offset <-> vaddr of the file's PT_LOAD segments (nr 0: the same space, kernel) */
	uint64_t load_vaddr[XPP_CODE_MAX_LOADS], load_off[XPP_CODE_MAX_LOADS],
		load_size[XPP_CODE_MAX_LOADS];
	/* the segments' sizes in memory (.bss too: data named by symbols), 0 as load_size */
	uint64_t load_memsz[XPP_CODE_MAX_LOADS];
	unsigned int nr_loads;
	bool lines_from_file;    /* the DSO is a file whose line tables may be read */
};

/*
 * The code of [start, end) (symbol addresses of DSO d: file offsets for user DSOs, kernel
 * addresses for the kernel) into c. path: the file a user DSO's code is read from (under
 * --symfs, a build-id cache copy: xpp_dso_table_file()), NULL for its recorded path;
 * kcore: NULL for /proc/kcore. 0 or a negative errno with err set.
 */
int xpp_code_load(struct xpp_code *c, const struct xpp_dso *d, const char *path,
		  uint64_t start, uint64_t end, const char *kcore, struct xb_error *err);
void xpp_code_free(struct xpp_code *c);

/*
 * An address as objdump shows it -> the symbol-table space of the DSO (as the symbol
 * loaders place them: .bss too), and back (bytes of the file only).
 */
uint64_t xpp_code_to_sym(const struct xpp_code *c, uint64_t vaddr);
uint64_t xpp_code_to_vaddr(const struct xpp_code *c, uint64_t sym_addr);

/* ---- disasm.c: decoding, by Zydis (x86) or capstone (the rest) ---- */

struct xpp_raw_insn {
	uint64_t addr;
	uint8_t size;
	uint8_t kind;            /* enum xpp_insn_kind */
	bool has_target;         /* a direct branch: target holds its destination */
	bool has_mem_ref;        /* an ip-relative memory operand: mem_ref is its address */
	uint64_t target, mem_ref;
	char mnemonic[32];
	char operands[160];      /* objdump-like: no space after commas */
};

/*
 * Decode code->bytes into *out (malloc'd, *nr entries). A byte that starts no valid
 * instruction becomes a one-byte "(bad)", as objdump shows it. x86 code goes to Zydis when
 * the build has it (objdump's text exactly, AVX-512 included), else to capstone.
 * -EOPNOTSUPP without a disassembler or for a machine none knows; -ENOMEM.
 */
int xpp_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
	       struct xb_error *err);
bool xpp_disasm_available(void);
/* Start loading the disassembler on another thread (xpp_disasm waits for it); no-op when it
 * is loaded, loading, or absent. */
void xpp_disasm_preload(void);

/*
 * The two decoders behind xpp_disasm, with the same contract; each file has a stub for a
 * build without its library (x86_zydis_stub/, disasm_capstone_stub.c) whose _built() is
 * false. -ENOENT: the library is built in but cannot be loaded at run time.
 */
int xpp_zydis_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
		     struct xb_error *err);
bool xpp_zydis_built(void);
void xpp_zydis_preload(void);
int xpp_cs_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
		  struct xb_error *err);
bool xpp_cs_built(void);
void xpp_cs_preload(void);

/* ---- lines_dw.c (stub: lines_dw_stub.c): source lines from the DSO's line table ---- */

struct xpp_line_loc {
	uint32_t file;           /* an id in the names intern table, UINT32_MAX unknown */
	uint32_t line, discriminator;
	uint32_t func;           /* the innermost function holding the address (an inlined
				    one inside its caller), an id in names, UINT32_MAX unknown */
};

typedef struct xpp_lines xpp_lines;

/*
 * The line tables of the ELF file at path: in its build-id or .gnu_debuglink debug file
 * under debug_root (NULL /usr/lib/debug), or in the file itself, else in the debug file a
 * debuginfod server has (dfd, NULL: none asked). 1 and *out set when found,
 * 0 when there are none, a negative errno (-EOPNOTSUPP without libdw, -ENOMEM). Opening
 * reads (and decompresses) the DWARF sections: keep the handle for the next symbol.
 */
struct xpp_debuginfod;
int xpp_lines_open(xpp_lines **out, const char *path, const char *debug_root,
		   struct xpp_debuginfod *dfd);
void xpp_lines_close(xpp_lines *l);

/*
 * The source line of each of the n addresses (as objdump shows them): file and function
 * names interned into names. 0 or -ENOMEM.
 */
int xpp_lines_lookup(xpp_lines *l, const uint64_t *addrs, uint32_t n, struct xpp_line_loc *out,
		     xpp_intern *names);

#endif
