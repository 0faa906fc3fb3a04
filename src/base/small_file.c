/* Reading a small file whole into a caller's buffer. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/small_file.h"

ssize_t xb_read_small(const char *path, char *buf, size_t cap)
{
	int fd;
	size_t n = 0;
	ssize_t r;

	if (cap == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (ssize_t)n;
}
