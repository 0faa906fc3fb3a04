/* Source lines without libdw: none (annotate shows the instructions alone). */
#include <errno.h>

#include "profile/disasm/disasm.h"

int xpp_lines_open(xpp_lines **out, const char *path, const char *debug_root,
		   struct xpp_debuginfod *dfd)
{
	(void)path;
	(void)debug_root;
	(void)dfd;
	*out = NULL;
	return -EOPNOTSUPP;
}

void xpp_lines_close(xpp_lines *l)
{
	(void)l;
}

int xpp_lines_lookup(xpp_lines *l, const uint64_t *addrs, uint32_t n, struct xpp_line_loc *out,
		     xpp_intern *names)
{
	(void)l;
	(void)addrs;
	(void)names;
	for (uint32_t i = 0; i < n; i++)
		out[i] = (struct xpp_line_loc){ UINT32_MAX, 0, 0, UINT32_MAX };
	return -EOPNOTSUPP;
}
