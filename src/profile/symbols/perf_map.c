/* JIT symbols from a /tmp/perf-PID.map file: "START SIZE name" lines, hex numbers, absolute addresses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/input_file.h"
#include "profile/symbols/load.h"

/*
 * Each line is parsed as perf 6.1 does (util/symbol.c dso__load_perf_map), quirks included,
 * so both tools name the same samples: the last character of every line is dropped (the
 * newline, or the name's last letter on an unterminated last line), each number is read by
 * strtoull base 16 (leading blanks and 0x allowed) and followed by exactly one separator,
 * and a line with fewer than two characters left after a number is skipped.
 *
 * Unlike perf, the file is read only when it is a regular file owned by this user or root:
 * /tmp is everyone's, and another user could leave a FIFO (a hang), a link to /dev/zero
 * (memory without end) or made-up symbols under the name a profile looks for. What is
 * read stops at XB_INPUT_TEXT_MAX bytes, as a JIT may still be writing the file.
 */
int xpp_perf_map_load(struct xpp_symtab *t, const char *path, struct xb_error *err)
{
	int fd = xb_input_open(path, XB_INPUT_TEXT_MAX, XB_INPUT_OWNED, NULL, err);
	char *line = NULL;
	uint64_t total = 0;
	size_t cap = 0;
	ssize_t n;
	int ret = 0, nr = 0;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return xb_error_set(err, ret, "cannot open '%s': %s", path, strerror(-ret));
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		size_t line_len, len;
		uint64_t start, size;
		char *e;

		total += (uint64_t)n;
		if (total > XB_INPUT_TEXT_MAX) {
			ret = -EFBIG;
			break;
		}
		if (n == 0)
			continue;
		line_len = (size_t)n - 1;
		line[line_len] = '\0';
		start = strtoull(line, &e, 16);
		len = (size_t)(e - line) + 1;
		if (len + 2 >= line_len)
			continue;
		size = strtoull(line + len, &e, 16);
		len = (size_t)(e - line) + 1;
		if (len + 2 >= line_len)
			continue;
		if (start + size < start)
			size = UINT64_MAX - start;
		/*
		 * perf's symbol of size 0 holds only its start address; ours would stretch to the
		 * next symbol, so give it one byte.
		 */
		ret = xpp_symtab_add(t, start, size ? size : 1, XPP_SYM_GLOBAL, line + len,
				 strlen(line + len));
		if (ret < 0)
			break;
		nr++;
	}
	if (ret == 0 && ferror(f))
		ret = -EIO;
	free(line);
	fclose(f);
	if (ret < 0) {
		xpp_symtab_free(t);
		if (ret == -EFBIG)
			return xb_error_set(err, ret, "'%s': larger than %llu MiB", path,
					    (unsigned long long)(XB_INPUT_TEXT_MAX >> 20));
		return xb_error_set(err, ret, "cannot load '%s': %s", path, strerror(-ret));
	}
	xpp_symtab_finish(t);
	return nr;
}
