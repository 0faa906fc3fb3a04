/* xperf-record targets: the events' -p/-t/-u/-a/-C target, and the command held before exec. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "record/record.h"

int target_check_command(const char *file, struct xb_error *err)
{
	const char *path, *p;
	char buf[4096];
	bool denied = false;

	if (strchr(file, '/')) {
		if (access(file, X_OK) == 0)
			return 0;
		return xb_error_set(err, -errno, "cannot run '%s': %s", file, strerror(errno));
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (p = path;; p++) {
		const char *end = strchrnul(p, ':');
		int n = (int)(end - p);
		struct stat sb;

		snprintf(buf, sizeof(buf), "%.*s/%s", n ? n : 1, n ? p : ".", file);
		if (stat(buf, &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (access(buf, X_OK) == 0)
				return 0;
			denied = true;
		}
		p = end;
		if (!*p)
			break;
	}
	if (denied)
		return xb_error_set(err, -EACCES, "cannot run '%s': %s", file, strerror(EACCES));
	return xb_error_set(err, -ENOENT, "cannot run '%s': command not found", file);
}

struct xpe_target_opts target_opts(const struct rec_opts *o)
{
	return (struct xpe_target_opts){
		.pids = o->pids, .tids = o->tids, .user = o->user, .cpu_list = o->cpu_list,
		.system_wide = o->system_wide,
		/* one ring per cpu: task events open on every cpu */
		.task_on_every_cpu = true,
	};
}

int target_prepare(struct rec_target *t, const struct rec_opts *o, const xpe_ctx *ctx,
		   struct xb_error *err)
{
	struct xpe_target_opts to = target_opts(o);
	int ret;

	t->wl = (struct xpe_workload)XPE_WORKLOAD_INIT;
	t->cmd_is_target = false;
	ret = xpe_target_prepare(&t->tg, &to, ctx, err);
	if (ret < 0)
		return ret;
	if (o->argc > 0) {
		/* What we printed so far comes out before anything the command prints */
		fflush(NULL);
		ret = xpe_workload_prepare(&t->wl, (char *const *)o->argv, err);
		if (ret < 0)
			return ret;
		t->cmd_is_target = !t->tg.per_cpu && !o->pids && !o->tids && !o->user;
		if (t->cmd_is_target)
			ret = xpe_target_add_task(&t->tg, t->wl.pid);
	}
	if (ret == 0 && !t->tg.threads.nr)
		ret = xpe_target_add_task(&t->tg, -1);
	return ret < 0 ? xb_error_set(err, ret, "%s", strerror(-ret)) : 0;
}

int target_start(struct rec_target *t, struct xb_error *err)
{
	if (t->wl.pid < 0)
		return 0;
	return xpe_workload_start(&t->wl, err);
}

void target_release(struct rec_target *t)
{
	/* A child still here was never let go (or its start failed): it goes */
	xpe_workload_abort(&t->wl);
	xpe_target_release(&t->tg);
}
