/* tui-live: the TUI library's live entry point (tui_browse() with an update), as xperf top uses it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tui/tui.h"
#include "view/opts.h"
#include "view/run.h"
#include "view/rv.h"

/*
 * Usage: tui-live [-a N] [-f N] FIRST.data NEXT.data
 *
 * Browses FIRST.data's profile with tui_browse() and an update called every 200 ms: the
 * Nth call that may apply (-a, default 2) replaces the profile by NEXT.data's (the screens
 * must show it then, keeping the zooms and selection by key), every call writes "live: N
 * updates, N applied" to the status line, and with -f the Nth call fails ("the source
 * failed after N updates").
 * At the end it prints "updates N applied N held N" (held: calls without leave to
 * change the profile, made while a sub-view was open) and the browser's status.
 */

struct live {
	const char *next;
	struct xpp_opts po;
	xpp_profile *old;          /* FIRST's profile once replaced */
	xpp_profile *cur;          /* NEXT's, which replaced it */
	xpf_reader *r_next;
	unsigned int updates, applied, held, fail_at, may_apply, apply_at;
};

static int run(xpp_profile **p, xpf_reader **r, const char *path, const struct xpp_opts *po)
{
	struct xb_error err = { 0 };
	int ret = xpf_reader_open(r, path, &err);

	if (ret == 0)
		ret = view_profile_run(p, *r, po, NULL, NULL, &err);
	if (ret < 0)
		fprintf(stderr, "tui-live: %s: %s\n", path, err.msg);
	return ret;
}

static int update(void *ctx, bool apply, xpp_profile **p, char *status, size_t size)
{
	struct live *l = ctx;

	l->updates++;
	if (l->fail_at && l->updates >= l->fail_at) {
		snprintf(status, size, "the source failed after %u updates", l->updates);
		return -1;
	}
	if (!apply) {
		l->held++;
		snprintf(status, size, "live: %u updates, %u applied", l->updates, l->applied);
		return 0;
	}
	if (++l->may_apply != l->apply_at || l->old) {
		snprintf(status, size, "live: %u updates, %u applied", l->updates, l->applied);
		return 0;
	}
	l->old = *p;
	if (run(p, &l->r_next, l->next, &l->po) < 0) {
		xpp_profile_free(*p);
		*p = l->old;
		l->old = NULL;
		snprintf(status, size, "cannot read %s", l->next);
		return -1;
	}
	l->cur = *p;
	l->applied++;
	snprintf(status, size, "live: %u updates, %u applied", l->updates, l->applied);
	return 1;
}

int main(int argc, char **argv)
{
	struct view_opts vo;
	struct rv_ctx c = { 0 };
	struct live l = { 0 };
	struct tui_opts o = { 0 };
	struct tui_source src = { 0 };
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	int status, a = 1;

	cli_set_command("tui-live");
	l.apply_at = 2;
	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "-f"))
			l.fail_at = (unsigned int)atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "-a"))
			l.apply_at = (unsigned int)atoi(argv[a + 1]);
		else
			break;
	}
	if (argc - a != 2) {
		fprintf(stderr, "usage: tui-live [-a N] [-f N] FIRST.data NEXT.data\n");
		return 1;
	}
	view_opts_init(&vo);
	if (rv_ctx_parse(&c, &vo, &l.po) < 0)
		return 1;
	l.po.keep_addrs = true; /* the a key annotates from the samples' addresses */
	l.next = argv[a + 1];
	if (run(&p, &r, argv[a], &l.po) < 0)
		return 2;
	o.view = &vo;
	src = (struct tui_source){ .o = &o, .profile = p, .update = update, .ctx = &l,
				   .interval_ms = 200 };
	status = tui_browse(&src);
	printf("updates %u applied %u held %u status %d\n", l.updates, l.applied, l.held, status);
	/* the first profile, and the one that replaced it (the source's to free) */
	xpp_profile_free(p);
	xpp_profile_free(l.cur);
	xpf_reader_close(r);
	if (l.r_next)
		xpf_reader_close(l.r_next);
	return status < 0 ? 3 : status;
}
