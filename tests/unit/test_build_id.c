/* Unit tests of build-ids: libxperf-elf's reader against readelf and perf, record's DSO set. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "elf/build_id.h"
#include "unit.h"

#include "record/buildid.h"

/* First hex build id in the output of a shell command, "" if none. */
static void hex_from(const char *cmd, const char *marker, char *out, size_t outsz)
{
	char line[1024];
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *m = strstr(line, marker);
		size_t n;

		if (!m || out[0])
			continue;
		m += strlen(marker);
		n = strspn(m, "0123456789abcdef");
		if (n && n < outsz) {
			memcpy(out, m, n);
			out[n] = '\0';
		}
	}
	pclose(p);
}

static void check_file_against_readelf(const char *path)
{
	char cmd[512], want[128], got[2 * XREC_BUILD_ID_MAX + 1];
	uint8_t id[XREC_BUILD_ID_MAX];
	struct xb_error err;
	int n;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	hex_from(cmd, "Build ID: ", want, sizeof(want));
	n = xelf_build_id_read_file(path, id, sizeof(id), &err);
	if (!want[0]) {
		CHECK_EQ_U64(n, (uint64_t)-ENOENT);
		return;
	}
	if (n <= 0) {
		UNIT_FAIL("%s: %s", path, err.msg);
		return;
	}
	CHECK_STR(xelf_build_id_hex(id, n, got), want);
}

static void test_ls_matches_readelf(void)
{
	check_file_against_readelf("/bin/ls");
}

static void test_libc_matches_readelf(void)
{
	check_file_against_readelf("/lib/x86_64-linux-gnu/libc.so.6");
}

static void test_self_matches_readelf(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	REQUIRE(n > 0);
	exe[n] = '\0';
	check_file_against_readelf(exe);
}

static void test_kernel(void)
{
	char want[128], got[2 * XREC_BUILD_ID_MAX + 1];
	uint8_t id[XREC_BUILD_ID_MAX];
	struct xb_error err;
	int n = xelf_build_id_read_kernel(id, sizeof(id), &err);

	if (access("/sys/kernel/notes", R_OK)) {
		CHECK(n < 0);
		return;
	}
	REQUIRE(n == 20);
	/* perf is the oracle when present */
	hex_from("perf buildid-list -k 2>/dev/null", "", want, sizeof(want));
	if (want[0])
		CHECK_STR(xelf_build_id_hex(id, n, got), want);
}

static void test_not_elf(void)
{
	char path[] = "/tmp/xperf-bid-XXXXXX";
	struct xb_error err;
	uint8_t id[XREC_BUILD_ID_MAX];
	int fd = mkstemp(path);

	REQUIRE(fd >= 0);
	CHECK(write(fd, "#!/bin/sh\necho hello\n", 21) == 21);
	close(fd);
	CHECK_EQ_U64(xelf_build_id_read_file(path, id, sizeof(id), &err), (uint64_t)-ENOEXEC);
	CHECK(strstr(err.msg, path) != NULL);
	unlink(path);
	CHECK_EQ_U64(xelf_build_id_read_file("/nonexistent/x", id, sizeof(id), &err),
		     (uint64_t)-ENOENT);
	CHECK_EQ_U64(xelf_build_id_read_file("/tmp", id, sizeof(id), &err), (uint64_t)-ENOEXEC);
}

/* Note areas built by hand: skip other notes, reject overruns. */
static void test_notes_parsing(void)
{
	uint8_t buf[256], id[XREC_BUILD_ID_MAX];
	uint32_t *w = (uint32_t *)buf;
	char hex[64];

	memset(buf, 0, sizeof(buf));
	/* an NT_GNU_ABI_TAG note first: name "GNU", 16 bytes of desc */
	w[0] = 4, w[1] = 16, w[2] = NT_GNU_ABI_TAG;
	memcpy(&w[3], "GNU", 4);
	/* then a build id of 8 bytes */
	w[8] = 4, w[9] = 8, w[10] = NT_GNU_BUILD_ID;
	memcpy(&w[11], "GNU", 4);
	memcpy(&w[12], "\x01\x23\x45\x67\x89\xab\xcd\xef", 8);
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 14 * 4, id, sizeof(id)), 8);
	CHECK_STR(xelf_build_id_hex(id, 8, hex), "0123456789abcdef");
	/* truncated in the middle of the build id desc */
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 13 * 4, id, sizeof(id)), (uint64_t)-EINVAL);
	/* only the first note */
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 8 * 4, id, sizeof(id)), (uint64_t)-ENOENT);
	/* a huge namesz must not wrap */
	w[0] = 0xfffffff0u;
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 14 * 4, id, sizeof(id)), (uint64_t)-EINVAL);
	/* an id longer than 20 bytes is cut to 20, as perf does */
	memset(buf, 0, sizeof(buf));
	w[0] = 4, w[1] = 32, w[2] = NT_GNU_BUILD_ID;
	memcpy(&w[3], "GNU", 4);
	memset(&w[4], 0xaa, 32);
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 12 * 4, id, sizeof(id)), 20);
	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 0, id, sizeof(id)), (uint64_t)-ENOENT);
	/* ... and kept whole when the caller has room (a debug file is named by all of it) */
	uint8_t whole[64];

	CHECK_EQ_U64(xelf_build_id_from_notes(buf, 12 * 4, whole, sizeof(whole)), 32);
	CHECK_EQ_U64(whole[31], 0xaa);
}

/* An image in memory (as libelf's elf_rawfile() gives it) reads as the file does. */
static void test_image_matches_file(void)
{
	uint8_t a[64], b[64];
	struct stat st;
	int fd = open("/bin/ls", O_RDONLY), na, nb;
	void *map;

	REQUIRE(fd >= 0 && fstat(fd, &st) == 0);
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	REQUIRE(map != MAP_FAILED);
	na = xelf_build_id_from_image(map, st.st_size, a, sizeof(a));
	nb = xelf_build_id_read_file("/bin/ls", b, sizeof(b), NULL);
	CHECK(na > 0);
	CHECK_EQ_U64(na, nb);
	CHECK(na > 0 && !memcmp(a, b, na));
	CHECK_EQ_U64(xelf_build_id_from_image(map, 10, a, sizeof(a)), (uint64_t)-ENOEXEC);
	munmap(map, st.st_size);
}

static void test_set_to_features(void)
{
	xrec_buildids *set = xrec_buildids_create();
	struct xpf_features f = { 0 };
	uint8_t given[20];
	uint8_t ls[XREC_BUILD_ID_MAX];
	int ls_size = xelf_build_id_read_file("/bin/ls", ls, sizeof(ls), NULL);
	int n;

	REQUIRE(set);
	memset(given, 0x5a, sizeof(given));
	CHECK_EQ_U64(xrec_buildids_add(set, "/bin/ls", false, NULL, 0), 0);
	CHECK_EQ_U64(xrec_buildids_add(set, "/bin/ls", false, NULL, 0), 0); /* once */
	CHECK_EQ_U64(xrec_buildids_add(set, "[vdso]", false, NULL, 0), 0);  /* ignored */
	CHECK_EQ_U64(xrec_buildids_add(set, "//anon", false, NULL, 0), 0);  /* ignored */
	CHECK_EQ_U64(xrec_buildids_add(set, "/no/such/file.so", false, NULL, 0), 0);
	/* an id from an MMAP2 record is used as given, not read from the file */
	CHECK_EQ_U64(xrec_buildids_add(set, "/usr/lib/given.so", false, given, 20), 0);
	CHECK_EQ_U64(xrec_buildids_add(set, "[kernel.kallsyms]_text", true, NULL, 0), 0);
	n = xrec_buildids_to_features(set, &f, NULL);
	REQUIRE(n >= 2);
	CHECK(xpf_features_has(&f, XPF_FEAT_BUILD_ID));
	CHECK_EQ_U64(f.nr_build_ids, n);
	for (uint32_t i = 0; i < f.nr_build_ids; i++) {
		struct xpf_build_id_entry *e = &f.build_ids[i];

		CHECK_EQ_U64((uint32_t)e->pid, (uint32_t)-1);
		if (!strcmp(e->filename, "/bin/ls")) {
			CHECK_EQ_U64(e->size, ls_size);
			CHECK(!memcmp(e->build_id, ls, ls_size));
			CHECK_EQ_U64(e->misc, PERF_RECORD_MISC_USER);
		} else if (!strcmp(e->filename, "/usr/lib/given.so")) {
			CHECK(!memcmp(e->build_id, given, 20));
		} else if (!strcmp(e->filename, "[kernel.kallsyms]")) {
			CHECK_EQ_U64(e->misc, PERF_RECORD_MISC_KERNEL);
		} else {
			UNIT_FAIL("unexpected entry %s", e->filename);
		}
	}
	xpf_features_free(&f);
	xrec_buildids_free(set);
	xrec_buildids_free(NULL);
}

int main(void)
{
	RUN(test_ls_matches_readelf);
	RUN(test_libc_matches_readelf);
	RUN(test_self_matches_readelf);
	RUN(test_kernel);
	RUN(test_not_elf);
	RUN(test_notes_parsing);
	RUN(test_image_matches_file);
	RUN(test_set_to_features);
	UNIT_MAIN_END();
}
