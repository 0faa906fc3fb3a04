/*
 * Unit tests of the tracepoint format check (src/script/tracepoint_format.c, print_fmt.c):
 * every format this kernel's tracefs writes passes, and each kind of damage that makes
 * libtraceevent read through NULL or trap is refused with its reason.
 */
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/tracepoint_format.h"
#include "unit.h"

/* A format with fields a (u64 at 8), s (a __data_loc string at 16) and the print fmt given. */
static bool check(const char *print_fmt, const char **why)
{
	char text[4096], name[64];

	snprintf(text, sizeof(text),
		 "name: ev\nID: 42\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\n"
		 "\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
		 "\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n"
		 "\nprint fmt: %s\n", print_fmt);
	return tp_format_ok(text, strlen(text), name, sizeof(name), why);
}

static void good_print_fmts(void)
{
	static const char *const good[] = {
		"\"a=%llu\", REC->a",
		"\"x\" \"y\"",
		"\"%s\", __get_str(s)",
		"\"%lu\", (REC)->a",
		"\"%ld\", (long)REC->a",
		"\"%d\", (unsigned int)-1",
		"\"%d\", (REC->a) - 1",
		"\"%lu\", REC->a / 1000 + REC->a % 0x40",
		"\"%lu\", REC->a / sizeof(u64)",
		"\"%s\", REC->a ? \"yes\" : \"no\"",
		"\"%s\", __print_flags(REC->a, \"|\", { (1UL << 1), \"ONE\" }, { 4, \"TWO\" })",
		"\"%s\", __print_symbolic(REC->a, { 0, \"Z\" }, { 1, \"O\" })",
		"\"%d\", ({ int x = (REC->a); int y = (128); ((x) < (y) ? (x) : (y)); })",
		"\"%s\", __print_array(__get_dynamic_array(s), __get_dynamic_array_len(s) / sizeof(u64), sizeof(u64))",
		"\"%d\", !REC->a && ~REC->a || -REC->a",
		"\"%d\", jiffies_to_msecs(REC->a)",
		"\"%d\", sizeof(u64) * 2",
		"\"%c\", 'x'",
		"\"%c %lu\", __get_str(s)[0], REC->a[1]",
	};
	const char *why;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!check(good[i], &why))
			UNIT_FAIL("refused (%s): %s", why, good[i]);
}

static void damaged_print_fmts(void)
{
	static const struct {
		const char *fmt, *why;
	} bad[] = {
		{ "\"%d\", REC->a +", "its print fmt is not a C expression" },
		{ "\"%d\", * ", "its print fmt is not a C expression" },
		{ "\"%d\", \"s\".a", "its print fmt is not a C expression" },
		{ "\"%d\", REC->b", "its print fmt names a field it does not have" },
		{ "\"%s\", __get_str(b)", "its print fmt names a field it does not have" },
		{ "\"%d\", REC", "its print fmt names REC without a field" },
		{ "\"%d\", x->a", "its print fmt has a -> not on REC" },
		{ "\"%d\", REC->a / 0", "its print fmt divides by what may be 0" },
		{ "\"%d\", REC->a % 08", "its print fmt divides by what may be 0" },
		{ "\"%d\", REC->a / REC->a", "its print fmt divides by what may be 0" },
		{ "\"%d\", REC->a * 5 / 2 / 3", "its print fmt divides by what may be 0" },
		{ "\"%d\", REC->a / 1000 % 0x40", "its print fmt divides by what may be 0" },
		{ "\"%d, REC->a", "a quote of its print fmt is not closed" },
		{ "\"%d\", REC->a ? 1", "its print fmt is not a C expression" },
		{ "\"%d\", { 1, \"x\" }", "its print fmt has a table outside __print_flags/symbolic" },
		{ "\"%d\", REC->a @ 1", "its print fmt holds a character C does not allow there" },
		{ "\"%d\", REC->a = 1", "its print fmt is not a C expression" },
		{ "\"%d\", ({ int x; x; )", "its print fmt is not a C expression" },
		{ "REC->a", "its print fmt does not start with a string" },
		{ "\"%s\", __print_hex(1, 4)", "its print fmt prints a buffer that is not a field" },
		{ "\"%s\", __print_array(x, 4, 8)", "its print fmt prints a buffer that is not a field" },
		{ "\"%d\", (REC->a", "its print fmt is not a C expression" },
		{ "\"%d\", REC->a[1][3]", "its print fmt indexes an element twice" },
		{ "\"%p\", ((char *)REC->a) + sizeof(REC->a)",
		  "its print fmt takes sizeof of an expression" },
		{ "\"%d\", sizeof(REC->a)", "its print fmt takes sizeof of an expression" },
	};
	const char *why;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (check(bad[i].fmt, &why))
			UNIT_FAIL("passed: %s", bad[i].fmt);
		else if (strcmp(why, bad[i].why))
			UNIT_FAIL("%s: \"%s\", expected \"%s\"", bad[i].fmt, why, bad[i].why);
	}
}

/* A __data_loc is a u32 (offset | length << 16): libtraceevent reads it so whatever size says. */
static void data_loc_of_another_size_refused(void)
{
	static const char text[] =
		"name: ev\nID: 42\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:__data_loc u64[] s;\toffset:16;\tsize:2;\tsigned:0;\n"
		"\nprint fmt: \"%d\", 1\n";
	const char *why;
	char name[64];

	CHECK(!tp_format_ok(text, sizeof(text) - 1, name, sizeof(name), &why));
	CHECK_STR(why, "a field line");
	CHECK_STR(name, "ev");
}

/* A type with a stray bracket ("void[ *"): libtraceevent's parser reads through NULL. */
static void bracket_in_type_refused(void)
{
	static const char *const types[] = { "const voi[ *", "char ]x", "u8 [4]", "char[] ]" };
	char text[512], name[64];
	const char *why;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		snprintf(text, sizeof(text),
			 "name: ev\nID: 42\nformat:\n"
			 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			 "\tfield:%s a;\toffset:8;\tsize:8;\tsigned:0;\n"
			 "\nprint fmt: \"%%d\", 1\n", types[i]);
		if (tp_format_ok(text, strlen(text), name, sizeof(name), &why))
			UNIT_FAIL("passed: %s", types[i]);
	}
	/* "[]" of a __data_loc's type and a NAME[N] stay fine */
	snprintf(text, sizeof(text),
		 "name: ev\nID: 42\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:__data_loc char[] s;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
		 "\nprint fmt: \"%%s\", REC->comm\n");
	CHECK(tp_format_ok(text, strlen(text), name, sizeof(name), &why));
}

static void deep_nesting_refused(void)
{
	char fmt[1024];
	const char *why;
	size_t n = 0;

	n += (size_t)snprintf(fmt + n, sizeof(fmt) - n, "\"%%d\", ");
	for (int i = 0; i < 100; i++)
		fmt[n++] = '(';
	n += (size_t)snprintf(fmt + n, sizeof(fmt) - n, "REC->a");
	for (int i = 0; i < 100; i++)
		fmt[n++] = ')';
	fmt[n] = '\0';
	CHECK(!check(fmt, &why));
	CHECK_STR(why, "its print fmt nests too deep");
	/* and a long chain of unary operators too: each is a level */
	n = (size_t)snprintf(fmt, sizeof(fmt), "\"%%d\", ");
	for (int i = 0; i < 100; i++)
		fmt[n++] = '-';
	snprintf(fmt + n, sizeof(fmt) - n, "REC->a");
	CHECK(!check(fmt, &why));
	CHECK_STR(why, "its print fmt nests too deep");
}

/* The print fmt line of the bounded copy of a format with the print fmt given. */
static void bounded_print_fmt(const char *print_fmt, char *out, size_t len)
{
	char text[4096];
	char *b, *line;
	size_t n;

	snprintf(text, sizeof(text), "name: ev\nID: 42\nformat:\n\nprint fmt: %s\n", print_fmt);
	b = tp_format_bound_lengths(text, strlen(text), &n);
	line = b ? strstr(b, "print fmt: ") : NULL;
	snprintf(out, len, "%.*s", line ? (int)strcspn(line + 11, "\n") : 0, line ? line + 11 : "");
	free(b);
}

/* Lengths and '*' widths or precisions come from the sample: each is bounded to 16 bits. */
static void lengths_and_star_args_bounded(void)
{
	char out[512];

	bounded_print_fmt("\"%s\", __print_hex(REC->a, REC->n)", out, sizeof(out));
	CHECK_STR(out, "\"%s\", __print_hex(REC->a,(( REC->n) & 0xffff))");
	/* a width, a precision, both, a %p extension and %% between: the right arguments */
	bounded_print_fmt("\"%pU %*lu %% %.*s %-*.*d %*pbl\", REC->u, REC->w, REC->x, REC->p, "
			  "__get_str(s), f(REC->a, 1), REC->b, REC->c, REC->n, __get_bitmask(m)",
			  out, sizeof(out));
	CHECK_STR(out, "\"%pU %*lu %% %.*s %-*.*d %*pbl\", REC->u,(( REC->w) & 0xffff), REC->x,"
		  "(( REC->p) & 0xffff), __get_str(s),(( f(REC->a, 1)) & 0xffff),"
		  "(( REC->b) & 0xffff), REC->c,(( REC->n) & 0xffff), __get_bitmask(m)");
	/* a conversion printf does not know ("%/s"): every argument from it on is bounded */
	bounded_print_fmt("\"%d %/s %*lu\", REC->a, REC->b, REC->c, REC->d", out, sizeof(out));
	CHECK_STR(out, "\"%d %/s %*lu\", REC->a,(( REC->b) & 0xffff),(( REC->c) & 0xffff),"
		  "(( REC->d) & 0xffff)");
	/* nor one libtraceevent does not (a ' ' or '+' flag, %e, %c, the size j): it takes no
	   argument there, so every argument from it on is bounded */
	bounded_print_fmt("\"%d % o %*lu\", REC->a, REC->b, REC->c, REC->d", out, sizeof(out));
	CHECK_STR(out, "\"%d % o %*lu\", REC->a,(( REC->b) & 0xffff),(( REC->c) & 0xffff),"
		  "(( REC->d) & 0xffff)");
	bounded_print_fmt("\"%d %+d %*lu\", REC->a, REC->b, REC->c, REC->d", out, sizeof(out));
	CHECK_STR(out, "\"%d %+d %*lu\", REC->a,(( REC->b) & 0xffff),(( REC->c) & 0xffff),"
		  "(( REC->d) & 0xffff)");
	bounded_print_fmt("\"%d %c %e %*lu\", REC->a, REC->b, REC->c, REC->d, REC->e", out,
			  sizeof(out));
	CHECK_STR(out, "\"%d %c %e %*lu\", REC->a,(( REC->b) & 0xffff),(( REC->c) & 0xffff),"
		  "(( REC->d) & 0xffff),(( REC->e) & 0xffff)");
	bounded_print_fmt("\"%d %jd %*lu\", REC->a, REC->b, REC->c, REC->d", out, sizeof(out));
	CHECK_STR(out, "\"%d %jd %*lu\", REC->a,(( REC->b) & 0xffff),(( REC->c) & 0xffff),"
		  "(( REC->d) & 0xffff)");
	/* the flags, sizes and conversions it knows: the '*' argument only */
	bounded_print_fmt("\"%-#08llx %hd %zu %*s\", REC->a, REC->b, REC->c, REC->d, REC->e", out,
			  sizeof(out));
	CHECK_STR(out, "\"%-#08llx %hd %zu %*s\", REC->a, REC->b, REC->c,(( REC->d) & 0xffff),"
		  " REC->e");
	/* no star: the text as it was */
	bounded_print_fmt("\"%d, %s\", REC->a, \"*\"", out, sizeof(out));
	CHECK_STR(out, "\"%d, %s\", REC->a, \"*\"");
}

/* Every format of this kernel: tracefs is the one writer real files copy. */
static void every_kernel_format_passes(void)
{
	glob_t g;
	size_t passed = 0;

	if (glob("/sys/kernel/tracing/events/*/*/format", 0, NULL, &g) || g.gl_pathc < 100) {
		if (g.gl_pathc)
			globfree(&g);
		UNIT_SKIP("tracefs is not mounted at /sys/kernel/tracing "
			  "(mount -t tracefs nodev /sys/kernel/tracing)");
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		static char text[1 << 17];
		const char *why;
		char name[64];
		FILE *f = fopen(g.gl_pathv[i], "r");
		size_t n;

		if (!f)
			continue;
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		if (tp_format_ok(text, n, name, sizeof(name), &why))
			passed++;
		else
			UNIT_FAIL("%s: %s", g.gl_pathv[i], why);
	}
	printf("# %zu of %zu kernel formats pass\n", passed, g.gl_pathc);
	globfree(&g);
}

int main(void)
{
	RUN(good_print_fmts);
	RUN(damaged_print_fmts);
	RUN(data_loc_of_another_size_refused);
	RUN(bracket_in_type_refused);
	RUN(deep_nesting_refused);
	RUN(lengths_and_star_args_bounded);
	RUN(every_kernel_format_passes);
	UNIT_MAIN_END();
}
