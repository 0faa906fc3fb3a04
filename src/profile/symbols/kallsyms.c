/* Kernel symbols from a kallsyms file: a fast parser of "addr type name [module]" lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/input_file.h"
#include "profile/symbols/load.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int xpp_kallsyms_load(struct xpp_symtab *t, const char *path, struct xb_error *err)
{
	size_t len;
	int ret = 0;
	char *buf, *p, *end;
	bool nonzero = false;
	uint64_t last = 0;
	/*
	 * --kallsyms may name /dev/zero or a FIFO, and /proc/kallsyms has no size to check
	 * first: the read itself is bounded.
	 */
	int fd = xb_input_open(path, XB_INPUT_TEXT_MAX, 0, NULL, err);

	if (fd < 0)
		return fd;
	ret = xb_input_read_all(fd, XB_INPUT_TEXT_MAX, &buf, &len);
	close(fd);
	if (ret == -EFBIG)
		return xb_error_set(err, ret, "'%s': larger than %llu MiB", path,
				    (unsigned long long)(XB_INPUT_TEXT_MAX >> 20));
	if (ret < 0)
		return xb_error_set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
	for (p = buf, end = buf + len; p < end;) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *name, *q;
		uint64_t addr = 0;
		int v, type;

		if (!eol)
			eol = end;
		for (q = p; (v = hexval(*q)) >= 0; q++)
			addr = addr << 4 | (uint64_t)v;
		/* "addr type name", and "\t[module]" for module symbols (skipped) */
		if (q == p || q + 3 > eol || q[0] != ' ' || q[2] != ' ')
			goto next;
		type = q[1];
		name = q + 3;
		size_t nlen = (size_t)(eol - name);
		/* a module's symbol: "name\t[module]" */
		if (memchr(name, '\t', nlen))
			goto next;
		/* perf keeps data symbols too: the last of them ends its kernel map */
		if (type && strchr("TtWwDdBb", type) && addr > last)
			last = addr;
		if (type != 'T' && type != 't' && type != 'W' && type != 'w')
			goto next;
		if (addr)
			nonzero = true;
		ret = xpp_symtab_add(t, addr, 0,
				 type == 'W' || type == 'w' ? XPP_SYM_WEAK :
				 type == 'T' ? XPP_SYM_GLOBAL : XPP_SYM_LOCAL, name, nlen);
		if (ret < 0)
			break;
next:
		p = eol + 1;
	}
	free(buf);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot load '%s': %s", path, strerror(-ret));
	if (!nonzero) {
		xpp_symtab_free(t);
		return xb_error_set(err, -EPERM, "'%s' shows no addresses (kptr_restrict)", path);
	}
	t->last_alias_wins = true;
	/* perf's roundup(start + 4096, 4096) for an unsized last symbol */
	t->image_end = last ? (last + 4096 + 4095) & ~(uint64_t)4095 : 0;
	xpp_symtab_finish(t);
	return 0;
}
