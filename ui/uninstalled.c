/* uninstalled: the demo database and the themes of a callscope run from
 * its build tree (see uninstalled.h).  Knows nothing of curses. */
#include "config.h"

#include "core/path.h"
#include "uninstalled.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The program's own path (/proc/self/exe), malloc'ed, or NULL. */
static char *self_path(void)
{
	size_t cap = 256;
	for (;;) {
		char *buf = malloc(cap);
		if (!buf)
			return NULL;
		ssize_t n = readlink("/proc/self/exe", buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		if (cap > 65536)
			return NULL;
		cap *= 2;
	}
}

/* $var when set and not empty, else the directory `name` beside the
 * program, else NULL; kept in *cache (computed once). */
static const char *lookup(const char *var, const char *name, char **cache,
			  bool *done)
{
	const char *env = getenv(var);
	if (env && *env)
		return env;
	if (*done)
		return *cache;
	*done = true;
	char *self = self_path();
	char *slash = self ? strrchr(self, '/') : NULL;
	char *dir = NULL;
	if (slash) {
		*slash = '\0';
		dir = path_join(self, name);
	}
	free(self);
	if (dir && !is_dir(dir)) {
		free(dir);
		dir = NULL;
	}
	*cache = dir;
	return dir;
}

const char *uninstalled_demo(void)
{
	static char *cache;
	static bool done;
	return lookup("CALLSCOPE_DEMO", "demo", &cache, &done);
}

const char *uninstalled_themes(void)
{
	static char *cache;
	static bool done;
	return lookup("CALLSCOPE_THEME_DIR", "themes", &cache, &done);
}
