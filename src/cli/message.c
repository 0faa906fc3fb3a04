/* One-line messages to the user, prefixed with the command's name. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"

/* The one piece of process state in this layer: which command is talking. */
static const char *command_name = "xperf";

void cli_set_command(const char *name)
{
	command_name = name;
}

const char *cli_command(void)
{
	return command_name;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char line[2048];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (prefix)
		fprintf(stderr, "%s: %s%s\n", command_name, prefix, line);
	else
		fprintf(stderr, "hint: %s\n", line);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
}

void cli_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void cli_warning_cb(void *ctx, const char *msg)
{
	(void)ctx;
	fflush(stdout); /* after the output it is about, in a terminal too */
	cli_warning("%s", msg);
}

void cli_hint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
}

void cli_input_error(const char *msg, int errnum)
{
	if (errnum == ENOENT)
		cli_error("%s (try 'xperf record' first)", msg);
	else
		cli_error("%s", msg);
}

const char *cli_default_input(bool quiet)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	if (!access("xperf.data", F_OK) || access("perf.data", F_OK))
		return "xperf.data";
	if (!quiet)
		fprintf(stderr, "%s: reading 'perf.data' ('xperf.data' does not exist)\n",
			cli_command());
	return "perf.data";
}
