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

/* What one pass over the lines gathers besides the symbols. */
struct parse_state {
	bool nonzero;   /* an address other than 0 was shown */
	uint64_t last;  /* the highest address of code or data: where the kernel's map ends */
};

bool xpp_kallsyms_line(const char *p, const char *eol, struct xpp_kallsyms_line *l)
{
	const char *q;
	uint64_t addr = 0;
	int v;

	for (q = p; (v = hexval(*q)) >= 0; q++)
		addr = addr << 4 | (uint64_t)v;
	/* "addr type name", and "\t[module]" for module symbols */
	if (q == p || q + 3 > eol || q[0] != ' ' || q[2] != ' ')
		return false;
	l->addr = addr;
	l->type = q[1];
	l->name = q + 3;
	l->name_len = (size_t)(eol - l->name);
	l->module = memchr(l->name, '\t', l->name_len) != NULL;
	l->text = l->type == 'T' || l->type == 't' || l->type == 'W' || l->type == 'w';
	return true;
}

/* The complete lines in [p, end) (*end is '\n' or NUL) into t: 0 or -ENOMEM. */
static int parse_lines(struct xpp_symtab *t, char *p, char *end, struct parse_state *st)
{
	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		struct xpp_kallsyms_line l;
		int ret;

		if (!eol)
			eol = end;
		/* a module's symbol ("name\t[module]") is skipped */
		if (!xpp_kallsyms_line(p, eol, &l) || l.module)
			goto next;
		/* perf keeps data symbols too: the last of them ends its kernel map */
		if (l.type && strchr("TtWwDdBb", l.type) && l.addr > st->last)
			st->last = l.addr;
		if (!l.text)
			goto next;
		if (l.addr)
			st->nonzero = true;
		ret = xpp_symtab_add(t, l.addr, 0,
				     l.type == 'W' || l.type == 'w' ? XPP_SYM_WEAK :
				     l.type == 'T' ? XPP_SYM_GLOBAL : XPP_SYM_LOCAL, l.name,
				     l.name_len);
		if (ret < 0)
			return ret;
next:
		p = eol + 1;
	}
	return 0;
}

/*
 * The lines as they are read, a chunk at a time: /proc/kallsyms is 5 MB or more of text,
 * which a whole-file buffer doubled up to 8 MB copied and faulted in page by page (a tenth
 * of a cold load) before any line was parsed.
 */
#define CHUNK (256u << 10)

static int parse_fd(struct xpp_symtab *t, int fd, struct parse_state *st, const char *path,
		    struct xb_error *err)
{
	size_t cap = CHUNK, have = 0;
	uint64_t total = 0;
	char *buf = malloc(cap + 1), *nb;
	int ret = 0;

	if (!buf)
		return xb_error_set(err, -ENOMEM, "cannot load '%s': %s", path, strerror(ENOMEM));
	for (;;) {
		ssize_t r;

		if (have == cap) {
			/* a line longer than the buffer (not /proc's): room for it whole */
			nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + have, cap - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			free(buf);
			return xb_error_set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
		}
		/* --kallsyms may name /dev/zero or a FIFO: what is read is bounded */
		total += (uint64_t)r;
		if (total > XB_INPUT_TEXT_MAX) {
			free(buf);
			return xb_error_set(err, -EFBIG, "'%s': larger than %llu MiB", path,
					    (unsigned long long)(XB_INPUT_TEXT_MAX >> 20));
		}
		have += (size_t)r;
		buf[have] = '\0';
		if (!r) {
			ret = parse_lines(t, buf, buf + have, st);
			break;
		}
		char *cut = memrchr(buf, '\n', have);

		if (!cut)
			continue;
		*cut = '\0';
		ret = parse_lines(t, buf, cut, st);
		if (ret < 0)
			break;
		have -= (size_t)(cut + 1 - buf);
		memmove(buf, cut + 1, have);
	}
	free(buf);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot load '%s': %s", path, strerror(-ret));
	return 0;
}

int xpp_kallsyms_load(struct xpp_symtab *t, const char *path, struct xb_error *err)
{
	struct parse_state st = { false, 0 };
	/* /proc/kallsyms has no size to check first: parse_fd() bounds what it reads */
	int fd = xb_input_open(path, XB_INPUT_TEXT_MAX, 0, NULL, err), ret;

	if (fd < 0)
		return fd;
	ret = parse_fd(t, fd, &st, path, err);
	close(fd);
	if (ret < 0) {
		xpp_symtab_free(t);
		return ret;
	}
	if (!st.nonzero) {
		xpp_symtab_free(t);
		return xb_error_set(err, -EPERM, "'%s' shows no addresses (kptr_restrict)", path);
	}
	t->last_alias_wins = true;
	/* perf's roundup(start + 4096, 4096) for an unsized last symbol */
	t->image_end = st.last ? (st.last + 4096 + 4095) & ~(uint64_t)4095 : 0;
	xpp_symtab_finish(t);
	return 0;
}
