/* Source lines of instructions from the DSO's DWARF line table (libdw), as objdump -l finds them. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>

#include "profile/disasm/disasm.h"

struct dw_file {
	int fd;
	Elf *elf;
	Dwarf *dw;
};

static void dw_close(struct dw_file *f)
{
	if (f->dw)
		dwarf_end(f->dw);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	f->dw = NULL;
	f->elf = NULL;
	f->fd = -1;
}

/* path opened with a line table, or false. */
static bool dw_open(struct dw_file *f, const char *path)
{
	f->dw = NULL;
	f->elf = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (f->elf && elf_kind(f->elf) == ELF_K_ELF)
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (f->dw)
		return true;
	dw_close(f);
	return false;
}

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_ino == y.st_ino && x.st_dev == y.st_dev;
}

/*
 * Where objdump and perf look for DWARF: the build-id debug file, the .gnu_debuglink file
 * (beside the file, in .debug/, under the debug root), then the file itself.
 */
static bool open_lines(struct dw_file *f, const char *path, const char *debug_root)
{
	const char *root = debug_root ? debug_root : "/usr/lib/debug";
	struct dw_file rt = { .fd = -1 };
	char cand[PATH_MAX], dir[PATH_MAX];
	const void *bid;
	const char *link, *slash;
	GElf_Word crc;
	ssize_t n;

	rt.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (rt.fd < 0)
		return false;
	rt.elf = elf_begin(rt.fd, ELF_C_READ_MMAP, NULL);
	if (!rt.elf || elf_kind(rt.elf) != ELF_K_ELF) {
		dw_close(&rt);
		return false;
	}
	n = dwelf_elf_gnu_build_id(rt.elf, &bid);
	if (n > 1 && n <= 64) {
		const unsigned char *b = bid;
		int len = snprintf(cand, sizeof(cand), "%s/.build-id/%02x/", root, b[0]);

		for (ssize_t i = 1; i < n && len > 0 && (size_t)len + 8 < sizeof(cand); i++)
			len += snprintf(cand + len, sizeof(cand) - (size_t)len, "%02x", b[i]);
		if (len > 0 && (size_t)len + 7 < sizeof(cand)) {
			strcat(cand, ".debug");
			if (dw_open(f, cand))
				goto found;
		}
	}
	link = dwelf_elf_gnu_debuglink(rt.elf, &crc);
	slash = strrchr(path, '/');
	if (link && !strchr(link, '/') && slash && (size_t)(slash - path) < sizeof(dir)) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
		for (int i = 0; i < 3; i++) {
			int len = i == 0 ? snprintf(cand, sizeof(cand), "%s/%s", dir, link) :
				  i == 1 ? snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, link) :
				  snprintf(cand, sizeof(cand), "%s%s/%s", root, dir, link);

			if (len < 0 || (size_t)len >= sizeof(cand) || same_file(cand, path))
				continue;
			if (dw_open(f, cand))
				goto found;
		}
	}
	/* the file itself */
	f->fd = rt.fd;
	f->elf = rt.elf;
	f->dw = dwarf_begin_elf(rt.elf, DWARF_C_READ, NULL);
	if (f->dw)
		return true;
	dw_close(f);
	return false;
found:
	dw_close(&rt);
	return true;
}

/* The CU holding addr: by .debug_aranges, else (clang leaves them out) by each CU's ranges. */
static Dwarf_Die *cu_of(Dwarf *dw, uint64_t addr, Dwarf_Die *mem)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, mem))
		return mem;
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, mem) && dwarf_haspc(mem, addr) > 0)
			return mem;
		off = next;
	}
	return NULL;
}

/*
 * libdw joins a line's directory and name; a relative result is relative to the CU's
 * compilation directory, which objdump puts in front (and so must we, to find the file).
 */
static int64_t file_id(xpp_intern *names, Dwarf_Die *cu, const char *src)
{
	Dwarf_Attribute at;
	const char *dir = src[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
	char path[PATH_MAX];
	int n;

	if (!dir || !*dir)
		return xpp_intern_id(names, src, strlen(src));
	n = snprintf(path, sizeof(path), "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", src);
	if (n < 0 || (size_t)n >= sizeof(path))
		return xpp_intern_id(names, src, strlen(src));
	return xpp_intern_id(names, path, (size_t)n);
}

/*
 * The innermost function holding addr, an inlined one inside its caller, as objdump -l
 * names it above the instructions: its id in names, UINT32_MAX unknown, or -ENOMEM.
 */
static int64_t func_id(xpp_intern *names, Dwarf_Die *cu, uint64_t addr)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes);
	int64_t id = UINT32_MAX;

	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_diename(&scopes[i]);
		if (name)
			id = xpp_intern_id(names, name, strlen(name));
		break;
	}
	free(scopes);
	return id;
}

int xpp_lines_lookup(const char *path, const char *debug_root, const uint64_t *addrs,
		     uint32_t n, struct xpp_line_loc *out, xpp_intern *names)
{
	struct dw_file f = { .fd = -1 };
	Dwarf_Die cu;
	int ret = 1;

	for (uint32_t i = 0; i < n; i++)
		out[i] = (struct xpp_line_loc){ UINT32_MAX, 0, 0, UINT32_MAX };
	if (elf_version(EV_CURRENT) == EV_NONE || !open_lines(&f, path, debug_root))
		return 0;
	for (uint32_t i = 0; i < n && ret > 0; i++) {
		Dwarf_Line *l;
		const char *src;
		unsigned int discr = 0;
		int line = 0;
		int64_t id, fn;

		if (!cu_of(f.dw, addrs[i], &cu))
			continue;
		fn = func_id(names, &cu, addrs[i]);
		l = dwarf_getsrc_die(&cu, addrs[i]);
		src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
		if (fn < 0) {
			ret = (int)fn;
			break;
		}
		out[i].func = (uint32_t)fn;
		if (!src || dwarf_lineno(l, &line) || line <= 0)
			continue;
		id = file_id(names, &cu, src);
		if (id < 0) {
			ret = (int)id;
			break;
		}
		dwarf_linediscriminator(l, &discr);
		out[i].file = (uint32_t)id;
		out[i].line = (uint32_t)line;
		out[i].discriminator = discr;
	}
	dw_close(&f);
	return ret;
}
