/* fd: see fd.h.  libc only. */
#include "config.h"

#include "core/fd.h"

#include <errno.h>
#include <unistd.h>

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		if (w == 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}
