/* xperf diff --tui: NEW browsed in the TUI, opening on its flame graph coloured by the change from OLD. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "diff/diff.h"
#include "tui/tui.h"

int diff_tui_run(const struct diff_file *f, const struct view_opts *view, double t0)
{
	const struct diff_file *old = &f[0], *new = &f[1];
	struct tui_opts to = { .view = view, .input = new->path, .verbose = view->verbose,
			       .t0 = t0 };
	struct tui_baseline b = { .profile = old->p, .name = old->path };
	struct tui_source src = { .o = &to, .profile = new->p, .baseline = &b };
	int64_t *ev = malloc((new->c.nr_ev ? new->c.nr_ev : 1) * sizeof(*ev));
	bool any = false, chains = false;
	struct stat st;
	int ret;

	if (!ev) {
		cli_error("%s", strerror(ENOMEM));
		return CLI_EXIT_RUNTIME;
	}
	/* each event of NEW against OLD's of the same type and config, as the table pairs them */
	for (uint32_t i = 0; i < new->c.nr_ev; i++) {
		ev[i] = new->c.ev[i].nr_samples ? diff_match_event(new, i, old, true) : -1;
		if (ev[i] >= 0) {
			any = true;
			chains |= new->c.ev[i].cg && old->c.ev[ev[i]].cg;
		}
	}
	if (!any || !chains) {
		if (!any)
			cli_error("no event has samples in both '%s' and '%s'", old->path, new->path);
		else
			cli_error("--tui draws call chains: record '%s' and '%s' with -g", old->path,
				  new->path);
		free(ev);
		return CLI_EXIT_RUNTIME;
	}
	b.event = ev;
	to.captured = stat(new->path, &st) ? time(NULL) : st.st_mtime;
	ret = tui_browse(&src);
	free(ev);
	if (ret == -EOPNOTSUPP) {
		cli_error("--tui: this build has no TUI (it was built without ncursesw)");
		return CLI_EXIT_USAGE;
	}
	if (ret == -ENOTTY) {
		cli_error("--tui: standard output is not a terminal that can show it "
			  "(TERM unset or dumb, or not a terminal)");
		return CLI_EXIT_USAGE;
	}
	return ret;
}
