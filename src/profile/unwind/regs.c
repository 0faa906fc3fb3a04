/* x86_64 perf_regs (the sample's packed user registers) to DWARF register numbers. */
#include <asm/perf_regs.h>

#include "profile/unwind/unwind.h"

/*
 * DWARF register n (the x86_64 psABI numbering: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 * r8-r15, then the return address column, rip) is perf register dwarf_to_perf[n].
 */
static const unsigned char dwarf_to_perf[XPP_UNWIND_NR_REGS] = {
	PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX,  PERF_REG_X86_BX,
	PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP,  PERF_REG_X86_SP,
	PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
	PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
	PERF_REG_X86_IP,
};

uint32_t xpp_unwind_dwarf_regs(uint64_t mask, const uint64_t *regs, uint32_t nr,
			       uint64_t out[XPP_UNWIND_NR_REGS])
{
	uint32_t present = 0;

	for (unsigned int i = 0; i < XPP_UNWIND_NR_REGS; i++) {
		unsigned int id = dwarf_to_perf[i];
		/* the sample holds only the mask's registers, in bit order */
		uint32_t idx = (uint32_t)__builtin_popcountll(mask & ((1ULL << id) - 1));

		out[i] = 0;
		if (!(mask & (1ULL << id)) || idx >= nr)
			continue;
		out[i] = regs[idx];
		present |= 1u << i;
	}
	return present;
}
