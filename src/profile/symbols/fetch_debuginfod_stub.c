/* debuginfod without libdebuginfod: not supported, and nothing is ever fetched. */
#include <errno.h>
#include <stddef.h>

#include "profile/symbols/debuginfod.h"

int xpp_debuginfod_create(xpp_debuginfod **out, const char *urls, struct xb_error *err)
{
	*out = NULL;
	return xb_error_set(err, -EOPNOTSUPP,
			    "debuginfod servers%s%s%s cannot be asked for debug files: xperf was "
			    "built without libdebuginfod (Debian package libdebuginfod-dev)",
			    *urls ? " (" : "", urls, *urls ? ")" : "");
}

void xpp_debuginfod_free(xpp_debuginfod *d)
{
	(void)d;
}

int xpp_debuginfod_find(xpp_debuginfod *d, const uint8_t *id, size_t size, char *out,
			size_t cap)
{
	(void)d;
	(void)id;
	(void)size;
	(void)out;
	(void)cap;
	return -ENOENT;
}

bool xpp_debuginfod_warning(xpp_debuginfod *d, char *buf, size_t size)
{
	(void)d;
	(void)buf;
	(void)size;
	return false;
}
