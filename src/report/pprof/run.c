/* xperf report --pprof: one pass with call trees and source lines, then the pprof file. */
#include <string.h>

#include "cli/cli.h"
#include "config.h"
#include "report/pprof/pprof.h"
#include "report/report.h"
#include "report/stdio/report_stdio.h"
#include "view/rv.h"
#include "view/run.h"

int report_pprof_run(xpf_reader *r, const char *path, const char *event,
		     const struct view_opts *o)
{
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };
	xpp_profile *p = NULL;
	uint32_t only = UINT32_MAX;
	int ret, status = CLI_EXIT_OK;
	bool fatal = false;

	rv_lookup_opts(o, &po);
	po.children = 0;     /* the tree of whole stacks is all pprof needs */
	po.order = 0;        /* long stacks keep their innermost frames */
	po.srclines = HAVE_LIBDW;  /* locations carry lines, where libdw can read them */
	/* line_of() ignores perf's stand-ins for unknown lines: make none */
	po.no_line_fallbacks = true;
	ret = view_profile_run(&p, r, &po, NULL, NULL, &err);
	/* the facts first, whatever comes of the export */
	if (ret == 0 && view_warnings(p, o->quiet, cli_warning_cb, NULL))
		fatal = true;
	/* pprof holds every event (its sample types); --event keeps one */
	if (ret == 0 && event)
		status = report_event_pick(p, event, "the pprof profile", o->quiet, &only);
	if (ret == 0 && status == CLI_EXIT_OK)
		ret = report_pprof_write(p, path, only, &err);
	xpp_profile_free(p);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	return fatal ? CLI_EXIT_RUNTIME : status;
}
