/* Kernel symbols from a kallsyms file: a fast parser of "addr type name [module]" lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "profile/symbols/load.h"

/* The whole file: /proc files have no size, so read until EOF. */
static char *slurp(const char *path, size_t *len, int *err)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	for (;;) {
		if (XB_ARRAY_RESERVE(buf, cap, n + 65536, 8 << 20)) {
			*err = -ENOMEM;
			goto fail;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = -errno;
			goto fail;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

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
	char *buf = slurp(path, &len, &ret), *p, *end;
	bool nonzero = false;

	if (!buf)
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
		if (type != 'T' && type != 't' && type != 'W' && type != 'w')
			goto next;
		size_t nlen = (size_t)(eol - name);
		char *tab = memchr(name, '\t', nlen);

		if (tab)
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
	xpp_symtab_finish(t);
	return 0;
}
