/* Recorded build-ids: finding the file that was recorded (on disk, build-id cache, debug dirs). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elf/build_id.h"
#include "profile/symbols/load.h"

/* Whether the ELF file at path has exactly this build-id. */
static bool file_has(const char *path, const uint8_t *id, size_t size)
{
	uint8_t got[XPP_BUILD_ID_MAX];
	int n = xpp_elf_build_id(path, got, sizeof(got));

	return n > 0 && (size_t)n == size && !memcmp(got, id, size);
}

int xpp_build_id_find(const char *file, const uint8_t *id, size_t size, const char *buildid_dir,
		      const char *debug_root, char *out, size_t cap, bool *mismatch)
{
	char hex[2 * XPP_BUILD_ID_MAX + 1];
	uint8_t got[XPP_BUILD_ID_MAX];
	bool other;
	int n;

	*mismatch = false;
	if (!size || size > XPP_BUILD_ID_MAX)
		return -EINVAL;
	n = xpp_elf_build_id(file, got, sizeof(got));
	if (n > 0 && (size_t)n == size && !memcmp(got, id, size)) {
		if (snprintf(out, cap, "%s", file) >= (int)cap)
			return -ENAMETOOLONG;
		return 0;
	}
	/* a file without a build-id note cannot be told apart: perf refuses it too */
	other = n >= 0;
	xelf_build_id_hex(id, size, hex);
	/* perf's cache: a copy of the recorded file, kept by `perf buildid-cache` or record */
	if (buildid_dir && (size_t)snprintf(out, cap, "%s/.build-id/%.2s/%s/elf", buildid_dir, hex,
					    hex + 2) < cap && file_has(out, id, size))
		return 0;
	/* a separate debug file: its symbols and program headers are the recorded file's */
	if ((size_t)snprintf(out, cap, "%s/.build-id/%.2s/%s.debug",
			     debug_root ? debug_root : "/usr/lib/debug", hex, hex + 2) < cap &&
	    file_has(out, id, size))
		return 0;
	*mismatch = other;
	return -ENOENT;
}

int xpp_build_id_find_kallsyms(const uint8_t *id, size_t size, const char *buildid_dir,
			       char *out, size_t cap, bool *mismatch)
{
	char hex[2 * XPP_BUILD_ID_MAX + 1];
	uint8_t run[XPP_BUILD_ID_MAX];
	/* no note (-ENOENT) or no file: the kernel does not say */
	int n = xelf_build_id_read_kernel(run, sizeof(run), NULL);

	*mismatch = false;
	if (!size || size > XPP_BUILD_ID_MAX)
		return -EINVAL;
	/* a kernel that does not say its build-id is taken as the one recorded (perf too) */
	if (n <= 0 || ((size_t)n == size && !memcmp(run, id, size))) {
		snprintf(out, cap, "/proc/kallsyms");
		return 0;
	}
	xelf_build_id_hex(id, size, hex);
	/* perf keeps the recorded kernel's symbols as [kernel.kallsyms]/BUILD-ID/kallsyms */
	if (buildid_dir &&
	    (size_t)snprintf(out, cap, "%s/[kernel.kallsyms]/%s/kallsyms", buildid_dir, hex) < cap &&
	    !access(out, R_OK))
		return 0;
	*mismatch = true;
	return -ENOENT;
}
