/* DWARF unwinding in a build without libdw: every entry point says it is not supported. */
#include <errno.h>
#include <stddef.h>

#include "profile/unwind/unwind.h"

int xpp_unwinder_create(xpp_unwinder **out, xpp_machine *m, xpp_dso_table *dsos,
			const char *debug_root, struct xpp_debuginfod *dfd)
{
	(void)m;
	(void)dsos;
	(void)debug_root;
	(void)dfd;
	*out = NULL;
	return -EOPNOTSUPP;
}

void xpp_unwinder_free(xpp_unwinder *u)
{
	(void)u;
}

int xpp_unwind_user(xpp_unwinder *u, const struct xpp_thread *th, const struct xpf_sample *s,
		    uint64_t *ips, uint32_t max)
{
	(void)u;
	(void)th;
	(void)s;
	(void)ips;
	(void)max;
	return -EOPNOTSUPP;
}
