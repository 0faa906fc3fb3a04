/* The one sequence every reading command runs: create the profile, let the command hook in, run the pass. */
#include <string.h>

#include "view/run.h"

int view_profile_run(xpp_profile **out, xpf_reader *r, const struct xpp_opts *po,
		     int (*started)(void *ctx, xpp_profile *p), void *ctx, struct xb_error *err)
{
	int ret;

	*out = NULL;
	ret = xpp_profile_create(out, r, po, err);
	if (ret == 0 && started)
		ret = started(ctx, *out);
	if (ret == 0)
		ret = xpp_profile_run(*out, err);
	if (ret < 0 && !err->msg[0])
		xb_error_set(err, ret, "%s", strerror(-ret));
	return ret;
}
