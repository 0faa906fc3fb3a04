/* Annotation of one symbol: code, decoded instructions, samples per instruction, targets, lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/input_file.h"
#include "profile/disasm/annotate.h"
#include "profile/disasm/disasm.h"
#include "profile/profile_int.h"
#include "profile/symbols/load.h"
#include "profile/symbols/symtab.h"


struct insn_text {
	char mnemonic[32];
	char operands[320];     /* objdump's, C++ targets with their parameters */
	char short_ops[192];
};

/* A source file, read on first use: its lines point into buf. */
struct src_file {
	bool tried;
	char *buf;
	char **lines;
	uint32_t nr;
};

struct xpp_annotation {
	struct xpp_annotation_info info;
	struct xpp_ann_insn *insns;
	struct insn_text *texts;
	uint32_t *hot, nr_hot;
	xpp_intern *files;      /* source files, indexed by xpp_ann_insn.file */
	xpp_intern *names;      /* what the line tables name: files and functions */
	struct src_file *src;
	char section[64];
};

bool xpp_annotate_supported(void)
{
	return xpp_disasm_available();
}

void xpp_annotate_preload(void)
{
	xpp_disasm_preload();
}

void xpp_annotation_free(xpp_annotation *a)
{
	if (!a)
		return;
	for (uint32_t i = 0; a->src && i < a->info.nr_files; i++) {
		free(a->src[i].buf);
		free(a->src[i].lines);
	}
	free(a->src);
	xpp_intern_free(a->files);
	xpp_intern_free(a->names);
	free(a->hot);
	free(a->texts);
	free(a->insns);
	free(a);
}

const struct xpp_annotation_info *xpp_annotation_info(const xpp_annotation *a)
{
	return &a->info;
}

const struct xpp_ann_insn *xpp_annotation_insns(const xpp_annotation *a, uint32_t *nr)
{
	*nr = a->info.nr_insns;
	return a->insns;
}

const uint32_t *xpp_annotation_hot(const xpp_annotation *a, uint32_t *nr)
{
	*nr = a->nr_hot;
	return a->hot;
}

const char *xpp_annotation_file(const xpp_annotation *a, uint32_t i)
{
	return i < a->info.nr_files ? xpp_intern_str(a->files, i) : NULL;
}

/* The index of the instruction starting at addr, or, with `within`, holding it; NONE. */
static uint32_t insn_at(const xpp_annotation *a, uint64_t addr, bool within)
{
	uint32_t lo = 0, hi = a->info.nr_insns;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (a->insns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return XPP_ANN_NONE;
	if (a->insns[lo - 1].addr == addr || within)
		return lo - 1;
	return XPP_ANN_NONE;
}

/*
 * The symbol an address is named after: in objdump's table, the last one starting at or
 * before it (a relocation's symbol only at its own address); in the function symbols, the
 * one holding it.
 */
static int64_t sym_before(const struct xpp_symtab *t, uint64_t at)
{
	uint32_t lo = 0, hi = t->nr;

	if (!t->objdump_names)
		return t->nr ? xpp_symtab_find(t, at) : -1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && t->syms[lo - 1].kind == XPP_SYM_RELOC && t->syms[lo - 1].start != at)
		lo--;
	return (int64_t)lo - 1;
}

/* "name+0x40" (or "name") for a symbol-space address, as objdump writes it in <>; "" none. */
static void name_of(const struct xpp_symtab *t, uint64_t at, char *buf, size_t size)
{
	int64_t s = sym_before(t, at);
	uint64_t off;

	buf[0] = '\0';
	if (s < 0)
		return;
	/* a relocation's name is whole: it names its own slot only */
	off = t->syms[s].kind == XPP_SYM_RELOC ? 0 : at - t->syms[s].start;
	if (off)
		snprintf(buf, size, "%s+0x%llx", xpp_symtab_name(t, (uint32_t)s),
			 (unsigned long long)off);
	else
		snprintf(buf, size, "%s", xpp_symtab_name(t, (uint32_t)s));
}

/*
 * perf's TUI form of an ip-relative operand whose address has a name: the name in place of
 * "0x2eec(%rip)" (mov sink,%r8), no comment. 0, or -1 when ops holds no such operand.
 */
static int named_rip_operand(const char *ops, const char *name, char *out, size_t size)
{
	const char *rip = strstr(ops, "(%rip)"), *from;

	if (!rip || !name[0])
		return -1;
	for (from = rip; from > ops && from[-1] != ',' && from[-1] != '*' && from[-1] != ':';)
		from--;
	snprintf(out, size, "%.*s%s%s", (int)(from - ops), ops, name, rip + strlen("(%rip)"));
	return 0;
}

/*
 * Mnemonic and operands, in two forms: objdump's (what perf annotate --stdio prints: targets
 * and ip-relative data named by the file's symbols, "# 4080 <sink>", C++ names with their
 * parameters) and perf's TUI's (globals by name, short names, a jump inside the symbol by
 * its address alone), the target's instruction and symbol.
 */
static void fill_insn(xpp_annotation *a, uint32_t i, const struct xpp_raw_insn *r,
		      const struct xpp_dso *d, const struct xpp_code *c,
		      const struct xpp_symtab *names)
{
	struct xpp_ann_insn *in = &a->insns[i];
	struct insn_text *t = &a->texts[i];
	const struct xpp_symtab *full = names ? names : &d->syms;
	char name[256], sname[160];

	snprintf(t->mnemonic, sizeof(t->mnemonic), "%s", r->mnemonic);
	in->mnemonic = t->mnemonic;
	in->operands = t->operands;
	in->short_operands = t->short_ops;
	in->addr = r->addr;
	in->offset = (uint32_t)(r->addr - c->vaddr);
	in->size = r->size;
	in->kind = r->kind;
	in->target_insn = XPP_ANN_NONE;
	in->callee = -1;
	in->file = XPP_ANN_NONE;
	in->function = xpp_dso_sym_name(d, (uint32_t)a->info.sym);
	if (r->has_target) {
		uint64_t at = xpp_code_to_sym(c, r->target);
		int64_t s = d->syms.nr ? xpp_symtab_find(&d->syms, at) : -1;

		in->has_target = true;
		in->target = r->target;
		name_of(full, at, name, sizeof(name));
		name_of(&d->syms, at, sname, sizeof(sname));
		snprintf(t->operands, sizeof(t->operands), "%llx%s%s%s",
			 (unsigned long long)r->target, name[0] ? " <" : "", name,
			 name[0] ? ">" : "");
		if (r->target >= c->vaddr && r->target < c->vaddr + c->size)
			snprintf(t->short_ops, sizeof(t->short_ops), "%llx",
				 (unsigned long long)r->target);
		else
			snprintf(t->short_ops, sizeof(t->short_ops), "%llx%s%s%s",
				 (unsigned long long)r->target, sname[0] ? " <" : "", sname,
				 sname[0] ? ">" : "");
		if (r->kind == XPP_INSN_CALL)
			in->callee = (int32_t)s;
	} else {
		snprintf(t->operands, sizeof(t->operands), "%s", r->operands);
		snprintf(t->short_ops, sizeof(t->short_ops), "%s", r->operands);
	}
	if (r->has_mem_ref) {
		size_t n = strlen(t->operands);

		name[0] = '\0';
		if (names)
			name_of(names, xpp_code_to_sym(c, r->mem_ref), name, sizeof(name));
		snprintf(t->operands + n, sizeof(t->operands) - n, "        # %llx%s%s%s",
			 (unsigned long long)r->mem_ref, name[0] ? " <" : "", name,
			 name[0] ? ">" : "");
		if (named_rip_operand(r->operands, name, t->short_ops, sizeof(t->short_ops)) < 0)
			snprintf(t->short_ops, sizeof(t->short_ops), "%s", t->operands);
	}
}

/* Jumps inside the symbol: each target's instruction, and local labels in address order. */
static void link_jumps(xpp_annotation *a)
{
	uint32_t n = a->info.nr_insns, label = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct xpp_ann_insn *in = &a->insns[i];

		if (in->has_target && in->kind == XPP_INSN_JUMP &&
		    in->target >= a->info.start && in->target < a->info.end)
			in->target_insn = insn_at(a, in->target, false);
		if (in->target_insn != XPP_ANN_NONE)
			a->insns[in->target_insn].label = 1; /* numbered below */
	}
	for (uint32_t i = 0; i < n; i++)
		if (a->insns[i].label)
			a->insns[i].label = ++label;
}

static int cmp_hot(const void *x, const void *y, void *arg)
{
	const struct xpp_ann_insn *in = arg;
	const struct xpp_ann_insn *p = &in[*(const uint32_t *)x], *q = &in[*(const uint32_t *)y];

	if (p->period != q->period)
		return p->period > q->period ? -1 : 1;
	return p->addr < q->addr ? -1 : p->addr > q->addr;
}

/*
 * Charge each sample address to the instruction holding it, as perf sums the bytes from
 * an instruction's start to the next one's.
 */
static int add_samples(xpp_annotation *a, const xpp_profile *p, uint64_t start, uint64_t end,
		       const struct xpp_code *c)
{
	size_t nh;
	const struct xpp_addr_hits *h =
		xpp_profile_addr_hits(p, a->info.event, a->info.dso, start, end, &nh);
	uint64_t best = 0;

	a->info.hottest = XPP_ANN_NONE;
	for (size_t i = 0; i < nh; i++) {
		uint32_t k = insn_at(a, xpp_code_to_vaddr(c, h[i].addr), true);

		if (k == XPP_ANN_NONE)
			continue;
		a->insns[k].period += h[i].period;
		a->insns[k].nr_samples += h[i].nr_samples;
		a->info.period += h[i].period;
		a->info.nr_samples += h[i].nr_samples;
	}
	for (uint32_t i = 0; i < a->info.nr_insns; i++) {
		struct xpp_ann_insn *in = &a->insns[i];

		if (a->info.period)
			in->percent = 100.0 * (double)in->period / (double)a->info.period;
		if (!in->nr_samples)
			continue;
		a->nr_hot++;
		if (a->info.hottest == XPP_ANN_NONE || in->period > best) {
			best = in->period;
			a->info.hottest = i;
		}
	}
	a->hot = malloc((a->nr_hot ? a->nr_hot : 1) * sizeof(*a->hot));
	if (!a->hot)
		return -ENOMEM;
	for (uint32_t i = 0, n = 0; i < a->info.nr_insns; i++)
		if (a->insns[i].nr_samples)
			a->hot[n++] = i;
	qsort_r(a->hot, a->nr_hot, sizeof(*a->hot), cmp_hot, a->insns);
	return 0;
}

/*
 * Per DSO, the line tables, opened once for every symbol annotated in it: opening reads
 * and often decompresses the DWARF (libc's debug file: tens of milliseconds), which an
 * annotation of every symbol or a TUI moving from callee to callee would pay each time.
 */
struct ann_cache {
	struct cached_lines {
		bool tried, names_tried;
		xpp_lines *l;
		struct xpp_symtab *names; /* objdump's names of addresses, NULL none */
	} *dsos;
	uint32_t nr;
};

static void cache_free(void *arg)
{
	struct ann_cache *c = arg;

	for (uint32_t i = 0; c && i < c->nr; i++) {
		xpp_lines_close(c->dsos[i].l);
		if (c->dsos[i].names)
			xpp_symtab_free(c->dsos[i].names);
		free(c->dsos[i].names);
	}
	if (c)
		free(c->dsos);
	free(c);
}

/*
 * The file that holds a user DSO's code as recorded, where the symbols were read from
 * (under --symfs, or perf's build-id cache), else its recorded path.
 */
static const char *code_file(const xpp_profile *p, uint32_t dso, const struct xpp_dso *d)
{
	const char *f = d->kind == XPP_DSO_USER ? xpp_dso_table_file(xpp_profile_dsos(p), dso) :
						  NULL;

	return f ? f : d->long_name;
}

/* DSO dso's entry of the cache that hangs off the profile, NULL without memory. */
static struct cached_lines *cache_of(const xpp_profile *cp, uint32_t dso)
{
	/* the profile's cache is lazily filled state, as its DSOs' symbol tables are */
	xpp_profile *p = (xpp_profile *)cp;
	struct ann_cache *c = p->ann_cache;

	if (!c) {
		if (!(c = calloc(1, sizeof(*c))))
			return NULL;
		p->ann_cache = c;
		p->ann_cache_free = cache_free;
	}
	if (dso >= c->nr && XB_ARRAY_RESERVE0(c->dsos, c->nr, (size_t)dso + 1, 64))
		return NULL;
	return &c->dsos[dso];
}

/*
 * The names objdump gives addresses of a user DSO's file (data too: "# 4080 <sink>"), read
 * once per DSO; NULL when there are none (the kernel, the vdso, a file without symbols):
 * the instructions then name targets by the function symbols alone.
 */
static const struct xpp_symtab *names_of(const xpp_profile *p, uint32_t dso,
					 const struct xpp_dso *d, const char *debug_root)
{
	struct cached_lines *e = cache_of(p, dso);
	struct xb_error err = { 0 };

	if (!e || d->kind != XPP_DSO_USER)
		return NULL;
	if (!e->names_tried) {
		e->names_tried = true;
		e->names = calloc(1, sizeof(*e->names));
		if (e->names && xpp_elf_addr_names_load(e->names, code_file(p, dso, d), debug_root,
							p->debuginfod, &err) < 0) {
			xpp_symtab_free(e->names);
			free(e->names);
			e->names = NULL;
		}
	}
	return e->names && e->names->nr ? e->names : NULL;
}

/* The line tables of DSO dso (NULL: none); the cache hangs off the profile. */
static int lines_of(const xpp_profile *cp, uint32_t dso, const struct xpp_dso *d,
		    const char *debug_root, xpp_lines **out)
{
	struct cached_lines *e = cache_of(cp, dso);
	int ret;

	*out = NULL;
	if (!e)
		return -ENOMEM;
	if (!e->tried) {
		ret = xpp_lines_open(&e->l, code_file(cp, dso, d), debug_root, cp->debuginfod);
		if (ret == -ENOMEM)
			return ret;
		e->tried = true;
	}
	*out = e->l;
	return 0;
}

static int add_lines(xpp_annotation *a, const xpp_profile *p, const struct xpp_dso *d,
		     const char *debug_root)
{
	uint32_t n = a->info.nr_insns;
	uint64_t *addrs = malloc((n ? n : 1) * sizeof(*addrs));
	struct xpp_line_loc *loc = malloc((n ? n : 1) * sizeof(*loc));
	xpp_lines *l;
	int ret = -ENOMEM;

	if (!addrs || !loc)
		goto out;
	ret = lines_of(p, a->info.dso, d, debug_root, &l);
	if (ret < 0 || !l)
		goto out; /* no line tables (or no libdw): instructions without lines */
	for (uint32_t i = 0; i < n; i++)
		addrs[i] = a->insns[i].addr;
	ret = xpp_lines_lookup(l, addrs, n, loc, a->names);
	if (ret < 0)
		goto out;
	a->info.has_lines = true;
	for (uint32_t i = 0; i < n; i++) {
		struct xpp_ann_insn *in = &a->insns[i];

		if (loc[i].func != UINT32_MAX)
			in->function = xpp_intern_str(a->names, loc[i].func);
		if (loc[i].file == UINT32_MAX)
			continue;
		const char *f = xpp_intern_str(a->names, loc[i].file);
		int64_t id = xpp_intern_id(a->files, f, strlen(f));

		if (id < 0) {
			ret = (int)id;
			goto out;
		}
		in->file = (uint32_t)id;
		in->line = loc[i].line;
		in->discriminator = loc[i].discriminator;
	}
	ret = 0;
out:
	free(addrs);
	free(loc);
	return ret;
}

/* Kernel symbols end where the next begins: drop the padding nops, as perf does for kcore. */
static uint32_t trim_nops(const struct xpp_raw_insn *r, uint32_t n)
{
	while (n > 1 && !strncmp(r[n - 1].mnemonic, "nop", 3))
		n--;
	return n;
}

int xpp_annotation_create(xpp_annotation **out, const xpp_profile *p, uint32_t event,
			  uint32_t dso, int32_t sym, const struct xpp_annotate_opts *opts,
			  struct xb_error *err)
{
	struct xpp_annotate_opts none = { 0 };
	const struct xpp_dso *d = xpp_dso_table_get(xpp_profile_dsos(p), dso);
	const struct xpp_symtab *names;
	struct xpp_raw_insn *raw = NULL;
	struct xpp_code code = { 0 };
	xpp_annotation *a = NULL;
	const struct xpp_sym *s;
	uint32_t n = 0;
	int ret;

	*out = NULL;
	if (!opts)
		opts = &none;
	if (!xpp_disasm_available())
		return xpp_disasm(&code, &raw, &n, err); /* the stub's message */
	if (!d || sym < 0 || (uint32_t)sym >= d->syms.nr)
		return xb_error_set(err, -EINVAL, "no symbol %d in DSO %u", sym, dso);
	if (!p->o.keep_addrs)
		return xb_error_set(err, -EINVAL, "the profile was made without keep_addrs: it "
				     "has no sample addresses to annotate");
	s = &d->syms.syms[sym];
	ret = xpp_code_load(&code, d, code_file(p, dso, d), s->start, s->end, opts->kcore, err);
	if (ret < 0)
		return ret;
	ret = xpp_disasm(&code, &raw, &n, err);
	if (ret < 0)
		goto out;
	if (d->kind == XPP_DSO_KERNEL)
		n = trim_nops(raw, n);
	ret = -ENOMEM;
	a = calloc(1, sizeof(*a));
	if (!a || !(a->insns = calloc(n ? n : 1, sizeof(*a->insns))) ||
	    !(a->texts = calloc(n ? n : 1, sizeof(*a->texts))) ||
	    !(a->files = xpp_intern_create()) || !(a->names = xpp_intern_create()))
		goto nomem;
	a->info = (struct xpp_annotation_info){
		.sym_name = xpp_dso_sym_name(d, (uint32_t)sym),
		.dso_name = d->short_name,
		.dso_path = d->long_name,
		.event = event,
		.dso = dso,
		.sym = sym,
		.start = code.vaddr,
		.end = code.vaddr + code.size,
		.nr_insns = n,
		.is64 = code.is64,
	};
	/* the section name lives in code, which goes before the annotation */
	snprintf(a->section, sizeof(a->section), "%s", code.section);
	a->info.section = a->section;
	names = names_of(p, dso, d, opts->debug_root);
	for (uint32_t i = 0; i < n; i++)
		fill_insn(a, i, &raw[i], d, &code, names);
	link_jumps(a);
	if (add_samples(a, p, s->start, s->end, &code) < 0)
		goto nomem;
	if (!opts->no_source && code.lines_from_file &&
	    (ret = add_lines(a, p, d, opts->debug_root)) < 0)
		goto nomem;
	a->info.nr_files = xpp_intern_nr(a->files);
	if (!(a->src = calloc(a->info.nr_files ? a->info.nr_files : 1, sizeof(*a->src))))
		goto nomem;
	ret = 0;
	*out = a;
	a = NULL;
	goto out;
nomem:
	xb_error_set(err, -ENOMEM, "cannot annotate: %s", strerror(ENOMEM));
	ret = -ENOMEM;
out:
	xpp_annotation_free(a);
	free(raw);
	xpp_code_free(&code);
	return ret;
}

/* ---- source text ---- */

static void load_source(struct src_file *f, const char *path)
{
	uint32_t cap = 0;
	size_t len = 0;
	int fd;

	f->tried = true;
	/* the DWARF names the file: it may be a FIFO or a device; not shown when refused */
	fd = xb_input_open(path, XB_INPUT_SRC_MAX, 0, NULL, NULL);
	if (fd < 0)
		return;
	if (xb_input_read_all(fd, XB_INPUT_SRC_MAX, &f->buf, &len))
		goto out;
	for (char *line = f->buf; line < f->buf + len;) {
		char *nl = memchr(line, '\n', (size_t)(f->buf + len - line));

		if (XB_ARRAY_RESERVE(f->lines, cap, (size_t)f->nr + 1, 256))
			break;
		f->lines[f->nr++] = line;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		line = nl + 1;
	}
out:
	close(fd);
}

uint32_t xpp_annotation_src_lines(xpp_annotation *a, uint32_t file)
{
	struct src_file *f;

	if (file >= a->info.nr_files)
		return 0;
	f = &a->src[file];
	if (!f->tried)
		load_source(f, xpp_intern_str(a->files, file));
	return f->nr;
}

const char *xpp_annotation_src_text(xpp_annotation *a, uint32_t file, uint32_t line)
{
	if (!line || line > xpp_annotation_src_lines(a, file))
		return NULL;
	return a->src[file].lines[line - 1];
}
