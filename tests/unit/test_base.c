/* Unit tests of libxperf-base: the error type, edit distance, hashing, the slot table, arrays, JSON
   strings, numbers as printf writes them. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "base/array.h"
#include "base/edit_distance.h"
#include "base/error.h"
#include "base/fmt_num.h"
#include "base/hash.h"
#include "base/input_file.h"
#include "base/json.h"
#include "base/small_file.h"
#include "unit.h"

static void error_set_and_clear(void)
{
	struct xb_error err;

	CHECK_EQ_U64(xb_error_set(&err, -ENOENT, "'%s': %s", "f.data", "gone"), (uint64_t)-ENOENT);
	CHECK_EQ_U64(err.code, (uint64_t)-ENOENT);
	CHECK_STR(err.msg, "'f.data': gone");
	/* a NULL error is allowed: the code still comes back */
	CHECK_EQ_U64(xb_error_set(NULL, -EINVAL, "x"), (uint64_t)-EINVAL);
	xb_error_clear(&err);
	CHECK_EQ_U64(err.code, 0);
	CHECK_STR(err.msg, "");
	xb_error_clear(NULL);
}

static void edit_distance(void)
{
	char a[301], b[301];

	CHECK_EQ_U64(xb_edit_distance("kitten", "sitting"), 3);
	CHECK_EQ_U64(xb_edit_distance("", "abc"), 3);
	CHECK_EQ_U64(xb_edit_distance("abc", ""), 3);
	CHECK_EQ_U64(xb_edit_distance("same", "same"), 0);
	/* an adjacent transposition is one edit */
	CHECK_EQ_U64(xb_edit_distance("record", "recrod"), 1);
	CHECK_EQ_U64(xb_edit_distance("ab", "ba"), 1);
	CHECK_EQ_U64(xb_edit_distance("ca", "abc"), 3);
	/* long words take the heap path and give the same answers */
	memset(a, 'x', 300);
	memset(b, 'x', 300);
	a[300] = b[300] = '\0';
	b[10] = 'y';
	a[200] = 'p', a[201] = 'q';
	b[200] = 'q', b[201] = 'p';
	CHECK_EQ_U64(xb_edit_distance(a, b), 2);
	CHECK_EQ_U64(xb_edit_distance(a, "x"), 299);
}

/* A table of u64 keys over the slot table, as its users build one. */
struct keys {
	uint64_t *v;
	uint32_t nr;
	struct xb_slots index;
	unsigned int rehashes;
};

static uint64_t keys_hash_of(const void *ctx, uint32_t v)
{
	struct keys *k = (struct keys *)ctx;

	k->rehashes++;
	return xb_hash_u64(k->v[v - 1]);
}

static bool keys_eq(const void *ctx, uint32_t v, const void *key)
{
	return ((const struct keys *)ctx)->v[v - 1] == *(const uint64_t *)key;
}

/* The index of key, added when new; -1 on allocation failure. */
static int64_t keys_add(struct keys *k, uint64_t key)
{
	uint32_t *slot;

	if (xb_slots_reserve(&k->index, k->nr + 1, keys_hash_of, k))
		return -1;
	slot = xb_slots_find(&k->index, xb_hash_u64(key), keys_eq, k, &key);
	if (*slot)
		return *slot - 1;
	k->v[k->nr] = key;
	*slot = ++k->nr;
	return k->nr - 1;
}

static void slots_find_insert_grow(void)
{
	enum { N = 5000 };
	struct keys k = { .v = calloc(N, sizeof(uint64_t)) };
	uint32_t used = 0;

	REQUIRE(k.v);
	/* keys that differ only in high bits, or by a stride, still spread */
	for (uint64_t i = 0; i < N; i++)
		CHECK_EQ_U64(keys_add(&k, i % 2 ? i << 40 : i * 4096), i);
	CHECK_EQ_U64(k.nr, N);
	for (uint64_t i = 0; i < N; i++)
		CHECK_EQ_U64(keys_add(&k, i % 2 ? i << 40 : i * 4096), i);
	CHECK_EQ_U64(k.nr, N);
	/* a power of two, at most half full, and every value in it once */
	CHECK(k.index.nslots >= 2 * N && !(k.index.nslots & (k.index.nslots - 1)));
	for (uint32_t i = 0; i < k.index.nslots; i++)
		used += k.index.slot[i] != 0;
	CHECK_EQ_U64(used, N);
	CHECK(k.rehashes > 0);
	xb_slots_clear(&k.index);
	k.nr = 0;
	CHECK_EQ_U64(keys_add(&k, 42), 0);
	xb_slots_free(&k.index);
	CHECK_EQ_U64(k.index.nslots, 0);
	free(k.v);
}

static void hashes(void)
{
	/* the same bytes hash the same however they are passed; order and fields matter */
	CHECK_EQ_U64(xb_hash_mem("libc.so.6", 9), xb_hash_str("libc.so.6"));
	CHECK(xb_hash_str("libc.so.6") != xb_hash_str("libc.so.7"));
	CHECK(xb_hash_add(xb_hash_add(0, 1), 2) != xb_hash_add(xb_hash_add(0, 2), 1));
	/* the top bits, that index tables, depend on high input bits and on the last byte */
	CHECK(xb_hash_bits(xb_hash_u64(1ULL << 50), 8) != xb_hash_bits(xb_hash_u64(1ULL << 51), 8));
	CHECK(xb_hash_bits(xb_hash_str("libc.so.6"), 8) !=
	      xb_hash_bits(xb_hash_str("libc.so.7"), 8));
}

static void array_reserve(void)
{
	uint64_t *a = NULL;
	uint8_t *small = NULL, cap8 = 0;
	uint32_t cap = 0;
	size_t zcap = 0;
	int *z = NULL;

	/* from empty: the first capacity, then doubling, keeping the contents */
	CHECK_EQ_U64(XB_ARRAY_RESERVE(a, cap, 1, 16), 0);
	REQUIRE(a);
	CHECK_EQ_U64(cap, 16);
	for (uint32_t i = 0; i < 16; i++)
		a[i] = i * 3;
	CHECK_EQ_U64(XB_ARRAY_RESERVE(a, cap, 16, 16), 0);
	CHECK_EQ_U64(cap, 16);
	CHECK_EQ_U64(XB_ARRAY_RESERVE(a, cap, 17, 16), 0);
	CHECK_EQ_U64(cap, 32);
	CHECK_EQ_U64(XB_ARRAY_RESERVE(a, cap, 1000, 16), 0);
	CHECK_EQ_U64(cap, 1024);
	CHECK_EQ_U64(a[15], 45);
	free(a);
	/* the capacity never passes what its type counts, and asking more fails untouched */
	CHECK_EQ_U64(XB_ARRAY_RESERVE(small, cap8, 200, 64), 0);
	CHECK_EQ_U64(cap8, 255);
	CHECK_EQ_U64(XB_ARRAY_RESERVE(small, cap8, 256, 64), (uint64_t)-ENOMEM);
	CHECK_EQ_U64(cap8, 255);
	CHECK(small != NULL);
	free(small);
	/* an element count whose byte size overflows fails without allocating */
	a = NULL;
	zcap = 0;
	CHECK_EQ_U64(XB_ARRAY_RESERVE(a, zcap, SIZE_MAX / 4, 1), (uint64_t)-ENOMEM);
	CHECK(a == NULL && zcap == 0);
	/* RESERVE0 zeroes what it adds */
	zcap = 0;
	CHECK_EQ_U64(XB_ARRAY_RESERVE0(z, zcap, 3, 4), 0);
	REQUIRE(z);
	z[0] = z[1] = z[2] = z[3] = 7;
	CHECK_EQ_U64(XB_ARRAY_RESERVE0(z, zcap, 5, 4), 0);
	CHECK_EQ_U64(zcap, 8);
	CHECK_EQ_U64(z[3], 7);
	for (int i = 4; i < 8; i++)
		CHECK_EQ_U64(z[i], 0);
	free(z);
}

static void small_file(void)
{
	char path[] = "/tmp/xperf-small.XXXXXX", buf[8];
	int fd = mkstemp(path);

	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "12345678901\n", 12) == 12);
	close(fd);
	/* cut at the buffer, NUL-terminated */
	CHECK_EQ_U64(xb_read_small(path, buf, sizeof(buf)), 7);
	CHECK_STR(buf, "1234567");
	/* a /proc file that comes in pieces: read to its end */
	CHECK(xb_read_small("/proc/self/maps", (char[8192]){ 0 }, 8192) > 100);
	unlink(path);
	CHECK_EQ_U64(xb_read_small(path, buf, sizeof(buf)), (uint64_t)-ENOENT);
	CHECK_EQ_U64(xb_read_small(path, buf, 0), (uint64_t)-EINVAL);
}

/* Files a profile names: opened without blocking, regular ones only, bounded, refusals said. */
static void input_file(void)
{
	char dir[] = "/tmp/xperf-input.XXXXXX", path[64], fifo[64], link[64];
	struct xb_error err;
	uint64_t size = 0;
	size_t len = 0;
	char *buf = NULL;
	int fd;

	REQUIRE(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/zero", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "0123456789", 10) == 10);
	close(fd);
	REQUIRE(!mkfifo(fifo, 0600));
	REQUIRE(!symlink("/dev/zero", link));

	fd = xb_input_open(path, 10, XB_INPUT_OWNED, &size, &err);
	CHECK(fd >= 0);
	CHECK_EQ_U64(size, 10);
	/* blocking again once known to be regular */
	CHECK(fd >= 0 && !(fcntl(fd, F_GETFL) & O_NONBLOCK));
	CHECK_EQ_U64(xb_input_read_all(fd, 10, &buf, &len), 0);
	CHECK_EQ_U64(len, 10);
	CHECK_STR(buf, "0123456789");
	free(buf);
	close(fd);
	/* a size over the bound, also when read (a file with no size, or one still growing) */
	CHECK_EQ_U64(xb_input_open(path, 9, 0, NULL, &err), (uint64_t)-EFBIG);
	CHECK_STR(err.msg + strlen(dir) + 3, "': larger than 0 MiB");
	fd = xb_input_open(path, 10, 0, NULL, NULL);
	REQUIRE(fd >= 0);
	CHECK_EQ_U64(xb_input_read_all(fd, 9, &buf, &len), (uint64_t)-EFBIG);
	close(fd);
	/* a FIFO without a writer: refused at once, not waited on */
	CHECK_EQ_U64(xb_input_open(fifo, 1 << 20, 0, NULL, &err), (uint64_t)-EINVAL);
	CHECK(strstr(err.msg, "/fifo': a FIFO, not a regular file") != NULL);
	CHECK_EQ_U64(xb_input_open(link, 1 << 20, 0, NULL, &err), (uint64_t)-EINVAL);
	CHECK(strstr(err.msg, "/zero': a character device, not a regular file") != NULL);
	CHECK_EQ_U64(xb_input_open(dir, 1 << 20, 0, NULL, &err), (uint64_t)-EINVAL);
	CHECK(strstr(err.msg, "': a directory, not a regular file") != NULL);
	CHECK(xb_input_refused(-EINVAL) && xb_input_refused(-EFBIG) && xb_input_refused(-EPERM));
	/* another user's file in a shared directory, where one is asked to be ours or root's */
	if (geteuid() == 0 && !chown(path, 65534, 65534)) {
		CHECK_EQ_U64(xb_input_open(path, 10, XB_INPUT_OWNED, NULL, &err),
			     (uint64_t)-EPERM);
		CHECK(strstr(err.msg, "': owned by another user (uid 65534), not by you or root"));
		fd = xb_input_open(path, 10, 0, NULL, NULL);
		CHECK(fd >= 0);
		if (fd >= 0)
			close(fd);
	}
	/* missing is not refused: the caller goes on without it, as perf does */
	unlink(path);
	CHECK_EQ_U64(xb_input_open(path, 10, 0, NULL, &err), (uint64_t)-ENOENT);
	CHECK(!xb_input_refused(-ENOENT));
	/* every refusal kept for the views, each path once, also for a caller without err */
	{
		unsigned int nr = 0, n = 0, fifos = 0;
		const char *m;

		CHECK_EQ_U64(xb_input_open(fifo, 1 << 20, 0, NULL, NULL), (uint64_t)-EINVAL);
		for (; (m = xb_input_refusal(n, &nr)); n++)
			fifos += strstr(m, "/fifo': a FIFO, not a regular file") != NULL;
		CHECK_EQ_U64(fifos, 1);
		CHECK_EQ_U64(nr, n);
		CHECK(n >= 3); /* the FIFO, /dev/zero, the directory (and the size above) */
	}
	/* unsized: a regular file whose size bounds nothing (/proc/kcore) */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "0123456789", 10) == 10);
	close(fd);
	fd = xb_input_open(path, 1, XB_INPUT_UNSIZED, NULL, NULL);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_U64(xb_input_open(fifo, 0, XB_INPUT_UNSIZED, NULL, NULL), (uint64_t)-EINVAL);
	unlink(path);
	/* /proc files have no size: the read's bound is what holds */
	fd = xb_input_open("/proc/self/maps", 1 << 20, 0, &size, NULL);
	CHECK(fd >= 0 && size == 0);
	CHECK(fd >= 0 && !xb_input_read_all(fd, 1 << 20, &buf, &len) && len > 100);
	if (fd >= 0) {
		free(buf);
		close(fd);
	}
	unlink(fifo);
	unlink(link);
	rmdir(dir);
}

/* json_of(s, len): s as xb_json_str writes it, in a static buffer */
static const char *json_of(const char *s, size_t len)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return "";
	xb_json_str(f, s, len);
	fclose(f);
	return buf;
}

static void json_strings(void)
{
	CHECK_STR(json_of("work_a", 6), "\"work_a\"");
	CHECK_STR(json_of("a\"b\\c", 5), "\"a\\\"b\\\\c\"");
	CHECK_STR(json_of("t\tn\n\x01", 5), "\"t\\u0009n\\u000a\\u0001\"");
	/* valid UTF-8 as it is, anything else as U+FFFD, a byte at a time */
	CHECK_STR(json_of("caf\xc3\xa9", 5), "\"caf\xc3\xa9\"");
	CHECK_STR(json_of("\xe2\x82\xac!", 4), "\"\xe2\x82\xac!\"");
	CHECK_STR(json_of("x\xffy", 3), "\"x\\ufffdy\"");
	CHECK_STR(json_of("\xc0\x80", 2), "\"\\ufffd\\ufffd\"");       /* overlong NUL */
	CHECK_STR(json_of("\xed\xa0\x80", 3), "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	CHECK_STR(json_of("\xe2\x82", 2), "\"\\ufffd\\ufffd\"");       /* cut short */
	/* the length is the caller's: a NUL inside is a character, bytes after len are not */
	CHECK_STR(json_of("ab", 1), "\"a\"");
	CHECK_STR(json_of("a\0b", 3), "\"a\\u0000b\"");
}

/* xb_fmt_fixed2(v) must be "%.2f" of v, byte for byte, wherever v is near a tie */
static void check_fixed2(double v)
{
	char got[XB_FMT_NUM_MAX], want[XB_FMT_NUM_MAX];
	size_t n = xb_fmt_fixed2(got, v);

	snprintf(want, sizeof(want), "%.2f", v);
	if (strcmp(got, want) || n != strlen(want))
		UNIT_FAIL("%.17g: \"%s\" (%zu) where printf writes \"%s\"", v, got, n, want);
}

static void fmt_numbers(void)
{
	char buf[XB_FMT_NUM_MAX];
	uint64_t x = 88172645463325252ULL;

	/* what reports print: a count of a total, as a percentage */
	for (uint64_t total = 1; total < 2000; total += 7)
		for (uint64_t n = 0; n <= total; n++)
			check_fixed2(100.0 * (double)n / (double)total);
	/* exact ties (half-even on the binary value) and values a hair either side */
	for (int i = 0; i < 100000; i++) {
		double t = (i + 0.5) / 100.0;

		check_fixed2(t);
		check_fixed2(nextafter(t, 0));
		check_fixed2(nextafter(t, 1e9));
	}
	for (int i = 0; i < 200000; i++) { /* random values over the fast path and past it */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		check_fixed2((double)(x >> 11) / (double)(1ULL << 53) * (i % 2 ? 100.0 : 2e4));
	}
	check_fixed2(0.0);
	check_fixed2(-0.0);
	check_fixed2(-1.005);
	check_fixed2(1e4);
	check_fixed2(9999.995);
	check_fixed2(1e300);
	check_fixed2(NAN);
	check_fixed2(INFINITY);

	CHECK_EQ_U64(xb_fmt_u64(buf, 0), 1);
	CHECK_STR(buf, "0");
	CHECK_EQ_U64(xb_fmt_u64(buf, UINT64_MAX), 20);
	CHECK_STR(buf, "18446744073709551615");
	CHECK_EQ_U64(xb_fmt_hex(buf, 0, 0), 1);
	CHECK_STR(buf, "0");
	CHECK_EQ_U64(xb_fmt_hex(buf, 0xa0, 16), 16);
	CHECK_STR(buf, "00000000000000a0");
	CHECK_EQ_U64(xb_fmt_hex(buf, UINT64_MAX, 4), 16);
	CHECK_STR(buf, "ffffffffffffffff");
}

int main(void)
{
	RUN(error_set_and_clear);
	RUN(edit_distance);
	RUN(hashes);
	RUN(slots_find_insert_grow);
	RUN(array_reserve);
	RUN(small_file);
	RUN(input_file);
	RUN(json_strings);
	RUN(fmt_numbers);
	UNIT_MAIN_END();
}
