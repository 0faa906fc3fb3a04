/* Symbol tables of xperf-report: per-DSO sorted arrays of [start, end) ranges, searched by address. */
#ifndef XPERF_REPORT_SYMTAB_H
#define XPERF_REPORT_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Binding of a symbol, as perf ranks aliases: global beats local beats weak. */
enum xpp_sym_binding { XPP_SYM_LOCAL, XPP_SYM_GLOBAL, XPP_SYM_WEAK };

struct xpp_sym {
	uint64_t start, end;  /* end is exclusive; after xpp_symtab_finish() end > start */
	uint32_t name;        /* offset in symtab.names */
	uint32_t order;       /* insertion order: ties keep the first, as perf does */
	uint8_t binding;      /* enum xpp_sym_binding */
	uint8_t kind;         /* enum xpp_sym_kind: what objdump's choice among aliases weighs */
	uint8_t sized;        /* the file gave its size; else finish() extended it */
	/* 1 + offset in symtab.names of the STT_FILE symbol binutils' addr2line names this
	   one's source file by when no line table covers it (perf's "string-table.cc:0");
	   0: none. Last, in what was padding: kallsyms caches keep their layout. */
	uint32_t file;
};

enum xpp_sym_kind {
	XPP_SYM_OTHER,
	XPP_SYM_FUNC,
	XPP_SYM_OBJECT,
	/* a dynamic relocation's symbol at the relocated slot: its name for that address
	   only, before the symbol starting there (objdump's "# af68 <_Py_TrueStruct>") */
	XPP_SYM_RELOC,
};

/*
 * Build with xpp_symtab_add() (any order), then xpp_symtab_finish() once; only then search. Names
 * live in one pool, so a table is two allocations whatever its size.
 */
struct xpp_symtab {
	struct xpp_sym *syms;
	uint32_t nr, cap;
	char *names;
	size_t names_len, names_cap;
	bool finished;
	/* both sized and unsized symbols (finish()): a label may lie inside a function */
	bool mixed;
	/*
	 * Among aliases keep the last added: perf extends unsized kallsyms entries before it
	 * picks among aliases, so the last of a run is the only sized one and wins.
	 */
	bool last_alias_wins;
	/* Loaders keep names as the file has them (--no-demangle). */
	bool no_demangle;
	/* ELF loaders keep variables (STT_OBJECT) too, kinds set: perf's symbols for data
	   addresses (report --mem-mode) */
	bool objects;
	/* Names and aliases as objdump -C gives them: C++ names with their parameters, and
	   objdump's choice among the symbols of one address (functions, objects, global,
	   larger, then by name), not perf's. */
	bool objdump_names;
	/*
	 * A kallsyms': where perf ends the kernel's map, the page after the page of its last
	 * symbol of code or data (types T, W, D, B, modules' aside), as perf's
	 * symbols__fixup_end() ends that symbol; 0: unknown (another kind of file)
	 */
	uint64_t image_end;
	/*
	 * An ELF file's: its .text's address less its file offset (perf's dso->text_offset),
	 * which turns a file offset into the address objdump and perf's "dso[addr]" give
	 * (non-zero for a non-PIE program: cc1's text is at 0x400000 + its offset)
	 */
	uint64_t text_offset;
	/* non-NULL: names lie read-only in this mapping (the kallsyms cache), and syms too
	   unless they were moved out of it (a cache of another boot: malloc()ed) */
	void *map;
	size_t map_len;
};

/* Add a symbol; `size` 0 means "up to the next symbol". 0 or -ENOMEM. */
int xpp_symtab_add(struct xpp_symtab *t, uint64_t start, uint64_t size, enum xpp_sym_binding binding,
	       const char *name, size_t name_len);
/* The same, with the symbol's kind (objdump_names tables weigh it). */
int xpp_symtab_add_kind(struct xpp_symtab *t, uint64_t start, uint64_t size,
			enum xpp_sym_binding binding, enum xpp_sym_kind kind, const char *name,
			size_t name_len);

/*
 * Set the last added symbol's file (struct xpp_sym.file) to `name`, stored once for a run
 * of symbols that share it: *last is the caller's 0-initialised memo of the latest file
 * stored. 0 or -ENOMEM.
 */
int xpp_symtab_set_file(struct xpp_symtab *t, const char *name, uint32_t *last);

/*
 * Sort by address, keep one symbol per start address (perf's choice among aliases: sized,
 * then non-weak, then global, then fewer leading underscores, then the longer name), and
 * extend unsized symbols to the next one (the last to the next page boundary and one more).
 */
void xpp_symtab_finish(struct xpp_symtab *t);

/*
 * Index of the symbol holding addr, or -1. Where an unsized label (a NOTYPE symbol in code,
 * extended to the next symbol) lies inside a sized function, an address past the label but
 * inside the function is the function's: perf names the 412-byte function holding node's
 * 0-size construct_stub_create_deopt_addr, not the label.
 */
int64_t xpp_symtab_find(const struct xpp_symtab *t, uint64_t addr);

/* Index of the last symbol starting at or before addr, whatever its size, or -1. */
int64_t xpp_symtab_preceding(const struct xpp_symtab *t, uint64_t addr);

static inline const char *xpp_symtab_name(const struct xpp_symtab *t, uint32_t idx)
{
	return t->names + t->syms[idx].name;
}

/* Release and zero; accepts a zeroed table. */
void xpp_symtab_free(struct xpp_symtab *t);

#endif
