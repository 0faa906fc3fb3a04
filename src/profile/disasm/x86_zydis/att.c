/*
 * objdump's AT&T text of an instruction Zydis decoded. Zydis's own AT&T formatter is not
 * objdump's (jz for je, movzxb for movzbl, "nop %eax,(%rax)" for nopl 0x0(%rax), vpcmpub $4
 * for vpcmpnequb, 0x01 for 0x1, a space after commas), and perf annotate shows objdump's
 * text: the text is built here from the decoded fields, by binutils' rules.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "profile/disasm/x86_zydis/att.h"

struct out {
	char *p;
	size_t size, n;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->n + 1 >= o->size)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->p + o->n, o->size - o->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->n = o->n + (size_t)k < o->size ? o->n + (size_t)k : o->size - 1;
}

/* The size letter of an operand of `bits` bits, as AT&T suffixes name them. */
static const char *size_letter(unsigned int bits)
{
	switch (bits) {
	case 8: return "b";
	case 16: return "w";
	case 32: return "l";
	case 64: return "q";
	default: return "";
	}
}

/* Intel's condition names that binutils spells otherwise (jz -> je, cmovnbe -> cmova). */
static const char *gnu_cc(const char *cc)
{
	static const char *const map[][2] = {
		{ "z", "e" }, { "nz", "ne" }, { "nbe", "a" }, { "nb", "ae" },
		{ "nle", "g" }, { "nl", "ge" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(cc, map[i][0]))
			return map[i][1];
	return cc;
}

static bool is_legacy_op(const ZydisDecodedInstruction *in, uint8_t lo, uint8_t hi)
{
	return in->encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
	       in->opcode_map == ZYDIS_OPCODE_MAP_DEFAULT && in->opcode >= lo && in->opcode <= hi;
}

static bool is_branch(const ZydisDecodedInstruction *in)
{
	return in->meta.category == ZYDIS_CATEGORY_CALL ||
	       in->meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
	       in->meta.category == ZYDIS_CATEGORY_COND_BR || in->meta.category == ZYDIS_CATEGORY_RET;
}

/* Operands objdump prints: the visible ones but the EVEX mask (a decorator there). */
static bool shown(const ZydisDecodedOperand *op)
{
	return op->visibility != ZYDIS_OPERAND_VISIBILITY_HIDDEN &&
	       op->encoding != ZYDIS_OPERAND_ENCODING_MASK;
}

static const char *mnemonic_name(const struct att_names *n, ZydisMnemonic m)
{
	const char *(*f)(ZydisMnemonic);

	*(void **)&f = n->mnemonic;
	return f(m);
}

static void put_reg(struct out *o, const struct att_names *n, ZydisRegister r)
{
	const char *(*f)(ZydisRegister);
	const char *name;

	*(void **)&f = n->reg;
	name = f(r);
	put(o, "%%%s", name ? name : "?");
}

/* x87 stack registers: %st(i) when ModRM names it, %st for the implied top */
static void put_st(struct out *o, const ZydisDecodedOperand *op)
{
	if (op->encoding == ZYDIS_OPERAND_ENCODING_MODRM_RM)
		put(o, "%%st(%d)", (int)(op->reg.value - ZYDIS_REGISTER_ST0));
	else
		put(o, "%%st");
}

static void put_mem(struct out *o, const struct att_names *n, const ZydisDecodedInstruction *in,
		    const ZydisDecodedOperand *op)
{
	const ZydisDecodedOperandMem *m = &op->mem;
	bool regs = m->base != ZYDIS_REGISTER_NONE || m->index != ZYDIS_REGISTER_NONE;
	bool seg64 = m->segment == ZYDIS_REGISTER_FS || m->segment == ZYDIS_REGISTER_GS;

	/* in 64-bit code only %fs and %gs mean something; objdump names the others as prefixes */
	if (seg64 || (in->machine_mode != ZYDIS_MACHINE_MODE_LONG_64 &&
		      (in->attributes & ZYDIS_ATTRIB_HAS_SEGMENT))) {
		put_reg(o, n, m->segment);
		put(o, ":");
	}
	if (!regs) {
		uint64_t a = (uint64_t)m->disp.value;

		if (in->address_width == 32)
			a &= 0xffffffffu;
		put(o, "0x%llx", (unsigned long long)a);
	} else if (m->disp.has_displacement || in->raw.disp.size) {
		if (m->disp.value < 0)
			put(o, "-0x%llx", (unsigned long long)-(uint64_t)m->disp.value);
		else
			put(o, "0x%llx", (unsigned long long)m->disp.value);
	}
	if (regs) {
		put(o, "(");
		if (m->base != ZYDIS_REGISTER_NONE)
			put_reg(o, n, m->base);
		if (m->index != ZYDIS_REGISTER_NONE) {
			put(o, ",");
			put_reg(o, n, m->index);
			put(o, ",%u", m->scale ? m->scale : 1);
		}
		put(o, ")");
	}
	if (in->avx.broadcast.mode != ZYDIS_BROADCAST_MODE_INVALID && !in->avx.broadcast.is_static) {
		static const unsigned int to[] = {
			[ZYDIS_BROADCAST_MODE_1_TO_2] = 2, [ZYDIS_BROADCAST_MODE_1_TO_4] = 4,
			[ZYDIS_BROADCAST_MODE_1_TO_8] = 8, [ZYDIS_BROADCAST_MODE_1_TO_16] = 16,
			[ZYDIS_BROADCAST_MODE_1_TO_32] = 32, [ZYDIS_BROADCAST_MODE_1_TO_64] = 64,
		};

		if ((size_t)in->avx.broadcast.mode < sizeof(to) / sizeof(to[0]) &&
		    to[in->avx.broadcast.mode])
			put(o, "{1to%u}", to[in->avx.broadcast.mode]);
	}
}

static void put_imm(struct out *o, const ZydisDecodedInstruction *in,
		    const ZydisDecodedOperand *op, uint64_t addr)
{
	uint64_t v = op->imm.value.u;
	unsigned int bits = op->size;

	/* a sign-extended immediate shows with the operation's width: $0xffffffffffffff80 */
	if (op->imm.is_signed && in->encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
	    in->operand_width > bits)
		bits = in->operand_width;

	if (op->imm.is_relative) {
		v = addr + in->length + (uint64_t)op->imm.value.s;
		if (in->operand_width == 32 && in->machine_mode != ZYDIS_MACHINE_MODE_LONG_64)
			v &= 0xffffffffu;
		put(o, "%llx", (unsigned long long)v);
		return;
	}
	if (bits && bits < 64)
		v &= (1ULL << bits) - 1;
	put(o, "$0x%llx", (unsigned long long)v);
}

static void put_operand(struct out *o, const struct att_names *n,
			const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op,
			uint64_t addr)
{
	if (is_branch(in) && (op->type == ZYDIS_OPERAND_TYPE_REGISTER ||
			      op->type == ZYDIS_OPERAND_TYPE_MEMORY))
		put(o, "*");
	switch (op->type) {
	case ZYDIS_OPERAND_TYPE_REGISTER:
		if (op->reg.value >= ZYDIS_REGISTER_ST0 && op->reg.value <= ZYDIS_REGISTER_ST7)
			put_st(o, op);
		else
			put_reg(o, n, op->reg.value);
		break;
	case ZYDIS_OPERAND_TYPE_MEMORY:
		put_mem(o, n, in, op);
		break;
	case ZYDIS_OPERAND_TYPE_IMMEDIATE:
		put_imm(o, in, op, addr);
		break;
	case ZYDIS_OPERAND_TYPE_POINTER:
		put(o, "$0x%x,$0x%llx", op->ptr.segment, (unsigned long long)op->ptr.offset);
		break;
	default:
		break;
	}
}

/* EVEX's {%k1}{z} after the destination (AT&T's last operand). */
static void put_mask(struct out *o, const struct att_names *n, const ZydisDecodedInstruction *in)
{
	if (in->avx.mask.reg == ZYDIS_REGISTER_NONE || in->avx.mask.reg == ZYDIS_REGISTER_K0)
		return;
	put(o, "{");
	put_reg(o, n, in->avx.mask.reg);
	put(o, "}");
	/* Zydis calls a compare into a mask register zeroing; binutils shows the encoded bit */
	if (in->encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX && in->raw.evex.z)
		put(o, "{z}");
}

/* String instructions: objdump spells out their implicit operands. */
static bool string_insn(const ZydisDecodedInstruction *in)
{
	return is_legacy_op(in, 0xa4, 0xa7) || is_legacy_op(in, 0xaa, 0xaf) ||
	       is_legacy_op(in, 0x6c, 0x6f);
}

static void format_string(const ZydisDecodedInstruction *in, struct out *mn, struct out *ops)
{
	static const char *const acc[] = { "%al", "%ax", "%eax", "%rax" };
	bool byte = !(in->opcode & 1);
	unsigned int w = byte ? 8 : in->operand_width;
	const char *si = in->address_width == 64 ? "(%rsi)" : in->address_width == 32 ? "(%esi)" :
									       "(%si)";
	const char *di = in->address_width == 64 ? "(%rdi)" : in->address_width == 32 ? "(%edi)" :
									       "(%di)";
	const char *a = acc[w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3];

	switch (in->opcode & ~1) {
	case 0xa4:
		put(mn, "movs%s", size_letter(w));
		put(ops, "%%ds:%s,%%es:%s", si, di);
		break;
	case 0xa6:
		put(mn, "cmps%s", size_letter(w));
		put(ops, "%%es:%s,%%ds:%s", di, si);
		break;
	case 0xaa:
		put(mn, "stos");
		put(ops, "%s,%%es:%s", a, di);
		break;
	case 0xac:
		put(mn, "lods");
		put(ops, "%%ds:%s,%s", si, a);
		break;
	case 0xae:
		put(mn, "scas");
		put(ops, "%%es:%s,%s", di, a);
		break;
	case 0x6c:
		put(mn, "ins%s", size_letter(w));
		put(ops, "(%%dx),%%es:%s", di);
		break;
	case 0x6e:
		put(mn, "outs%s", size_letter(w));
		put(ops, "%%ds:%s,(%%dx)", si);
		break;
	}
}

/* The prefixes objdump names before the mnemonic: lock, rep, bnd, notrack, data16, cs... */
static void put_prefixes(struct out *mn, const ZydisDecodedInstruction *in, bool string,
			 bool has_mem)
{
	unsigned int n66 = 0, used66 = 0, seen66 = 0;

	for (unsigned int i = 0; i < in->raw.prefix_count; i++)
		if (in->raw.prefixes[i].value == 0x66) {
			n66++;
			if (in->raw.prefixes[i].type != ZYDIS_PREFIX_TYPE_IGNORED)
				used66 = 1;
		}
	/* 16-bit operands use one 0x66, whatever Zydis calls the others */
	if (in->operand_width == 16 && in->machine_mode != ZYDIS_MACHINE_MODE_LEGACY_16)
		used66 = 1;
	for (unsigned int i = 0; i < in->raw.prefix_count; i++) {
		uint8_t v = in->raw.prefixes[i].value;
		bool mandatory = in->raw.prefixes[i].type == ZYDIS_PREFIX_TYPE_MANDATORY;
		const char *name = NULL;

		switch (v) {
		case 0xf0:
			name = "lock";
			break;
		case 0xf3:
			if (mandatory && !string)
				break;
			name = string ? ((in->opcode & ~1) == 0xa6 || (in->opcode & ~1) == 0xae ?
						 "repz" : "rep") : "repz";
			break;
		case 0xf2:
			if (mandatory && !string)
				break;
			name = !string && (in->attributes & ZYDIS_ATTRIB_HAS_BND) ? "bnd" : "repnz";
			break;
		case 0x66:
			if (mandatory)
				break;
			if (++seen66 <= n66 - used66)
				name = "data16";
			break;
		case 0x67:
			if (in->raw.prefixes[i].type == ZYDIS_PREFIX_TYPE_IGNORED)
				name = "addr32";
			break;
		case 0x2e: case 0x3e: case 0x26: case 0x36:
			if (in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64 || !has_mem) {
				if (v == 0x3e && (in->attributes & ZYDIS_ATTRIB_HAS_NOTRACK))
					name = "notrack";
				else
					name = v == 0x2e ? "cs" : v == 0x3e ? "ds" : v == 0x26 ? "es" :
											"ss";
			}
			break;
		case 0x64: case 0x65:
			if (!has_mem)
				name = v == 0x64 ? "fs" : "gs";
			break;
		default:
			break;
		}
		if (name)
			put(mn, "%s ", name);
	}
}

/* vpcmp{,u}{b,w,d,q} and (v)cmp{ps,pd,ss,sd} with a predicate binutils names. */
static bool cmp_pseudo_op(const char *base, const ZydisDecodedInstruction *in,
			  const ZydisDecodedOperand *imm, struct out *mn)
{
	static const char *const pred[] = {
		"eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord",
		"eq_uq", "nge", "ngt", "false", "neq_oq", "ge", "gt", "true",
		"eq_os", "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
		"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq", "true_us",
	};
	uint64_t p;

	if (!imm || imm->type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
		return false;
	p = imm->imm.value.u & 0xff;
	if (!strncmp(base, "vpcmp", 5) && strlen(base) <= 7 && strncmp(base, "vpcmpeq", 7) &&
	    strncmp(base, "vpcmpgt", 7)) {
		/* vpcmpb, vpcmpub, ...: binutils names all but 3 (false) and 7 (true) */
		if (p > 7 || p == 3 || p == 7)
			return false;
		put(mn, "vpcmp%s%s", pred[p], base + 5);
		return true;
	}
	if ((!strcmp(base, "cmpps") || !strcmp(base, "cmppd") || !strcmp(base, "cmpss") ||
	     !strcmp(base, "cmpsd")) && p < 8) {
		put(mn, "cmp%s%s", pred[p], base + 3);
		return true;
	}
	if ((!strcmp(base, "vcmpps") || !strcmp(base, "vcmppd") || !strcmp(base, "vcmpss") ||
	     !strcmp(base, "vcmpsd") || !strcmp(base, "vcmpph") || !strcmp(base, "vcmpsh")) &&
	    p < 32 && in->encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY) {
		put(mn, "vcmp%s%s", pred[p], base + 4);
		return true;
	}
	return false;
}

/* The mnemonic's name as binutils spells it, before any size suffix. */
static void gnu_name(const char *base, const ZydisDecodedInstruction *in,
		     const ZydisDecodedOperand *op, struct out *mn)
{
	static const char *const renames[][2] = {
		{ "cbw", "cbtw" }, { "cwde", "cwtl" }, { "cdqe", "cltq" }, { "cwd", "cwtd" },
		{ "cdq", "cltd" }, { "cqo", "cqto" }, { "pushfq", "pushf" }, { "popfq", "popf" },
		{ "iretq", "iretq" }, { "movsxd", "movslq" },
	};

	for (size_t i = 0; i < sizeof(renames) / sizeof(renames[0]); i++)
		if (!strcmp(base, renames[i][0])) {
			put(mn, "%s", renames[i][1]);
			return;
		}
	if (!strcmp(base, "movzx") || !strcmp(base, "movsx")) {
		put(mn, "mov%c%s%s", base[3], size_letter(op[1].size), size_letter(op[0].size));
		return;
	}
	if (base[0] == 'j' && strcmp(base, "jmp") && !strstr(base, "cxz")) {
		put(mn, "j%s", gnu_cc(base + 1));
		return;
	}
	if (!strncmp(base, "set", 3) && in->opcode_map == ZYDIS_OPCODE_MAP_0F &&
	    (in->opcode & 0xf0) == 0x90) {
		put(mn, "set%s", gnu_cc(base + 3));
		return;
	}
	if (!strncmp(base, "cmov", 4) && in->opcode_map == ZYDIS_OPCODE_MAP_0F) {
		put(mn, "cmov%s", gnu_cc(base + 4));
		return;
	}
	/* mov with a 64-bit immediate or a 64-bit absolute address */
	if (!strcmp(base, "mov") && in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64 &&
	    ((is_legacy_op(in, 0xb8, 0xbf) && in->raw.imm[0].size == 64) ||
	     is_legacy_op(in, 0xa0, 0xa3))) {
		put(mn, "movabs");
		return;
	}
	put(mn, "%s", base);
}

/*
 * x87: a memory operand's size in the name (flds, fldl, fldt; filds, fildl, fildll); and
 * binutils' AT&T names of dc/de f(sub|div)(r)(p) st(i),st0 swapped, as the SysV assemblers
 * have it (Intel's fsubrp is objdump's fsubp).
 */
static bool x87_name(const char *base, const ZydisDecodedInstruction *in,
		     const ZydisDecodedOperand *mem, struct out *mn)
{
	static const char *const fp[] = { "fld", "fst", "fstp", "fadd", "fsub", "fsubr", "fmul",
					  "fdiv", "fdivr", "fcom", "fcomp" };
	static const char *const fi[] = { "fild", "fist", "fistp", "fisttp", "fiadd", "fisub",
					  "fisubr", "fimul", "fidiv", "fidivr", "ficom", "ficomp" };
	size_t len = strlen(base);

	if (base[0] != 'f' || in->encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY ||
	    in->opcode_map != ZYDIS_OPCODE_MAP_DEFAULT || in->opcode < 0xd8 || in->opcode > 0xdf)
		return false;
	if (mem) {
		for (size_t i = 0; i < sizeof(fp) / sizeof(fp[0]); i++)
			if (!strcmp(base, fp[i])) {
				put(mn, "%s%s", base, mem->size == 32 ? "s" : mem->size == 64 ? "l" :
						      mem->size == 80 ? "t" : "");
				return true;
			}
		for (size_t i = 0; i < sizeof(fi) / sizeof(fi[0]); i++)
			if (!strcmp(base, fi[i])) {
				put(mn, "%s%s", base, mem->size == 16 ? "s" : mem->size == 32 ? "l" :
						      mem->size == 64 ? "ll" : "");
				return true;
			}
		return false;
	}
	if ((in->opcode == 0xdc || in->opcode == 0xde) && in->raw.modrm.mod == 3 &&
	    (!strncmp(base, "fsub", 4) || !strncmp(base, "fdiv", 4))) {
		bool r = base[4] == 'r', p = base[len - 1] == 'p';

		put(mn, "%.4s%s%s", base, r ? "" : "r", p ? "p" : "");
		return true;
	}
	return false;
}

/*
 * binutils adds the operand size (b, w, l, q) to an integer instruction whose operands do
 * not fix it: a memory operand and no register (movl $0x0,(%rax), incq 0x8(%rdi)); in
 * 64-bit code, not to push, pop, call and jmp, whose size is the stack's.
 */
static const char *suffix_of(const char *base, const ZydisDecodedInstruction *in,
			     const ZydisDecodedOperand *op)
{
	const ZydisDecodedOperand *mem = NULL;
	bool reg = false;

	for (unsigned int i = 0; i < in->operand_count_visible; i++) {
		if (!shown(&op[i]))
			continue;
		if (op[i].type == ZYDIS_OPERAND_TYPE_REGISTER)
			reg = true;
		else if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
			 op[i].mem.type != ZYDIS_MEMOP_TYPE_AGEN)
			mem = &op[i];
	}
	if (!mem)
		return "";
	/* cvtsi2sd's memory source is an integer of either size */
	if (strstr(base, "cvtsi2s") || strstr(base, "cvtusi2s"))
		return size_letter(mem->size);
	if (reg || in->encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY || is_branch(in))
		return "";
	if (in->machine_mode == ZYDIS_MACHINE_MODE_LONG_64 &&
	    (!strcmp(base, "push") || !strcmp(base, "pop")))
		return "";
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_BINARY:
	case ZYDIS_CATEGORY_LOGICAL:
	case ZYDIS_CATEGORY_DATAXFER:
	case ZYDIS_CATEGORY_SHIFT:
	case ZYDIS_CATEGORY_ROTATE:
	case ZYDIS_CATEGORY_BITBYTE:
	case ZYDIS_CATEGORY_PUSH:
	case ZYDIS_CATEGORY_POP:
	case ZYDIS_CATEGORY_NOP:
	case ZYDIS_CATEGORY_SEMAPHORE:
		return size_letter(mem->size);
	default:
		return "";
	}
}

void att_format(const struct att_names *n, const ZydisDecodedInstruction *in,
		const ZydisDecodedOperand *op, uint64_t addr, char *mn_buf, size_t mn_size,
		char *ops_buf, size_t ops_size)
{
	struct out mn = { mn_buf, mn_size, 0 }, ops = { ops_buf, ops_size, 0 };
	const char *base = mnemonic_name(n, in->mnemonic);
	const ZydisDecodedOperand *list[ZYDIS_MAX_OPERAND_COUNT];
	unsigned int nr = 0;
	bool has_mem = false, string = string_insn(in);
	char lower[32];

	mn_buf[0] = ops_buf[0] = '\0';
	if (!base)
		base = "?";
	snprintf(lower, sizeof(lower), "%s", base);
	for (char *c = lower; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	base = lower;
	for (unsigned int i = 0; i < in->operand_count_visible; i++) {
		if (!shown(&op[i]))
			continue;
		if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY)
			has_mem = true;
		list[nr++] = &op[i];
	}
	put_prefixes(&mn, in, string, has_mem);
	if (string) {
		format_string(in, &mn, &ops);
		return;
	}
	/* 66 90: objdump's xchg %ax,%ax, not nop */
	if (is_legacy_op(in, 0x90, 0x90) && in->operand_width == 16 &&
	    in->mnemonic == ZYDIS_MNEMONIC_NOP) {
		put(&mn, "xchg");
		put(&ops, "%%ax,%%ax");
		return;
	}
	/* the long nops: 0f 1f /0 shows its r/m operand only, nopw 0x0(%rax,%rax,1) */
	if (in->mnemonic == ZYDIS_MNEMONIC_NOP && nr > 1)
		nr = 1;
	/* shifts by one (d0, d1): objdump leaves the 1 out */
	if (is_legacy_op(in, 0xd0, 0xd1) && nr == 2 && list[1]->type == ZYDIS_OPERAND_TYPE_IMMEDIATE)
		nr = 1;
	if (nr && cmp_pseudo_op(base, in, list[nr - 1], &mn))
		nr--;
	else if (!x87_name(base, in, nr && list[0]->type == ZYDIS_OPERAND_TYPE_MEMORY ? list[0] :
				 nr > 1 && list[1]->type == ZYDIS_OPERAND_TYPE_MEMORY ? list[1] : NULL,
			   &mn)) {
		gnu_name(base, in, op, &mn);
		if (in->mnemonic == ZYDIS_MNEMONIC_NOP && nr && list[0]->type == ZYDIS_OPERAND_TYPE_MEMORY)
			put(&mn, "%s", size_letter(list[0]->size));
		else
			put(&mn, "%s", suffix_of(base, in, op));
	}
	/* EVEX rounding and suppress-all-exceptions: the first AT&T operand */
	if (in->avx.rounding.mode != ZYDIS_ROUNDING_MODE_INVALID) {
		static const char *const rc[] = { "", "rn", "rd", "ru", "rz" };

		if ((size_t)in->avx.rounding.mode < sizeof(rc) / sizeof(rc[0]))
			put(&ops, "{%s-sae}%s", rc[in->avx.rounding.mode], nr ? "," : "");
	} else if (in->avx.has_sae) {
		put(&ops, "{sae}%s", nr ? "," : "");
	}
	for (unsigned int i = nr; i-- > 0;) {
		put_operand(&ops, n, in, list[i], addr);
		if (i == 0)
			put_mask(&ops, n, in);
		else
			put(&ops, ",");
	}
}
