/* Source lines and inline frames without libdw: not supported. */
#include <errno.h>
#include <stddef.h>

#include "profile/symbols/srcline.h"

int xpp_srcline_create(xpp_srcline **out, xpp_intern *strs, const struct xpp_src_opts *opts,
		       struct xb_error *err)
{
	(void)strs;
	(void)opts;
	*out = NULL;
	return xb_error_set(err, -EOPNOTSUPP,
			     "source lines and inline frames need libdw: xperf was built without it");
}

void xpp_srcline_free(xpp_srcline *s)
{
	(void)s;
}

int xpp_srcline_find(xpp_srcline *s, uint32_t dso, const char *path, uint64_t offset,
		     struct xpp_src_frames *out)
{
	(void)s;
	(void)dso;
	(void)path;
	(void)offset;
	(void)out;
	return -EOPNOTSUPP;
}
