/* temp_dirs: a mutex-guarded list of directory paths; the first creation
 * registers the atexit sweep.  Removal is file_tree_remove.  Depends on
 * libc, the array, status and file_tree modules only. */
#include "temp_dirs.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "file_tree.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **dirs;
static size_t n_dirs, cap_dirs;
static bool sweep_registered;

enum status temp_dirs_create(const char *what, char **out,
			     struct error *err)
{
	*out = NULL;
	const char *t = getenv("TMPDIR");
	char *dir = NULL;
	if (asprintf(&dir, "%s/callscope-%s-XXXXXX",
		     t && t[0] == '/' ? t : "/tmp", what ? what : "tmp") < 0)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (!mkdtemp(dir)) {
		enum status st = error_set(err, STATUS_IO, dir,
					   "cannot create a temporary "
					   "directory: %s",
					   strerror(errno));
		free(dir);
		return st;
	}
	char *copy = strdup(dir);
	pthread_mutex_lock(&lock);
	if (!sweep_registered)
		sweep_registered = atexit(temp_dirs_remove_all) == 0;
	bool ok = copy && array_grow((void **)&dirs, &cap_dirs, n_dirs + 1,
				     sizeof(*dirs));
	if (ok)
		dirs[n_dirs++] = copy;
	pthread_mutex_unlock(&lock);
	if (!ok) {
		free(copy);
		file_tree_remove(dir, NULL);
		free(dir);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	*out = dir;
	return STATUS_OK;
}

void temp_dirs_release(const char *dir)
{
	if (!dir)
		return;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_dirs; i++) {
		if (strcmp(dirs[i], dir) == 0) {
			free(dirs[i]);
			dirs[i] = dirs[--n_dirs];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	file_tree_remove(dir, NULL);
}

void temp_dirs_remove_all(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_dirs; i++) {
		file_tree_remove(dirs[i], NULL);
		free(dirs[i]);
	}
	free(dirs);
	dirs = NULL;
	n_dirs = cap_dirs = 0;
	pthread_mutex_unlock(&lock);
}
