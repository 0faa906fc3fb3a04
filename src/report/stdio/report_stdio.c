/* The stdio report: its options, the profile it reads, and the printing of it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "report/stdio/stdio_int.h"

int report_stdio_run_reader(xpf_reader *r, const struct report_stdio_opts *opts)
{
	struct report_stdio_opts none = { .children = -1, .inlines = -1, .group = -1 };
	struct xb_error err = { 0 };
	struct xpp_opts po = { 0 };
	struct rv_ctx c = { 0 };
	xpp_profile *p = NULL;
	int ret, status = CLI_EXIT_RUNTIME;

	if (rv_ctx_parse(&c, opts ? opts : &none, &po) < 0)
		return CLI_EXIT_USAGE;
	if (opts && opts->threads) {
		po.hook_ctx = opts->threads;
		po.on_side_band = report_threads_add;
	}
	ret = xpp_profile_create(&p, r, &po, &err);
	if (ret == 0)
		ret = xpp_profile_run(p, &err);
	if (ret < 0) {
		fflush(stdout);
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		goto out;
	}
	rv_ctx_take(&c, p, r);
	ret = stdio_print(&c, stdout);
	if (ret < 0) {
		cli_error("cannot print the report: %s", strerror(-ret));
		goto out;
	}
	if (opts && opts->threads)
		report_threads_print(opts->threads, stdout);
	rv_warn_records(p, c.o->quiet);
	rv_warn_unwind(p, c.o);
	rv_warn_build_ids(p, c.o);
	rv_warn_refused(p, c.o);
	rv_warn_kernel_hidden(p, c.o);
	status = rv_warn_undecodable(p, &c);
out:
	xpp_profile_free(p);
	return status;
}

int report_stdio_run(const char *input_path, const struct report_stdio_opts *opts)
{
	struct xb_error err = { 0 };
	xpf_reader *r = NULL;
	int ret, status;

	ret = xpf_reader_open(&r, input_path, &err);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	status = report_stdio_run_reader(r, opts);
	if (status == CLI_EXIT_OK && xpf_reader_warning(r) && !(opts && opts->quiet)) {
		fflush(stdout);
		cli_warning("%s", xpf_reader_warning(r));
	}
	xpf_reader_close(r);
	return status;
}
