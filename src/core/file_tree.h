/* file_tree: removing a directory tree safely -- the one place that
 * deletes what callscope wrote (cache entries, extractions, temporary
 * downloads).  Never follows a symbolic link, never crosses into another
 * file system.  Must not depend on curses or ui/. */
#ifndef CALLSCOPE_FILE_TREE_H
#define CALLSCOPE_FILE_TREE_H

#include "core/status.h"

/* Remove `path` and everything below it (a file or a link: just it).  A
 * missing path is fine.  On failure the error names the path; what could
 * be removed is gone. */
enum status file_tree_remove(const char *path, struct error *err);

#endif
