/* path: the one "DIR/NAME" join and the regular-file tests the readers,
 * the caches and the viewer share (each had its own join(), is_file() or
 * dir_has() before).  Paths are plain strings; nothing here resolves
 * links or "..".  libc only. */
#ifndef CALLSCOPE_CORE_PATH_H
#define CALLSCOPE_CORE_PATH_H

#include <stdbool.h>

/* "DIR/NAME" in a heap string (always one '/' put between, as
 * printf("%s/%s") does), or NULL when out of memory. */
char *path_join(const char *dir, const char *name);

/* Whether `path` (NULL: false) names a regular file, links followed. */
bool path_is_file(const char *path);

/* Whether DIR/NAME is a regular file (false when out of memory). */
bool path_dir_has_file(const char *dir, const char *name);

#endif
