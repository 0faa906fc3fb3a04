/* Unit tests of the option-table parser in src/cli/. */
#include <fcntl.h>
#include <unistd.h>

#include "unit.h"
#include "cli/cli.h"

static bool flag_b;
static int count_v, num_n;
static const char *str_o;
static uint64_t big;

static struct cli_option opts[] = {
	OPT_BOOL('b', "bool", &flag_b, "a switch"),
	OPT_INCR('v', "verbose", &count_v, "more output"),
	OPT_INT('n', "number", &num_n, "N", "a number"),
	OPT_STRING('o', "output", &str_o, "FILE", "output file"),
	OPT_U64(0, "big", &big, "N", "a big number"),
	OPT_END(),
};
static const char *const usage[] = { "test [<options>]", NULL };

static void reset(void)
{
	flag_b = false, count_v = 0, num_n = 0, str_o = NULL, big = 0;
}

static void test_short_and_long_forms(void)
{
	const char *argv[] = { "t", "-bvv", "-n", "42", "--output=f.data", "--big", "0x10", "rest", NULL };
	reset();
	int n = cli_parse(8, argv, opts, usage, 0);
	CHECK_EQ_U64(n, 1);
	CHECK(flag_b);
	CHECK_EQ_U64(count_v, 2);
	CHECK_EQ_U64(num_n, 42);
	CHECK_STR(str_o, "f.data");
	CHECK_EQ_U64(big, 16);
	CHECK_STR(argv[0], "rest");
	CHECK(argv[1] == NULL);
}

static void test_stop_at_command(void)
{
	const char *argv[] = { "t", "-b", "./prog", "-n", "3", NULL };
	reset();
	int n = cli_parse(5, argv, opts, usage, CLI_STOP_AT_NON_OPTION);
	CHECK_EQ_U64(n, 3);
	CHECK_STR(argv[0], "./prog");
	CHECK_STR(argv[1], "-n");
	CHECK_EQ_U64(num_n, 0);
}

static void test_negation_and_prefix(void)
{
	const char *argv[] = { "t", "-b", "--no-bool", "--num=7", NULL };
	reset();
	int n = cli_parse(4, argv, opts, usage, 0);
	CHECK_EQ_U64(n, 0);
	CHECK(!flag_b);
	CHECK_EQ_U64(num_n, 7);
}

static void test_errors(void)
{
	const char *bad_num[] = { "t", "-n", "x1", NULL };
	const char *unknown[] = { "t", "--outptu", "x", NULL };
	const char *missing[] = { "t", "-o", NULL };
	const char *neg_u64[] = { "t", "--big", "-3", NULL };
	reset();
	CHECK(cli_parse(3, bad_num, opts, usage, 0) == CLI_ERROR);
	CHECK(cli_parse(3, unknown, opts, usage, 0) == CLI_ERROR);
	CHECK(cli_parse(2, missing, opts, usage, 0) == CLI_ERROR);
	CHECK(cli_parse(3, neg_u64, opts, usage, 0) == CLI_ERROR);
}

/* The help text of a "no-" switch reads --no-x, not --[no-]no-x; others keep [no-]. */
static void test_help_no_prefix(void)
{
	static bool noinh;
	static const struct cli_option o2[] = {
		OPT_BOOL('i', "no-inherit", &noinh, "children are not counted"),
		OPT_BOOL('b', "bool", &flag_b, "a switch"),
		OPT_END(),
	};
	char buf[2048] = "";
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;

	REQUIRE(tmp && saved >= 0);
	fflush(stdout);
	dup2(fileno(tmp), 1);
	cli_usage(o2, usage, false);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	CHECK(strstr(buf, "-i, --no-inherit ") != NULL);
	CHECK(strstr(buf, "[no-]no-inherit") == NULL);
	CHECK(strstr(buf, "-b, --[no-]bool ") != NULL);
}

/* A number option whose argument is optional takes its default when given bare. */
static void test_optarg_number(void)
{
	static int lvl = -1;
	static const struct cli_option o2[] = {
		{ .type = CLI_OPT_INT, .short_name = 'z', .long_name = "level", .value = &lvl,
		  .argh = "N", .help = "level", .flags = CLI_OPTARG, .defval = 3 },
		OPT_END(),
	};
	const char *bare[] = { "t", "--level", NULL };
	const char *given[] = { "t", "-z7", NULL };

	CHECK_EQ_U64(cli_parse(2, bare, o2, usage, 0), 0);
	CHECK_EQ_U64(lvl, 3);
	CHECK_EQ_U64(cli_parse(2, given, o2, usage, 0), 0);
	CHECK_EQ_U64(lvl, 7);
}

/*
 * -z's level: attached, or a following number ("-z 3"); any other following word stays
 * an argument (record's command), and a level outside 1..22 is an error.
 */
static void test_compression_level(void)
{
	static int lvl = -1;
	static const struct cli_option oz[] = {
		OPT_CALLBACK_OPTNUM('z', "compression-level", &lvl, "LEVEL", "level",
				    cli_opt_compression_level),
		OPT_END(),
	};
	const char *sep[] = { "t", "-z", "5", "cmd", NULL };
	const char *word[] = { "t", "-z", "abc", NULL };
	const char *lng[] = { "t", "--compression-level", "22", NULL };
	const char *att[] = { "t", "-z7", NULL };
	const char *big[] = { "t", "-z", "23", NULL };
	const char *zero[] = { "t", "--compression-level=0", NULL };
	int saved = dup(2), null = open("/dev/null", O_WRONLY);

	CHECK_EQ_U64(cli_parse(4, sep, oz, usage, CLI_STOP_AT_NON_OPTION), 1);
	CHECK_EQ_U64(lvl, 5);
	CHECK(!strcmp(sep[0], "cmd"));
	CHECK_EQ_U64(cli_parse(3, word, oz, usage, CLI_STOP_AT_NON_OPTION), 1);
	CHECK_EQ_U64(lvl, 1);
	CHECK(!strcmp(word[0], "abc"));
	CHECK_EQ_U64(cli_parse(3, lng, oz, usage, 0), 0);
	CHECK_EQ_U64(lvl, 22);
	CHECK_EQ_U64(cli_parse(2, att, oz, usage, 0), 0);
	CHECK_EQ_U64(lvl, 7);
	fflush(stderr);
	dup2(null, 2);
	CHECK(cli_parse(3, big, oz, usage, 0) == CLI_ERROR);
	CHECK(cli_parse(2, zero, oz, usage, 0) == CLI_ERROR);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
}

static const char *last_g;

static int take_g(const struct cli_option *opt, const char *arg, bool unset)
{
	(void)opt;
	last_g = unset ? "unset" : arg;
	return 0;
}

/*
 * perf's LASTARG_DEFAULT: the next argument is the value unless it is missing or an
 * option (then the default), so "-g caller", "-g -i f" and a last "-g" all work.
 */
static void test_lastarg_default(void)
{
	static const struct cli_option o3[] = {
		OPT_CALLBACK_DEFAULT('g', "call-graph", NULL, "MODE", "graphs", take_g, "dflt"),
		OPT_BOOL('b', "bool", &flag_b, "a switch"),
		OPT_END(),
	};
	const char *next[] = { "t", "-g", "caller", NULL };
	const char *before_opt[] = { "t", "-g", "-b", NULL };
	const char *last[] = { "t", "-b", "--call-graph", NULL };
	const char *eq[] = { "t", "--call-graph=flat", "x", NULL };
	const char *neg[] = { "t", "--no-call-graph", NULL };

	CHECK_EQ_U64(cli_parse(3, next, o3, usage, 0), 0);
	CHECK_STR(last_g, "caller");
	reset();
	CHECK_EQ_U64(cli_parse(3, before_opt, o3, usage, 0), 0);
	CHECK_STR(last_g, "dflt");
	CHECK(flag_b);
	CHECK_EQ_U64(cli_parse(3, last, o3, usage, 0), 0);
	CHECK_STR(last_g, "dflt");
	CHECK_EQ_U64(cli_parse(3, eq, o3, usage, 0), 1);
	CHECK_STR(last_g, "flat");
	CHECK_STR(eq[0], "x");
	CHECK_EQ_U64(cli_parse(2, neg, o3, usage, 0), 0);
	CHECK_STR(last_g, "unset");
}

/* cli_parse_given: the rows named on the command line, in any form, and no others. */
static void test_given(void)
{
	const char *argv[] = { "t", "-bv", "--no-out", "--big=3", NULL };
	uint8_t given[6] = { 0 };

	reset();
	CHECK_EQ_U64(cli_parse_given(4, argv, opts, usage, 0, given), 0);
	CHECK(given[0] == CLI_GIVEN && given[1] == CLI_GIVEN); /* -bv: one switch word */
	CHECK(!given[2]);              /* --number: not named, its default stays */
	CHECK(given[3] == CLI_GIVEN_NO && !str_o); /* --no-out: a prefix, negated */
	CHECK(given[4] == CLI_GIVEN && big == 3);
	CHECK(!given[5]);
}

int main(void)
{
	RUN(test_short_and_long_forms);
	RUN(test_stop_at_command);
	RUN(test_negation_and_prefix);
	RUN(test_errors);
	RUN(test_help_no_prefix);
	RUN(test_optarg_number);
	RUN(test_compression_level);
	RUN(test_lastarg_default);
	RUN(test_given);
	UNIT_MAIN_END();
}
