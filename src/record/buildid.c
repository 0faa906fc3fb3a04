/* GNU build ids from ELF notes (files and /sys/kernel/notes), and the set of DSOs for BUILD_ID. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "record/buildid.h"

#define NOTE_ALIGN(x) (((x) + 3) & ~(size_t)3)

int xrec_buildid_from_notes(const void *notes, size_t size, uint8_t out[XREC_BUILD_ID_MAX])
{
	const uint8_t *p = notes;
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= size) {
		Elf64_Nhdr nh;
		size_t name_off, desc_off, next;

		/* Elf32_Nhdr and Elf64_Nhdr are the same three u32 */
		memcpy(&nh, p + off, sizeof(nh));
		name_off = off + sizeof(nh);
		desc_off = name_off + NOTE_ALIGN(nh.n_namesz);
		next = desc_off + NOTE_ALIGN(nh.n_descsz);
		if (nh.n_namesz > size || nh.n_descsz > size || desc_off > size ||
		    desc_off + nh.n_descsz > size)
			return -EINVAL;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + name_off, "GNU", 4) && nh.n_descsz > 0) {
			size_t n = nh.n_descsz < XREC_BUILD_ID_MAX ? nh.n_descsz : XREC_BUILD_ID_MAX;

			memcpy(out, p + desc_off, n);
			return (int)n;
		}
		if (next <= off)
			break;
		off = next;
	}
	return -ENOENT;
}

/* Search one range [off, off+size) of the mapped file for the note. */
static int notes_at(const uint8_t *map, size_t map_size, uint64_t off, uint64_t size,
		    uint8_t out[XREC_BUILD_ID_MAX])
{
	if (off > map_size || size > map_size - off)
		return -EINVAL;
	return xrec_buildid_from_notes(map + off, size, out);
}

/* Elf64 and Elf32 differ only in the widths of the fields we read: one macro, two bodies. */
#define SCAN_ELF(EHDR, PHDR, SHDR)							\
	do {										\
		const EHDR *eh = (const EHDR *)map;					\
		int r = -ENOENT;							\
		if (size < sizeof(*eh))							\
			return -ENOEXEC;						\
		if (eh->e_phoff && eh->e_phentsize == sizeof(PHDR) &&			\
		    eh->e_phoff <= size &&						\
		    (uint64_t)eh->e_phnum * sizeof(PHDR) <= size - eh->e_phoff) {	\
			for (unsigned i = 0; i < eh->e_phnum; i++) {			\
				const PHDR *ph = (const PHDR *)(map + eh->e_phoff) + i;	\
				if (ph->p_type != PT_NOTE)				\
					continue;					\
				r = notes_at(map, size, ph->p_offset, ph->p_filesz, out); \
				if (r > 0)						\
					return r;					\
			}								\
		}									\
		if (eh->e_shoff && eh->e_shentsize == sizeof(SHDR) &&			\
		    eh->e_shoff <= size &&						\
		    (uint64_t)eh->e_shnum * sizeof(SHDR) <= size - eh->e_shoff) {	\
			for (unsigned i = 0; i < eh->e_shnum; i++) {			\
				const SHDR *sh = (const SHDR *)(map + eh->e_shoff) + i;	\
				if (sh->sh_type != SHT_NOTE)				\
					continue;					\
				r = notes_at(map, size, sh->sh_offset, sh->sh_size, out); \
				if (r > 0)						\
					return r;					\
			}								\
		}									\
		return -ENOENT;								\
	} while (0)

static int scan_elf64(const uint8_t *map, size_t size, uint8_t out[XREC_BUILD_ID_MAX])
{
	SCAN_ELF(Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr);
}

static int scan_elf32(const uint8_t *map, size_t size, uint8_t out[XREC_BUILD_ID_MAX])
{
	SCAN_ELF(Elf32_Ehdr, Elf32_Phdr, Elf32_Shdr);
}

static const char *why(int ret)
{
	switch (ret) {
	case -ENOENT: return "no build id note";
	case -ENOEXEC: return "not an ELF file";
	case -EINVAL: return "malformed note";
	default: return strerror(-ret);
	}
}

int xrec_buildid_read_file(const char *path, uint8_t out[XREC_BUILD_ID_MAX],
			   struct xb_error *err)
{
	struct stat st;
	uint8_t *map;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < EI_NIDENT) {
		close(fd);
		return xb_error_set(err, -ENOEXEC, "'%s': not an ELF file", path);
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = -errno;
	close(fd);
	if (map == MAP_FAILED)
		return xb_error_set(err, ret, "'%s': %s", path, strerror(-ret));
	/* only native-endian ELF: we read the DSOs this machine runs */
	if (memcmp(map, ELFMAG, SELFMAG) || map[EI_DATA] != (__BYTE_ORDER__ ==
	    __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		ret = -ENOEXEC;
	else if (map[EI_CLASS] == ELFCLASS64)
		ret = scan_elf64(map, st.st_size, out);
	else if (map[EI_CLASS] == ELFCLASS32)
		ret = scan_elf32(map, st.st_size, out);
	else
		ret = -ENOEXEC;
	munmap(map, st.st_size);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s': %s", path, why(ret));
	return ret;
}

int xrec_buildid_read_kernel(uint8_t out[XREC_BUILD_ID_MAX], struct xb_error *err)
{
	const char *path = "/sys/kernel/notes";
	uint8_t buf[4096];
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf));
	ret = -errno;
	close(fd);
	if (n < 0)
		return xb_error_set(err, ret, "'%s': %s", path, strerror(-ret));
	ret = xrec_buildid_from_notes(buf, n, out);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s': %s", path, why(ret));
	return ret;
}

char *xrec_buildid_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}

/* ---- the set of DSOs ----------------------------------------------------------------- */

struct dso_entry {
	char *path;
	bool kernel;
	uint8_t size; /* 0: not known yet */
	uint8_t id[XREC_BUILD_ID_MAX];
};

struct xrec_buildids {
	struct dso_entry *v;
	size_t n, cap;
};

xrec_buildids *xrec_buildids_create(void)
{
	return calloc(1, sizeof(struct xrec_buildids));
}

void xrec_buildids_free(xrec_buildids *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].path);
	free(set->v);
	free(set);
}

/* perf names the kernel "[kernel.kallsyms]"; MMAP records say "[kernel.kallsyms]_text". */
static bool is_kernel_image(const char *path)
{
	return !strncmp(path, "[kernel.kallsyms]", 17);
}

int xrec_buildids_add(xrec_buildids *set, const char *path, bool kernel, const uint8_t *id,
		      uint8_t size)
{
	struct dso_entry *e;

	if (is_kernel_image(path)) {
		path = "[kernel.kallsyms]";
		kernel = true;
	} else if (path[0] != '/') {
		return 0; /* [vdso], [heap], //anon ...: no file to name */
	}
	/* linear: a recording touches tens of DSOs, and -a a few hundred */
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(set->v[i].path, path))
			continue;
		if (!set->v[i].size && id && size) {
			set->v[i].size = size < XREC_BUILD_ID_MAX ? size : XREC_BUILD_ID_MAX;
			memcpy(set->v[i].id, id, set->v[i].size);
		}
		return 0;
	}
	if (set->n == set->cap && XB_ARRAY_RESERVE(set->v, set->cap, set->n + 1, 32))
		return -ENOMEM;
	e = &set->v[set->n];
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (!e->path)
		return -ENOMEM;
	e->kernel = kernel;
	if (id && size) {
		e->size = size < XREC_BUILD_ID_MAX ? size : XREC_BUILD_ID_MAX;
		memcpy(e->id, id, e->size);
	}
	set->n++;
	return 0;
}

int xrec_buildids_to_features(xrec_buildids *set, struct xpf_features *f, struct xb_error *err)
{
	int added = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct dso_entry *e = &set->v[i];
		int ret;

		if (!e->size) {
			ret = !strcmp(e->path, "[kernel.kallsyms]") ?
			      xrec_buildid_read_kernel(e->id, NULL) :
			      xrec_buildid_read_file(e->path, e->id, NULL);
			if (ret <= 0)
				continue;
			e->size = (uint8_t)ret;
		}
		ret = xpf_features_add_build_id(f, -1, e->kernel ? PERF_RECORD_MISC_KERNEL :
						PERF_RECORD_MISC_USER, e->id, e->size, e->path);
		if (ret < 0)
			return xb_error_set(err, ret, "cannot add the build id of '%s': %s",
					     e->path, strerror(-ret));
		added++;
	}
	if (added)
		xpf_features_mark(f, XPF_FEAT_BUILD_ID);
	return added;
}
