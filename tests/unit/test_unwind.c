/* Unit tests of the DWARF unwinder's register mapping: perf's packed x86_64 user registers. */
#include <asm/perf_regs.h>

#include "unit.h"
#include "profile/unwind/unwind.h"

/* perf record's --call-graph dwarf mask on x86_64: every register but the segment ones */
#define PERF_DWARF_MASK (((1ULL << PERF_REG_X86_64_MAX) - 1) & \
			 ~(1ULL << PERF_REG_X86_DS | 1ULL << PERF_REG_X86_ES | \
			   1ULL << PERF_REG_X86_FS | 1ULL << PERF_REG_X86_GS))

/* the packed sample registers of mask, each holding 1000 + its perf id */
static uint32_t pack(uint64_t mask, uint64_t *regs)
{
	uint32_t n = 0;

	for (unsigned int id = 0; id < 64; id++)
		if (mask & (1ULL << id))
			regs[n++] = 1000 + id;
	return n;
}

static void test_full_mask(void)
{
	uint64_t regs[64], out[XPP_UNWIND_NR_REGS];
	uint32_t n = pack(PERF_DWARF_MASK, regs);
	uint32_t present = xpp_unwind_dwarf_regs(PERF_DWARF_MASK, regs, n, out);

	CHECK_EQ_U64(present, (1u << XPP_UNWIND_NR_REGS) - 1);
	/* the psABI order: rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8..r15, rip */
	CHECK_EQ_U64(out[0], 1000 + PERF_REG_X86_AX);
	CHECK_EQ_U64(out[1], 1000 + PERF_REG_X86_DX);
	CHECK_EQ_U64(out[2], 1000 + PERF_REG_X86_CX);
	CHECK_EQ_U64(out[3], 1000 + PERF_REG_X86_BX);
	CHECK_EQ_U64(out[4], 1000 + PERF_REG_X86_SI);
	CHECK_EQ_U64(out[5], 1000 + PERF_REG_X86_DI);
	CHECK_EQ_U64(out[6], 1000 + PERF_REG_X86_BP);
	CHECK_EQ_U64(out[7], 1000 + PERF_REG_X86_SP);
	for (unsigned int i = 0; i < 8; i++)
		CHECK_EQ_U64(out[8 + i], 1000 + PERF_REG_X86_R8 + i);
	CHECK_EQ_U64(out[16], 1000 + PERF_REG_X86_IP);
}

static void test_partial_mask(void)
{
	uint64_t mask = 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_SP | 1ULL << PERF_REG_X86_BP;
	/* packed in bit order: bp (6), sp (7), ip (8) */
	uint64_t regs[3] = { 0x60, 0x70, 0x80 }, out[XPP_UNWIND_NR_REGS];
	uint32_t present = xpp_unwind_dwarf_regs(mask, regs, 3, out);

	CHECK_EQ_U64(present, 1u << 6 | 1u << 7 | 1u << 16);
	CHECK((present & XPP_UNWIND_NEEDED) == XPP_UNWIND_NEEDED);
	CHECK_EQ_U64(out[6], 0x60);
	CHECK_EQ_U64(out[7], 0x70);
	CHECK_EQ_U64(out[16], 0x80);
	CHECK_EQ_U64(out[0], 0);
	CHECK_EQ_U64(out[3], 0);
}

static void test_short_sample(void)
{
	uint64_t regs[64], out[XPP_UNWIND_NR_REGS];

	pack(PERF_DWARF_MASK, regs);
	/* a sample holding fewer registers than its mask says: the missing ones are absent */
	uint32_t present = xpp_unwind_dwarf_regs(PERF_DWARF_MASK, regs, PERF_REG_X86_SP + 1, out);

	CHECK((present & XPP_UNWIND_NEEDED) != XPP_UNWIND_NEEDED);
	CHECK_EQ_U64(out[7], 1000 + PERF_REG_X86_SP);
	CHECK_EQ_U64(out[16], 0);
	CHECK_EQ_U64(xpp_unwind_dwarf_regs(0, regs, 0, out), 0);
}

int main(void)
{
	RUN(test_full_mask);
	RUN(test_partial_mask);
	RUN(test_short_sample);
	UNIT_MAIN_END();
}
