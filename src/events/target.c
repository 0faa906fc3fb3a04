/* Targets (-p, -t, -u, -a, -C): one parser, one set of messages and one alive check. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/array.h"
#include "events/xpe_target.h"

/* "1,2,3": positive numbers, separated by single commas. */
static bool valid_list(const char *s)
{
	bool digit = false;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digit = true;
		else if (*s == ',' && digit)
			digit = false;
		else
			return false;
	}
	return digit;
}

int xpe_target_check(const struct xpe_target_opts *o, struct xb_error *err)
{
	const char *given[5];
	int n = 0, tasks;

	if (o->pids)
		given[n++] = "-p";
	if (o->tids)
		given[n++] = "-t";
	if (o->user)
		given[n++] = "-u";
	tasks = n;
	if (o->system_wide)
		given[n++] = "-a";
	if (o->cpu_list)
		given[n++] = "-C";
	/* -a and -C go together (-C narrows -a); a task option goes alone */
	if (tasks > 1 || (tasks && n > tasks))
		return xb_error_set(err, -EINVAL, "options '%s' and '%s' exclude each other",
				    given[0], given[1]);
	if (o->pids && !valid_list(o->pids))
		return xb_error_set(err, -EINVAL,
				    "invalid pid list '%s' (numbers separated by commas)", o->pids);
	if (o->tids && !valid_list(o->tids))
		return xb_error_set(err, -EINVAL,
				    "invalid tid list '%s' (numbers separated by commas)", o->tids);
	return 0;
}

/* The state letter of /proc/PATH/stat ("R", "S", "Z", ...), 0 when it cannot be read. */
static char task_state(const char *path)
{
	char buf[256], *p;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": the comm may hold spaces and parentheses, the last ')' ends it */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static bool running(char state)
{
	return state && state != 'Z' && state != 'X' && state != 'x';
}

/* A thread: itself. A process: any of its threads (its main one may be a zombie already). */
static bool task_alive(pid_t id, bool thread)
{
	char path[64];
	struct dirent *de;
	bool alive = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);
	if (thread || running(task_state(path)))
		return running(task_state(path));
	snprintf(path, sizeof(path), "/proc/%d/task", (int)id);
	d = opendir(path);
	if (!d)
		return false;
	while (!alive && (de = readdir(d))) {
		char p[300];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(p, sizeof(p), "/proc/%d/task/%s/stat", (int)id, de->d_name);
		alive = running(task_state(p));
	}
	closedir(d);
	return alive;
}

bool xpe_target_alive(const struct xpe_target *t)
{
	for (int i = 0; i < t->nr_pids; i++)
		if (task_alive(t->pids[i], t->tids_only))
			return true;
	return false;
}

static int add_threads(struct xpe_target *t, const pid_t *tid, int nr)
{
	if (nr <= 0)
		return 0;
	if (XB_ARRAY_RESERVE(t->threads.tid, t->cap_threads, (size_t)t->threads.nr + nr, 16))
		return -ENOMEM;
	memcpy(t->threads.tid + t->threads.nr, tid, (size_t)nr * sizeof(*tid));
	t->threads.nr += nr;
	return 0;
}

static int add_pid(struct xpe_target *t, pid_t pid)
{
	if (XB_ARRAY_RESERVE(t->pids, t->cap_pids, (size_t)t->nr_pids + 1, 16))
		return -ENOMEM;
	t->pids[t->nr_pids++] = pid;
	return 0;
}

/* A task of -p/-t/-u: checked, then its threads (a process's, or the thread alone). */
static int add_task(struct xpe_target *t, pid_t id, bool thread, struct xb_error *err)
{
	const char *what = thread ? "thread" : "process", *key = thread ? "tid" : "pid";
	struct xpe_threads th = { 0, NULL };
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/%d", (int)id);
	if (access(path, F_OK))
		return xb_error_set(err, -ESRCH, "no %s with %s %d", what, key, (int)id);
	if (!task_alive(id, thread))
		return xb_error_set(err, -ESRCH, "%s %d has exited", what, (int)id);
	ret = thread ? xpe_threads_one(&th, id) : xpe_threads_of_pid(&th, id, err);
	if (ret == 0)
		ret = add_threads(t, th.tid, th.nr);
	if (ret == 0)
		ret = add_pid(t, id);
	xpe_threads_release(&th);
	return ret == -ENOMEM ? xb_error_set(err, ret, "out of memory") : ret;
}

static int add_list(struct xpe_target *t, const char *list, bool thread, struct xb_error *err)
{
	const char *p = list;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		int ret;

		/* checked by xpe_target_check(); the range is not */
		if (end == p || v <= 0 || v > 0x7fffffff)
			return xb_error_set(err, -EINVAL, "invalid %s list '%s'",
					    thread ? "tid" : "pid", list);
		ret = add_task(t, (pid_t)v, thread, err);
		if (ret < 0)
			return ret;
		p = *end ? end + 1 : end;
	}
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

static int add_user(struct xpe_target *t, const char *user, struct xb_error *err)
{
	pid_t self = getpid();
	struct dirent *de;
	uid_t uid = 0;
	int ret = resolve_user(user, &uid, err);
	DIR *d;

	if (ret < 0)
		return ret;
	d = opendir("/proc");
	if (!d)
		return xb_error_set(err, -errno, "/proc: %s", strerror(errno));
	while ((de = readdir(d))) {
		char path[64];
		struct stat sb;
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)atoi(de->d_name);
		snprintf(path, sizeof(path), "/proc/%d", pid);
		if (pid == self || stat(path, &sb) < 0 || sb.st_uid != uid)
			continue;
		/* processes come and go while we look: one that went is not an error */
		ret = add_task(t, pid, false, NULL);
		if (ret == -ENOMEM) {
			closedir(d);
			return xb_error_set(err, ret, "out of memory");
		}
	}
	closedir(d);
	if (!t->nr_pids)
		return xb_error_set(err, -ESRCH, "user '%s' has no running processes", user);
	return 0;
}

int xpe_target_prepare(struct xpe_target *t, const struct xpe_target_opts *o, const xpe_ctx *ctx,
		       struct xb_error *err)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->per_cpu = o->system_wide || o->cpu_list;
	if (o->cpu_list) {
		ret = xpe_cpus_parse(o->cpu_list, &t->cpus, err);
		if (!ret)
			ret = xpe_cpus_check_online(ctx, &t->cpus, err);
	} else if (t->per_cpu || o->task_on_every_cpu)
		ret = xpe_cpus_online(ctx, &t->cpus, err);
	else
		ret = xpe_cpus_any(&t->cpus) ? xb_error_set(err, -ENOMEM, "out of memory") : 0;
	if (ret < 0)
		return ret;
	if (t->per_cpu) {
		ret = xpe_threads_one(&t->threads, -1);
	} else if (o->pids || o->tids) {
		t->tids_only = !o->pids;
		ret = add_list(t, o->pids ? o->pids : o->tids, t->tids_only, err);
	} else if (o->user) {
		ret = add_user(t, o->user, err);
	}
	if (ret == -ENOMEM)
		return xb_error_set(err, ret, "out of memory");
	return ret;
}

int xpe_target_add_task(struct xpe_target *t, pid_t tid)
{
	xpe_threads_release(&t->threads);
	t->cap_threads = 0;
	return xpe_threads_one(&t->threads, tid);
}

void xpe_target_release(struct xpe_target *t)
{
	xpe_cpus_release(&t->cpus);
	xpe_threads_release(&t->threads);
	free(t->pids);
	memset(t, 0, sizeof(*t));
}
