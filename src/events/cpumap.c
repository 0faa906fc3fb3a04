/* cpu lists ("0-3,5"), online cpus from sysfs, and thread lists from /proc. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "events/xpe_internal.h"
#include "events/xpe_open.h"

#define MAX_CPU 65536 /* sanity bound for ranges from input */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int xpe_cpus_parse(const char *list, struct xpe_cpus *out, struct xb_error *err)
{
	const char *p = list;
	int *cpu = NULL, nr = 0, i, j;
	size_t alloc = 0;

	out->nr = 0;
	out->cpu = NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return xb_error_set(err, -EINVAL, "empty cpu list");
	while (*p) {
		long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= MAX_CPU)
			goto bad;
		for (; lo <= hi; lo++) {
			if (XB_ARRAY_RESERVE(cpu, alloc, (size_t)nr + 1, 16)) {
				free(cpu);
				return xb_error_set(err, -ENOMEM, "out of memory");
			}
			cpu[nr++] = (int)lo;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	qsort(cpu, (size_t)nr, sizeof(*cpu), cmp_int);
	for (i = j = 0; i < nr; i++)
		if (j == 0 || cpu[j - 1] != cpu[i])
			cpu[j++] = cpu[i];
	out->nr = j;
	out->cpu = cpu;
	return 0;
bad:
	free(cpu);
	return xb_error_set(err, -EINVAL, "bad cpu list '%s' (expected e.g. 0-3,5)", list);
}

int xpe_cpus_online(const xpe_ctx *ctx, struct xpe_cpus *out, struct xb_error *err)
{
	char path[XPE_PATH_MAX], buf[4096];
	int ret;

	xpe_pathf(path, sizeof(path), "%s/devices/system/cpu/online", xpe_ctx_sysfs_root(ctx));
	ret = xpe_read_file(path, buf, sizeof(buf));
	if (ret)
		return xb_error_set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
	return xpe_cpus_parse(buf, out, err);
}

static bool cpus_has(const struct xpe_cpus *cpus, int cpu)
{
	for (int i = 0; i < cpus->nr; i++)
		if (cpus->cpu[i] == cpu)
			return true;
	return false;
}

/* A sysfs cpu list ("online", "present") as read, without its newline. */
static int read_cpu_list(const xpe_ctx *ctx, const char *name, char *buf, size_t len)
{
	char path[XPE_PATH_MAX];
	int ret;

	xpe_pathf(path, sizeof(path), "%s/devices/system/cpu/%s", xpe_ctx_sysfs_root(ctx), name);
	ret = xpe_read_file(path, buf, len);
	if (!ret)
		buf[strcspn(buf, "\n")] = 0;
	return ret;
}

int xpe_cpus_check_online(const xpe_ctx *ctx, const struct xpe_cpus *cpus,
			  struct xb_error *err)
{
	struct xpe_cpus online = { 0 }, present = { 0 };
	char on[4096], pr[4096];
	int i, ret = 0;

	if (read_cpu_list(ctx, "online", on, sizeof(on)) ||
	    xpe_cpus_parse(on, &online, NULL))
		return 0; /* nothing to check against: let perf_event_open say */
	/* "present" tells a cpu that is offline from one that does not exist */
	if (read_cpu_list(ctx, "present", pr, sizeof(pr)) || xpe_cpus_parse(pr, &present, NULL))
		present.nr = 0;
	for (i = 0; i < cpus->nr && !ret; i++) {
		int c = cpus->cpu[i];

		if (c < 0 || cpus_has(&online, c))
			continue;
		if (present.nr && !cpus_has(&present, c))
			ret = xb_error_set(err, -ENODEV, "cpu %d does not exist here (online cpus: %s)",
					    c, on);
		else
			ret = xb_error_set(err, -ENODEV, "cpu %d is offline (online cpus: %s)", c,
					    on);
	}
	xpe_cpus_release(&online);
	xpe_cpus_release(&present);
	return ret;
}

int xpe_cpus_any(struct xpe_cpus *out)
{
	out->cpu = malloc(sizeof(*out->cpu));
	out->nr = out->cpu ? 1 : 0;
	if (!out->cpu)
		return -ENOMEM;
	out->cpu[0] = -1;
	return 0;
}

void xpe_cpus_release(struct xpe_cpus *cpus)
{
	if (!cpus)
		return;
	free(cpus->cpu);
	cpus->cpu = NULL;
	cpus->nr = 0;
}

int xpe_threads_one(struct xpe_threads *out, pid_t tid)
{
	out->tid = malloc(sizeof(*out->tid));
	out->nr = out->tid ? 1 : 0;
	if (!out->tid)
		return -ENOMEM;
	out->tid[0] = tid;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

int xpe_threads_of_pid(struct xpe_threads *out, pid_t pid, struct xb_error *err)
{
	char path[64];
	struct dirent *de;
	pid_t *tid = NULL, *n;
	int nr = 0;
	DIR *d;

	out->nr = 0;
	out->tid = NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return xb_error_set(err, errno == ENOENT ? -ESRCH : -errno,
				     "cannot list threads of pid %d: %s", (int)pid,
				     errno == ENOENT ? "no such process" : strerror(errno));
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		n = realloc(tid, (size_t)(nr + 1) * sizeof(*tid));
		if (!n) {
			closedir(d);
			free(tid);
			return xb_error_set(err, -ENOMEM, "out of memory");
		}
		tid = n;
		tid[nr++] = (pid_t)atoi(de->d_name);
	}
	closedir(d);
	if (!nr)
		return xb_error_set(err, -ESRCH, "pid %d has no threads", (int)pid);
	qsort(tid, (size_t)nr, sizeof(*tid), cmp_pid);
	out->nr = nr;
	out->tid = tid;
	return 0;
}

void xpe_threads_release(struct xpe_threads *threads)
{
	if (!threads)
		return;
	free(threads->tid);
	threads->tid = NULL;
	threads->nr = 0;
}
