/* Decoding machine code with capstone, in-process: instructions, branch kinds and targets. */
#include <capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/disasm/annotate.h"
#include "profile/disasm/disasm.h"

bool xpp_cs_built(void)
{
	return true;
}

/*
 * capstone is opened with dlopen, not linked: the dynamic loader spends about a millisecond
 * and 370 page faults relocating its tables at every start, which the views that never
 * disassemble (most reports, script) need not pay, and annotate can pay on another thread
 * while its pass runs (xpp_cs_preload). The library is the one of the ABI compiled
 * against (its soname is libcapstone.so.CS_API_MAJOR), kept open until the process ends.
 */
#define SONAME_(major) "libcapstone.so." #major
#define SONAME(major) SONAME_(major)
#define CAPSTONE_SONAME SONAME(CS_API_MAJOR)

static struct {
	cs_err (*open)(cs_arch, cs_mode, csh *);
	cs_err (*option)(csh, cs_opt_type, size_t);
	bool (*insn_group)(csh, const cs_insn *, unsigned int);
	cs_insn *(*malloc)(csh);
	bool (*disasm_iter)(csh, const uint8_t **, size_t *, uint64_t *, cs_insn *);
	void (*free)(cs_insn *, size_t);
	cs_err (*close)(csh *);
	bool tried;              /* set once the load was attempted */
	bool ok;
	char why[256];           /* the loader's reason when !ok */
} cs;

static pthread_mutex_t cs_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t cs_loader;
static bool cs_loader_on;

/* Under cs_lock. */
static void load_capstone(void)
{
	void *h;

	if (cs.tried)
		return;
	cs.tried = true;
	h = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(cs.why, sizeof(cs.why), "%s", dlerror());
		return;
	}
	*(void **)&cs.open = dlsym(h, "cs_open");
	*(void **)&cs.option = dlsym(h, "cs_option");
	*(void **)&cs.insn_group = dlsym(h, "cs_insn_group");
	*(void **)&cs.malloc = dlsym(h, "cs_malloc");
	*(void **)&cs.disasm_iter = dlsym(h, "cs_disasm_iter");
	*(void **)&cs.free = dlsym(h, "cs_free");
	*(void **)&cs.close = dlsym(h, "cs_close");
	if (!cs.open || !cs.option || !cs.insn_group || !cs.malloc || !cs.disasm_iter ||
	    !cs.free || !cs.close) {
		snprintf(cs.why, sizeof(cs.why), "%s lacks a cs_ function", CAPSTONE_SONAME);
		return;
	}
	cs.ok = true;
}

static void *loader_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cs_lock);
	load_capstone();
	pthread_mutex_unlock(&cs_lock);
	return NULL;
}

void xpp_cs_preload(void)
{
	pthread_mutex_lock(&cs_lock);
	if (!cs.tried && !cs_loader_on)
		cs_loader_on = !pthread_create(&cs_loader, NULL, loader_main, NULL);
	pthread_mutex_unlock(&cs_lock);
}

/* 0 once capstone's functions are at hand, or a negative errno with err set. */
static int capstone_ready(struct xb_error *err)
{
	pthread_t t;
	bool join;

	pthread_mutex_lock(&cs_lock);
	join = cs_loader_on;
	cs_loader_on = false;
	t = cs_loader;
	pthread_mutex_unlock(&cs_lock);
	if (join)
		pthread_join(t, NULL);
	pthread_mutex_lock(&cs_lock);
	load_capstone();
	pthread_mutex_unlock(&cs_lock);
	if (!cs.ok)
		return xb_error_set(err, -ENOENT, "cannot load capstone (%s): %s",
				     CAPSTONE_SONAME, cs.why);
	return 0;
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
	if (cs.open(arch, mode, h) != CS_ERR_OK)
		return -EOPNOTSUPP;
	/* objdump's syntax on x86, so perf users read what they know */
	if (arch == CS_ARCH_X86)
		cs.option(*h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs.option(*h, CS_OPT_DETAIL, CS_OPT_ON);
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

	if (cs.insn_group(h, in, CS_GRP_CALL))
		r->kind = XPP_INSN_CALL;
	else if (cs.insn_group(h, in, CS_GRP_RET))
		r->kind = XPP_INSN_RET;
	else if (cs.insn_group(h, in, CS_GRP_JUMP))
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

int xpp_cs_disasm(const struct xpp_code *c, struct xpp_raw_insn **out, uint32_t *nr,
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
	ret = capstone_ready(err);
	if (ret < 0) {
		free(v);
		return ret;
	}
	ret = open_for(c, &h);
	if (ret < 0) {
		free(v);
		return xb_error_set(err, ret, "cannot disassemble code of ELF machine %u",
				     c->machine);
	}
	in = cs.malloc(h);
	while (in && left) {
		struct xpp_raw_insn *r;

		if (XB_ARRAY_RESERVE(v, cap, n + 1, cap))
			break;
		r = &v[n++];
		memset(r, 0, sizeof(*r));
		r->addr = addr;
		if (!cs.disasm_iter(h, &p, &left, &addr, in)) {
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
		cs.free(in, 1);
	cs.close(&h);
	if (ret < 0) {
		free(v);
		return xb_error_set(err, ret, "cannot disassemble: %s", strerror(-ret));
	}
	*out = v;
	*nr = n;
	return 0;
}
