/* config_append: add one line to a configuration file (the viewer's
 * "save this setting"), its directories made, on a line of its own.
 * Must not depend on curses or on ui/. */
#include "config.h"

#include "config/config_internal.h"
#include "core/fd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p of the directory part of `path`. */
static enum status make_parents(const char *path, struct error *err)
{
	enum status st = STATUS_OK;
	char *dir = strdup(path);
	if (!dir)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			st = error_set(err, STATUS_IO, path,
				       "cannot create %s: %s", dir,
				       strerror(errno));
			goto out;
		}
		*p = '/';
	}
out:
	free(dir);
	return st;
}

enum status config_append_line(const char *path, const char *line,
			       struct error *err)
{
	enum status st = STATUS_OK;
	char *buf = NULL;
	int fd = -1;
	if (!path || !*path || !line)
		return error_set(err, STATUS_USAGE, path,
				 "config_append_line: NULL argument");
	if (strpbrk(line, "\n\r"))
		return error_set(err, STATUS_USAGE, path,
				 "a config line cannot hold a line break");
	st = make_parents(path, err);
	if (st != STATUS_OK)
		return st;
	fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0)
		return error_set(err, STATUS_IO, path, "%s", strerror(errno));
	struct stat sb;
	char last = '\n';
	if (fstat(fd, &sb) != 0) {
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
		goto out;
	}
	if (sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) != 1)
		last = '\n';
	size_t len = strlen(line);
	buf = malloc(len + 3);
	if (!buf) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	size_t n = 0;
	if (last != '\n')
		buf[n++] = '\n';
	memcpy(buf + n, line, len);
	n += len;
	buf[n++] = '\n';
	int e = fd_write_all(fd, buf, n);
	if (e != 0) {
		st = error_set(err, STATUS_IO, path, "cannot write: %s",
			       e > 0 ? strerror(e) : "no progress");
		goto out;
	}
out:
	if (fd >= 0 && close(fd) != 0 && st == STATUS_OK)
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
	free(buf);
	return st;
}
