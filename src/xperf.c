/* The xperf driver: `xperf CMD ARGS` runs xperf-CMD from beside this binary (then PATH). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/edit_distance.h"
#include "config.h"

/*
 * Each command is its own binary (DESIGN.md 1.2), so a command can be built, tested and
 * replaced alone; this driver only finds it. Exit status: the command's own; 1 for an
 * unknown command or bad usage; 2 when a known command is not implemented yet, not
 * installed, or a man page is missing.
 */
struct command {
	const char *name;
	const char *help;
};

static const struct command commands[] = {
	{ "record",   "Run a command and record its profile into a data file" },
	{ "report",   "Read a data file and display the profile" },
	{ "stat",     "Run a command and count performance events" },
	{ "script",   "Print the records of a data file, one event per line" },
	{ "annotate", "Show where a function spends its samples, per instruction" },
	{ "diff",     "Compare the profiles of two or more data files, entry by entry" },
	{ "top",      "Show the hottest functions of the running system, live" },
	{ "inject",   "Rewrite a data file, e.g. uncompressed for readers without zstd" },
	{ "list",     "List the events that can be recorded or counted" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/*
 * The commands this source tree has (the Makefile passes the list, " record report ... "):
 * the others of the table are not implemented yet, which is not the same as not built.
 */
#ifndef XPERF_COMMANDS
#define XPERF_COMMANDS " record report stat list "
#endif

static bool implemented(const struct command *c)
{
	char word[32];

	snprintf(word, sizeof(word), " %s ", c->name);
	return strstr(XPERF_COMMANDS, word) != NULL;
}

/* Built-in commands handled here, offered as suggestions too. */
static const char *const builtins[] = { "help", "version" };
#define NR_BUILTINS (sizeof(builtins) / sizeof(builtins[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The directory of this executable ("" if unknown), so a build tree works without install. */
static const char *self_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		dir[0] = '\0';
		return dir;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return dir;
}

static bool is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Find xperf-NAME beside us, then in PATH. Returns a malloc'd path or NULL. */
static char *locate_command(const char *name)
{
	const char *path = getenv("PATH");
	const char *dir = self_dir();
	char buf[PATH_MAX];

	if (*dir) {
		int n = snprintf(buf, sizeof(buf), "%s/xperf-%s", dir, name);

		if (n > 0 && (size_t)n < sizeof(buf) && is_executable(buf))
			return strdup(buf);
	}
	while (path && *path) {
		const char *end = strchrnul(path, ':');
		int len = (int)(end - path), n;

		/* An empty PATH entry means the current directory. */
		if (len == 0)
			n = snprintf(buf, sizeof(buf), "./xperf-%s", name);
		else
			n = snprintf(buf, sizeof(buf), "%.*s/xperf-%s", len, path, name);
		if (n > 0 && (size_t)n < sizeof(buf) && is_executable(buf))
			return strdup(buf);
		path = *end ? end + 1 : end;
	}
	return NULL;
}

static void unknown_command(const char *name)
{
	const char *cand[NR_COMMANDS + NR_BUILTINS];
	const char *best[NR_COMMANDS + NR_BUILTINS];
	unsigned int min = UINT_MAX, nr_best = 0;
	size_t n = 0;

	for (size_t i = 0; i < NR_COMMANDS; i++)
		cand[n++] = commands[i].name;
	for (size_t i = 0; i < NR_BUILTINS; i++)
		cand[n++] = builtins[i];
	for (size_t i = 0; i < n; i++) {
		unsigned int d = xb_edit_distance(name, cand[i]);

		/* A prefix of a command ("rep") is as good a guess as one typo. */
		if (*name && !strncmp(cand[i], name, strlen(name)))
			d = 1;
		if (d < min) {
			min = d;
			nr_best = 0;
		}
		if (d == min)
			best[nr_best++] = cand[i];
	}
	/* Beyond two edits (or a third of a short word) a suggestion is noise. */
	if (min > 2 || min * 3 > strlen(name) + 2)
		nr_best = 0;

	fprintf(stderr, "xperf: '%s' is not an xperf command.", name);
	if (nr_best == 1) {
		fprintf(stderr, " Did you mean '%s'?\n", best[0]);
	} else if (nr_best > 1) {
		fprintf(stderr, " Did you mean one of these?\n");
		for (unsigned int i = 0; i < nr_best; i++)
			fprintf(stderr, "\t%s\n", best[i]);
	} else {
		fprintf(stderr, " See 'xperf --help'.\n");
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: xperf [--version] [--help] <command> [<args>]\n\n");
	fprintf(f, "Commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		char *path = implemented(&commands[i]) ? locate_command(commands[i].name) : NULL;

		fprintf(f, "   %-10s %s%s\n", commands[i].name, commands[i].help,
			!implemented(&commands[i]) ? " (not implemented yet)" :
			path ? "" : " (not built)");
		free(path);
	}
	fprintf(f, "   %-10s %s\n", "help", "Show this list, or the manual of a command: xperf help CMD");
	fprintf(f, "   %-10s %s\n", "version", "Print the version and the optional features built in");
	fprintf(f, "\nSee 'xperf help <command>' or 'xperf <command> --help' for more.\n");
}

/*
 * The optional features this build has. A library is listed only when the code uses it
 * (the Makefile lists files for it: XPERF_USES_X), then "yes" or "no" as it was built.
 */
#ifndef XPERF_USES_LIBDW
#define XPERF_USES_LIBDW 0
#define XPERF_USES_CURSES 0
#define XPERF_USES_CAPSTONE 0
#define XPERF_USES_ZYDIS 0
#define XPERF_USES_PBC 0
#define XPERF_USES_TRACEEVENT 0
#define XPERF_USES_DEBUGINFOD 0
#endif

static int print_version(void)
{
	static const struct {
		const char *name;
		int used, have;
		const char *what;
	} all[] = {
		{ "zstd", 1, HAVE_ZSTD, "compressed data files" },
		{ "libelf", 1, HAVE_LIBELF, "ELF symbols" },
		{ "libdw", XPERF_USES_LIBDW, HAVE_LIBDW,
		  "DWARF unwinding, inline frames, source lines" },
		{ "ncursesw", XPERF_USES_CURSES, HAVE_CURSES, "report TUI" },
		{ "zydis", XPERF_USES_ZYDIS, HAVE_ZYDIS, "annotate disassembly of x86" },
		{ "capstone", XPERF_USES_CAPSTONE, HAVE_CAPSTONE, "annotate disassembly" },
		{ "protobuf-c", XPERF_USES_PBC, HAVE_PBC, "report --pprof" },
		{ "libtraceevent", XPERF_USES_TRACEEVENT, HAVE_TRACEEVENT, "script's tracepoint fields" },
		{ "libdebuginfod", XPERF_USES_DEBUGINFOD, HAVE_DEBUGINFOD,
		  "debug files from debuginfod servers (--debuginfod)" },
	};
	const size_t n = sizeof(all) / sizeof(all[0]);

	printf("xperf version %s\n", XPERF_VERSION);
	printf("features:");
	for (size_t i = 0; i < n; i++)
		if (all[i].used)
			printf(" %s%s", all[i].have ? "+" : "-", all[i].name);
	printf("\n");
	for (size_t i = 0; i < n; i++)
		if (all[i].used)
			printf("  %-13s %-4s %s\n", all[i].name, all[i].have ? "yes" : "no",
			       all[i].what);
	return 0;
}

/* `man PAGE` if man knows it, else the page from our docs/ (build tree) or share/man. */
static int show_man_page(const char *page)
{
	static const char *const rel[] = { "../docs", "../share/man/man1", "docs" };
	const char *dir = self_dir();
	char file[PATH_MAX], cmd[PATH_MAX + 64];
	bool have_man = system("command -v man >/dev/null 2>&1") == 0;

	if (have_man) {
		snprintf(cmd, sizeof(cmd), "man -w '%s' >/dev/null 2>&1", page);
		if (system(cmd) == 0) {
			execlp("man", "man", page, (char *)NULL);
			fprintf(stderr, "xperf: error: cannot run 'man': %s\n", strerror(errno));
			return 2;
		}
	}
	for (size_t i = 0; *dir && i < sizeof(rel) / sizeof(rel[0]); i++) {
		int n = snprintf(file, sizeof(file), "%s/%s/%s.1", dir, rel[i], page);

		if (n < 0 || (size_t)n >= sizeof(file) || access(file, R_OK))
			continue;
		if (!have_man) {
			fprintf(stderr, "xperf: error: 'man' is not installed; the manual is %s\n", file);
			return 2;
		}
		execlp("man", "man", "-l", file, (char *)NULL);
		fprintf(stderr, "xperf: error: cannot run 'man': %s\n", strerror(errno));
		return 2;
	}
	fprintf(stderr, "xperf: error: no manual page for '%s'\n", page);
	return 2;
}

static int cmd_help(int argc, char **argv)
{
	char page[64];

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "xperf"))
		return show_man_page("xperf");
	if (!find_command(argv[1])) {
		if (!strcmp(argv[1], "help") || !strcmp(argv[1], "version"))
			return show_man_page("xperf");
		unknown_command(argv[1]);
		return 1;
	}
	snprintf(page, sizeof(page), "xperf-%s", argv[1]);
	return show_man_page(page);
}

static int run_command(const struct command *c, int argc, char **argv)
{
	char *path = locate_command(c->name);
	char name[64];

	(void)argc;
	if (!implemented(c)) {
		fprintf(stderr, "xperf: error: '%s' is not implemented yet\n", c->name);
		free(path);
		return 2;
	}
	if (!path) {
		fprintf(stderr, "xperf: error: '%s' is an xperf command but xperf-%s is not built "
			"or installed (looked in %s and PATH)\n", c->name, c->name,
			*self_dir() ? self_dir() : "the driver's directory");
		return 2;
	}
	/* The command sees itself as "xperf-CMD", as its messages say "xperf CMD". */
	snprintf(name, sizeof(name), "xperf-%s", c->name);
	argv[0] = name;
	execv(path, argv);
	fprintf(stderr, "xperf: error: cannot run '%s': %s\n", path, strerror(errno));
	free(path);
	return 2;
}

int main(int argc, char **argv)
{
	const struct command *c;
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		return cmd_help(1, argv + 1);
	if (!strcmp(name, "help"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(name, "--version") || !strcmp(name, "-v") || !strcmp(name, "version"))
		return print_version();
	if (name[0] == '-') {
		fprintf(stderr, "xperf: error: unknown option '%s'\n", name);
		usage(stderr);
		return 1;
	}
	c = find_command(name);
	if (!c) {
		unknown_command(name);
		return 1;
	}
	return run_command(c, argc - 1, argv + 1);
}
