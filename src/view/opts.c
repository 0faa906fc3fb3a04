/* The shared options' defaults, directories and the callbacks of their option-table fragments. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/input_file.h"

#include "profile/filter.h"
#include "profile/profile.h"
#include "profile/time_range.h"
#include "view/opts.h"

void view_opts_init(struct view_opts *v)
{
	*v = (struct view_opts){ .children = -1, .inlines = -1, .group = -1,
				 .debuginfod = { .given = -1 } };
}

void view_opts_dirs(struct view_opts *v)
{
	v->buildid_dir = cli_buildid_dir(v->dir_buf[0], sizeof(v->dir_buf[0]));
	v->kallsyms_cache = cli_kallsyms_cache_dir(v->dir_buf[1], sizeof(v->dir_buf[1]));
	/* elfutils' tools ask the servers DEBUGINFOD_URLS names, unasked: so do we */
	v->debuginfod.env = getenv("DEBUGINFOD_URLS");
}

/* --debuginfod[=URLS] as perf's (alone: $DEBUGINFOD_URLS); --no-debuginfod: no server */
int view_opt_debuginfod(const struct cli_option *opt, const char *arg, bool unset)
{
	struct view_debuginfod *d = opt->value;

	d->given = !unset;
	d->urls = unset || !arg || !*arg ? NULL : arg;
	return 0;
}

const char *view_debuginfod_urls(const struct view_debuginfod *d)
{
	const char *u = d->given == 0 ? NULL : d->urls ? d->urls : d->env;

	return u && strspn(u, " \t") < strlen(u) ? u : NULL;
}

int view_opts_check(const struct view_opts *v, struct xb_error *err)
{
	const struct { const char *s, *opt; bool ranges; } lists[] = {
		{ v->pids, "--pid", false }, { v->tids, "--tid", false }, { v->cpus, "--cpu", true },
	};
	struct xpp_time_ranges t;
	int ret;

	if (v->vmlinux) {
		/* perf checks it can read the file before it reads the data file */
		int fd = xb_input_open(v->vmlinux, XB_INPUT_ELF_MAX, 0, NULL, err);
		char why[sizeof(err->msg)];

		if (fd < 0) {
			snprintf(why, sizeof(why), "%s", err->msg);
			return xb_error_set(err, -EINVAL, "invalid --vmlinux file: %s", why);
		}
		close(fd);
	}
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		struct xpp_int_list l = { 0 };

		ret = xpp_int_list_parse(&l, lists[i].s, lists[i].ranges);
		xpp_int_list_free(&l);
		if (ret == -EINVAL)
			return xb_error_set(err, ret, "invalid %s list '%s': want %s", lists[i].opt,
					    lists[i].s, lists[i].ranges ?
					    "numbers and ranges such as 0-2,4" :
					    "comma-separated numbers");
		if (ret < 0)
			return xb_error_set(err, ret, "%s: %s", lists[i].opt, strerror(-ret));
	}
	/* any recording's bounds: the syntax is what is checked here */
	ret = xpp_time_ranges_parse(&t, v->time, 1000000000, 2000000000, true, err);
	xpp_time_ranges_free(&t);
	return ret;
}

/* --children / --no-children, --inline / --no-inline, --group: -1 until given (perf's default) */
int view_opt_tristate(const struct cli_option *opt, const char *arg, bool unset)
{
	(void)arg;
	*(int *)opt->value = !unset;
	return 0;
}

int view_opt_demangle(const struct cli_option *opt, const char *arg, bool unset)
{
	(void)arg;
	*(bool *)opt->value = unset;
	return 0;
}

/* -g as perf's: each one changes what it names (--no-call-graph: none) */
int view_opt_call_graph(const struct cli_option *opt, const char *arg, bool unset)
{
	return report_call_graph_parse(opt->value, unset ? NULL : arg) < 0 ? -1 : 0;
}

/* --max-stack N as perf: frames kept per chain, 0 none (values past any chain are capped) */
int view_opt_max_stack(const struct cli_option *opt, const char *arg, bool unset)
{
	char *end;
	unsigned long long v;

	if (unset) {
		*(uint32_t *)opt->value = 0;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-') {
		cli_error("invalid --max-stack '%s': want a number of frames", arg);
		return -1;
	}
	*(uint32_t *)opt->value = !v ? XPP_MAX_STACK_NONE : v > 65535 ? 65535 : (uint32_t)v;
	return 0;
}
