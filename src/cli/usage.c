/* Help text generated from the option table, so it cannot miss an option. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define HELP_COLUMN 30

static const char *arg_hint(const struct cli_option *o)
{
	if (o->argh)
		return o->argh;
	switch (o->type) {
	case CLI_OPT_INT: case CLI_OPT_U64: case CLI_OPT_DOUBLE:
		return "n";
	case CLI_OPT_STRING:
		return "str";
	case CLI_OPT_CALLBACK:
		return (o->flags & CLI_NOARG) ? NULL : "arg";
	default:
		return NULL;
	}
}

/*
 * After a usage error, the error line is what matters: one usage line and where the
 * options are listed, as git does, not the whole table (record's is 50 lines) that pushes
 * the error off the screen.
 */
static void short_usage(const char *const *usage)
{
	if (usage && usage[0])
		fprintf(stderr, "usage: %s\n", usage[0]);
	fprintf(stderr, "run '%s -h' to list the options\n", cli_command());
}

void cli_usage(const struct cli_option *opts, const char *const *usage, bool to_stderr)
{
	FILE *f = stdout;

	if (to_stderr) {
		short_usage(usage);
		return;
	}

	for (int i = 0; usage && usage[i]; i++)
		fprintf(f, "%s%s\n", i ? "   or: " : "usage: ", usage[i]);
	fputc('\n', f);
	for (const struct cli_option *o = opts; o && o->type != CLI_OPT_END; o++) {
		char left[160];
		int n = 0;
		const char *hint;

		if (o->type == CLI_OPT_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->flags & CLI_HIDDEN)
			continue;
		hint = arg_hint(o);
		n += snprintf(left + n, sizeof(left) - n, "    ");
		if (o->short_name)
			n += snprintf(left + n, sizeof(left) - n, "-%c%s", o->short_name,
				      o->long_name ? ", " : "");
		else
			n += snprintf(left + n, sizeof(left) - n, "    ");
		/* "--no-inherit", not "--[no-]no-inherit": the negation of a no- option is rare */
		if (o->long_name)
			n += snprintf(left + n, sizeof(left) - n, "--%s%s",
				      (o->type == CLI_OPT_BOOL && !(o->flags & CLI_NONEG) &&
				       strncmp(o->long_name, "no-", 3)) ? "[no-]" : "",
				      o->long_name);
		if (hint)
			n += snprintf(left + n, sizeof(left) - n,
				      (o->flags & (CLI_OPTARG | CLI_LASTARG_DEFAULT)) ? (o->long_name ? "[=<%s>]" : "[<%s>]") : " <%s>",
				      hint);
		if (n >= HELP_COLUMN)
			fprintf(f, "%s\n%*s%s\n", left, HELP_COLUMN, "", o->help ? o->help : "");
		else
			fprintf(f, "%-*s%s\n", HELP_COLUMN, left, o->help ? o->help : "");
	}
	fputc('\n', f);
}
