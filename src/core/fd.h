/* fd: the write of a whole buffer to a file descriptor, again after EINTR
 * and short writes, that the caches, the fetcher and the configuration
 * writer share (each had its own loop before).  libc only. */
#ifndef CALLSCOPE_CORE_FD_H
#define CALLSCOPE_CORE_FD_H

#include <stddef.h>

/* Write the `len` bytes at `buf` to `fd`: 0 when all are written, else
 * the errno of the write that failed, or -1 when a write wrote nothing. */
int fd_write_all(int fd, const void *buf, size_t len);

#endif
