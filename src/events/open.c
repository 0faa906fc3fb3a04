/* Opening evlists with perf_event_open(2), and what to tell the user when that fails. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events/xpe_evlist_impl.h"
#include "events/xpe_open.h"

int xpe_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	long fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

int xpe_perf_event_paranoid(void)
{
	char buf[32];

	if (xpe_read_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)))
		return 2;
	return atoi(buf);
}

bool xpe_open_unsupported(const struct perf_event_attr *attr, int errnum)
{
	if (errnum < 0)
		errnum = -errnum;
	/* perf stat's rule: these mean "the kernel has no such counter" for any event */
	switch (errnum) {
	case ENOENT: case EOPNOTSUPP: case ENODEV: case ENXIO: case ENOSYS:
		return !(errnum == EOPNOTSUPP && attr->precise_ip);
	case EINVAL:
		return !attr->precise_ip;
	default:
		return false;
	}
}

enum xpe_open_fail xpe_open_advice(const struct perf_event_attr *attr, const char *name,
				   int errnum, char *buf, size_t len)
{
	char nbuf[256];
	struct rlimit rl;

	if (errnum < 0)
		errnum = -errnum;
	if (!name) {
		xpe_attr_name(NULL, attr, nbuf, sizeof(nbuf));
		name = nbuf;
	}
	switch (errnum) {
	case EACCES:
	case EPERM:
		snprintf(buf, len,
			 "no permission to open '%s' (%s)\n"
			 "kernel.perf_event_paranoid is %d; to allow it, as root run\n"
			 "    sysctl -w kernel.perf_event_paranoid=-1\n"
			 "or give the program CAP_PERFMON (CAP_SYS_ADMIN on older kernels)",
			 name, strerror(errnum), xpe_perf_event_paranoid());
		return XPE_FAIL_PERMISSION;
	case EMFILE:
	case ENFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl))
			rl.rlim_cur = 0;
		snprintf(buf, len,
			 "too many open files opening '%s' (limit %llu): raise it with 'ulimit -n'"
			 " or count fewer events, cpus or threads", name,
			 (unsigned long long)rl.rlim_cur);
		return XPE_FAIL_FILES;
	case EBUSY:
		snprintf(buf, len, "the PMU counters for '%s' are busy: another tool (perf, "
			 "oprofile, a watchdog) holds them", name);
		return XPE_FAIL_BUSY;
	default:
		break;
	}
	if (attr->precise_ip && (errnum == EINVAL || errnum == EOPNOTSUPP)) {
		snprintf(buf, len, "precise_ip=%u is not supported for '%s': try a lower :p "
			 "modifier (or :P for the highest that works)", attr->precise_ip, name);
		return XPE_FAIL_PRECISE;
	}
	if (xpe_open_unsupported(attr, errnum)) {
		snprintf(buf, len, "%s event is not supported by the kernel%s", name,
			 attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
					 attr->type == PERF_TYPE_RAW ?
				 " (no hardware PMU here? try cpu-clock)" : "");
		return XPE_FAIL_UNSUPPORTED;
	}
	if (errnum == ESRCH)
		snprintf(buf, len, "cannot open '%s': no such process", name);
	else
		snprintf(buf, len, "cannot open '%s': %s", name, strerror(errnum));
	return XPE_FAIL_OTHER;
}

bool xpe_event_fallback(struct xpe_event *ev, int errnum, char *msg, size_t len)
{
	struct perf_event_attr *a = &ev->attr;
	char name[256];
	int paranoid;

	if (errnum < 0)
		errnum = -errnum;
	if ((errnum == ENOENT || errnum == ENXIO || errnum == ENODEV || errnum == EOPNOTSUPP) &&
	    a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES) {
		snprintf(msg, len, "The cycles event is not supported, trying to fall back to "
			 "cpu-clock-ticks");
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		ev->kind = XPE_KIND_SW;
		/* perf drops the name and prints the attr's: "cpu-clock:pppH" and all */
		xpe_attr_name(NULL, a, name, sizeof(name));
	} else if (errnum == EACCES && !a->exclude_kernel &&
		   (paranoid = xpe_perf_event_paranoid()) > 1) {
		snprintf(msg, len, "kernel.perf_event_paranoid=%d, trying to fall back to "
			 "excluding kernel and hypervisor  samples", paranoid);
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		snprintf(name, sizeof(name), "%s%su", ev->name ? ev->name : "",
			 ev->name && strchr(ev->name, ':') ? "" : ":");
	} else {
		return false;
	}
	free(ev->name);
	ev->name = strdup(name);
	return true;
}

bool xpe_have_hw_pmu(void)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	fd = xpe_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return true;
	}
	return !(fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV || fd == -ENXIO);
}

/* ---- evlist open -------------------------------------------------------------------- */

static void close_event(struct xpe_event *ev)
{
	int i;

	for (i = 0; i < ev->nr_fd; i++) {
		if (ev->fd && ev->fd[i] >= 0)
			close(ev->fd[i]);
		if (ev->fd)
			ev->fd[i] = -1;
		if (ev->id)
			ev->id[i] = 0;
	}
}

void xpe_evlist_close(xpe_evlist *evl)
{
	size_t i;

	if (!evl)
		return;
	for (i = 0; i < evl->nr; i++)
		close_event(evl->ev[i]);
}

int xpe_evlist_nr_cpus(const xpe_evlist *evl)
{
	return evl->nr_cpus;
}

int xpe_evlist_nr_threads(const xpe_evlist *evl)
{
	return evl->nr_threads;
}

int xpe_evlist_ioctl(xpe_evlist *evl, unsigned long request)
{
	size_t i;
	int j, ret = 0;

	for (i = 0; i < evl->nr; i++)
		for (j = 0; j < evl->ev[i]->nr_fd; j++)
			if (evl->ev[i]->fd[j] >= 0 && ioctl(evl->ev[i]->fd[j], request, 0) < 0)
				ret = -errno;
	return ret;
}

static int alloc_fds(struct xpe_event *ev, int n)
{
	int i;

	free(ev->fd);
	free(ev->id);
	ev->fd = malloc((size_t)n * sizeof(*ev->fd));
	ev->id = calloc((size_t)n, sizeof(*ev->id));
	ev->nr_fd = 0;
	if (!ev->fd || !ev->id)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ev->fd[i] = -1;
	ev->nr_fd = n;
	return 0;
}

/*
 * One fd, with perf's automatic retries: lower precise_ip under :P, and drop
 * exclude_guest/exclude_host for PMUs that refuse them (msr does).
 */
static int open_one(struct xpe_event *ev, int group_fd, pid_t tid, int cpu)
{
	struct perf_event_attr *a = &ev->attr;
	unsigned precise_orig = a->precise_ip;
	int fd;

	for (;;) {
		fd = xpe_perf_event_open(a, tid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (ev->precise_max && a->precise_ip > 0 && fd != -EACCES && fd != -EMFILE) {
			a->precise_ip--;
			continue;
		}
		/* perf's evsel__precise_ip_fallback(): all levels failed, so the precision was
		 * not the problem; restore it for the other fallbacks ("cpu-clock:ppp") */
		if (ev->precise_max)
			a->precise_ip = precise_orig;
		if (fd == -EINVAL && (a->exclude_guest || a->exclude_host)) {
			a->exclude_guest = 0;
			a->exclude_host = 0;
			continue;
		}
		return fd;
	}
}

static void mark_group_unsupported(xpe_evlist *evl, struct xpe_event *ev, int errnum)
{
	size_t i;

	for (i = (size_t)ev->leader; i < evl->nr && evl->ev[i]->leader == ev->leader; i++) {
		close_event(evl->ev[i]);
		evl->ev[i]->unsupported = 1;
		evl->ev[i]->group_failed = evl->ev[i] != ev;
		if (!evl->ev[i]->open_errno)
			evl->ev[i]->open_errno = errnum;
	}
}

int xpe_evlist_open(xpe_evlist *evl, xpe_ctx *ctx, const struct xpe_cpus *cpus,
		    const struct xpe_threads *threads, unsigned int flags, int *failed,
		    struct xb_error *err)
{
	int nc = cpus->nr, nt = threads->nr, c, t, ret;
	size_t i;
	char advice[1024], msg[256];

	(void)ctx;
	if (nc <= 0 || nt <= 0)
		return xb_error_set(err, -EINVAL, "no cpus or threads to open events on");
	evl->nr_cpus = nc;
	evl->nr_threads = nt;
	for (i = 0; i < evl->nr; i++) {
		struct xpe_event *ev = evl->ev[i];

		ev->unsupported = 0;
		ev->group_failed = 0;
		ev->open_errno = 0;
		if (alloc_fds(ev, nc * nt))
			goto nomem;
	}
	for (i = 0; i < evl->nr; i++) {
		struct xpe_event *ev = evl->ev[i], *leader = evl->ev[ev->leader];

		if (ev->unsupported)
			continue; /* its group failed earlier */
		for (c = 0; c < nc; c++) {
			for (t = 0; t < nt; t++) {
				int k = c * nt + t, gfd = -1, fd;

				if (leader != ev)
					gfd = leader->fd[k];
				fd = open_one(ev, gfd, threads->tid[t], cpus->cpu[c]);
				/* perf retries while a fallback applies (EACCES, then cycles) */
				while (fd < 0 && (flags & XPE_OPEN_FALLBACK) && c == 0 && t == 0 &&
				       xpe_event_fallback(ev, -fd, msg, sizeof(msg)))
					fd = open_one(ev, gfd, threads->tid[t], cpus->cpu[c]);
				if (fd >= 0) {
					ev->fd[k] = fd;
					if (!(flags & XPE_OPEN_NO_IDS) &&
					    ioctl(fd, PERF_EVENT_IOC_ID, &ev->id[k]) < 0)
						ev->id[k] = 0;
					continue;
				}
				ev->open_errno = -fd;
				if ((flags & XPE_OPEN_SKIP_UNSUPPORTED) &&
				    xpe_open_unsupported(&ev->attr, fd)) {
					mark_group_unsupported(evl, ev, -fd);
					goto next_event;
				}
				xpe_open_advice(&ev->attr, ev->name, fd, advice, sizeof(advice));
				if (failed)
					*failed = (int)i;
				ret = fd;
				xpe_evlist_close(evl);
				return xb_error_set(err, ret, "cannot open event '%s': %s", ev->name,
						     advice);
			}
		}
next_event:;
	}
	return 0;
nomem:
	xpe_evlist_close(evl);
	return xb_error_set(err, -ENOMEM, "out of memory");
}
