/* Annotation of one symbol: its code disassembled in-process, the samples on each instruction, jump and call targets, source lines. */
#ifndef XPERF_PROFILE_ANNOTATE_H
#define XPERF_PROFILE_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "profile/profile.h"

/*
 * How a view uses it (the TUI's `a` key, `xperf annotate`):
 *
 *	struct xpp_opts po = { .keep_addrs = true, ... };   // the profile keeps sample ips
 *	... xpp_profile_create(&p, r, &po, &err); xpp_profile_run(p, &err);
 *	xpp_annotation *a;
 *	if (xpp_annotation_create(&a, p, ev, key.dso, key.sym, NULL, &err) < 0)
 *		show err.msg (-EOPNOTSUPP: built without capstone; -ENOENT: no code to read)
 *	const struct xpp_annotation_info *info = xpp_annotation_info(a);
 *	const struct xpp_ann_insn *in = xpp_annotation_insns(a, &n);
 *	... draw in[info->hottest] first; Enter on a call: xpp_annotation_create(..., info->dso,
 *	    in[i].callee, ...); source text: xpp_annotation_src_text(a, in[i].file, in[i].line)
 *	xpp_annotation_free(a);
 *
 * Everything an annotation hands out stays valid until xpp_annotation_free(); the profile
 * must outlive the annotation. Code comes from the DSO's own file (user DSOs), the running
 * kernel's /proc/kcore (kernel symbols), or this process's vdso; never from a helper
 * process.
 */

#define XPP_ANN_NONE UINT32_MAX

struct xpp_annotate_opts {
	const char *debug_root; /* debug files with line tables; NULL: /usr/lib/debug */
	const char *kcore;      /* kernel code; NULL: /proc/kcore */
	bool no_source;         /* read no line tables (faster; file and line stay unknown) */
};

enum xpp_insn_kind {
	XPP_INSN_PLAIN,
	XPP_INSN_JUMP,  /* conditional or not, direct or indirect */
	XPP_INSN_CALL,
	XPP_INSN_RET,
};

struct xpp_ann_insn {
	uint64_t addr;          /* as objdump shows it: the ELF file's virtual address (the
				   kernel's own address for kernel code) */
	uint32_t offset;        /* from the symbol's start */
	uint8_t size;
	uint8_t kind;           /* enum xpp_insn_kind */
	bool has_target;        /* a direct jump or call: target is known */
	const char *mnemonic;   /* "add", "jne" (AT&T syntax on x86) */
	const char *operands;   /* as objdump writes them, perf annotate --stdio's text:
				   "%rcx,%rax"; a direct target "11b9 <work_a+0x30>",
				   "1030 <printf@plt>", "18c7 <double f<double>(double)+0x8>";
				   ip-relative data "0x2eec(%rip),%r8        # 4080 <sink>"
				   ("" for none) */
	const char *short_operands; /* as perf's TUI shows them: data by name
				   ("sink,%r8"), targets by the names perf report gives
				   (no C++ parameters), a jump inside the symbol by its
				   address alone ("11b9") */
	uint64_t target;        /* the target's address (same space as addr) */
	uint32_t target_insn;   /* a jump inside the symbol: the index of the target
				   instruction, else XPP_ANN_NONE */
	int32_t callee;         /* a call to the start of a symbol of the same DSO: its symbol
				   index (open it with xpp_annotation_create()), else -1 */
	uint32_t label;         /* 1, 2, ... when jumps of this symbol land here (local labels
				   in address order), else 0 */
	uint64_t period, nr_samples; /* the samples whose own ip is this instruction */
	double percent;         /* period share of the symbol's samples (perf's default
				   "local period") */
	uint32_t file;          /* source file (xpp_annotation_file()), XPP_ANN_NONE unknown */
	uint32_t line;          /* source line (1-based), 0 unknown */
	uint32_t discriminator; /* the line table's discriminator, 0 none */
	const char *function;   /* the function the DWARF puts it in, an inlined one inside
				   its caller, named as objdump -l -C names it (a C++ linkage
				   name demangled with its parameters, else the plain name);
				   the symbol's name without DWARF */
};

struct xpp_annotation_info {
	const char *sym_name;
	const char *dso_name;   /* short, as the report shows it */
	const char *dso_path;   /* the DSO's long name */
	uint32_t event, dso;
	int32_t sym;
	uint64_t start, end;    /* the symbol's code: [start, end) in addr's space */
	const char *section;    /* the ELF section holding it (".text"), "" unknown */
	bool is64;              /* 64-bit code: objdump writes 16 hex digits in headings */
	uint64_t period, nr_samples; /* samples in the symbol: the base of the percentages */
	uint32_t nr_insns;
	uint32_t hottest;       /* the instruction with most period, XPP_ANN_NONE without samples */
	uint32_t nr_files;      /* source files named by the instructions */
	bool has_lines;         /* the DSO's line tables were found */
};

typedef struct xpp_annotation xpp_annotation;

/*
 * Annotate symbol `sym` (an index in the symtab of DSO `dso`, as in struct xpp_hist_key) of
 * event `event` (an index of xpp_profile_events()) of a profile run with keep_addrs. opts may
 * be NULL. 0, or a negative errno with err set: -EOPNOTSUPP (built without capstone, or a
 * machine capstone does not know), -ENOENT / -EACCES (no code to read: a deleted file, a
 * JIT, /proc/kcore not readable), -EINVAL (no such symbol, or a profile without
 * keep_addrs), -ENOMEM.
 */
int xpp_annotation_create(xpp_annotation **out, const xpp_profile *p, uint32_t event,
			  uint32_t dso, int32_t sym, const struct xpp_annotate_opts *opts,
			  struct xb_error *err);
/* Accepts NULL. */
void xpp_annotation_free(xpp_annotation *a);

const struct xpp_annotation_info *xpp_annotation_info(const xpp_annotation *a);

/* The instructions in address order (*nr of them). */
const struct xpp_ann_insn *xpp_annotation_insns(const xpp_annotation *a, uint32_t *nr);

/*
 * The instructions with samples, most period first (ties: lower address first): what Tab
 * and Shift-Tab step through. Indexes into xpp_annotation_insns(); *nr of them.
 */
const uint32_t *xpp_annotation_hot(const xpp_annotation *a, uint32_t *nr);

/* Source file i's path as the line table names it (NULL for a bad i). */
const char *xpp_annotation_file(const xpp_annotation *a, uint32_t i);

/*
 * The text of line `line` (1-based) of source file `file`, without its newline, or NULL
 * when the file cannot be read or is shorter. The file is read on first use (a view can
 * draw the instructions before it asks).
 */
const char *xpp_annotation_src_text(xpp_annotation *a, uint32_t file, uint32_t line);

/* The number of lines of source file `file` (read on first use); 0 when it cannot be read. */
uint32_t xpp_annotation_src_lines(xpp_annotation *a, uint32_t file);

/*
 * Whether this build can disassemble at all (false without capstone): a view can say so
 * before it builds a profile with keep_addrs.
 */
bool xpp_annotate_supported(void);

/*
 * Start loading what annotation needs (the disassembler library) on another thread, so a
 * view that will annotate after its pass does not wait for it; optional.
 */
void xpp_annotate_preload(void);

#endif
