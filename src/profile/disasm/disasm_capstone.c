/* Decoding machine code with capstone, in-process: instructions, branch kinds and targets. */
#include <capstone.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/disasm/annotate.h"
#include "profile/disasm/disasm.h"

bool xpp_disasm_available(void)
{
	return true;
}

static int open_for(const struct xpp_code *c, csh *h)
{
	cs_arch arch;
	cs_mode mode;

	switch (c->machine) {
	case EM_X86_64:
	case EM_386:
		arch = CS_ARCH_X86;
		mode = c->is64 ? CS_MODE_64 : CS_MODE_32;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (cs_open(arch, mode, h) != CS_ERR_OK)
		return -EOPNOTSUPP;
	/* objdump's syntax on x86, so perf users read what they know */
	if (arch == CS_ARCH_X86)
		cs_option(*h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	return 0;
}

/* objdump writes operands without a space after the commas. */
static void copy_operands(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < size; src++) {
		if (*src == ' ' && n && dst[n - 1] == ',')
			continue;
		dst[n++] = *src;
	}
	dst[n] = '\0';
}

static void classify(csh h, const cs_insn *in, const struct xpp_code *c, struct xpp_raw_insn *r)
{
	const cs_detail *d = in->detail;

	if (cs_insn_group(h, in, CS_GRP_CALL))
		r->kind = XPP_INSN_CALL;
	else if (cs_insn_group(h, in, CS_GRP_RET))
		r->kind = XPP_INSN_RET;
	else if (cs_insn_group(h, in, CS_GRP_JUMP))
		r->kind = XPP_INSN_JUMP;
	if (!d)
		return;
	if (c->machine == EM_X86_64 || c->machine == EM_386) {
		for (int i = 0; i < d->x86.op_count; i++) {
			const cs_x86_op *op = &d->x86.operands[i];

			if (op->type == X86_OP_IMM && r->kind != XPP_INSN_PLAIN &&
			    d->x86.op_count == 1) {
				r->has_target = true;
				r->target = (uint64_t)op->imm;
			} else if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
				   op->mem.index == X86_REG_INVALID) {
				r->has_mem_ref = true;
				r->mem_ref = in->address + in->size + (uint64_t)op->mem.disp;
			}
		}
	} else if (c->machine == EM_AARCH64 && r->kind != XPP_INSN_PLAIN) {
		for (int i = 0; i < d->arm64.op_count; i++)
			if (d->arm64.operands[i].type == ARM64_OP_IMM) {
				r->has_target = true;
				r->target = (uint64_t)d->arm64.operands[i].imm;
			}
	}
}

int xpp_disasm(const struct xpp_code *c, struct xpp_raw_insn **out, uint32_t *nr,
	       struct xb_error *err)
{
	const uint8_t *p = c->bytes;
	size_t left = c->size, cap = c->size / 3 + 16;
	uint64_t addr = c->vaddr;
	struct xpp_raw_insn *v = malloc(cap * sizeof(*v));
	cs_insn *in = NULL;
	uint32_t n = 0;
	csh h;
	int ret;

	*out = NULL;
	*nr = 0;
	if (!v)
		return xb_error_set(err, -ENOMEM, "cannot disassemble: %s", strerror(ENOMEM));
	ret = open_for(c, &h);
	if (ret < 0) {
		free(v);
		return xb_error_set(err, ret, "cannot disassemble code of ELF machine %u",
				     c->machine);
	}
	in = cs_malloc(h);
	while (in && left) {
		struct xpp_raw_insn *r;

		if (XB_ARRAY_RESERVE(v, cap, n + 1, cap))
			break;
		r = &v[n++];
		memset(r, 0, sizeof(*r));
		r->addr = addr;
		if (!cs_disasm_iter(h, &p, &left, &addr, in)) {
			/* not an instruction: one byte of "(bad)", then try the next */
			snprintf(r->mnemonic, sizeof(r->mnemonic), "(bad)");
			r->size = 1;
			p++;
			left--;
			addr++;
			continue;
		}
		r->size = (uint8_t)in->size;
		snprintf(r->mnemonic, sizeof(r->mnemonic), "%s", in->mnemonic);
		copy_operands(r->operands, sizeof(r->operands), in->op_str);
		classify(h, in, c, r);
	}
	ret = in && !left ? 0 : -ENOMEM;
	if (in)
		cs_free(in, 1);
	cs_close(&h);
	if (ret < 0) {
		free(v);
		return xb_error_set(err, ret, "cannot disassemble: %s", strerror(-ret));
	}
	*out = v;
	*nr = n;
	return 0;
}
