/* xperf diff --flamegraph: the newer file's flame graph, coloured by the change from the older. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "diff/diff.h"
#include "view/flame.h"

/* The first event of NEW with samples that OLD has with samples too. */
static int pick_event(const struct diff_file *old, const struct diff_file *new, uint32_t *ev_new,
		      uint32_t *ev_old)
{
	for (uint32_t i = 0; i < new->c.nr_ev; i++) {
		int64_t k;

		if (new->c.ev[i].nr_samples && (k = diff_match_event(new, i, old, true)) >= 0) {
			*ev_new = i;
			*ev_old = (uint32_t)k;
			return 0;
		}
	}
	return -ENOENT;
}

int diff_flamegraph_write(const struct diff_file *f, const char *path)
{
	struct flame old = { 0 }, new = { 0 };
	uint32_t ev_new, ev_old;
	char name[64], sub[512];
	FILE *out;
	int ret;

	if (pick_event(&f[0], &f[1], &ev_new, &ev_old) < 0) {
		cli_error("no event has samples in both '%s' and '%s'", f[0].path, f[1].path);
		return CLI_EXIT_RUNTIME;
	}
	ret = flame_build(&old, f[0].p, &f[0].c.ev[ev_old]);
	if (ret == 0)
		ret = flame_build(&new, f[1].p, &f[1].c.ev[ev_new]);
	if (ret == 0 && (!old.count[0] || !new.count[0])) {
		cli_error("no samples for the flame graph in '%s': the filters left none",
			  old.count[0] ? f[1].path : f[0].path);
		ret = -ENOENT;
	} else if (ret == 0) {
		ret = flame_set_baseline(&new, &old);
		if (ret < 0)
			cli_error("cannot build the flame graph: %s", strerror(-ret));
	} else {
		cli_error("cannot build the flame graph: %s", strerror(-ret));
	}
	if (ret < 0)
		goto out;
	snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples of %s against %" PRIu64 " of %s; "
		 "red grew, blue shrank (share of samples)",
		 xpf_attr_event_name(xpf_reader_attr(f[1].r, ev_new), name, sizeof(name)),
		 new.count[0], f[1].path, old.count[0], f[0].path);
	if (!(out = cli_output_open(path))) {
		ret = -EIO;
		goto out;
	}
	ret = cli_output_close(out, path,
			       flame_write_svg(&new, out, "Differential Flame Graph", sub, false));
out:
	flame_free(&old);
	flame_free(&new);
	return ret < 0 ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
