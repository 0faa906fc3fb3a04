/* xperf list: print the events this machine offers, grouped and tagged as perf list does. */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "events/xpe.h"
#include "events/xpe_open.h"

static const char *const usage[] = {
	"xperf list [<options>] [hw|sw|cache|pmu|tracepoint|raw|breakpoint|EVENT_GLOB]...",
	"xperf list --attr EVENT...",
	NULL,
};

struct lister {
	xpe_ctx *ctx;
	const char *glob;     /* fnmatch pattern on the full name, or NULL */
	bool hw_checked, have_pmu;
	int printed;
};

static void print_line(struct lister *l, const char *name, const char *alias, const char *desc)
{
	char buf[512];

	if (alias)
		snprintf(buf, sizeof(buf), "%s OR %s", name, alias);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	printf("  %-50s [%s]\n", buf, desc);
	l->printed++;
}

static bool glob_match(const struct lister *l, const char *name, const char *alias)
{
	return !l->glob || !fnmatch(l->glob, name, 0) || (alias && !fnmatch(l->glob, alias, 0));
}

/* perf list shows a hardware or cache event only when it opens here (is_event_supported) */
static bool event_opens(xpe_ctx *ctx, const char *name)
{
	struct perf_event_attr attr;
	xpe_evlist *evl = xpe_evlist_create();
	bool ok = false;
	int fd;

	if (evl && !xpe_evlist_parse(evl, ctx, name, NULL)) {
		attr = xpe_evlist_event(evl, 0)->attr;
		attr.disabled = 1;
		attr.exclude_kernel = 1; /* as perf: paranoid settings must not hide events */
		fd = xpe_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			ok = true;
		}
	}
	xpe_evlist_free(evl);
	return ok;
}

static int list_cb(const struct xpe_name *n, void *arg)
{
	struct lister *l = arg;

	if (!glob_match(l, n->name, n->alias))
		return 0;
	if (n->kind == XPE_KIND_HW || n->kind == XPE_KIND_CACHE) {
		if (!l->hw_checked) {
			l->have_pmu = xpe_have_hw_pmu();
			l->hw_checked = true;
		}
		if (!l->have_pmu || !event_opens(l->ctx, n->name))
			return 0;
	}
	print_line(l, n->name, n->alias, n->desc);
	return 0;
}

static void list_kinds(struct lister *l, unsigned kinds)
{
	static const enum xpe_kind order[] = { XPE_KIND_HW, XPE_KIND_SW, XPE_KIND_CACHE,
					       XPE_KIND_PMU };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (kinds & (1u << order[i]))
			xpe_ctx_for_each_name(l->ctx, 1u << order[i], list_cb, l);
	if (kinds & (1u << XPE_KIND_RAW)) {
		if (glob_match(l, "rNNN", NULL))
			print_line(l, "rNNN", NULL, "Raw hardware event descriptor");
		if (glob_match(l, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL))
			print_line(l, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL,
				   "Raw hardware event descriptor");
	}
	if ((kinds & (1u << XPE_KIND_BREAKPOINT)) && glob_match(l, "mem:<addr>[/len][:access]", NULL))
		print_line(l, "mem:<addr>[/len][:access]", NULL, "Hardware breakpoint");
	if (kinds & (1u << XPE_KIND_TRACEPOINT))
		xpe_ctx_for_each_name(l->ctx, 1u << XPE_KIND_TRACEPOINT, list_cb, l);
}

/* --attr: how each event of the arguments encodes, in perf -vv's layout */
static int print_attrs(xpe_ctx *ctx, int argc, const char **argv)
{
	struct xb_error err;
	xpe_evlist *evl = xpe_evlist_create();
	char buf[4096];
	size_t i;
	int a;

	if (!evl)
		return CLI_EXIT_RUNTIME;
	for (a = 0; a < argc; a++) {
		if (xpe_evlist_parse(evl, ctx, argv[a], &err)) {
			cli_error("%s", err.msg);
			xpe_evlist_free(evl);
			return CLI_EXIT_USAGE;
		}
	}
	for (i = 0; i < xpe_evlist_count(evl); i++) {
		struct xpe_event *ev = xpe_evlist_event(evl, i);

		xpe_attr_snprintf(buf, sizeof(buf), &ev->attr);
		printf("%s\n", ev->name);
		printf("------------------------------------------------------------\n");
		printf("perf_event_attr:\n%s", buf);
		printf("------------------------------------------------------------\n");
		if (ev->group_size > 1)
			printf("  (group leader %d, member %d of %d)\n", ev->leader,
			       ev->group_idx + 1, ev->group_size);
		if (ev->unit[0] || ev->scale != 1.0)
			printf("  (scale %.17g, unit %s)\n", ev->scale, ev->unit);
	}
	xpe_evlist_free(evl);
	return CLI_EXIT_OK;
}

/* perf list's filter words */
static unsigned kinds_of(const char *w)
{
	if (!strcmp(w, "hw") || !strcmp(w, "hardware"))
		return 1u << XPE_KIND_HW;
	if (!strcmp(w, "sw") || !strcmp(w, "software"))
		return 1u << XPE_KIND_SW;
	if (!strcmp(w, "cache") || !strcmp(w, "hwcache"))
		return 1u << XPE_KIND_CACHE;
	if (!strcmp(w, "pmu"))
		return 1u << XPE_KIND_PMU;
	if (!strcmp(w, "tracepoint"))
		return 1u << XPE_KIND_TRACEPOINT;
	if (!strcmp(w, "raw"))
		return 1u << XPE_KIND_RAW;
	if (!strcmp(w, "breakpoint"))
		return 1u << XPE_KIND_BREAKPOINT;
	return 0;
}

int main(int argc, const char **argv)
{
	const char *sysfs = NULL, *tracefs = NULL;
	bool attr = false;
	struct cli_option options[] = {
		OPT_BOOL(0, "attr", &attr, "print how each EVENT argument encodes as a "
			 "perf_event_attr (perf -vv layout)"),
		OPT_STRING(0, "sysfs", &sysfs, "DIR", "read PMUs from DIR instead of /sys"),
		OPT_STRING(0, "tracefs", &tracefs, "DIR", "read tracepoints from DIR"),
		OPT_END(),
	};
	struct lister l = { 0 };
	int n, i, ret = CLI_EXIT_OK;
	unsigned all = ~0u;

	cli_set_command("xperf list");
	n = cli_parse(argc, argv, options, usage, 0);
	if (n < 0)
		return n == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	l.ctx = xpe_ctx_create(sysfs, tracefs);
	if (!l.ctx) {
		cli_error("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	if (attr) {
		if (n == 0) {
			cli_error("--attr needs at least one EVENT");
			ret = CLI_EXIT_USAGE;
		} else {
			ret = print_attrs(l.ctx, n, argv);
		}
		xpe_ctx_free(l.ctx);
		return ret;
	}
	if (n == 0)
		list_kinds(&l, all);
	for (i = 0; i < n; i++) {
		const char *w = argv[i], *colon = strchr(w, ':');
		unsigned k = kinds_of(w);
		char glob[512];

		if (k) {
			l.glob = NULL;
			list_kinds(&l, k);
			if ((k & ((1u << XPE_KIND_HW) | (1u << XPE_KIND_CACHE))) && !xpe_have_hw_pmu())
				fprintf(stderr, "xperf list: note: no hardware PMU here, so no "
					"hardware or cache events\n");
			continue;
		}
		/* "sched:*" is a tracepoint glob; a bare word matches inside any name, as perf */
		if (colon)
			snprintf(glob, sizeof(glob), "%s", w);
		else
			snprintf(glob, sizeof(glob), "*%s*", w);
		l.glob = glob;
		list_kinds(&l, colon ? 1u << XPE_KIND_TRACEPOINT :
				       all & ~(1u << XPE_KIND_RAW) & ~(1u << XPE_KIND_BREAKPOINT));
	}
	if (!xpe_ctx_tracefs(l.ctx) && (n == 0))
		fprintf(stderr, "xperf list: note: tracefs is not mounted, tracepoints not "
			"listed\n");
	xpe_ctx_free(l.ctx);
	return ret;
}
