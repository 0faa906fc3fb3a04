/* Workload: most of its time in glibc's string functions (strlen, strchr, memcmp, strncpy). */
/*
 * Usage: libc_strings [SECONDS]     (default 1; a fractional value is fine)
 * glibc picks each function's variant for the CPU when the program starts: on a CPU with
 * AVX-512 __strlen_evex, __strchr_evex, __memcmp_evex_movbe and __strncpy_evex, with AVX2
 * their _avx2 siblings. Their code is what annotate must decode (AVX-512's EVEX encoding is
 * what capstone 4 cannot). The strings are long (4 KB) so the vector loops, not the calls,
 * take the time.
 */
#include <string.h>

#include "workload.h"

#define LEN 4096

static char a[LEN + 64], b[LEN + 64], dst[LEN + 64];
volatile uint64_t sink;

/* Called through volatile pointers, so the compiler emits calls into libc, not builtins. */
static size_t (*volatile p_strlen)(const char *) = strlen;
static char *(*volatile p_strchr)(const char *, int) = strchr;
static int (*volatile p_memcmp)(const void *, const void *, size_t) = memcmp;
static char *(*volatile p_strncpy)(char *, const char *, size_t) = strncpy;

__attribute__((noinline)) void strings_round(void)
{
	uint64_t s = 0;

	for (int i = 0; i < 64; i++) {
		s += p_strlen(a + (i & 31));
		s += (uint64_t)(p_strchr(a, 'x') - a);
		s += (uint64_t)p_memcmp(a, b, LEN);
		p_strncpy(dst, a + (i & 7), LEN);
		s += (uint8_t)dst[LEN / 2];
	}
	sink += s;
}

int main(int argc, char **argv)
{
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end = wl_now() + seconds;

	memset(a, 'a', LEN);
	memset(b, 'a', LEN);
	a[LEN - 10] = 'x';
	b[LEN - 1] = 'b';
	do
		strings_round();
	while (wl_now() < end);
	return 0;
}
