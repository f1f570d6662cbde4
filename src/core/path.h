/* path: the one "DIR/NAME" join, the regular-file tests and the reading of
 * a whole file that the readers, the caches and the viewer share (each had
 * its own join(), is_file(), dir_has() or fread loop before).  Paths are
 * plain strings; nothing here resolves links or "..".  libc only. */
#ifndef CALLSCOPE_CORE_PATH_H
#define CALLSCOPE_CORE_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

/* "DIR/NAME" in a heap string (always one '/' put between, as
 * printf("%s/%s") does), or NULL when out of memory. */
char *path_join(const char *dir, const char *name);

/* Whether `path` (NULL: false) names a regular file, links followed. */
bool path_is_file(const char *path);

/* Whether DIR/NAME is a regular file (false when out of memory). */
bool path_dir_has_file(const char *dir, const char *name);

/* The rest of stream `f` in a heap buffer *out, NUL-terminated, *len
 * bytes before the NUL: STATUS_OK; STATUS_LIMIT when it holds more than
 * `max` bytes, STATUS_NOMEM, STATUS_IO on a read error (*out NULL then,
 * nothing recorded: the caller says what failed).  The caller closes f. */
enum status file_read_all(FILE *f, size_t max, char **out, size_t *len);

#endif
