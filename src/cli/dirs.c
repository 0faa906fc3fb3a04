/* The directories the commands take from the environment, resolved once for the libraries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char *cli_buildid_dir(char *buf, size_t size)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");

	if (env && *env)
		return env;
	if (!home || !*home || (size_t)snprintf(buf, size, "%s/.debug", home) >= size)
		return NULL;
	return buf;
}

const char *cli_kallsyms_cache_dir(char *buf, size_t size)
{
	const char *off = getenv("XPERF_NO_KALLSYMS_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (off && *off && strcmp(off, "0"))
		return NULL;
	/* the XDG base directory spec: a relative XDG_CACHE_HOME is invalid, ignore it */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/xperf", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/.cache/xperf", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}
