/* The machine code of a symbol: from the DSO's own ELF file, the vdso image, or /proc/kcore. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/input_file.h"
#include "profile/disasm/disasm.h"
#include "profile/symbols/load.h"

void xpp_code_free(struct xpp_code *c)
{
	free(c->bytes);
	c->bytes = NULL;
	c->size = 0;
}

uint64_t xpp_code_to_sym(const struct xpp_code *c, uint64_t vaddr)
{
	for (unsigned int i = 0; i < c->nr_loads; i++) {
		uint64_t size = c->load_memsz[i] > c->load_size[i] ? c->load_memsz[i] :
								      c->load_size[i];

		if (vaddr >= c->load_vaddr[i] && vaddr - c->load_vaddr[i] < size)
			return vaddr - c->load_vaddr[i] + c->load_off[i];
	}
	return vaddr;
}

uint64_t xpp_code_to_vaddr(const struct xpp_code *c, uint64_t off)
{
	for (unsigned int i = 0; i < c->nr_loads; i++)
		if (off >= c->load_off[i] && off - c->load_off[i] < c->load_size[i])
			return off - c->load_off[i] + c->load_vaddr[i];
	return off;
}

/* The allocated section holding vaddr, as objdump heads its listing. */
static void section_of(Elf *elf, uint64_t vaddr, char *out, size_t size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	out[0] = '\0';
	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS || vaddr < sh.sh_addr || vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n)
			snprintf(out, size, "%s", n);
		return;
	}
}

/* [start, end) as file offsets of an ELF image (a file mapped by libelf, or the vdso). */
static int from_elf(struct xpp_code *c, Elf *elf, const char *what, uint64_t start, uint64_t end,
		    struct xb_error *err)
{
	size_t nph, fsize;
	const char *raw = elf_rawfile(elf, &fsize);
	GElf_Ehdr eh;
	bool found = false;

	if (!raw || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &nph))
		return xb_error_set(err, -ENOEXEC, "cannot read the code of '%s': not an ELF file",
				     what);
	c->machine = eh.e_machine;
	c->is64 = gelf_getclass(elf) == ELFCLASS64;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (c->nr_loads < XPP_CODE_MAX_LOADS) {
			c->load_vaddr[c->nr_loads] = ph.p_vaddr;
			c->load_off[c->nr_loads] = ph.p_offset;
			c->load_size[c->nr_loads] = ph.p_filesz;
			c->load_memsz[c->nr_loads] = ph.p_memsz;
			c->nr_loads++;
		}
		if (!found && start >= ph.p_offset && start - ph.p_offset < ph.p_filesz) {
			found = true;
			/* a symbol never runs past its segment's bytes in the file */
			if (end > ph.p_offset + ph.p_filesz)
				end = ph.p_offset + ph.p_filesz;
		}
	}
	if (!found || end > fsize || end <= start)
		return xb_error_set(err, -ENOENT,
				     "cannot read the code of '%s': offset %#llx is not in a "
				     "loaded segment of the file (has it changed since the "
				     "recording?)", what, (unsigned long long)start);
	c->size = end - start;
	c->bytes = malloc(c->size);
	if (!c->bytes)
		return xb_error_set(err, -ENOMEM, "cannot read code: %s", strerror(ENOMEM));
	memcpy(c->bytes, raw + start, c->size);
	c->vaddr = xpp_code_to_vaddr(c, start);
	section_of(elf, c->vaddr, c->section, sizeof(c->section));
	return 0;
}

static int from_file(struct xpp_code *c, const char *path, uint64_t start, uint64_t end,
		     struct xb_error *err)
{
	struct xb_error why;
	int fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, NULL, &why), ret;
	Elf *elf;

	if (fd < 0)
		return xb_error_set(err, fd, "cannot read the code of %s", why.msg);
	elf = elf_version(EV_CURRENT) == EV_NONE ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = xb_error_set(err, -ENOEXEC, "cannot read the code of '%s': not an ELF file",
				    path);
	else
		ret = from_elf(c, elf, path, start, end, err);
	if (elf)
		elf_end(elf);
	close(fd);
	if (ret == 0)
		c->lines_from_file = true;
	return ret;
}

static int from_vdso(struct xpp_code *c, uint64_t start, uint64_t end, struct xb_error *err)
{
	size_t size;
	const void *img = xpp_vdso_image(&size);
	Elf *elf;
	int ret;

	if (!img || elf_version(EV_CURRENT) == EV_NONE)
		return xb_error_set(err, -ENOENT, "the code of [vdso] is not available");
	elf = elf_memory((char *)img, size);
	if (!elf)
		return xb_error_set(err, -ENOEXEC, "the vdso image is not an ELF file");
	ret = from_elf(c, elf, "[vdso]", start, end, err);
	elf_end(elf);
	return ret;
}

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (size_t)r;
	}
	return 0;
}

/* The most of one kernel symbol's code read (the largest function is ~100 KB). */
#define KCORE_CODE_MAX (16u << 20)

/*
 * Kernel code from the running kernel's memory, as perf does without a vmlinux: /proc/kcore
 * is an ELF core file whose PT_LOAD segments map kernel addresses to file offsets.
 */
static int from_kcore(struct xpp_code *c, const char *path, uint64_t start, uint64_t end,
		      struct xb_error *err)
{
	/*
	 * As every file a profile leads to: never blocking, a regular file (--kcore may name a
	 * FIFO or a device). Its size is the kernel's address space, not a bound: what is read
	 * is one symbol's code, at most KCORE_CODE_MAX.
	 */
	struct xb_error why;
	int fd = xb_input_open(path, 0, XB_INPUT_UNSIZED, NULL, &why), ret = -ENOENT;
	Elf64_Ehdr eh;

	if (fd < 0)
		return xb_error_set(err, fd, "the kernel's code is not available: %s%s", why.msg,
				     fd == -EACCES || fd == -EPERM ? " (it needs root)" : "");
	if (pread_all(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    eh.e_phnum > 4096) {
		close(fd);
		return xb_error_set(err, -ENOEXEC, "the kernel's code is not available: '%s' "
				     "is not a 64-bit ELF core file", path);
	}
	c->machine = eh.e_machine;
	c->is64 = true;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread_all(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * sizeof(ph)))
			break;
		if (ph.p_type != PT_LOAD || start < ph.p_vaddr || start - ph.p_vaddr >= ph.p_filesz)
			continue;
		if (end > ph.p_vaddr + ph.p_filesz)
			end = ph.p_vaddr + ph.p_filesz;
		/* a symbol's size comes from kallsyms, which a profile can name: bounded */
		if (end > start && end - start > KCORE_CODE_MAX)
			end = start + KCORE_CODE_MAX;
		c->size = end > start ? end - start : 0;
		c->bytes = malloc(c->size ? c->size : 1);
		if (!c->bytes) {
			ret = -ENOMEM;
			break;
		}
		ret = pread_all(fd, c->bytes, c->size, ph.p_offset + (start - ph.p_vaddr));
		break;
	}
	close(fd);
	if (ret < 0) {
		xpp_code_free(c);
		return xb_error_set(err, ret, "the kernel's code at %#llx is not available in "
				     "'%s': %s", (unsigned long long)start, path,
				     ret == -ENOENT ? "no segment holds it" : strerror(-ret));
	}
	c->vaddr = start;
	snprintf(c->section, sizeof(c->section), ".text");
	return 0;
}

int xpp_code_load(struct xpp_code *c, const struct xpp_dso *d, const char *path,
		  uint64_t start, uint64_t end, const char *kcore, struct xb_error *err)
{
	memset(c, 0, sizeof(*c));
	switch (d->kind) {
	case XPP_DSO_USER:
		return from_file(c, path ? path : d->long_name, start, end, err);
	case XPP_DSO_VDSO:
		return from_vdso(c, start, end, err);
	case XPP_DSO_KERNEL:
		return from_kcore(c, kcore ? kcore : "/proc/kcore", start, end, err);
	case XPP_DSO_MODULE:
		return xb_error_set(err, -ENOENT, "the code of kernel module %s is not available",
				     d->short_name);
	case XPP_DSO_ANON:
		return xb_error_set(err, -ENOENT, "the code of %s is not available: it was "
				     "anonymous memory of the process", d->short_name);
	}
	return xb_error_set(err, -ENOENT, "the code of %s is not available", d->short_name);
}
