/* Tracepoints: ids and names from tracefs events/<subsys>/<name>/id. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "events/xpe_internal.h"

int64_t xpe_tracepoint_id(xpe_ctx *ctx, const char *subsys, const char *name)
{
	const char *tfs = xpe_ctx_tracefs(ctx);
	char path[XPE_PATH_MAX], buf[32], *end;
	long long id;
	int ret;

	if (!tfs)
		return -ENOENT;
	if (strchr(subsys, '/') || strchr(name, '/') || !strcmp(subsys, "..") ||
	    !strcmp(name, ".."))
		return -EINVAL;
	xpe_pathf(path, sizeof(path), "%s/events/%s/%s/id", tfs, subsys, name);
	ret = xpe_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	id = strtoll(buf, &end, 10);
	if (end == buf || *end || id < 0)
		return -EINVAL;
	return id;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir matching glob (NULL: all); caller frees. */
static char **list_dirs(const char *dir, const char *glob, int *nr)
{
	char **names = NULL, **p;
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		if (glob && fnmatch(glob, de->d_name, 0))
			continue;
		p = realloc(names, (n + 1) * sizeof(*p));
		if (!p)
			break;
		names = p;
		names[n] = strdup(de->d_name);
		if (!names[n])
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*nr = n;
	return names;
}

static void free_list(char **l, int n)
{
	while (n > 0)
		free(l[--n]);
	free(l);
}

int xpe_tracepoint_for_each(xpe_ctx *ctx, const char *sys_glob, const char *name_glob,
			    xpe_tp_cb cb, void *arg)
{
	const char *tfs = xpe_ctx_tracefs(ctx);
	char path[XPE_PATH_MAX], idp[XPE_PATH_MAX];
	char **sys, **names;
	int nsys, nn, i, j, ret = 0;
	struct stat st;

	if (!tfs)
		return -ENOENT;
	xpe_pathf(path, sizeof(path), "%s/events", tfs);
	sys = list_dirs(path, sys_glob, &nsys);
	for (i = 0; i < nsys && !ret; i++) {
		xpe_pathf(path, sizeof(path), "%s/events/%s", tfs, sys[i]);
		names = list_dirs(path, name_glob, &nn);
		for (j = 0; j < nn && !ret; j++) {
			/* a tracepoint is a directory with an id file ("enable" dirs are not) */
			xpe_pathf(idp, sizeof(idp), "%s/%s/id", path, names[j]);
			if (stat(idp, &st))
				continue;
			ret = cb(sys[i], names[j], arg);
		}
		free_list(names, nn);
	}
	free_list(sys, nsys);
	return ret;
}
