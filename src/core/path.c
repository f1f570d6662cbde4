/* path: joining a directory and a name, and whether a path is a regular
 * file (path.h).  libc only. */
#include "config.h"

#include "core/path.h"

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

bool path_dir_has_file(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	bool ok = path_is_file(p);
	free(p);
	return ok;
}
