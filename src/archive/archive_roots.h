/* archive_roots: which paths of an extracted archive are databases, as
 * the reader registry would say: archive/ sits below the readers, so the
 * caller (src/open.c) hands in a bidder that probes one path and answers
 * how sure the best reader is and which reader that is.  A directory a
 * reader is sure of is a database and is not searched further; a
 * directory only guessed at (a reader's bid from names alone) is one when
 * nothing below it is surer, when the sure files in it are all of its
 * reader (one run in several files: rocpd, Nsight), or when what is below
 * it is all of other readers (a set of measurements: an Extra-P cube
 * set).  Must not depend on curses, ui/ or the readers. */
#ifndef CALLSCOPE_ARCHIVE_ROOTS_H
#define CALLSCOPE_ARCHIVE_ROOTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

/* How sure the best reader is that `path` (a file or a directory) is a
 * database (0..100, 0: no reader), in *who an identity of that reader
 * (compared, never read), and in *merges whether it reads several
 * databases as one run (a directory of a run's per-host directories). */
typedef int (*archive_bidder)(void *ctx, const char *path, const void **who,
			      bool *merges);

/* The databases under directory `dir`, as `bid` says; a bid above `sure`
 * is sure, one of 1..`sure` a guess.  Symbolic links and special files
 * are not followed; the walk stops at depth 64 and after 100,000
 * directories (STATUS_LIMIT).  *out is a malloc'd array of *n paths
 * relative to `dir` ("." for `dir` itself), sorted by strcmp, NULL when
 * none; free it with archive_free_paths (archive_extract.h). */
enum status archive_find_roots(const char *dir, archive_bidder bid,
			       void *ctx, int sure, char ***out, size_t *n,
			       struct error *err);

#endif
