/* Command-line plumbing shared by the xperf commands: option tables, usage, messages. */
#ifndef XPERF_CLI_H
#define XPERF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Options are declared once, in a table; parsing and `-h`/`--help` output both come from
 * it, so help can never miss an option. Unlike the libraries, this layer prints: its job
 * is talking to the user. It still never exits: the command decides.
 *
 *	static const char *const usage[] = { "xperf report [<options>]", NULL };
 *	struct cli_option opts[] = {
 *		OPT_STRING('i', "input", &input, "FILE", "input file name (default: xperf.data)"),
 *		OPT_BOOL(0, "stats", &stats, "print the count of each record type"),
 *		OPT_END(),
 *	};
 *	argc = cli_parse(argc, argv, opts, usage, 0);
 *	if (argc < 0)
 *		return argc == CLI_HELP ? 0 : 1;
 */

enum cli_opt_type {
	CLI_OPT_END,
	CLI_OPT_GROUP,     /* a heading in the help text */
	CLI_OPT_BOOL,      /* bool *: --x sets, --no-x clears */
	CLI_OPT_COUNT,     /* int *: each -v adds one */
	CLI_OPT_INT,       /* int * */
	CLI_OPT_U64,       /* uint64_t * (accepts 0x...) */
	CLI_OPT_DOUBLE,    /* double * */
	CLI_OPT_STRING,    /* const char ** (points into argv) */
	CLI_OPT_CALLBACK,  /* callback(opt, arg, unset) */
};

/* flags */
#define CLI_OPTARG  (1 << 0) /* the argument is optional (--opt=ARG or -oARG only) */
#define CLI_NONEG   (1 << 1) /* no --no-X form */
#define CLI_HIDDEN  (1 << 2) /* not shown in help */
#define CLI_NOARG   (1 << 3) /* a callback that takes no argument */
#define CLI_LASTARG_DEFAULT (1 << 4) /* as perf's: the next argument is the value unless
					it is missing or starts with '-', then defval */
#define CLI_NONEMPTY (1 << 6) /* a string that may not be empty (a file name: -i '') */
#define CLI_OPTARG_NUMBER (1 << 5) /* with CLI_OPTARG: a next argument that is a number is
				      the value too ("-z 3"); anything else is not taken */

struct cli_option;
/* Return 0, or -1 after printing an error with cli_error(). arg is NULL when unset or no arg. */
typedef int (*cli_callback)(const struct cli_option *opt, const char *arg, bool unset);

struct cli_option {
	enum cli_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;     /* argument name in help: "FILE" */
	const char *help;
	int flags;
	cli_callback callback;
	intptr_t defval;      /* value used for CLI_OPTARG options given without argument */
};

#define OPT_END()                          { .type = CLI_OPT_END }
#define OPT_GROUP(h)                       { .type = CLI_OPT_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h)               { .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h)               { .type = CLI_OPT_COUNT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .flags = CLI_NONEG }
#define OPT_INT(s, l, v, a, h)             { .type = CLI_OPT_INT, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_U64(s, l, v, a, h)             { .type = CLI_OPT_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_DOUBLE(s, l, v, a, h)          { .type = CLI_OPT_DOUBLE, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h)          { .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
/* a file name: `-i ''` is a usage error naming the option, not "'': No such file" later */
#define OPT_FILENAME(s, l, v, a, h)        { .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = CLI_NONEMPTY }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) { .type = CLI_OPT_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = CLI_OPTARG, .defval = (intptr_t)(d) }
#define OPT_CALLBACK(s, l, v, a, h, f)     { .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOARG(s, l, v, h, f)  { .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .callback = (f), .flags = CLI_NOARG }
#define OPT_CALLBACK_DEFAULT(s, l, v, a, h, f, d) { .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = CLI_LASTARG_DEFAULT, .defval = (intptr_t)(d) }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f) { .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = CLI_OPTARG }
#define OPT_CALLBACK_OPTNUM(s, l, v, a, h, f) { .type = CLI_OPT_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = CLI_OPTARG | CLI_OPTARG_NUMBER }

/*
 * -z/--compression-level's value (int *: the zstd level, 1 with no value, 0 for --no-...),
 * shared so that every command takes and checks a level alike: 1 to 22, else a usage error
 * naming the range. perf clamps silently (-z99 is 22, -zabc is 1); a typo should be said.
 */
int cli_opt_compression_level(const struct cli_option *opt, const char *arg, bool unset);

/* cli_parse() flags */
#define CLI_STOP_AT_NON_OPTION (1 << 0) /* for `xperf record [opts] cmd args`: stop at the command */
#define CLI_KEEP_DASHDASH      (1 << 1)

/* negative returns of cli_parse() */
#define CLI_HELP  (-2)  /* -h/--help was given and usage printed to stdout: exit 0 */
#define CLI_ERROR (-1)  /* a usage error was printed to stderr: exit 1 */

/*
 * Parse argv[1..argc-1]. Options and non-options may mix unless CLI_STOP_AT_NON_OPTION.
 * "--" ends options. On success returns the number of remaining arguments, moved to
 * argv[0..n-1] (argv[n] = NULL).
 */
int cli_parse(int argc, const char **argv, const struct cli_option *opts,
	      const char *const *usage, int flags);

/*
 * The same, and given[i] set for each opts[i] the command line names (--x, -x, a prefix
 * of --x: CLI_GIVEN; --no-x: CLI_GIVEN_NO; the last one wins), so that a command tells an
 * option given from its default; given has a row per opts row (OPT_END's included) and is
 * not cleared first.
 */
#define CLI_GIVEN    1
#define CLI_GIVEN_NO 2
int cli_parse_given(int argc, const char **argv, const struct cli_option *opts,
		    const char *const *usage, int flags, uint8_t *given);

/*
 * Help (to_stderr false): the usage and the option table, on stdout. After a usage error
 * (to_stderr true): only the first usage line and how to list the options, on stderr.
 */
void cli_usage(const struct cli_option *opts, const char *const *usage, bool to_stderr);

/*
 * Messages, with the command name set once by cli_set_command("xperf report"):
 *   cli_error("cannot open '%s': %s", ...)  ->  "xperf report: error: cannot open ..."
 *   cli_warning(...)                        ->  "xperf report: warning: ..."
 *   cli_hint(...)                           ->  "hint: ..."
 */
void cli_set_command(const char *name);
const char *cli_command(void);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A library's warning (the view library's view_warnings() hands its lines to a callback):
 * stdout flushed first, then msg as cli_warning() prints it. ctx is unused.
 */
void cli_warning_cb(void *ctx, const char *msg);

/*
 * The data file of a reading command (report, script, annotate) when -i is not given: a
 * pipe on stdin (as perf does), else xperf.data, else perf.data, so a directory where only
 * perf recorded still works; that last choice is said on stderr unless quiet.
 */
const char *cli_default_input(bool quiet);

/*
 * The error of a reading command whose input could not be opened: msg as cli_error()
 * prints it, and when the file does not exist (errnum ENOENT, positive) perf's advice to
 * record one first.
 */
void cli_input_error(const char *msg, int errnum);

/*
 * An export's output file (a flame graph, speedscope, ...): path opened for writing, or
 * stdout for "-". NULL after saying why (cli_error).
 */
FILE *cli_output_open(const char *path);
/*
 * Close what cli_output_open() gave (stdout: flushed, left open). ret is the writer's
 * result so far (0 or a negative errno); the result with the close's own error added,
 * said (cli_error, naming path) when negative.
 */
int cli_output_close(FILE *out, const char *path, int ret);

/*
 * Directories from the environment, for the libraries, which read none themselves (each
 * into buf, or the environment's own string; NULL: none):
 * perf's build-id cache, $PERF_BUILDID_DIR, else ~/.debug;
 * the kallsyms cache, $XDG_CACHE_HOME/xperf, else ~/.cache/xperf, or none when
 * XPERF_NO_KALLSYMS_CACHE is set (and not "0").
 */
const char *cli_buildid_dir(char *buf, size_t size);
const char *cli_kallsyms_cache_dir(char *buf, size_t size);

/* Exit statuses, DESIGN.md 1.4 */
#define CLI_EXIT_OK      0
#define CLI_EXIT_USAGE   1
#define CLI_EXIT_RUNTIME 2


#endif
