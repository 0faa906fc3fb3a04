/* GNU build-ids from ELF notes: of a file, of an image in memory, of the running kernel. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input_file.h"
#include "elf/build_id.h"

#define NOTE_ALIGN(x) (((x) + 3) & ~(size_t)3)

int xelf_build_id_from_notes(const void *notes, size_t size, uint8_t *out, size_t max)
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
			size_t n = nh.n_descsz < max ? nh.n_descsz : max;

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
		    uint8_t *out, size_t max)
{
	if (off > map_size || size > map_size - off)
		return -EINVAL;
	return xelf_build_id_from_notes(map + off, size, out, max);
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
				r = notes_at(map, size, ph->p_offset, ph->p_filesz, out, max); \
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
				r = notes_at(map, size, sh->sh_offset, sh->sh_size, out, max); \
				if (r > 0)						\
					return r;					\
			}								\
		}									\
		return -ENOENT;								\
	} while (0)

static int scan_elf64(const uint8_t *map, size_t size, uint8_t *out, size_t max)
{
	SCAN_ELF(Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr);
}

static int scan_elf32(const uint8_t *map, size_t size, uint8_t *out, size_t max)
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

int xelf_build_id_from_image(const void *image, size_t size, uint8_t *out, size_t max)
{
	const uint8_t *map = image;

	/* only native-endian ELF: we read the files this machine runs */
	if (size < EI_NIDENT || memcmp(map, ELFMAG, SELFMAG) ||
	    map[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return -ENOEXEC;
	if (map[EI_CLASS] == ELFCLASS64)
		return scan_elf64(map, size, out, max);
	if (map[EI_CLASS] == ELFCLASS32)
		return scan_elf32(map, size, out, max);
	return -ENOEXEC;
}

int xelf_build_id_read_file(const char *path, uint8_t *out, size_t max, struct xb_error *err)
{
	uint64_t size;
	uint8_t *map;
	int fd, ret;

	/* a path from a profile may name a FIFO or a device: never block on it */
	fd = xb_input_open(path, XB_INPUT_ELF_MAX, 0, &size, err);
	/* what is not a regular file is not an ELF file either (err says what it is) */
	if (fd == -EINVAL && err)
		err->code = -ENOEXEC;
	if (fd < 0)
		return fd == -EINVAL ? -ENOEXEC : fd;
	if (size < EI_NIDENT) {
		close(fd);
		return xb_error_set(err, -ENOEXEC, "'%s': not an ELF file", path);
	}
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = -errno;
	close(fd);
	if (map == MAP_FAILED)
		return xb_error_set(err, ret, "'%s': %s", path, strerror(-ret));
	ret = xelf_build_id_from_image(map, size, out, max);
	munmap(map, size);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s': %s", path, why(ret));
	return ret;
}

int xelf_build_id_read_kernel(uint8_t *out, size_t max, struct xb_error *err)
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
	ret = xelf_build_id_from_notes(buf, (size_t)n, out, max);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s': %s", path, why(ret));
	return ret;
}

char *xelf_build_id_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}
