/* Where a perf.data file is written (see output.h): PATH.old, no symlink, a temporary. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/output.h"

static char *concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);

	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}

/* What is at PATH now, as the rule in output.h sees it. */
enum existing { NOTHING, EMPTY_FILE, OLD_FILE, LINK, DEVICE };

static int classify(const char *path, enum existing *what, struct xb_error *err)
{
	struct stat sb;

	if (lstat(path, &sb) < 0) {
		if (errno == ENOENT) {
			*what = NOTHING;
			return 0;
		}
		return xb_error_set(err, -errno, "cannot create '%s': %s", path, strerror(errno));
	}
	if (S_ISDIR(sb.st_mode))
		return xb_error_set(err, -EISDIR, "cannot create '%s': %s", path, strerror(EISDIR));
	if (S_ISLNK(sb.st_mode))
		*what = LINK;
	else if (S_ISREG(sb.st_mode) && sb.st_size > 0)
		*what = OLD_FILE;
	else if (S_ISREG(sb.st_mode))
		*what = EMPTY_FILE;
	else
		*what = DEVICE;
	return 0;
}

/* PATH -> PATH.old, as perf does; when that fails perf stops too, and so do we. */
static int keep_old(struct xpf_output *o, struct xb_error *err)
{
	if (!o->old && !(o->old = concat(o->path, ".old")))
		return xb_error_set(err, -ENOMEM, "out of memory");
	if (rename(o->path, o->old) < 0) {
		int e = errno;

		free(o->old);
		o->old = NULL;
		return xb_error_set(err, -e, "cannot keep the existing '%s' as '%s.old': %s",
				    o->path, o->path, strerror(e));
	}
	return 0;
}

static int refused_link(const char *path, struct xb_error *err)
{
	return xb_error_set(err, -ELOOP, "cannot write '%s': it is a symbolic link, which is "
			    "never followed (remove it, or give the file it points to)", path);
}

/* Open PATH itself: created new, or an empty file or a device that is there. */
static int open_in_place(struct xpf_output *o, enum existing what, struct xb_error *err)
{
	int fl = O_WRONLY | O_CLOEXEC | O_NOFOLLOW;

	if (what == NOTHING)
		fl |= O_CREAT | O_EXCL;
	else if (what == EMPTY_FILE)
		fl |= O_TRUNC;
	else
		fl |= O_NONBLOCK; /* a FIFO without a reader must not hang us */
	o->fd = open(o->path, fl, 0600);
	if (o->fd < 0) {
		int e = errno;

		if (e == ELOOP)
			return refused_link(o->path, err);
		if (e == EEXIST)
			return xb_error_set(err, -e, "cannot create '%s': it appeared meanwhile",
					    o->path);
		return xb_error_set(err, -e, "cannot create '%s': %s", o->path, strerror(e));
	}
	if (what == DEVICE)
		fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK);
	o->created = what == NOTHING;
	return 0;
}

/* PATH.tmp.XXXXXX beside PATH: the rename at commit stays in one file system. */
static int open_temp(struct xpf_output *o, struct xb_error *err)
{
	if (!(o->tmp = concat(o->path, ".tmp.XXXXXX")))
		return xb_error_set(err, -ENOMEM, "out of memory");
	o->fd = mkostemp(o->tmp, O_CLOEXEC); /* O_CREAT | O_EXCL, mode 0600 */
	if (o->fd < 0) {
		int e = errno;

		free(o->tmp);
		o->tmp = NULL;
		return xb_error_set(err, -e, "cannot create a temporary file beside '%s': %s",
				    o->path, strerror(e));
	}
	o->created = true;
	return 0;
}

int xpf_output_open(struct xpf_output *o, const char *path, int flags, struct xb_error *err)
{
	enum existing what;
	int rc;

	*o = (struct xpf_output){ .fd = -1, .flags = flags };
	if (!(o->path = strdup(path)))
		return xb_error_set(err, -ENOMEM, "out of memory");
	rc = classify(path, &what, err);
	if (rc == 0 && !(flags & XPF_OUTPUT_KEEP_OLD)) {
		if (what == LINK)
			rc = refused_link(path, err);
		else if (what == OLD_FILE)
			what = EMPTY_FILE; /* truncated, as O_TRUNC always did */
	}
	/* a device is written where it is: a temporary renamed over /dev/null would replace it */
	if (rc == 0 && (flags & XPF_OUTPUT_VIA_TEMP) && what != DEVICE)
		rc = open_temp(o, err);
	else if (rc == 0 && (what == OLD_FILE || what == LINK) && !(rc = keep_old(o, err)))
		rc = open_in_place(o, NOTHING, err);
	else if (rc == 0)
		rc = open_in_place(o, what, err);
	if (rc < 0) {
		xpf_output_discard(o);
		xpf_output_release(o);
	}
	return rc;
}

int xpf_output_commit(struct xpf_output *o, struct xb_error *err)
{
	enum existing what;
	int rc;

	if (!o->tmp)
		return 0;
	rc = classify(o->path, &what, err);
	if (rc == 0 && (what == OLD_FILE || what == LINK)) {
		if (o->flags & XPF_OUTPUT_KEEP_OLD)
			rc = keep_old(o, err);
		else if (what == LINK)
			rc = refused_link(o->path, err);
	}
	if (rc == 0 && rename(o->tmp, o->path) < 0) {
		int e = errno;

		if (o->old && !rename(o->old, o->path)) {
			free(o->old);
			o->old = NULL;
		}
		rc = xb_error_set(err, -e, "cannot rename '%s' to '%s': %s", o->tmp, o->path,
				  strerror(e));
	}
	if (rc < 0)
		return rc;
	free(o->tmp);
	o->tmp = NULL;
	o->created = false; /* PATH is the result now: discard must not remove it */
	return 0;
}

void xpf_output_discard(struct xpf_output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->created)
		unlink(o->tmp ? o->tmp : o->path);
	o->created = false;
	if (o->old && !o->tmp)
		rename(o->old, o->path);
	free(o->old);
	o->old = NULL;
}

void xpf_output_release(struct xpf_output *o)
{
	free(o->path);
	free(o->tmp);
	free(o->old);
	o->path = o->tmp = o->old = NULL;
}
