/* The host-describing features of a recording (HOSTNAME, OSRELEASE, CPUID ...), as perf writes them. */
#ifndef XREC_HOST_FEATURES_H
#define XREC_HOST_FEATURES_H

#include "base/error.h"
#include "format/xpf_features.h"

/*
 * Fill f with HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * CMDLINE (argv as given; perf records its own argv) and CPU_TOPOLOGY, marking each bit.
 * Values are formatted as perf 6.1 formats them, so `perf report --header-only` shows the
 * same lines for our file as for its own. A feature the host cannot provide (no
 * /proc/cpuinfo line) is left out, not an error. f must be zeroed or hold other features
 * (it is added to); the caller frees it with xpf_features_free().
 * Returns 0 or a negative errno (-ENOMEM) with err filled.
 */
int xrec_host_features(struct xpf_features *f, int argc, const char *const *argv,
		       struct xb_error *err);

/* Blanks as perf leaves them in the cpu model name: runs squeezed to one space, ends trimmed. */
void xrec_squeeze_spaces(char *s);

/* The VERSION string we write ("xperf 0.1.0"); perf prints it as "# perf version : xperf 0.1.0" */
const char *xrec_version_string(void);

#endif
