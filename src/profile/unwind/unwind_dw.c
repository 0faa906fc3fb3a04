/*
 * DWARF unwinding with libdwfl: one Dwfl per process, the sample's registers and stack copy as
 * its state. The walk is perf's: Debian's perf 6.1 unwinds with libunwind (not libdw), so
 * where a file has no CFI for a pc it follows libunwind's x86_64 unw_step() (frame_chain()),
 * and where the pc's memory has no ELF file (JIT code) it stops, as libunwind does on the
 * -EINVAL of perf's find_proc_info().
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/array.h"
#include "base/hash.h"
#include "base/input_file.h"
#include "profile/symbols/load.h"
#include "profile/unwind/unwind.h"

/* A module we reported: where its file was mapped, to see whether that still holds. */
struct reported {
	uint64_t start, pgoff;
	uint32_t dso;
};

/* One process: its Dwfl (modules reported as their pcs are met), lazily made. */
struct uw_proc {
	Dwfl *dwfl;
	bool attached;
	uint32_t epoch;          /* bumped when the Dwfl is rebuilt: its cached rules go */
	uint32_t gen;            /* the machine's map generation the modules were checked at */
	struct reported *mods;
	uint32_t nr_mods, cap_mods;
};

/* The sample being unwound: what the thread callbacks read. */
struct uw_sample {
	const uint8_t *stack;
	uint64_t sp, stack_size;
	uint64_t regs[XPP_UNWIND_NR_REGS];
	uint64_t *ips;
	uint32_t n, max;
	uint32_t proc;
	struct uw_proc *pr;
	/* memory_read() answered 0 for a word outside the stack copy and the files since
	   the last frame, and frame_cb() stopped at a pc outside every map */
	bool zeroed, unmapped;
};

/*
 * How to unwind from one pc: the CFI row of that pc, reduced to what x86_64 code needs
 * (CFA = register + offset; each register undefined, the same, CFA + n, or the word at
 * CFA + n): ROW. A row with anything else (expressions, register rules, signal frames) is
 * COMPLEX: the sample is left to libdwfl, which knows every case. A file whose CFI has no
 * row for pc (V8's builtins in node's text) is NOROW: libunwind's frame chain. No ELF file
 * to read CFI from (JIT code, a deleted file, a file without CFI) is NOFILE: the walk ends
 * at this frame. Cached per (process, pc), as the CFI search and the parsing of its row are
 * most of the time per frame.
 */
enum { R_UNDEF, R_SAME, R_VAL, R_DEREF };
enum { RULE_ROW, RULE_COMPLEX, RULE_NOROW, RULE_NOFILE };
struct rule {
	uint64_t pc;
	uint32_t proc, epoch;    /* key: the process, its Dwfl's epoch (0: free slot) */
	uint8_t state;           /* RULE_* */
	uint8_t cfa_reg;
	int64_t cfa_off;
	uint8_t kind[XPP_UNWIND_NR_REGS];
	int64_t off[XPP_UNWIND_NR_REGS];
};
#define RULE_CACHE_BITS 13

struct xpp_unwinder {
	xpp_machine *m;
	xpp_dso_table *dsos;
	char *debuginfo_path;    /* libdwfl's search path, debug_root last */
	const char *debug_root;  /* the end of debuginfo_path */
	struct xpp_debuginfod *dfd; /* servers asked for missing debug files; NULL: none */
	Dwfl_Callbacks cbs;
	struct uw_proc *procs;   /* indexed by the machine's proc index */
	uint32_t nr_procs;
	struct rule *rules;      /* RULE_CACHE_BITS slots, direct-mapped */
	uint8_t *bad_dso;        /* by DSO id: its file could not be reported, do not retry */
	uint32_t nr_bad_dso;
	struct uw_sample cur;
};

/* ---- the thread callbacks: one thread, whose state is the current sample ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

/* Read a word of the mapped file that holds addr: code and read-only data are as on disk. */
static bool read_file_word(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);
	Dwarf_Addr bias;
	Elf *elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	size_t n, size;
	const char *raw;

	if (!elf || elf_getphdrnum(elf, &n) || !(raw = elf_rawfile(elf, &size)))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t va = addr - bias;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || va < ph.p_vaddr ||
		    va - ph.p_vaddr + sizeof(*result) > ph.p_filesz)
			continue;
		uint64_t off = ph.p_offset + (va - ph.p_vaddr);

		if (off > size || size - off < sizeof(*result))
			return false;
		memcpy(result, raw + off, sizeof(*result));
		return true;
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uw_sample *c = &((struct xpp_unwinder *)arg)->cur;

	if (addr + sizeof(*result) < addr)
		return false;
	/*
	 * The stack copy holds [sp, sp + dyn_size); anything else comes from the files. As
	 * perf's libunwind access_mem(), its last word counts as outside, and a word found
	 * nowhere reads as 0: a return address there makes perf's last frame
	 * ffffffffffffffff [unknown] (0 less the byte of the call).
	 */
	if (addr >= c->sp && addr + sizeof(*result) < c->sp + c->stack_size) {
		memcpy(result, c->stack + (addr - c->sp), sizeof(*result));
		return true;
	}
	if (read_file_word(dwfl, addr, result))
		return true;
	*result = 0;
	c->zeroed = true;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uw_sample *c = &((struct xpp_unwinder *)arg)->cur;
	Dwarf_Word regs[XPP_UNWIND_NR_REGS];

	for (unsigned int i = 0; i < XPP_UNWIND_NR_REGS; i++)
		regs[i] = c->regs[i];
	return dwfl_thread_state_registers(thread, 0, XPP_UNWIND_NR_REGS, regs);
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- modules: reported as their pcs are met, checked when the process's maps change ---- */

static void proc_reset(struct uw_proc *pr)
{
	if (pr->dwfl)
		dwfl_end(pr->dwfl);
	pr->dwfl = NULL;
	pr->epoch++;
	pr->attached = false;
	pr->nr_mods = 0;
}

/*
 * The maps changed since the modules were reported (a new mmap, or a reused pid): keep the
 * Dwfl while every module's map is still there as it was, which is the common case (new
 * libraries appear, none go); otherwise start over.
 */
static void proc_check(xpp_unwinder *u, struct uw_proc *pr, uint32_t proc)
{
	uint32_t gen = xpp_machine_proc_gen(u->m, proc);

	if (gen == pr->gen)
		return;
	pr->gen = gen;
	for (uint32_t i = 0; i < pr->nr_mods; i++) {
		const struct reported *r = &pr->mods[i];
		const struct xpp_map *mp = xpp_machine_proc_map(u->m, proc, r->start);

		if (!mp || mp->start != r->start || mp->pgoff != r->pgoff || mp->dso != r->dso) {
			proc_reset(pr);
			return;
		}
	}
}

/* A file that cannot be opened (gone, not ELF) stays so: each sample would try again. */
static void mark_bad(xpp_unwinder *u, uint32_t dso)
{
	if (XB_ARRAY_RESERVE0(u->bad_dso, u->nr_bad_dso, (size_t)dso + 1, 64))
		return;
	u->bad_dso[dso] = 1;
}

/*
 * A module for the vdso, from the running kernel's image (libdwfl reads modules from a file
 * descriptor, so the image goes into a memfd): perf unwinds through the vdso's CFI the same
 * way, from the copy of its own vdso it writes to a temporary file.
 */
static Dwfl_Module *report_vdso(Dwfl *dwfl, const void *img, size_t size, uint64_t base,
				bool *transient)
{
	int fd = memfd_create("xperf-vdso", MFD_CLOEXEC);
	Dwfl_Module *mod = NULL;

	/* out of descriptors or memory: another process may succeed later */
	*transient = true;
	if (fd < 0)
		return NULL;
	if (write(fd, img, size) == (ssize_t)size) {
		*transient = false;
		mod = dwfl_report_elf(dwfl, "[vdso]", "[vdso]", fd, base, false);
	}
	/* on success libdwfl owns the descriptor (it keeps it until dwfl_end) */
	if (!mod)
		close(fd);
	return mod;
}

/*
 * A module for a file, opened by us: given a path, libdwfl would open it itself, and a
 * FIFO or device named by the profile would block it (xb_input_open() refuses them).
 */
static Dwfl_Module *report_file(xpp_unwinder *u, Dwfl *dwfl, const char *name,
				const char *file, uint64_t base)
{
	int fd = xb_input_open(file, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	Dwfl_Module *mod;
	void **ud;

	if (fd < 0)
		return NULL;
	mod = dwfl_report_elf(dwfl, name, file, fd, base, false);
	/* on success libdwfl owns the descriptor (it keeps it until dwfl_end) */
	if (!mod)
		close(fd);
	/* find_debuginfo() finds its debug_root there */
	else if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		*ud = u;
	return mod;
}

/*
 * libdwfl's find_debuginfo callback, for the .debug_frame of a module whose .eh_frame lacks
 * a pc: the debug file symbols and source lines use (build-id, .gnu_debuglink), opened
 * through xb_input_open(). dwfl_standard_find_debuginfo() would open the candidates itself,
 * and a .gnu_debuglink may name a FIFO beside the file. -1: none (libdwfl then uses the
 * file's own sections).
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const xpp_unwinder *u = *userdata;
	char path[PATH_MAX];
	int fd;

	(void)mod, (void)modname, (void)base, (void)debuglink_file, (void)debuglink_crc;
	if (!u || !file_name ||
	    xpp_elf_dwarf_file(file_name, u->debug_root, u->dfd, path, sizeof(path)) < 0 ||
	    !strcmp(path, file_name))
		return -1;
	fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, NULL);
	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	if (!*debuginfo_file_name) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The module holding pc, reported from the process's map of pc if the Dwfl lacks it, at map
 * start - pgoff (where perf's find_proc_info() puts the file's .eh_frame_hdr too). NULL when
 * no map holds pc or its code is not in an ELF file we can open (JIT code, a deleted file, a
 * vdso of another kernel). *adj is what to add to pc for its address in the module: 0 but
 * in a second mapping of a file reported at another base.
 */
static Dwfl_Module *module_of(xpp_unwinder *u, struct uw_proc *pr, uint32_t proc, uint64_t pc,
			      uint64_t *adj)
{
	Dwfl_Module *mod = dwfl_addrmodule(pr->dwfl, pc);
	const struct xpp_map *mp;
	const struct xpp_dso *d;
	const char *file = NULL;
	const void *vdso = NULL;
	size_t vdso_size = 0;
	bool transient = false;

	*adj = 0;
	if (mod)
		return mod;
	mp = xpp_machine_proc_map(u->m, proc, pc);
	d = mp ? xpp_dso_table_get(u->dsos, mp->dso) : NULL;
	if (!d || (mp->dso < u->nr_bad_dso && u->bad_dso[mp->dso]))
		return NULL;
	if (d->kind == XPP_DSO_VDSO)
		vdso = xpp_dso_table_vdso_image(u->dsos, mp->dso, &vdso_size);
	else if (d->kind == XPP_DSO_USER && d->long_name[0] == '/')
		/* the recorded file (--symfs, build-id cache), never one with another build-id */
		file = xpp_dso_table_file(u->dsos, mp->dso);
	else
		return NULL;
	if (!file && !vdso) {
		mark_bad(u, mp->dso);
		return NULL;
	}
	/*
	 * A second mapping of a file this process has reported at another base (node maps
	 * its builtins again, away from its text): libdwfl refuses the overlapping module,
	 * and the failed report leaves its address lookup unusable for every module. Its
	 * pcs are looked up in the module reported, at the same offset in the file, as
	 * perf's find_proc_info() does (the table of the file mapped at map start - pgoff).
	 */
	for (uint32_t i = 0; i < pr->nr_mods; i++) {
		const struct reported *r = &pr->mods[i];

		if (r->dso == mp->dso) {
			*adj = (r->start - r->pgoff) - (mp->start - mp->pgoff);
			return dwfl_addrmodule(pr->dwfl, pc + *adj);
		}
	}
	if (pr->nr_mods == pr->cap_mods &&
	    XB_ARRAY_RESERVE(pr->mods, pr->cap_mods, (size_t)pr->nr_mods + 1, 8))
		return NULL;
	if (vdso)
		mod = report_vdso(pr->dwfl, vdso, vdso_size, mp->start - mp->pgoff, &transient);
	else
		mod = report_file(u, pr->dwfl, d->short_name, file, mp->start - mp->pgoff);
	if (mod)
		pr->mods[pr->nr_mods++] = (struct reported){ mp->start, mp->pgoff, mp->dso };
	else if (!transient)
		mark_bad(u, mp->dso);
	return mod;
}

/* ---- the fast path: cached CFI rows applied to the stack copy ---- */

/* One register rule from libdw's ops for it (dwarf_frame_register's shapes). */
static bool reg_rule(Dwarf_Frame *fr, int regno, uint8_t *kind, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t n, i = 1;

	if (dwarf_frame_register(fr, regno, mem, &ops, &n))
		return false;
	*off = 0;
	if (!n) {
		if (ops == mem)
			*kind = R_UNDEF;
		else if (!ops)
			*kind = R_SAME;
		else
			return false;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < n && ops[i].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[i++].number;
	*kind = R_DEREF;
	if (i < n && ops[i].atom == DW_OP_stack_value)
		*kind = R_VAL, i++;
	return i == n;
}

/* The rule of pc from a module's CFI (.eh_frame first, then .debug_frame, as libdwfl). */
static bool rule_from_cfi(Dwarf_CFI *cfi, Dwarf_Addr pc, struct rule *r)
{
	Dwarf_Frame *fr;
	Dwarf_Op *ops;
	size_t n;
	bool signal, ok = false;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &fr))
		return false;
	if (dwarf_frame_info(fr, NULL, NULL, &signal) == 16 && !signal &&
	    !dwarf_frame_cfa(fr, &ops, &n) && n == 1 && ops[0].atom == DW_OP_bregx &&
	    ops[0].number < XPP_UNWIND_NR_REGS) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
		ok = true;
		for (int i = 0; i < XPP_UNWIND_NR_REGS && ok; i++)
			ok = reg_rule(fr, i, &r->kind[i], &r->off[i]);
	}
	r->state = ok ? RULE_ROW : RULE_COMPLEX;
	free(fr);
	return true;
}

static const struct rule *rule_of(xpp_unwinder *u, struct uw_proc *pr, uint32_t proc, uint64_t pc)
{
	uint64_t h = xb_hash_add(xb_hash_add(0, proc), pc);
	struct rule *r = &u->rules[xb_hash_bits(h, RULE_CACHE_BITS)];
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	uint64_t adj;

	if (r->pc == pc && r->proc == proc && r->epoch == pr->epoch)
		return r;
	r->pc = pc;
	r->proc = proc;
	r->epoch = pr->epoch;
	r->state = RULE_NOFILE;
	mod = module_of(u, pr, proc, pc, &adj);
	if (mod) {
		Dwarf_CFI *eh = dwfl_module_eh_cfi(mod, &bias), *dw;

		if (!rule_from_cfi(eh, pc + adj - bias, r)) {
			dw = dwfl_module_dwarf_cfi(mod, &bias);
			/* libunwind: no row is -UNW_ENOINFO, no CFI at all perf's -EINVAL */
			if (!rule_from_cfi(dw, pc + adj - bias, r) && (eh || dw))
				r->state = RULE_NOROW;
		}
	}
	return r;
}

/*
 * A word as perf's access_mem() answers libunwind: 0 and the word; 1 and 0 for memory that
 * is mapped but neither in the stack copy nor in a file (the rest of the stack, anonymous
 * memory: access_dso_mem() fails, which libunwind's tests of "< 0" let pass); -1 where no
 * map is, which ends the walk. Data maps are not kept here to ask (perf's one tree has
 * them): the stack is taken to go on for STACK_REACH past sp (a copy shorter than asked
 * does not tell where its mapping ends: the kernel stops at a page not yet present too).
 */
#define STACK_REACH (8u << 20)
static int read_perf(xpp_unwinder *u, struct uw_proc *pr, uint64_t addr, uint64_t *v)
{
	struct uw_sample *c = &u->cur;

	*v = 0;
	if (addr >= c->sp && addr + sizeof(*v) < c->sp + c->stack_size) {
		memcpy(v, c->stack + (addr - c->sp), sizeof(*v));
		return 0;
	}
	if (xpp_machine_proc_map(u->m, c->proc, addr)) {
		uint64_t adj;
		Dwarf_Word w;

		if (module_of(u, pr, c->proc, addr, &adj) &&
		    read_file_word(pr->dwfl, addr + adj, &w)) {
			*v = w;
			return 0;
		}
		return 1;
	}
	return addr >= c->sp && addr - c->sp < STACK_REACH ? 1 : -1;
}
/* libunwind's is_plt_entry(): jmp *x(%rip); push $n; jmp x, an old-style PLT slot */
static bool is_plt_entry(xpp_unwinder *u, struct uw_proc *pr, uint64_t pc)
{
	uint64_t w0, w1;

	if (read_perf(u, pr, pc, &w0) < 0 || read_perf(u, pr, pc + 8, &w1) < 0)
		return false;
	return (w0 & 0xffff) == 0x25ff && (w0 >> 48 & 0xff) == 0x68 && (w1 >> 24 & 0xff) == 0xe9;
}

/*
 * libunwind's x86_64 unw_step() where dwarf_step() found no CFI row for pc (-UNW_ENOINFO),
 * which perf's walk follows: a PLT slot returns through the word at sp. Otherwise rbp is
 * taken for a frame pointer if it is not 0, lies at most 16 KiB above sp and the word there
 * is mapped: the caller's rbp is that word, its pc the next one, its sp this sp + 16
 * (libunwind's CFA, not rbp + 16) and every other register unknown. An unknown rbp ends
 * the walk, as does a return address where no map is. Returns whether there is a caller
 * (in regs and *known). libunwind's case of a signal trampoline without CFI is left out:
 * the trampolines of the C libraries and the vdso have CFI.
 */
static bool frame_chain(xpp_unwinder *u, struct uw_proc *pr, uint64_t pc, uint64_t *regs,
			uint32_t *known)
{
	uint64_t sp = regs[7], rbp = regs[6], caller_rbp, ra;

	if (!(*known >> 6 & 1))
		return false;
	if (is_plt_entry(u, pr, pc)) {
		if (read_perf(u, pr, sp, &ra) < 0)
			return false;
		regs[7] = sp + 8;
		regs[16] = ra;
		return true;
	}
	if (!rbp || read_perf(u, pr, rbp, &caller_rbp) < 0 || rbp < sp || rbp - sp > 0x4000 ||
	    read_perf(u, pr, rbp + 8, &ra) < 0)
		return false;
	regs[6] = caller_rbp;
	regs[7] = sp + 16;
	regs[16] = ra;
	*known = 1u << 6 | 1u << 7 | 1u << 16;
	return true;
}

/*
 * Unwind the current sample from cached rules, as perf's libunwind would. Returns false
 * when a frame needs what only libdwfl does (then the caller starts over with it), true
 * when done: the frames are in cur, up to where perf would have stopped too.
 */
static bool unwind_fast(xpp_unwinder *u, struct uw_proc *pr)
{
	struct uw_sample *c = &u->cur;
	uint64_t regs[XPP_UNWIND_NR_REGS], next[XPP_UNWIND_NR_REGS];
	uint32_t known = (1u << XPP_UNWIND_NR_REGS) - 1, nknown;
	bool initial = true, chained = false;

	memcpy(regs, c->regs, sizeof(regs));
	for (;;) {
		uint64_t pc = regs[16], cfa;
		const struct rule *r;

		/* perf keeps a caller outside every map (its call one byte back), then stops */
		if (!xpp_machine_proc_map(u->m, c->proc, pc)) {
			if (!initial)
				c->ips[c->n++] = pc - 1;
			return true;
		}
		/* a caller's pc is a return address: its CFI row is the call's, one byte back */
		r = rule_of(u, pr, c->proc, initial ? pc : pc - 1);
		/* libdwfl cannot go on from a frame chain's state: the walk ends there */
		if (r->state == RULE_COMPLEX && !chained)
			return false;
		c->ips[c->n++] = initial ? pc : pc - 1;
		if (c->n >= c->max || r->state == RULE_NOFILE || r->state == RULE_COMPLEX)
			return true;
		if (r->state == RULE_NOROW) {
			if (!frame_chain(u, pr, pc, regs, &known))
				return true;
			initial = false;
			chained = true;
			continue;
		}
		if (!(known >> r->cfa_reg & 1))
			return true;
		cfa = regs[r->cfa_reg] + (uint64_t)r->cfa_off;
		nknown = 0;
		for (int i = 0; i < XPP_UNWIND_NR_REGS; i++) {
			uint64_t a = cfa + (uint64_t)r->off[i];

			switch (r->kind[i]) {
			case R_SAME:
				next[i] = regs[i];
				nknown |= known & 1u << i;
				break;
			case R_VAL:
				next[i] = a;
				nknown |= 1u << i;
				break;
			case R_DEREF:
				/* libunwind reads a saved register when it needs it:
				   one where no map is stops the walk then */
				if (read_perf(u, pr, a, &next[i]) >= 0)
					nknown |= 1u << i;
				break;
			default:
				break;
			}
		}
		/* no return address (the outermost frame) or an unreadable one ends the chain */
		if (!(nknown >> 16 & 1))
			return true;
		memcpy(regs, next, sizeof(regs));
		known = nknown;
		initial = false;
	}
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	xpp_unwinder *u = arg;
	struct uw_sample *c = &u->cur;
	Dwarf_Addr pc;
	uint64_t adj;
	bool activation;

	c->zeroed = false;
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* perf keeps a caller outside every map (its call one byte back), then stops */
	if (!xpp_machine_proc_map(u->m, c->proc, pc)) {
		if (c->n)
			c->ips[c->n++] = pc - 1;
		c->unmapped = true;
		return DWARF_CB_ABORT;
	}
	/* the module must be there before libdwfl unwinds from this frame */
	module_of(u, c->pr, c->proc, pc, &adj);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a return address: its call is the instruction before, which may end the function */
	c->ips[c->n++] = activation ? pc : pc - 1;
	return c->n < c->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static struct uw_proc *proc_state(xpp_unwinder *u, uint32_t proc)
{
	if (proc >= u->nr_procs && XB_ARRAY_RESERVE0(u->procs, u->nr_procs, (size_t)proc + 1, 16))
		return NULL;
	return &u->procs[proc];
}

int xpp_unwind_user(xpp_unwinder *u, const struct xpp_thread *th, const struct xpf_sample *s,
		    uint64_t *ips, uint32_t max)
{
	struct uw_sample *c = &u->cur;
	struct uw_proc *pr;
	uint64_t adj;
	int32_t pid;

	if (!(s->type & PERF_SAMPLE_REGS_USER) || !(s->type & PERF_SAMPLE_STACK_USER) ||
	    !s->user_regs.abi || !s->user_stack.size || !s->user_stack.dyn_size)
		return -ENODATA;
	if (s->user_regs.abi != PERF_SAMPLE_REGS_ABI_64)
		return -EOPNOTSUPP;
	if ((xpp_unwind_dwarf_regs(s->user_regs.mask, s->user_regs.regs, s->user_regs.nr,
				   c->regs) & XPP_UNWIND_NEEDED) != XPP_UNWIND_NEEDED)
		return -ENODATA;
	if (!max)
		return 0;
	pr = proc_state(u, th->proc);
	if (!pr)
		return -ENOMEM;
	proc_check(u, pr, th->proc);
	if (!pr->dwfl) {
		pr->dwfl = dwfl_begin(&u->cbs);
		if (!pr->dwfl)
			return -ENOMEM;
		pr->epoch++;
	}
	c->stack = s->user_stack.data;
	c->sp = c->regs[7];
	c->stack_size = s->user_stack.dyn_size;
	c->ips = ips;
	c->n = 0;
	c->max = max;
	c->proc = th->proc;
	c->pr = pr;
	c->zeroed = c->unmapped = false;
	/*
	 * No file to read the first frame's CFI from (JIT code, a deleted file): perf's chain
	 * is that frame alone (libunwind's first step fails)
	 */
	ips[0] = c->regs[16];
	if (!module_of(u, pr, th->proc, c->regs[16], &adj)) {
		const struct xpp_map *mp = xpp_machine_proc_map(u->m, th->proc, c->regs[16]);
		const struct xpp_dso *d = mp ? xpp_dso_table_get(u->dsos, mp->dso) : NULL;

		/* JIT code has no file by nature: its frame is the whole chain, not a failure */
		return d && d->kind == XPP_DSO_ANON ? 1 : 0;
	}
	if (!pr->attached) {
		/* the architecture comes from the module just reported */
		pid = xpp_machine_proc_pid(u->m, th->proc);
		if (!dwfl_attach_state(pr->dwfl, NULL, pid > 0 ? pid : 1, &thread_cbs, u))
			return 0;
		pr->attached = true;
	}
	if (unwind_fast(u, pr))
		return (int)c->n;
	/* the end of the stack, or a frame without CFI, ends the walk: what came is the chain */
	c->n = 0;
	c->zeroed = false;
	dwfl_getthread_frames(pr->dwfl, th->tid > 0 ? th->tid : 1, frame_cb, u);
	/* libdwfl ends at a return address of 0, where perf's libunwind goes on to it */
	if (c->zeroed && !c->unmapped && c->n && c->n < c->max)
		c->ips[c->n++] = UINT64_MAX;
	return (int)c->n;
}

int xpp_unwinder_create(xpp_unwinder **out, xpp_machine *m, xpp_dso_table *dsos,
			const char *debug_root, struct xpp_debuginfod *dfd)
{
	xpp_unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u || asprintf(&u->debuginfo_path, "-:.debug:%s",
			   debug_root ? debug_root : "/usr/lib/debug") < 0) {
		free(u);
		return -ENOMEM;
	}
	u->rules = calloc(1u << RULE_CACHE_BITS, sizeof(*u->rules));
	if (!u->rules) {
		xpp_unwinder_free(u);
		return -ENOMEM;
	}
	u->debug_root = u->debuginfo_path + strlen("-:.debug:");
	u->m = m;
	u->dsos = dsos;
	u->dfd = dfd;
	u->cbs.find_elf = dwfl_build_id_find_elf;
	u->cbs.find_debuginfo = find_debuginfo;
	u->cbs.section_address = dwfl_offline_section_address;
	u->cbs.debuginfo_path = &u->debuginfo_path;
	*out = u;
	return 0;
}

void xpp_unwinder_free(xpp_unwinder *u)
{
	if (!u)
		return;
	for (uint32_t i = 0; i < u->nr_procs; i++) {
		proc_reset(&u->procs[i]);
		free(u->procs[i].mods);
	}
	free(u->procs);
	free(u->rules);
	free(u->bad_dso);
	free(u->debuginfo_path);
	free(u);
}
