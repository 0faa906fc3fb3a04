/* Opening a file a profile names: never blocking, regular files only, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input_file.h"

/* The refusals, for xb_input_refusal(): opens run on the pass's threads too. */
static struct {
	pthread_mutex_t lock;
	char *msg[XB_INPUT_REFUSALS_KEPT];
	char *path[XB_INPUT_REFUSALS_KEPT];
	unsigned int kept, nr;
} refusals = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A refusal: ret, with err's message kept for the views. */
static int refuse(const char *path, int ret, const struct xb_error *err)
{
	unsigned int i;

	pthread_mutex_lock(&refusals.lock);
	for (i = 0; i < refusals.kept; i++)
		if (!strcmp(refusals.path[i], path))
			break;
	if (i == refusals.kept) {
		refusals.nr++;
		if (refusals.kept < XB_INPUT_REFUSALS_KEPT &&
		    (refusals.path[i] = strdup(path)) && (refusals.msg[i] = strdup(err->msg))) {
			refusals.kept++;
		} else if (i < XB_INPUT_REFUSALS_KEPT) {
			free(refusals.path[i]);
			refusals.path[i] = NULL;
		}
	}
	pthread_mutex_unlock(&refusals.lock);
	return ret;
}

const char *xb_input_refusal(unsigned int i, unsigned int *nr)
{
	const char *msg;

	pthread_mutex_lock(&refusals.lock);
	msg = i < refusals.kept ? refusals.msg[i] : NULL;
	if (nr)
		*nr = refusals.nr;
	pthread_mutex_unlock(&refusals.lock);
	return msg;
}

/* What a non-regular file is, for the one line that refuses it. */
static const char *kind_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO: return "a FIFO, ";
	case S_IFCHR: return "a character device, ";
	case S_IFBLK: return "a block device, ";
	case S_IFSOCK: return "a socket, ";
	case S_IFDIR: return "a directory, ";
	default: return "";
	}
}

int xb_input_open(const char *path, uint64_t max, unsigned int flags, uint64_t *size,
		  struct xb_error *err)
{
	struct xb_error local;
	struct stat st;
	int fd, fl, ret;

	if (!err) /* the message is kept for the views even when the caller wants none */
		err = &local;
	/* O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = refuse(path, xb_error_set(err, -EINVAL, "'%s': %snot a regular file", path,
						kind_of(st.st_mode)), err);
		goto fail;
	}
	if (!(flags & XB_INPUT_UNSIZED) && (uint64_t)st.st_size > max) {
		ret = refuse(path, xb_error_set(err, -EFBIG, "'%s': larger than %llu MiB", path,
						(unsigned long long)(max >> 20)), err);
		goto fail;
	}
	if ((flags & XB_INPUT_OWNED) && st.st_uid != 0 && st.st_uid != geteuid()) {
		ret = refuse(path, xb_error_set(err, -EPERM, "'%s': owned by another user (uid %u), "
						"not by you or root", path, (unsigned int)st.st_uid),
			     err);
		goto fail;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		ret = xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
		goto fail;
	}
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
fail:
	close(fd);
	return ret;
}

bool xb_input_refused(int ret)
{
	/* open() with our flags fails with none of these on Linux (EFBIG: not with LFS) */
	return ret == -EINVAL || ret == -EFBIG || ret == -EPERM;
}

int xb_input_read_all(int fd, uint64_t max, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *nb;
	ssize_t r;

	for (;;) {
		if (cap - n < 2) {
			/* never more than max + 2: one byte past the bound says it is exceeded */
			size_t ncap = cap ? cap * 2 : 65536;

			if (ncap > max + 2)
				ncap = (size_t)max + 2;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(buf);
			return (int)r;
		}
		if (!r)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
