/* Opening a file a profile names: never blocking, regular files only, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input_file.h"

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
	struct stat st;
	int fd, fl, ret;

	/* O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		ret = xb_error_set(err, -errno, "'%s': %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = xb_error_set(err, -EINVAL, "'%s': %snot a regular file", path,
				   kind_of(st.st_mode));
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		ret = xb_error_set(err, -EFBIG, "'%s': larger than %llu MiB", path,
				   (unsigned long long)(max >> 20));
		goto fail;
	}
	if ((flags & XB_INPUT_OWNED) && st.st_uid != 0 && st.st_uid != geteuid()) {
		ret = xb_error_set(err, -EPERM, "'%s': owned by another user (uid %u), not by you "
				   "or root", path, (unsigned int)st.st_uid);
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
