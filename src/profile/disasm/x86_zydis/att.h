/* objdump's AT&T text of an x86 instruction decoded by Zydis (private to x86_zydis/). */
#ifndef XPERF_PROFILE_X86_ZYDIS_ATT_H
#define XPERF_PROFILE_X86_ZYDIS_ATT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Zydis's name functions, ZydisMnemonicGetString and ZydisRegisterGetString, as dlsym gives
 * them (decode.c opens the library); this header leaves Zydis's own out, as the stubs'
 * build has none.
 */
struct att_names {
	void *mnemonic, *reg;
};

struct ZydisDecodedInstruction_;
struct ZydisDecodedOperand_;

/*
 * The instruction at addr as `objdump -d` (binutils 2.40) prints it, which is what perf
 * annotate shows: the mnemonic with its prefixes ("rep stos", "data16 cs nopw", "je",
 * "movzbl", "vpcmpnequb") into mn, the operands in AT&T order without spaces after the
 * commas ("%ds:(%rsi),%es:(%rdi)", "$0xffffffffffffff80,%rdi", "(%rdi),%ymm16,%k1{%k2}")
 * into ops. A direct branch's operand is its target, in hex without "0x".
 */
void att_format(const struct att_names *n, const struct ZydisDecodedInstruction_ *in,
		const struct ZydisDecodedOperand_ *op, uint64_t addr, char *mn, size_t mn_size, char *ops,
		size_t ops_size);

#endif
