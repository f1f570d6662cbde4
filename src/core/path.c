/* path: joining a directory and a name, and whether a path is a regular
 * file (path.h).  libc only. */
#include "config.h"

#include "core/path.h"
#include "core/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

bool path_is_file(const char *path)
{
	struct stat sb;
	return path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

enum status file_read_all(FILE *f, size_t max, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	enum status st = STATUS_OK;
	*out = NULL;
	*len = 0;
	for (;;) {
		if (n + 1 >= cap &&
		    !array_grow((void **)&buf, &cap, n + 65536, 1)) {
			st = STATUS_NOMEM;
			break;
		}
		size_t got = fread(buf + n, 1, cap - 1 - n, f);
		n += got;
		if (n > max) {
			st = STATUS_LIMIT;
			break;
		}
		if (got == 0) {
			st = ferror(f) ? STATUS_IO : STATUS_OK;
			break;
		}
	}
	if (st != STATUS_OK) {
		free(buf);
		return st;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return STATUS_OK;
}

bool path_dir_has_file(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	bool ok = path_is_file(p);
	free(p);
	return ok;
}
