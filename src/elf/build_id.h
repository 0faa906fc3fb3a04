/* libxperf-elf: GNU build-ids from ELF notes, for record (BUILD_ID) and symbols (debug files). */
#ifndef XELF_BUILD_ID_H
#define XELF_BUILD_ID_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * The reader parses the notes itself (no libelf): PT_NOTE segments, else SHT_NOTE
 * sections, of native-endian ELF32 or ELF64. Every function copies at most max bytes of
 * the id into out and returns how many (ids longer than max are truncated: perf keeps 20
 * bytes), -ENOENT when there is no NT_GNU_BUILD_ID note, -ENOEXEC when the input is not
 * ELF, -EINVAL for a note that overruns its area, or another negative errno.
 */

/* A raw note area: a note segment or section, or /sys/kernel/notes. */
int xelf_build_id_from_notes(const void *notes, size_t size, uint8_t *out, size_t max);

/* A whole ELF image in memory (a mapped file, libelf's elf_rawfile(), the vdso). */
int xelf_build_id_from_image(const void *image, size_t size, uint8_t *out, size_t max);

/*
 * A file by path; err (may be NULL) gets "'PATH': why". It is opened without blocking
 * (xb_input_open()): a FIFO, a device or a directory is -ENOEXEC, a file over
 * XB_INPUT_ELF_MAX -EFBIG.
 */
int xelf_build_id_read_file(const char *path, uint8_t *out, size_t max, struct xb_error *err);

/* The running kernel's, from /sys/kernel/notes. */
int xelf_build_id_read_kernel(uint8_t *out, size_t max, struct xb_error *err);

/* As lower-case hex into buf (at least 2 * size + 1 bytes). Returns buf. */
char *xelf_build_id_hex(const uint8_t *id, size_t size, char *buf);

#endif
