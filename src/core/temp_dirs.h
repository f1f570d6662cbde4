/* temp_dirs: the temporary directories of one process (a --no-cache
 * download, an archive extracted without the cache).  Each is created
 * under $TMPDIR (an absolute path, else /tmp), registered, and removed
 * when released, at exit, or by temp_dirs_remove_all() -- which the
 * program calls before it dies of SIGTERM or SIGHUP, since exit handlers
 * do not run then.  When the process dies without any of those (SIGKILL,
 * a crash, a signal at a moment it cannot clean up), a janitor process
 * started with each directory removes it.  Thread-safe.  Must not depend
 * on curses or ui/. */
#ifndef CALLSCOPE_TEMP_DIRS_H
#define CALLSCOPE_TEMP_DIRS_H

#include "core/status.h"

/* A new directory $TMPDIR/callscope-WHAT-XXXXXX (mode 0700), registered
 * for removal; *out is malloc'd. */
enum status temp_dirs_create(const char *what, char **out,
			     struct error *err);

/* Remove `dir` (one that temp_dirs_create returned) now, and forget it. */
void temp_dirs_release(const char *dir);

/* Remove every registered directory (also registered with atexit). */
void temp_dirs_remove_all(void);

#endif
