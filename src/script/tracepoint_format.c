/*
 * The event formats of a file's TRACING_DATA are text a damaged file can change at will, and
 * libtraceevent trusts them: a REC->X inside __print_flags() or __print_symbolic() that names
 * no field makes its parser write through a NULL field, a '/' or '%' by 0 (or by a field
 * that holds 0) traps when a sample is printed, an unclosed quote reads on forever, deep
 * nesting recurses as deep. So a format is handed over only when it has the grammar tracefs
 * writes and a print fmt it can evaluate safely; anything else is damage. Every real format
 * (5.x and 6.x kernels, ftrace's too) passes: their divisors are constants or sizeof().
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script/print_fmt.h"
#include "script/tracepoint_format.h"

#define MAX_TEXT   (64u << 10)   /* the largest real format is ~6 KB */
#define MAX_FIELDS 256

#define MAX_EXTENT 65536u        /* a field ends inside a record: its size is 16 bits */

struct span {
	const char *p;
	size_t n;
};

struct fields {
	struct span name[MAX_FIELDS];
	unsigned int nr;
};

static bool is_item(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* "WORD" at p: then p past it. */
static bool lit(const char **p, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - *p) < n || memcmp(*p, word, n))
		return false;
	*p += n;
	return true;
}

/* Decimal digits at p, at most max: then p past them. */
static bool number(const char **p, const char *end, unsigned long max, unsigned long *v)
{
	unsigned long x = 0;
	const char *q = *p;

	while (q < end && isdigit((unsigned char)*q)) {
		x = x * 10 + (unsigned long)(*q - '0');
		if (x > max)
			return false;
		q++;
	}
	if (q == *p)
		return false;
	*p = q;
	*v = x;
	return true;
}

/* "KEY:N;" after blanks: N in *v. */
static bool attr(const char **p, const char *end, const char *key, unsigned long max,
		 unsigned long *v)
{
	*p = skip_blank(*p, end);
	return lit(p, end, key) && lit(p, end, ":") && number(p, end, max, v) && lit(p, end, ";");
}

/*
 * One field line, from its first character to its end (no newline):
 *   [blanks]field:[ ]TYPE NAME[[N]];[blanks]offset:N;[blanks]size:N;[[blanks]signed:N;][blanks]
 * TYPE is words of letters, digits, '_', '*' and "[]" (__data_loc char[] name). The name is
 * the last word; it goes to f (NULL: not kept).
 */
static bool field_line(const char *p, const char *end, struct fields *f)
{
	const char *decl, *semi, *name_end, *name;
	unsigned long off, size, sign;

	p = skip_blank(p, end);
	if (!lit(&p, end, "field:"))
		return false;
	p = skip_blank(p, end);
	decl = p;
	if (!(semi = memchr(p, ';', (size_t)(end - p))) || semi == decl)
		return false;
	for (const char *q = decl; q < semi; q++)
		if (!is_item(*q) && !strchr(" *[]", *q))
			return false;
	name_end = semi;
	while (name_end > decl && name_end[-1] == ' ')
		name_end--;
	if (name_end > decl && name_end[-1] == ']') {  /* NAME[N] */
		while (name_end > decl && name_end[-1] != '[')
			name_end--;
		if (name_end == decl)
			return false;
		for (const char *q = name_end; q < semi && *q != ']'; q++)
			if (!isdigit((unsigned char)*q))
				return false;
		name_end--;
	}
	name = name_end;
	while (name > decl && is_item(name[-1]))
		name--;
	if (name == name_end || isdigit((unsigned char)*name))
		return false;
	/* brackets in the type only as "[]": libtraceevent's parser reads through NULL on
	 * "void[ *" */
	for (const char *q = decl; q < name; q++)
		if ((*q == '[' && q[1] != ']') || (*q == ']' && (q == decl || q[-1] != '[')))
			return false;
	p = semi + 1;
	if (!attr(&p, end, "offset", MAX_EXTENT, &off) || !attr(&p, end, "size", MAX_EXTENT, &size) ||
	    off + size > MAX_EXTENT)
		return false;
	/* a dynamic field is a u32 (offset | length << 16): libtraceevent reads it so */
	if ((lit(&decl, semi, "__data_loc ") || lit(&decl, semi, "__rel_loc ")) && size != 4)
		return false;
	p = skip_blank(p, end);
	if (p < end && !attr(&p, end, "signed", 1, &sign))
		return false;
	if (skip_blank(p, end) != end)
		return false;
	if (f) {
		if (f->nr == MAX_FIELDS)
			return false;
		f->name[f->nr++] = (struct span){ name, (size_t)(name_end - name) };
	}
	return true;
}

static bool has_field(void *ctx, const char *p, size_t n)
{
	const struct fields *f = ctx;

	for (unsigned int i = 0; i < f->nr; i++)
		if (f->name[i].n == n && !memcmp(f->name[i].p, p, n))
			return true;
	return false;
}

/* The line at *p (up to its newline or end): [*p, *eol); *p then past the newline. */
static bool next_line(const char **p, const char *end, const char **line, const char **eol)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*eol = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	return true;
}

/* "KEY:" VALUE on one line: VALUE a word of visible characters, returned as a span. */
static bool key_line(const char **p, const char *end, const char *key, struct span *v)
{
	const char *line, *eol, *q;

	if (!next_line(p, end, &line, &eol) || !lit(&line, eol, key))
		return false;
	q = skip_blank(line, eol);
	v->p = q;
	while (q < eol && isgraph((unsigned char)*q))
		q++;
	v->n = (size_t)(q - v->p);
	return v->n && skip_blank(q, eol) == eol;
}

bool tp_format_ok(const char *text, size_t size, char *name, size_t name_size,
		  const char **why)
{
	const char *p = text, *end = text + size, *line, *eol;
	struct fields *f;
	struct span v;
	bool ok = false;

	*name = '\0';
	*why = "its name line";
	if (!key_line(&p, end, "name:", &v))
		return false;
	if (name_size) {
		size_t n = v.n < name_size - 1 ? v.n : name_size - 1;

		memcpy(name, v.p, n);
		name[n] = '\0';
	}
	if (size > MAX_TEXT) {
		*why = "larger than 64 KB";
		return false;
	}
	*why = "its ID line";
	if (!key_line(&p, end, "ID:", &v) || !isdigit((unsigned char)*v.p) || v.n > 9)
		return false;
	for (size_t i = 0; i < v.n; i++)
		if (!isdigit((unsigned char)v.p[i]))
			return false;
	*why = "its format: line";
	if (!next_line(&p, end, &line, &eol) || !lit(&line, eol, "format:") ||
	    skip_blank(line, eol) != eol)
		return false;
	if (!(f = calloc(1, sizeof(*f)))) {
		*why = "out of memory";
		return false;
	}
	*why = "a field line";
	while (next_line(&p, end, &line, &eol)) {
		if (skip_blank(line, eol) == eol)
			continue;
		if (lit(&line, eol, "print fmt:")) {
			ok = tp_print_fmt_ok(line, end, has_field, f, why);
			goto out;
		}
		if (!field_line(line, eol, f))
			goto out;
	}
	*why = "no print fmt";
out:
	free(f);
	return ok;
}

bool tp_header_page_ok(const char *text, size_t size, const char **why)
{
	const char *p = text, *end = text + size, *line, *eol;

	*why = "a field line";
	if (size > MAX_TEXT)
		return false;
	while (next_line(&p, end, &line, &eol))
		if (skip_blank(line, eol) != eol && !field_line(line, eol, NULL))
			return false;
	return true;
}

/*
 * Where the argument of a call starting at p (just past its '(') ends: the ',' or ')' at
 * depth 0 (quotes skipped), or NULL when the text ends first.
 */
static const char *arg_end(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		char c = *p;

		if (c == '"' || c == '\'') {
			for (p++; p < end && *p != c; p++)
				if (*p == '\\' && ++p == end)
					return NULL;
			if (p >= end)
				return NULL;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (depth-- == 0)
				return c == ')' ? p : NULL;
		} else if (c == ',' && depth == 0) {
			return p;
		}
	}
	return NULL;
}

/* A growing copy for tp_format_bound_lengths(). */
struct buf {
	char *p;
	size_t n, cap;
	bool failed;
};

static void put(struct buf *b, const char *s, size_t n)
{
	char *grown;

	if (b->failed)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = (b->n + n + 1) * 2;

		if (!(grown = realloc(b->p, cap))) {
			b->failed = true;
			return;
		}
		b->p = grown;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static bool has_length_arg(const char *w, size_t n)
{
	return (n == 11 && !memcmp(w, "__print_hex", 11)) ||
	       (n == 15 && !memcmp(w, "__print_hex_str", 15)) ||
	       (n == 13 && !memcmp(w, "__print_array", 13));
}

#define MAX_ARGS 256 /* real print fmts have 20 arguments at most */

/* The arguments of a print fmt that a '*' takes, a bit each. */
struct star_set {
	uint64_t bit[MAX_ARGS / 64];
	bool any;
};

static void star_set_add(struct star_set *s, unsigned int arg)
{
	s->bit[arg / 64] |= 1ull << (arg % 64);
	s->any = true;
}

static bool star_set_has(const struct star_set *s, unsigned int arg)
{
	return s->bit[arg / 64] >> (arg % 64) & 1;
}

/*
 * Which arguments of the print fmt a '*' width or precision takes: printf pads to whatever
 * the sample's data says there, and a width of 2^31 is gigabytes of blanks for one line.
 * fmt..fmt_end is the format string without quotes. A conversion libtraceevent does not
 * know ("%/s", "% o", "%e": it takes no argument there) may take another number of
 * arguments in libtraceevent than here, so from the first such one on, every argument
 * counts as taken by a '*' when the format has one; as does every argument past
 * MAX_ARGS - 1 (the last bit stands for them all).
 */
static void star_args(const char *fmt, const char *fmt_end, struct star_set *s)
{
	unsigned int arg = 0, odd_from = MAX_ARGS;

	memset(s, 0, sizeof(*s));
	for (const char *p = fmt; p < fmt_end; p++) {
		if (*p == '\\') {
			p++;
			continue;
		}
		if (*p != '%')
			continue;
		if (++p < fmt_end && *p == '%')
			continue;
		/* libtraceevent knows the flags '-', '#' and '0', the sizes h, l, L, z and Z and
		   the conversions d, i, o, u, x, X, s and p: at anything else it takes no
		   argument ("% o" took none there, and the next '*' took a field as its width:
		   gigabytes of blanks), so that conversion is odd */
		for (; p < fmt_end && strchr("-+ #0", *p); p++)
			if (*p == ' ' || *p == '+')
				odd_from = arg < odd_from ? arg : odd_from;
		for (int part = 0; part < 2; part++) { /* the width, then '.' and the precision */
			if (part == 1 && (p == fmt_end || *p != '.'))
				break;
			p += part;
			if (p < fmt_end && *p == '*') {
				star_set_add(s, arg < MAX_ARGS ? arg : MAX_ARGS - 1);
				arg++;
				p++;
			}
			while (p < fmt_end && isdigit((unsigned char)*p))
				p++;
		}
		for (; p < fmt_end && strchr("hlLqjzZt", *p); p++)
			if (strchr("qjt", *p))
				odd_from = arg < odd_from ? arg : odd_from;
		if (p == fmt_end || !*p || !strchr("diouxXsp", *p))
			odd_from = arg < odd_from ? arg : odd_from;
		else if (*p == 'p') /* %pS, %pU, %pbl...: one argument as well */
			while (p + 1 < fmt_end && isalnum((unsigned char)p[1]))
				p++;
		arg++;
	}
	for (unsigned int i = odd_from; s->any && i < MAX_ARGS; i++)
		star_set_add(s, i);
}

/*
 * A copy of text whose print fmt arguments taken by '*' are ((ARG) & 0xffff): a record
 * holds less than 64 KB, so no real string is cut by its precision, and no width pads
 * further. NULL when there is no memory; the text as it is (copied) when it has no stars.
 */
static char *bound_star_args(const char *text, size_t size, struct buf *b)
{
	static const char open_[] = "((", close_[] = ") & 0xffff)";
	const char *end = text + size, *fmt = strstr(text, "\nprint fmt:"), *q, *fmt_end, *lim;
	struct star_set stars;

	q = fmt ? skip_space(fmt + 11, end) : end;
	if (q == end || *q != '"') {
		put(b, text, size);
		return b->p;
	}
	for (fmt_end = q + 1; fmt_end < end && *fmt_end != '"'; fmt_end++)
		if (*fmt_end == '\\' && fmt_end + 1 < end)
			fmt_end++;
	if (fmt_end < end)
		star_args(q + 1, fmt_end, &stars);
	if (fmt_end == end || !stars.any) {
		put(b, text, size);
		return b->p;
	}
	lim = memchr(fmt_end, '\n', (size_t)(end - fmt_end));
	lim = lim ? lim : end;
	put(b, text, (size_t)(fmt_end + 1 - text));
	q = fmt_end + 1;
	for (unsigned int arg = 0; q < lim; arg++) {
		const char *a = skip_space(q, lim), *a_end;

		if (a == lim || *a != ',')
			break;
		a_end = arg_end(a + 1, lim);
		a_end = a_end ? a_end : lim;
		put(b, q, (size_t)(a + 1 - q));
		if (star_set_has(&stars, arg < MAX_ARGS ? arg : MAX_ARGS - 1)) {
			put(b, open_, sizeof(open_) - 1);
			put(b, a + 1, (size_t)(a_end - (a + 1)));
			put(b, close_, sizeof(close_) - 1);
		} else {
			put(b, a + 1, (size_t)(a_end - (a + 1)));
		}
		q = a_end;
	}
	put(b, q, (size_t)(end - q));
	return b->p;
}

static char *bound_call_lengths(const char *text, size_t size, size_t *out_size)
{
	static const char open_[] = "((", close_[] = ") & 0xffff)";
	const char *end = text + size, *fmt = strstr(text, "\nprint fmt:"), *from = text, *q;
	struct buf b = { 0 };

	for (q = fmt ? fmt : end; q < end;) {
		const char *w, *a1, *len_end, *paren;

		if (*q == '"' || *q == '\'') {
			char c = *q;

			for (q++; q < end && *q != c; q++)
				if (*q == '\\' && q + 1 < end)
					q++;
			q += q < end;
			continue;
		}
		if (!is_item(*q) || is_item(q[-1])) {
			q++;
			continue;
		}
		for (w = q; q < end && is_item(*q);)
			q++;
		if (!has_length_arg(w, (size_t)(q - w)))
			continue;
		paren = skip_space(q, end);
		if (paren == end || *paren != '(' || !(a1 = arg_end(paren + 1, end)) || *a1 != ',' ||
		    !(len_end = arg_end(a1 + 1, end)))
			continue;
		put(&b, from, (size_t)(a1 + 1 - from));
		put(&b, open_, sizeof(open_) - 1);
		put(&b, a1 + 1, (size_t)(len_end - (a1 + 1)));
		put(&b, close_, sizeof(close_) - 1);
		from = q = len_end;
	}
	put(&b, from, (size_t)(end - from));
	if (b.failed || !b.p) {
		free(b.p);
		return NULL;
	}
	*out_size = b.n;
	return b.p;
}

char *tp_format_bound_lengths(const char *in, size_t in_size, size_t *out_size)
{
	struct buf starred = { 0 };
	char *ret;

	if (!bound_star_args(in, in_size, &starred) || starred.failed) {
		free(starred.p);
		return NULL;
	}
	ret = bound_call_lengths(starred.p, starred.n, out_size);
	free(starred.p);
	return ret;
}
