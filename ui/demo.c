/* demo: the database `callscope` opens without an argument.  Run from its
 * build tree, the demo that `make demo` writes beside the program (or
 * $CALLSCOPE_DEMO: uninstalled.c).  Installed, the demo of the user's
 * cache, $XDG_CACHE_HOME/callscope/demo, written the first time by the
 * installed generator ($(pkglibexecdir)/gen-v4db --demo), which says so
 * on stderr.  Knows nothing of curses. */
#include "config.h"

#include "core/path.h"
#include "demo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uninstalled.h"
#include "core/file_tree.h"
#include "net/url_cache.h"

static bool exists(const char *dir, const char *file)
{
	char *p = NULL;
	struct stat sb;
	bool ok = (p = path_join(dir, file)) && stat(p, &sb) == 0;
	free(p);
	return ok;
}

/* Run `gen` --demo -o `dir`; true when it succeeded. */
static bool generate(const char *gen, const char *dir)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		FILE *null = freopen("/dev/null", "w", stdout);
		(void)null;
		execl(gen, gen, "--demo", "-o", dir, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

const char *demo_database(void)
{
	const char *d = uninstalled_demo();
	if (d)
		return d;
#ifdef CALLSCOPE_DEMO_GEN
	static char *path;
	if (path)
		return path;
	char *root = NULL, *tmp = NULL;
	struct error err = {0};
	if (access(CALLSCOPE_DEMO_GEN, X_OK) != 0 ||
	    url_cache_root(NULL, &root, &err) != STATUS_OK ||
	    asprintf(&path, "%s/demo", root) < 0) {
		error_clear(&err);
		free(root);
		path = NULL;
		return NULL;
	}
	if (!exists(path, "meta.db")) {
		fprintf(stderr, "callscope: writing the demo database to %s\n",
			path);
		bool ok = url_cache_mkdirs(root, &err) == STATUS_OK &&
			  asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) >= 0 &&
			  generate(CALLSCOPE_DEMO_GEN, tmp) &&
			  rename(tmp, path) == 0;
		if (!ok && tmp)
			(void)file_tree_remove(tmp, NULL);
		free(tmp);
		error_clear(&err);
		if (!ok && !exists(path, "meta.db")) {
			free(root);
			free(path);
			path = NULL;
			return NULL;
		}
	}
	free(root);
	return path;
#else
	return NULL;
#endif
}
