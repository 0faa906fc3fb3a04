/* Parsing argv against a table of struct cli_option (see cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/edit_distance.h"
#include "cli/cli.h"

static const char *opt_display(const struct cli_option *o, bool is_long, char *buf, size_t len)
{
	if (is_long || !o->short_name)
		snprintf(buf, len, "--%s", o->long_name ? o->long_name : "?");
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

static bool takes_arg(const struct cli_option *o)
{
	switch (o->type) {
	case CLI_OPT_INT: case CLI_OPT_U64: case CLI_OPT_DOUBLE: case CLI_OPT_STRING:
		return true;
	case CLI_OPT_CALLBACK:
		return !(o->flags & CLI_NOARG);
	default:
		return false;
	}
}

/* CLI_LASTARG_DEFAULT: no value follows argv[i] (the end, or another option) */
static bool lastarg_default(const struct cli_option *o, const char **argv, int argc, int i)
{
	return (o->flags & CLI_LASTARG_DEFAULT) && (i + 1 >= argc || argv[i + 1][0] == '-');
}

/* "-z 3": a separate value of a CLI_OPTARG_NUMBER option, a number (a sign and digits) */
static bool number_follows(const struct cli_option *o, const char **argv, int argc, int i)
{
	const char *a = i + 1 < argc ? argv[i + 1] : NULL;

	if (!(o->flags & CLI_OPTARG_NUMBER) || !a)
		return false;
	a += *a == '-' || *a == '+';
	return *a && strspn(a, "0123456789") == strlen(a);
}

/* Store `arg` into the option's value; 0 or -1 after printing an error. */
static int apply(const struct cli_option *o, const char *arg, bool unset, bool is_long)
{
	char name[80], *end;

	opt_display(o, is_long, name, sizeof(name));
	switch (o->type) {
	case CLI_OPT_BOOL:
		*(bool *)o->value = !unset;
		return 0;
	case CLI_OPT_COUNT:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case CLI_OPT_INT: {
		long v;
		if (unset) { *(int *)o->value = 0; return 0; }
		if (!arg) { *(int *)o->value = (int)o->defval; return 0; } /* CLI_OPTARG */
		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || end == arg || *end || v < -2147483647L - 1 || v > 2147483647L) {
			cli_error("option '%s' expects a number, not '%s'", name, arg);
			return -1;
		}
		*(int *)o->value = (int)v;
		return 0;
	}
	case CLI_OPT_U64: {
		unsigned long long v;
		if (unset) { *(uint64_t *)o->value = 0; return 0; }
		if (!arg) { *(uint64_t *)o->value = (uint64_t)o->defval; return 0; }
		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || arg[0] == '-') {
			cli_error("option '%s' expects a non-negative number, not '%s'", name, arg);
			return -1;
		}
		*(uint64_t *)o->value = v;
		return 0;
	}
	case CLI_OPT_DOUBLE: {
		double v;
		if (unset) { *(double *)o->value = 0; return 0; }
		if (!arg) { *(double *)o->value = (double)o->defval; return 0; }
		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg || *end) {
			cli_error("option '%s' expects a number, not '%s'", name, arg);
			return -1;
		}
		*(double *)o->value = v;
		return 0;
	}
	case CLI_OPT_STRING:
		if (!unset && arg && !*arg && (o->flags & CLI_NONEMPTY)) {
			cli_error("option '%s' needs a file name, not an empty string", name);
			return -1;
		}
		*(const char **)o->value = unset ? NULL : arg ? arg : (const char *)o->defval;
		return 0;
	case CLI_OPT_CALLBACK:
	{
		/* a callback may answer a question (--user-regs=?) and end it, as -h does */
		int r = o->callback(o, arg, unset);

		return r == CLI_HELP ? CLI_HELP : r ? -1 : 0;
	}
	default:
		return 0;
	}
}

static const struct cli_option *find_long(const struct cli_option *opts, const char *name,
					  size_t len, bool *unset)
{
	const struct cli_option *o, *prefix_hit = NULL;
	int prefix_hits = 0;

	*unset = false;
	for (int pass = 0; pass < 2; pass++) {
		const char *n = name;
		size_t l = len;
		if (pass == 1) {
			if (len <= 3 || strncmp(name, "no-", 3))
				break;
			n += 3, l -= 3;
		}
		for (o = opts; o->type != CLI_OPT_END; o++) {
			if (!o->long_name || o->type == CLI_OPT_GROUP)
				continue;
			if (pass == 1 && (o->flags & CLI_NONEG))
				continue;
			if (strlen(o->long_name) == l && !strncmp(o->long_name, n, l)) {
				*unset = pass == 1;
				return o;
			}
			if (!strncmp(o->long_name, n, l)) {
				prefix_hit = o;
				prefix_hits++;
				*unset = pass == 1;
			}
		}
		/* an unambiguous prefix is accepted, as git and perf do */
		if (prefix_hits == 1)
			return prefix_hit;
		prefix_hits = 0;
	}
	return NULL;
}

static const char *closest_long(const struct cli_option *opts, const char *name)
{
	const char *best = NULL;
	unsigned int best_d = 3;

	for (const struct cli_option *o = opts; o->type != CLI_OPT_END; o++) {
		if (!o->long_name || (o->flags & CLI_HIDDEN))
			continue;
		unsigned int d = xb_edit_distance(name, o->long_name);
		if (d < best_d)
			best_d = d, best = o->long_name;
	}
	return best;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

static int parse_long(const char **argv, int argc, int *i, const struct cli_option *opts,
		      uint8_t *given)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	bool unset;
	const struct cli_option *o = find_long(opts, a, len, &unset);

	if (!o) {
		char name[128];
		const char *near;
		snprintf(name, sizeof(name), "%.*s", (int)len, a);
		near = closest_long(opts, name);
		if (near)
			cli_error("unknown option '--%s' (did you mean '--%s'?)", name, near);
		else
			cli_error("unknown option '--%s'", name);
		return -1;
	}
	if (given)
		given[o - opts] = unset ? CLI_GIVEN_NO : CLI_GIVEN;
	if (unset) {
		if (eq) {
			cli_error("option '--no-%s' takes no value", o->long_name);
			return -1;
		}
		return apply(o, NULL, true, true);
	}
	if (!takes_arg(o)) {
		if (eq) {
			cli_error("option '--%s' takes no value", o->long_name);
			return -1;
		}
		return apply(o, NULL, false, true);
	}
	if (eq)
		return apply(o, eq + 1, false, true);
	if (number_follows(o, argv, argc, *i))
		return apply(o, argv[++*i], false, true);
	if (o->flags & CLI_OPTARG)
		return apply(o, NULL, false, true);
	if (lastarg_default(o, argv, argc, *i))
		return apply(o, (const char *)o->defval, false, true);
	if (*i + 1 >= argc) {
		cli_error("option '--%s' requires a value", o->long_name);
		return -1;
	}
	return apply(o, argv[++*i], false, true);
}

static int parse_short(const char **argv, int argc, int *i, const struct cli_option *opts,
		       uint8_t *given)
{
	const char *p = argv[*i] + 1;

	while (*p) {
		const struct cli_option *o;
		for (o = opts; o->type != CLI_OPT_END; o++)
			if (o->short_name == *p && o->type != CLI_OPT_GROUP)
				break;
		if (o->type == CLI_OPT_END) {
			cli_error("unknown switch '%c'", *p);
			return -1;
		}
		if (given)
			given[o - opts] = CLI_GIVEN;
		if (!takes_arg(o)) {
			if (apply(o, NULL, false, false))
				return -1;
			p++;
			continue;
		}
		if (p[1])
			return apply(o, p + 1, false, false);
		if (number_follows(o, argv, argc, *i))
			return apply(o, argv[++*i], false, false);
		if (o->flags & CLI_OPTARG)
			return apply(o, NULL, false, false);
		if (lastarg_default(o, argv, argc, *i))
			return apply(o, (const char *)o->defval, false, false);
		if (*i + 1 >= argc) {
			cli_error("switch '%c' requires a value", *p);
			return -1;
		}
		return apply(o, argv[++*i], false, false);
	}
	return 0;
}

int cli_parse(int argc, const char **argv, const struct cli_option *opts,
	      const char *const *usage, int flags)
{
	return cli_parse_given(argc, argv, opts, usage, flags, NULL);
}

int cli_parse_given(int argc, const char **argv, const struct cli_option *opts,
		    const char *const *usage, int flags, uint8_t *given)
{
	int out = 0, i, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (flags & CLI_KEEP_DASHDASH)
				argv[out++] = a;
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & CLI_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (is_help(a)) {
			cli_usage(opts, usage, false);
			return CLI_HELP;
		}
		ret = a[1] == '-' ? parse_long(argv, argc, &i, opts, given)
				  : parse_short(argv, argc, &i, opts, given);
		if (ret == CLI_HELP)
			return CLI_HELP;
		if (ret < 0) {
			cli_usage(opts, usage, true);
			return CLI_ERROR;
		}
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	return out;
}

int cli_opt_compression_level(const struct cli_option *opt, const char *arg, bool unset)
{
	int *level = opt->value;
	char *end;
	long v;

	if (unset || !arg) {
		*level = unset ? 0 : 1;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > 22) {
		cli_error("invalid compression level '%s': zstd levels are 1 (the fastest, the "
			  "default) to 22 (the smallest files)", arg);
		return -1;
	}
	*level = (int)v;
	return 0;
}
