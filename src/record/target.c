/* xperf-record targets: the forked command (held before exec), -p, -t, -u, -a and -C. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <signal.h>
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

/* Append every thread of pid to t->threads. */
static int add_pid_threads(struct rec_target *t, pid_t pid, struct xb_error *err)
{
	struct xpe_threads th;
	pid_t *n;
	int ret = xpe_threads_of_pid(&th, pid, err);

	if (ret < 0)
		return ret;
	n = realloc(t->threads.tid, (size_t)(t->threads.nr + th.nr) * sizeof(*n));
	if (!n) {
		xpe_threads_release(&th);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	memcpy(n + t->threads.nr, th.tid, (size_t)th.nr * sizeof(*n));
	t->threads.tid = n;
	t->threads.nr += th.nr;
	xpe_threads_release(&th);
	return 0;
}

static int add_pid(struct rec_target *t, pid_t pid)
{
	pid_t *n = realloc(t->pids, (size_t)(t->nr_pids + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	n[t->nr_pids++] = pid;
	t->pids = n;
	return 0;
}

/* "1,2,3" -> callback per number. */
static int parse_pid_list(const char *list, const char *what, pid_t **out, int *nr,
			  struct xb_error *err)
{
	const char *p = list;

	*out = NULL;
	*nr = 0;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		pid_t *n;

		if (end == p || v <= 0 || v > 0x7fffffff || (*end && *end != ',')) {
			free(*out);
			*out = NULL;
			return xb_error_set(err, -EINVAL, "invalid %s list '%s'", what, list);
		}
		n = realloc(*out, (size_t)(*nr + 1) * sizeof(*n));
		if (!n)
			return xb_error_set(err, -ENOMEM, "out of memory");
		n[(*nr)++] = (pid_t)v;
		*out = n;
		p = *end ? end + 1 : end;
	}
	if (!*nr)
		return xb_error_set(err, -EINVAL, "invalid %s list '%s'", what, list);
	return 0;
}

static int resolve_user(const char *user, uid_t *uid, struct xb_error *err)
{
	struct passwd *pw = getpwnam(user);
	char *end;
	long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	v = strtol(user, &end, 10);
	if (end != user && !*end && v >= 0) {
		*uid = (uid_t)v;
		return 0;
	}
	return xb_error_set(err, -EINVAL, "unknown user '%s'", user);
}

static int add_user_processes(struct rec_target *t, uid_t uid, struct xb_error *err)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid();

	if (!d)
		return xb_error_set(err, -errno, "/proc: %s", strerror(errno));
	while ((de = readdir(d))) {
		char path[64];
		struct stat sb;
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)atoi(de->d_name);
		if (pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d", pid);
		if (stat(path, &sb) < 0 || sb.st_uid != uid)
			continue;
		/* Kernel threads have no mm: perf skips them too (empty cmdline). */
		if (add_pid_threads(t, pid, NULL) == 0 && add_pid(t, pid) < 0) {
			closedir(d);
			return xb_error_set(err, -ENOMEM, "out of memory");
		}
	}
	closedir(d);
	if (!t->threads.nr)
		return xb_error_set(err, -ESRCH, "user has no running processes");
	return 0;
}

int target_prepare(struct rec_target *t, const struct rec_opts *o, const xpe_ctx *ctx,
		   struct xb_error *err)
{
	int ret, i;

	memset(t, 0, sizeof(*t));
	t->wl = (struct xpe_workload)XPE_WORKLOAD_INIT;

	if (o->cpu_list) {
		ret = xpe_cpus_parse(o->cpu_list, &t->cpus, err);
		if (!ret)
			ret = xpe_cpus_check_online(ctx, &t->cpus, err);
	} else
		ret = xpe_cpus_online(ctx, &t->cpus, err);
	if (ret < 0)
		return ret;

	if (o->system_wide || o->cpu_list) {
		t->per_cpu_only = true;
		ret = xpe_threads_one(&t->threads, -1);
	} else if (o->pids || o->tids) {
		pid_t *list;
		int nr;

		ret = parse_pid_list(o->pids ? o->pids : o->tids, o->pids ? "pid" : "tid", &list,
				     &nr, err);
		for (i = 0; ret == 0 && i < nr; i++) {
			if (kill(list[i], 0) < 0 && errno == ESRCH) {
				ret = xb_error_set(err, -ESRCH, "no process with %s %d",
						    o->pids ? "pid" : "tid", list[i]);
				break;
			}
			if (o->pids)
				ret = add_pid_threads(t, list[i], err);
			if (ret == 0)
				ret = add_pid(t, list[i]);
		}
		if (ret == 0 && o->tids) {
			t->threads.tid = malloc((size_t)nr * sizeof(pid_t));
			if (!t->threads.tid)
				ret = -ENOMEM;
			else
				memcpy(t->threads.tid, list, (size_t)nr * sizeof(pid_t));
			t->threads.nr = nr;
		}
		free(list);
	} else if (o->user) {
		uid_t uid = 0;

		ret = resolve_user(o->user, &uid, err);
		if (ret == 0)
			ret = add_user_processes(t, uid, err);
	} else {
		ret = 0;
	}
	if (ret < 0)
		return ret;

	if (o->argc > 0) {
		/* What we printed so far comes out before anything the command prints */
		fflush(NULL);
		ret = xpe_workload_prepare(&t->wl, (char *const *)o->argv, err);
		if (ret < 0)
			return ret;
		t->cmd_is_target = !t->per_cpu_only && !o->pids && !o->tids && !o->user;
		if (t->cmd_is_target)
			ret = xpe_threads_one(&t->threads, t->wl.pid);
	}
	if (ret == 0 && !t->threads.nr)
		ret = xpe_threads_one(&t->threads, -1);
	return ret < 0 ? xb_error_set(err, ret, "%s", strerror(-ret)) : 0;
}

int target_start(struct rec_target *t, struct xb_error *err)
{
	if (t->wl.pid < 0)
		return 0;
	return xpe_workload_start(&t->wl, err);
}

bool target_alive(const struct rec_target *t)
{
	int i;

	for (i = 0; i < t->nr_pids; i++) {
		char path[64];

		/* A zombie still answers kill(0): look at /proc instead. */
		snprintf(path, sizeof(path), "/proc/%d/stat", t->pids[i]);
		FILE *f = fopen(path, "r");
		char state = 0;

		if (!f)
			continue;
		if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
			state = 'R';
		fclose(f);
		if (state != 'Z' && state != 'X')
			return true;
	}
	return false;
}

void target_release(struct rec_target *t)
{
	/* A child still here was never let go (or its start failed): it goes */
	xpe_workload_abort(&t->wl);
	xpe_cpus_release(&t->cpus);
	xpe_threads_release(&t->threads);
	free(t->pids);
	t->pids = NULL;
}
