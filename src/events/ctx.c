/* The events context: where sysfs and tracefs live, plus small file helpers. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/small_file.h"
#include "events/xpe_ctx.h"

xpe_ctx *xpe_ctx_create(const char *sysfs_root, const char *tracefs)
{
	xpe_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->sysfs = strdup(sysfs_root ? sysfs_root : "/sys");
	ctx->tracefs_given = tracefs != NULL;
	if (tracefs)
		ctx->tracefs = strdup(tracefs);
	if (!ctx->sysfs || (tracefs && !ctx->tracefs)) {
		xpe_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

static void pmu_free(struct xpe_pmu *pmu)
{
	int i;

	for (i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->name);
	free(pmu);
}

void xpe_ctx_free(xpe_ctx *ctx)
{
	int i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nr_pmus; i++)
		pmu_free(ctx->pmus[i]);
	free(ctx->pmus);
	free(ctx->sysfs);
	free(ctx->tracefs);
	free(ctx);
}

const char *xpe_ctx_sysfs_root(const xpe_ctx *ctx)
{
	return ctx->sysfs;
}

static bool has_events_dir(const char *dir)
{
	char path[XPE_PATH_MAX];
	struct stat st;

	xpe_pathf(path, sizeof(path), "%s/events", dir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * tracefs is often not mounted on minimal systems; perf mounts it on demand, and so do we,
 * but only for the real /sys: a test's fake root must never touch the machine.
 */
const char *xpe_ctx_tracefs(xpe_ctx *ctx)
{
	static const char *const cands[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	size_t i;

	if (ctx->tracefs_given || ctx->tracefs)
		return ctx->tracefs;
	if (ctx->tracefs_tried)
		return NULL;
	ctx->tracefs_tried = true;
	if (strcmp(ctx->sysfs, "/sys")) {
		char path[XPE_PATH_MAX];

		xpe_pathf(path, sizeof(path), "%s/kernel/tracing", ctx->sysfs);
		if (has_events_dir(path))
			ctx->tracefs = strdup(path);
		return ctx->tracefs;
	}
	for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		if (has_events_dir(cands[i])) {
			ctx->tracefs = strdup(cands[i]);
			return ctx->tracefs;
		}
	}
	if (mount("nodev", cands[0], "tracefs", 0, NULL) == 0 && has_events_dir(cands[0]))
		ctx->tracefs = strdup(cands[0]);
	return ctx->tracefs;
}

char *xpe_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int xpe_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n = xb_read_small(path, buf, len);

	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	return 0;
}

/* perf's event_attr_init(): every parsed event starts with exclude_guest (perf_guest off). */
void xpe_attr_init(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->exclude_guest = 1;
}

/* snprintf for paths; a truncated path fails later at open(), which is the right error. */
int xpe_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}
