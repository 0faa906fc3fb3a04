/* Decoding x86 machine code with Zydis, in-process: instructions, branch kinds and targets. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "base/array.h"
#include "profile/disasm/annotate.h"
#include "profile/disasm/disasm.h"
#include "profile/disasm/x86_zydis/att.h"

bool xpp_zydis_built(void)
{
	return true;
}

/*
 * Opened with dlopen, as capstone is (disasm_capstone.c says why: the views that never
 * disassemble do not pay the loader's relocations). The library is the one of the ABI
 * compiled against, libZydis.so.MAJOR.MINOR, kept open until the process ends.
 */
#define ZYDIS_MAJOR ((unsigned int)ZYDIS_VERSION_MAJOR(ZYDIS_VERSION))
#define ZYDIS_MINOR ((unsigned int)ZYDIS_VERSION_MINOR(ZYDIS_VERSION))

static struct {
	ZyanStatus (*decoder_init)(ZydisDecoder *, ZydisMachineMode, ZydisStackWidth);
	ZyanStatus (*decode_full)(const ZydisDecoder *, const void *, ZyanUSize,
				  ZydisDecodedInstruction *, ZydisDecodedOperand *);
	struct att_names names;
	bool tried;              /* set once the load was attempted */
	bool ok;
	char soname[32];
	char why[256];           /* the loader's reason when !ok */
} zy;

static pthread_mutex_t zy_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t zy_loader;
static bool zy_loader_on;

/* Under zy_lock. */
static void load_zydis(void)
{
	void *h;

	if (zy.tried)
		return;
	zy.tried = true;
	snprintf(zy.soname, sizeof(zy.soname), "libZydis.so.%u.%u", ZYDIS_MAJOR, ZYDIS_MINOR);
	h = dlopen(zy.soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(zy.why, sizeof(zy.why), "%s", dlerror());
		return;
	}
	*(void **)&zy.decoder_init = dlsym(h, "ZydisDecoderInit");
	*(void **)&zy.decode_full = dlsym(h, "ZydisDecoderDecodeFull");
	zy.names.mnemonic = dlsym(h, "ZydisMnemonicGetString");
	zy.names.reg = dlsym(h, "ZydisRegisterGetString");
	if (!zy.decoder_init || !zy.decode_full || !zy.names.mnemonic || !zy.names.reg) {
		snprintf(zy.why, sizeof(zy.why), "%s lacks a Zydis function", zy.soname);
		return;
	}
	zy.ok = true;
}

static void *loader_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&zy_lock);
	load_zydis();
	pthread_mutex_unlock(&zy_lock);
	return NULL;
}

void xpp_zydis_preload(void)
{
	pthread_mutex_lock(&zy_lock);
	if (!zy.tried && !zy_loader_on)
		zy_loader_on = !pthread_create(&zy_loader, NULL, loader_main, NULL);
	pthread_mutex_unlock(&zy_lock);
}

/* 0 once Zydis's functions are at hand, or -ENOENT with err set. */
static int zydis_ready(struct xb_error *err)
{
	pthread_t t;
	bool join;

	pthread_mutex_lock(&zy_lock);
	join = zy_loader_on;
	zy_loader_on = false;
	t = zy_loader;
	pthread_mutex_unlock(&zy_lock);
	if (join)
		pthread_join(t, NULL);
	pthread_mutex_lock(&zy_lock);
	load_zydis();
	pthread_mutex_unlock(&zy_lock);
	if (!zy.ok)
		return xb_error_set(err, -ENOENT, "cannot load Zydis (%s): %s", zy.soname,
				     zy.why);
	return 0;
}

static void classify(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op,
		     struct xpp_raw_insn *r)
{
	switch (in->meta.category) {
	case ZYDIS_CATEGORY_CALL:
		r->kind = XPP_INSN_CALL;
		break;
	case ZYDIS_CATEGORY_RET:
		r->kind = XPP_INSN_RET;
		break;
	case ZYDIS_CATEGORY_COND_BR:
	case ZYDIS_CATEGORY_UNCOND_BR:
		r->kind = XPP_INSN_JUMP;
		break;
	default:
		break;
	}
	for (unsigned int i = 0; i < in->operand_count_visible; i++) {
		uint64_t next = r->addr + in->length;

		if (op[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && op[i].imm.is_relative &&
		    r->kind != XPP_INSN_PLAIN) {
			r->has_target = true;
			r->target = next + (uint64_t)op[i].imm.value.s;
			if (in->machine_mode != ZYDIS_MACHINE_MODE_LONG_64)
				r->target &= 0xffffffffu;
		} else if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
			   (op[i].mem.base == ZYDIS_REGISTER_RIP ||
			    op[i].mem.base == ZYDIS_REGISTER_EIP) &&
			   op[i].mem.index == ZYDIS_REGISTER_NONE) {
			r->has_mem_ref = true;
			r->mem_ref = next + (uint64_t)op[i].mem.disp.value;
		}
	}
}

int xpp_zydis_disasm(const struct xpp_code *c, struct xpp_raw_insn **out, uint32_t *nr,
		     struct xb_error *err)
{
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	ZydisDecodedInstruction in;
	ZydisDecoder dec;
	size_t off = 0, cap = c->size / 3 + 16;
	struct xpp_raw_insn *v;
	uint32_t n = 0;
	int ret;

	*out = NULL;
	*nr = 0;
	if (c->machine != EM_X86_64 && c->machine != EM_386)
		return xb_error_set(err, -EOPNOTSUPP, "cannot disassemble code of ELF machine %u "
				     "with Zydis", c->machine);
	ret = zydis_ready(err);
	if (ret < 0)
		return ret;
	if (!ZYAN_SUCCESS(c->is64 ? zy.decoder_init(&dec, ZYDIS_MACHINE_MODE_LONG_64,
						     ZYDIS_STACK_WIDTH_64) :
				    zy.decoder_init(&dec, ZYDIS_MACHINE_MODE_LONG_COMPAT_32,
						    ZYDIS_STACK_WIDTH_32)))
		return xb_error_set(err, -EOPNOTSUPP, "Zydis refuses x86 %d-bit mode",
				     c->is64 ? 64 : 32);
	v = malloc(cap * sizeof(*v));
	if (!v)
		return xb_error_set(err, -ENOMEM, "cannot disassemble: %s", strerror(ENOMEM));
	while (off < c->size) {
		struct xpp_raw_insn *r;

		if (XB_ARRAY_RESERVE(v, cap, (size_t)n + 1, cap)) {
			free(v);
			return xb_error_set(err, -ENOMEM, "cannot disassemble: %s",
					     strerror(ENOMEM));
		}
		r = &v[n++];
		memset(r, 0, sizeof(*r));
		r->addr = c->vaddr + off;
		if (!ZYAN_SUCCESS(zy.decode_full(&dec, c->bytes + off, c->size - off, &in, op))) {
			/* not an instruction: one byte of "(bad)", then try the next */
			snprintf(r->mnemonic, sizeof(r->mnemonic), "(bad)");
			r->size = 1;
			off++;
			continue;
		}
		r->size = in.length;
		att_format(&zy.names, &in, op, r->addr, r->mnemonic, sizeof(r->mnemonic),
			   r->operands, sizeof(r->operands));
		classify(&in, op, r);
		off += in.length;
	}
	*out = v;
	*nr = n;
	return 0;
}
