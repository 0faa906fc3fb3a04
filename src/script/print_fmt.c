/*
 * The print fmt of a tracepoint format, parsed as the C expressions it holds before
 * libtraceevent sees it. Its parser trusts the text: an operator without its operand, a '.'
 * after a string, a REC->X naming no field, a divisor that may be 0 make it read through NULL
 * or trap. So only what this grammar derives is handed over:
 *
 *   fmt     := STRING+ { ',' cond } END
 *   cond    := binary [ '?' cond ':' cond ]
 *   binary  := unary { BINOP unary }        a '/' or '%' by a constant > 0 or sizeof(T),
 *                                           not followed by '*', '/' or '%'
 *   unary   := ( '-' | '+' | '!' | '~' | '*' | '&' ) unary | '(' TYPE ')' unary | postfix
 *   postfix := primary { '[' cond ']' | '->' FIELD (on REC only) | '(' args ')' (on a name) }
 *   primary := NUMBER | STRING+ | CHAR | NAME | REC | '(' cond ')' | sizeof '(' TYPE ')'
 *            | '{' cond { ',' cond } [','] '}'   (in __print_flags and __print_symbolic)
 *            | '(' '{' ... '}' ')'               (a statement expression: balanced only)
 *
 * Real formats are all of this shape (every one of a 6.x kernel passes). A statement
 * expression (kvm and dma events, `({ int x = ...; x; })`) is taken as balanced text:
 * libtraceevent gives up at its '{' and prints such an event without its print fmt, as perf.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "script/print_fmt.h"

#define MAX_DEPTH 64 /* real print fmts nest 14 deep at most */

enum tok_kind { T_END, T_NAME, T_NUMBER, T_STRING, T_CHAR, T_PUNCT, T_BAD };

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t n;
};

struct parser {
	const char *p, *end;
	struct tok t;           /* the current token */
	int depth;
	const char *why;        /* set on the first failure */
	tp_is_field_fn is_field;
	void *ctx;
};

static bool is_item(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool fail(struct parser *ps, const char *why)
{
	if (!ps->why)
		ps->why = why;
	return false;
}

/* A quoted string or character from p (at its quote): its end past the closing quote. */
static const char *quoted(const char *p, const char *end)
{
	char q = *p++;

	for (; p < end && *p != q; p++)
		if (*p == '\\' && ++p == end)
			return NULL;
	return p < end ? p + 1 : NULL;
}

/* The next token into ps->t. */
static void next(struct parser *ps)
{
	static const char *const two[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *p = ps->p, *end = ps->end, *q;

	while (p < end && isspace((unsigned char)*p))
		p++;
	ps->t = (struct tok){ T_END, p, 0 };
	if (p == end)
		return;
	if (*p == '"' || *p == '\'') {
		if (!(q = quoted(p, end))) {
			ps->t.kind = T_BAD;
			fail(ps, "a quote of its print fmt is not closed");
			ps->p = end;
			return;
		}
		ps->t = (struct tok){ *p == '"' ? T_STRING : T_CHAR, p, (size_t)(q - p) };
	} else if (is_item(*p)) {
		for (q = p; q < end && is_item(*q); q++)
			;
		ps->t = (struct tok){ isdigit((unsigned char)*p) ? T_NUMBER : T_NAME, p,
				      (size_t)(q - p) };
	} else {
		ps->t = (struct tok){ T_PUNCT, p, 1 };
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
			if (end - p >= 2 && !memcmp(p, two[i], 2))
				ps->t.n = 2;
		/* ';', '=' and '.' are for statement expressions: no rule outside takes them */
		if (ps->t.n == 1 && !strchr("()[]{},?:+-*/%&|^!~<>;=.", *p)) {
			ps->t.kind = T_BAD;
			fail(ps, "its print fmt holds a character C does not allow there");
		}
	}
	ps->p = ps->t.s + ps->t.n;
}

static bool is(const struct parser *ps, const char *punct)
{
	return ps->t.kind == T_PUNCT && ps->t.n == strlen(punct) && !memcmp(ps->t.s, punct, ps->t.n);
}

static bool is_name(const struct parser *ps, const char *name)
{
	return ps->t.kind == T_NAME && ps->t.n == strlen(name) && !memcmp(ps->t.s, name, ps->t.n);
}

/* Take the punctuation punct, or fail. */
static bool expect(struct parser *ps, const char *punct)
{
	if (!is(ps, punct))
		return fail(ps, "its print fmt is not a C expression");
	next(ps);
	return true;
}

static bool deeper(struct parser *ps)
{
	return ++ps->depth <= MAX_DEPTH || fail(ps, "its print fmt nests too deep");
}

static bool is_binop(const struct parser *ps)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=",
					   ">=", "==", "!=", "&", "^", "|", "&&", "||" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is(ps, ops[i]))
			return true;
	return false;
}

/*
 * The helpers whose argument is a field's name, not an expression: libtraceevent looks the
 * name up when it prints, and some of them (__get_cpumask) use what it found unchecked.
 */
static bool takes_field_name(const struct tok *t)
{
	static const char *const helpers[] = {
		"__get_str", "__get_dynamic_array", "__get_dynamic_array_len", "__get_bitmask",
		"__get_cpumask", "__get_sockaddr", "__get_rel_str", "__get_rel_dynamic_array",
		"__get_rel_dynamic_array_len", "__get_rel_bitmask", "__get_rel_cpumask",
		"__get_rel_sockaddr",
	};

	for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (strlen(helpers[i]) == t->n && !memcmp(helpers[i], t->s, t->n))
			return true;
	return false;
}

/* The helpers whose arguments after the first may be tables: { VALUE, "NAME" }. */
static bool takes_tables(const struct tok *t)
{
	return (t->n >= 13 && !memcmp(t->s, "__print_flags", 13)) ||
	       (t->n >= 16 && !memcmp(t->s, "__print_symbolic", 16));
}

static bool cond(struct parser *ps, bool tables);

/* A field name as the current token: taken. */
static bool field(struct parser *ps)
{
	if (ps->t.kind != T_NAME || !ps->is_field(ps->ctx, ps->t.s, ps->t.n))
		return fail(ps, "its print fmt names a field it does not have");
	next(ps);
	return true;
}

/*
 * TYPE ')' with the current token past '(': words, then stars. Its number of tokens, or 0
 * (ps unchanged) when there is none.
 */
static int type_paren(struct parser *ps)
{
	struct parser save = *ps;
	int n = 0;

	if (ps->t.kind != T_NAME || is_name(ps, "REC") || is_name(ps, "sizeof"))
		return 0;
	for (; ps->t.kind == T_NAME && !is_name(ps, "REC"); n++)
		next(ps);
	for (; is(ps, "*"); n++)
		next(ps);
	if (is(ps, ")")) {
		next(ps);
		return n;
	}
	*ps = save;
	return 0;
}

/* What may follow a '/' or '%': a constant other than 0 (1000, 0x40, 250UL), or sizeof(T). */
static bool divisor(struct parser *ps)
{
	char num[32];

	if (is_name(ps, "sizeof")) {
		next(ps);
		if (!expect(ps, "(") || !type_paren(ps))
			return fail(ps, "its print fmt divides by what may be 0");
		return true;
	}
	if (ps->t.kind != T_NUMBER || ps->t.n >= sizeof(num))
		return fail(ps, "its print fmt divides by what may be 0");
	memcpy(num, ps->t.s, ps->t.n);
	num[ps->t.n] = '\0';
	/* as libtraceevent reads an atom: strtoll, base from the prefix ("08" is 0) */
	if (strtoll(num, NULL, 0) <= 0)
		return fail(ps, "its print fmt divides by what may be 0");
	next(ps);
	return true;
}

/* A statement expression, the current token its '{': skipped to its '}' and ')'. */
static bool statement_expression(struct parser *ps)
{
	int depth = 0;

	for (;;) {
		if (ps->t.kind == T_END || ps->t.kind == T_BAD)
			return fail(ps, "its print fmt is not a C expression");
		if (is(ps, "(") || is(ps, "[") || is(ps, "{")) {
			if (++depth > MAX_DEPTH)
				return fail(ps, "its print fmt nests too deep");
		} else if (is(ps, ")") || is(ps, "]") || is(ps, "}")) {
			if (--depth < 0)
				return fail(ps, "its print fmt is not a C expression");
			if (depth == 0) {
				if (!is(ps, "}"))
					return fail(ps, "its print fmt is not a C expression");
				next(ps);
				return expect(ps, ")");
			}
		}
		next(ps);
	}
}

/*
 * The helpers whose first argument is a buffer: libtraceevent takes it for a field, as
 * REC->X or __get_dynamic_array(X), and reads any other expression as if it were one.
 */
static bool takes_buffer(const struct tok *t)
{
	return (t->n == 11 && !memcmp(t->s, "__print_hex", 11)) ||
	       (t->n == 15 && !memcmp(t->s, "__print_hex_str", 15)) ||
	       (t->n == 13 && !memcmp(t->s, "__print_array", 13));
}

/* REC->X or __get_dynamic_array(X) (__get_rel_dynamic_array(X)): a buffer's field. */
static bool buffer(struct parser *ps)
{
	if (is_name(ps, "REC")) {
		next(ps);
		return expect(ps, "->") && field(ps);
	}
	if (is_name(ps, "__get_dynamic_array") || is_name(ps, "__get_rel_dynamic_array")) {
		next(ps);
		return expect(ps, "(") && field(ps) && expect(ps, ")");
	}
	return fail(ps, "its print fmt prints a buffer that is not a field");
}

/* The arguments of a call, the current token past its '(': up to and past ')'. */
static bool call_args(struct parser *ps, const struct tok *fn)
{
	if (takes_field_name(fn))
		return field(ps) && expect(ps, ")");
	if (is(ps, ")")) {
		next(ps);
		return true;
	}
	for (bool first = true;; first = false) {
		if (first && takes_buffer(fn) ? !buffer(ps) : !cond(ps, !first && takes_tables(fn)))
			return false;
		if (is(ps, ")")) {
			next(ps);
			return true;
		}
		if (!expect(ps, ","))
			return false;
	}
}

/* '{' cond { ',' cond } [','] '}', the current token its '{'. */
static bool table(struct parser *ps)
{
	next(ps);
	for (;;) {
		if (is(ps, "}")) {
			next(ps);
			return true;
		}
		if (!cond(ps, true))
			return false;
		if (!is(ps, "}") && !expect(ps, ","))
			return false;
	}
}

/* primary and its postfixes */
static bool postfix(struct parser *ps, bool tables)
{
	struct tok first = ps->t;
	bool rec = false, name = false, indexed = false;

	switch (ps->t.kind) {
	case T_NUMBER:
	case T_CHAR:
		next(ps);
		return true; /* nothing follows a constant in C that libtraceevent takes */
	case T_STRING:
		while (ps->t.kind == T_STRING)
			next(ps);
		return true;
	case T_NAME:
		if (is_name(ps, "sizeof")) {
			/* of a type only, as every real format has it (sizeof(u64)):
			 * libtraceevent frees a token it reads again after sizeof(REC->X)
			 * inside an expression (a use after free the fuzzer found) */
			next(ps);
			if (!expect(ps, "("))
				return false;
			if (type_paren(ps))
				return true;
			return fail(ps, "its print fmt takes sizeof of an expression");
		}
		rec = is_name(ps, "REC");
		name = !rec;
		next(ps);
		break;
	case T_PUNCT:
		if (is(ps, "{")) {
			if (!tables)
				return fail(ps, "its print fmt has a table outside __print_flags/symbolic");
			return table(ps);
		}
		if (!is(ps, "("))
			return fail(ps, "its print fmt is not a C expression");
		next(ps);
		if (is(ps, "{"))
			return statement_expression(ps);
		if (is_name(ps, "REC")) { /* (REC)->X, as ftrace's func_repeats has it */
			struct parser save = *ps;

			next(ps);
			if (is(ps, ")")) {
				next(ps);
				rec = true;
				break;
			}
			*ps = save;
		}
		if (!cond(ps, false) || !expect(ps, ")"))
			return false;
		break;
	default:
		return fail(ps, "its print fmt is not a C expression");
	}
	for (;;) {
		if (is(ps, "[")) {
			/* one index, as in REC->args[1] or __get_str(s)[0]: libtraceevent's
			 * parser reads through NULL on a second (REC->args[1][3]) */
			if (indexed)
				return fail(ps, "its print fmt indexes an element twice");
			indexed = true;
			next(ps);
			if (!cond(ps, false) || !expect(ps, "]"))
				return false;
		} else if (is(ps, "->")) {
			if (!rec)
				return fail(ps, "its print fmt has a -> not on REC");
			next(ps);
			if (!field(ps))
				return false;
		} else if (is(ps, "(") && name) {
			next(ps);
			if (!call_args(ps, &first))
				return false;
		} else if (rec) {
			return fail(ps, "its print fmt names REC without a field");
		} else {
			return true;
		}
		rec = name = false;
	}
}

static bool unary(struct parser *ps, bool tables)
{
	bool ok;

	if (!deeper(ps))
		return false;
	if (is(ps, "-") || is(ps, "+") || is(ps, "!") || is(ps, "~") || is(ps, "*") || is(ps, "&")) {
		next(ps);
		ok = unary(ps, false);
	} else if (is(ps, "(")) {
		struct parser save = *ps;
		int words;

		next(ps);
		words = type_paren(ps);
		/* (long)x, (unsigned int)-1 are casts; (x) - 1 is not: a lone word before an
		 * operator that is also binary is taken as an operand */
		if (words > 1 || (words == 1 && (ps->t.kind == T_NAME || ps->t.kind == T_NUMBER ||
						 ps->t.kind == T_STRING || ps->t.kind == T_CHAR ||
						 is(ps, "(") || is(ps, "!") || is(ps, "~")))) {
			ok = unary(ps, false); /* a cast */
		} else {
			*ps = save;
			ok = postfix(ps, tables);
		}
	} else {
		ok = postfix(ps, tables);
	}
	ps->depth--;
	return ok;
}

static bool binary(struct parser *ps, bool tables)
{
	if (!unary(ps, tables))
		return false;
	while (is_binop(ps)) {
		bool divides = is(ps, "/") || is(ps, "%");

		next(ps);
		if (divides ? !divisor(ps) : !unary(ps, false))
			return false;
		/* libtraceevent folds constants right to left: in "5 / 2 / 3" it divides 5
		 * by 2 / 3, that is by 0 (SIGFPE). No real format divides and then
		 * multiplies or divides again. */
		if (divides && (is(ps, "/") || is(ps, "%") || is(ps, "*")))
			return fail(ps, "its print fmt divides by what may be 0");
	}
	return true;
}

static bool cond(struct parser *ps, bool tables)
{
	bool ok;

	if (!deeper(ps))
		return false;
	ok = binary(ps, tables);
	if (ok && is(ps, "?")) {
		next(ps);
		ok = cond(ps, false) && expect(ps, ":") && cond(ps, false);
	}
	ps->depth--;
	return ok;
}

bool tp_print_fmt_ok(const char *text, const char *end, tp_is_field_fn is_field, void *ctx,
		     const char **why)
{
	struct parser ps = { .p = text, .end = end, .is_field = is_field, .ctx = ctx };

	next(&ps);
	if (ps.t.kind != T_STRING) {
		fail(&ps, "its print fmt does not start with a string");
	} else {
		while (ps.t.kind == T_STRING)
			next(&ps);
		while (is(&ps, ",")) {
			next(&ps);
			if (!cond(&ps, false))
				break;
		}
		if (ps.t.kind != T_END)
			fail(&ps, "its print fmt is not a C expression");
	}
	*why = ps.why;
	return !ps.why;
}
