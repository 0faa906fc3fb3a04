/* --flamegraph: one pass into a profile, then one event's call tree written as SVG. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "view/flame.h"
#include "report/flamegraph/flamegraph.h"
#include "report/report.h"
#include "view/rv.h"
#include "view/run.h"

static int write_file(const xpp_profile *p, uint32_t ev, const char *path, bool wall,
		      bool inverted)
{
	uint32_t nr;
	const struct xpp_event *e = &xpp_profile_events(p, &nr)[ev];
	const struct xpf_attr *a = xpf_reader_attr(xpp_profile_reader(p), ev);
	struct flame f;
	char name[64], sub[256];
	FILE *out;
	int ret;

	ret = flame_build(&f, p, e);
	if (ret < 0) {
		flame_free(&f);
		cli_error("cannot build the flame graph: %s", strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	if (!f.count[0]) {
		/* the event had samples, the filters took every one: nothing to draw */
		flame_free(&f);
		cli_error("no samples for the flame graph: the filters left none");
		return CLI_EXIT_RUNTIME;
	}
	snprintf(sub, sizeof(sub), "%s%s: %" PRIu64 " samples%s",
		 xpf_attr_event_name(a, name, sizeof(name)), wall ? " + offcpu-time" : "",
		 f.count[0],
		 xpp_profile_callchains(p) ? "" : " (no call chains: command, function)");
	if (!(out = cli_output_open(path))) {
		flame_free(&f);
		return CLI_EXIT_RUNTIME;
	}
	/* flamegraph.pl --inverted titles its graph so */
	ret = flame_write_svg(&f, out, inverted ? "Icicle Graph" : "Flame Graph", sub, inverted);
	flame_free(&f);
	return cli_output_close(out, path, ret) < 0 ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

int report_flamegraph_run(xpf_reader *r, const char *path, const char *event, bool inverted,
			  const struct view_opts *o)
{
	struct xpp_opts po = { .children = 0, .order = -1 };
	struct xb_error err = { 0 };
	xpp_profile *p = NULL;
	uint32_t ev;
	int ret, status = CLI_EXIT_RUNTIME;
	bool fatal;

	rv_lookup_opts(o, &po);
	ret = view_profile_run(&p, r, &po, NULL, NULL, &err);
	if (ret < 0) {
		cli_error("%s", err.msg);
		goto out;
	}
	/* the facts first: they say why there may be nothing to draw */
	fatal = view_warnings(p, o->quiet, cli_warning_cb, NULL);
	status = report_event_pick(p, event, "the flame graph", o->quiet, &ev);
	if (status == CLI_EXIT_OK)
		status = write_file(p, ev, path, o->wall, inverted);
	if (fatal)
		status = CLI_EXIT_RUNTIME;
out:
	xpp_profile_free(p);
	return status;
}
