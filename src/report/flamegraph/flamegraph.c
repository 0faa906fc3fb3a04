/* --flamegraph: one pass into a profile, then its first event's call tree written as SVG. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/flamegraph/flame_int.h"
#include "report/flamegraph/flamegraph.h"
#include "view/rv.h"

static int write_file(const xpp_profile *p, uint32_t ev, const char *path)
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
	snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples%s",
		 xpf_attr_event_name(a, name, sizeof(name)), f.count[0],
		 xpp_profile_callchains(p) ? "" : " (no call chains: command, function)");
	out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!out) {
		cli_error("cannot write '%s': %s", path, strerror(errno));
		flame_free(&f);
		return CLI_EXIT_RUNTIME;
	}
	ret = flame_write_svg(&f, out, "Flame Graph", sub);
	flame_free(&f);
	if (out != stdout) {
		if (fclose(out) && ret == 0)
			ret = -errno;
	} else if (fflush(out) && ret == 0) {
		ret = -errno;
	}
	if (ret < 0) {
		cli_error("cannot write '%s': %s", path, strerror(-ret));
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

int report_flamegraph_run(xpf_reader *r, const char *path, const struct report_stdio_opts *o)
{
	struct xpp_opts po = { .children = 0, .order = -1 };
	struct xb_error err = { 0 };
	const struct xpp_event *ev;
	xpp_profile *p = NULL;
	uint32_t nr, i;
	int ret, status = CLI_EXIT_RUNTIME;

	rv_lookup_opts(o, &po);
	ret = xpp_profile_create(&p, r, &po, &err);
	if (ret == 0)
		ret = xpp_profile_run(p, &err);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		goto out;
	}
	rv_warn_records(p, o->quiet);
	ev = xpp_profile_events(p, &nr);
	for (i = 0; i < nr && !ev[i].nr_samples; i++)
		;
	if (i == nr) {
		cli_error("no samples to draw a flame graph of");
		goto out;
	}
	for (uint32_t j = i + 1; j < nr; j++)
		if (ev[j].nr_samples) {
			cli_warning("the file has several events: the flame graph shows the first");
			break;
		}
	status = write_file(p, i, path);
out:
	xpp_profile_free(p);
	return status;
}
