/* xperf report --pprof without libprotobuf-c and zlib: says so. */
#include <errno.h>

#include "report/pprof/pprof.h"

int report_pprof_write(xpp_profile *p, const char *path, uint32_t only, struct xb_error *err)
{
	(void)p, (void)path, (void)only;
	return xb_error_set(err, -EOPNOTSUPP, "--pprof is not supported: xperf was built "
			     "without libprotobuf-c and zlib (Debian: libprotobuf-c-dev, "
			     "protobuf-c-compiler, zlib1g-dev)");
}
