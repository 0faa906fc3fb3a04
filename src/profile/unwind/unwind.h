/* DWARF unwinding of sampled user stacks (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER). */
#ifndef XPERF_PROFILE_UNWIND_H
#define XPERF_PROFILE_UNWIND_H

#include <stdint.h>

#include "format/xpf_sample.h"
#include "profile/session/machine.h"
#include "profile/symbols/dso.h"

/* x86_64's DWARF registers the unwinder starts from: rax..r15 (0-15) and the return address
 * column, rip (16). */
#define XPP_UNWIND_NR_REGS 17

/*
 * The sample's user registers (perf_regs order, packed by `mask`: the n-th set bit of the
 * mask is regs[n]) as DWARF registers 0..16, in out[]. A register the mask lacks reads 0, as
 * perf's does. Returns the bitmask of the DWARF registers that were present; unwinding needs
 * at least rip and rsp (XPP_UNWIND_NEEDED).
 */
uint32_t xpp_unwind_dwarf_regs(uint64_t mask, const uint64_t *regs, uint32_t nr,
			       uint64_t out[XPP_UNWIND_NR_REGS]);
#define XPP_UNWIND_NEEDED (1u << 7 | 1u << 16)

/* Whether samples of this sample_type carry what DWARF unwinding needs. */
static inline int xpp_unwind_wanted(uint64_t sample_type)
{
	uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (sample_type & both) == both;
}

typedef struct xpp_unwinder xpp_unwinder;

/*
 * An unwinder over the processes and maps of m, whose files are DSOs of dsos (both
 * borrowed, they outlive it). debug_root (NULL: /usr/lib/debug) is where separate debug
 * files are looked for, by build-id and .gnu_debuglink, when a file's own .eh_frame does not
 * cover a pc. Creates nothing per process yet: each process gets its state (one Dwfl, kept
 * and updated as its maps change) on its first unwound sample. 0, or a negative errno:
 * -EOPNOTSUPP in a build without libdw, -ENOMEM.
 */
struct xpp_debuginfod;
int xpp_unwinder_create(xpp_unwinder **out, xpp_machine *m, xpp_dso_table *dsos,
			const char *debug_root, struct xpp_debuginfod *dfd);
/* Accepts NULL. */
void xpp_unwinder_free(xpp_unwinder *u);

/*
 * Unwind the user stack of sample s of thread th: ips[0] is the registers' ip (the sample's
 * own ip for a user-mode sample), each later entry a caller's return address minus 1 (the
 * call instruction, where perf looks its symbol up). At most max entries, innermost first,
 * and only frames inside a map of the process (perf drops the rest). Returns the number of
 * entries (1 for a sample in JIT code, which has no file: its own frame is perf's whole
 * chain), 0 when not even the first frame's file could be read (ips[0] then holds the
 * registers' ip, perf's whole chain for such a sample), or a negative errno:
 * -ENODATA when the sample has no usable registers or stack copy, -EOPNOTSUPP when the
 * registers are not x86_64's, -ENOMEM.
 */
int xpp_unwind_user(xpp_unwinder *u, const struct xpp_thread *th, const struct xpf_sample *s,
		    uint64_t *ips, uint32_t max);

#endif
