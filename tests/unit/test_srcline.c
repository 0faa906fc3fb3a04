/* Unit tests of source lines and inline frames: this program's own DWARF, read with libdw. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "profile/symbols/srcline.h"

static void *seen_ret;

/* Where it was called from: a return address inside its caller. */
__attribute__((noinline)) static void capture(void)
{
	seen_ret = __builtin_return_address(0);
	__asm__ volatile("");
}

static int inner_line, outer_line, host_line;

/* Two levels of inlining, each noting the line it calls from. */
static inline __attribute__((always_inline)) void inner(void)
{
	inner_line = __LINE__ + 1;
	capture();
}

static inline __attribute__((always_inline)) void outer(void)
{
	outer_line = __LINE__ + 1;
	inner();
}

__attribute__((noinline)) static void host(void)
{
	host_line = __LINE__ + 1;
	outer();
	__asm__ volatile("");
}

/* The file offset and path of the mapping holding addr (from /proc/self/maps). */
static int file_offset(const void *addr, uint64_t *off, char *path, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff;
		int pos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &start, &end,
			   &pgoff, &pos) < 3 || !pos)
			continue;
		if ((uintptr_t)addr < start || (uintptr_t)addr >= end)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, size, "%s", line + pos);
		*off = (uintptr_t)addr - start + pgoff;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static const char *str(xpp_intern *in, uint32_t id)
{
	return id == XPP_SRC_UNKNOWN ? "??:0" : xpp_intern_str(in, id);
}

static void test_inline_chain(void)
{
	struct xpp_src_opts o = { .debug_root = "/nonexistent", .inlines = true };
	xpp_intern *in = xpp_intern_create();
	struct xb_error err = { 0 };
	struct xpp_src_frames fr;
	xpp_srcline *s = NULL;
	char path[4096], want[64];
	uint64_t off = 0;

	REQUIRE(in);
	host();
	REQUIRE(file_offset((char *)seen_ret - 1, &off, path, sizeof(path)) == 0);
	REQUIRE(xpp_srcline_create(&s, in, &o, &err) == 0);
	CHECK(xpp_srcline_find(s, 3, path, off, &fr) == 0);
	CHECK(fr.has_lines);
	CHECK_EQ_U64(fr.nr_inline, 2);
	if (fr.nr_inline == 2) {
		CHECK_STR(xpp_intern_str(in, fr.names[0]), "inner");
		CHECK_STR(xpp_intern_str(in, fr.names[1]), "outer");
		snprintf(want, sizeof(want), "test_srcline.c:%d", inner_line);
		CHECK_STR(str(in, fr.lines[0]), want);
		snprintf(want, sizeof(want), "test_srcline.c:%d", outer_line);
		CHECK_STR(str(in, fr.lines[1]), want);
		snprintf(want, sizeof(want), "test_srcline.c:%d", host_line);
		CHECK_STR(str(in, fr.lines[2]), want);
	}
	/* the second answer comes from the cache, the same arrays */
	struct xpp_src_frames again;

	CHECK(xpp_srcline_find(s, 3, path, off, &again) == 0);
	CHECK(again.lines == fr.lines && again.nr_inline == fr.nr_inline);

	/* no inline frames asked for: only the line */
	xpp_srcline_free(s);
	o.inlines = false;
	REQUIRE(xpp_srcline_create(&s, in, &o, &err) == 0);
	CHECK(xpp_srcline_find(s, 0, path, off, &fr) == 0);
	CHECK_EQ_U64(fr.nr_inline, 0);
	snprintf(want, sizeof(want), "test_srcline.c:%d", inner_line);
	CHECK_STR(str(in, fr.lines[0]), want);
	xpp_srcline_free(s);
	xpp_intern_free(in);
}

static void test_no_dwarf(void)
{
	struct xpp_src_opts o = { .debug_root = "/nonexistent", .inlines = true };
	xpp_intern *in = xpp_intern_create();
	struct xb_error err = { 0 };
	struct xpp_src_frames fr;
	xpp_srcline *s = NULL;

	REQUIRE(in && xpp_srcline_create(&s, in, &o, &err) == 0);
	/* not an ELF file, and a missing file: no lines, no error */
	CHECK(xpp_srcline_find(s, 0, "/etc/hostname", 0x10, &fr) == 0);
	CHECK(!fr.has_lines);
	CHECK(xpp_srcline_find(s, 1, "/nonexistent/file", 0x10, &fr) == 0);
	CHECK(!fr.has_lines);
	xpp_srcline_free(s);
	xpp_intern_free(in);
}

int main(void)
{
	struct xb_error err = { 0 };
	struct xpp_src_opts o = { 0 };
	xpp_intern *in = xpp_intern_create();
	xpp_srcline *s = NULL;
	int ret = xpp_srcline_create(&s, in, &o, &err);

	xpp_srcline_free(s);
	xpp_intern_free(in);
	if (ret == -EOPNOTSUPP) {
		SKIP(test_inline_chain, "built without libdw");
		SKIP(test_no_dwarf, "built without libdw");
		return 0;
	}
	RUN(test_inline_chain);
	RUN(test_no_dwarf);
	UNIT_MAIN_END();
}
