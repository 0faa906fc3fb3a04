/* The stdio report: its options, the profile it reads, and the printing of it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/stdio/stdio_int.h"
#include "view/run.h"

int report_stdio_run_reader(xpf_reader *r, const struct view_opts *opts)
{
	struct xb_error err = { 0 };
	struct xpp_opts po = { 0 };
	struct rv_ctx c = { 0 };
	xpp_profile *p = NULL;
	int ret, status = CLI_EXIT_RUNTIME;

	if (rv_ctx_parse(&c, opts, &po) < 0)
		return CLI_EXIT_USAGE;
	if (opts->threads) {
		po.hook_ctx = opts->threads;
		po.on_side_band = report_threads_add;
	}
	ret = view_profile_run(&p, r, &po, NULL, NULL, &err);
	if (ret < 0) {
		fflush(stdout);
		cli_error("%s", err.msg);
		goto out;
	}
	rv_ctx_take(&c, p, r);
	ret = stdio_print(&c, stdout);
	if (ret < 0) {
		cli_error("cannot print the report: %s", strerror(-ret));
		goto out;
	}
	if (opts->threads)
		report_threads_print(opts->threads, stdout);
	status = view_warnings(p, opts->quiet, cli_warning_cb, NULL) ? CLI_EXIT_RUNTIME :
								     CLI_EXIT_OK;
out:
	xpp_profile_free(p);
	return status;
}
