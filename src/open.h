/* open: from what the user names to a model.  A path (a database
 * directory or file), an archive or a path inside one (ARCHIVE/INNER), a
 * URL (http, https, file, sftp, scp; see net/remote_open.h), or several
 * paths that one format reads as one run (rocpd databases of the
 * processes of a run).  Each local path is probed once (formats/reader.h)
 * and the highest bidder opens it; an archive no reader takes is
 * extracted and the database inside opened.  Sits above formats/, net/
 * and archive/, below views/.  Must not depend on curses or ui/. */
#ifndef CALLSCOPE_OPEN_H
#define CALLSCOPE_OPEN_H

#include <stddef.h>

#include "archive/archive_open.h"
#include "core/status.h"
#include "formats/reader.h"
#include "model/model.h"
#include "net/open_options.h"
#include "net/remote_open.h"

/* Open any supported database.  STATUS_NOT_FOUND when the path does not
 * exist, STATUS_NOT_DATABASE when no reader bids (the message lists the
 * formats compiled in).  `path` may be a URL, opened with the default
 * open_options. */
enum status database_open(const char *path, struct model **out,
			  struct error *err);

/* The same with the options of a URL open (cache policy, limits, cancel,
 * progress); `o` NULL means the defaults.  For a local path only
 * `o->no_cache` is used: an archive (or ARCHIVE/INNER) is then extracted
 * into a temporary directory instead of the cache's extract/; so is an
 * archive a URL names.  database_open() follows archive_open_cache(). */
enum status database_open_with(const char *path, const struct open_options *o,
			       struct model **out, struct error *err);

/* Several paths (or URLs) as one input, with reader options (`ro` NULL:
 * none).  One path is database_open_with().  Several must all be taken by
 * the same reader, and that reader must merge (READER_CAP_MERGE);
 * otherwise STATUS_USAGE with one line saying why.  Archives open alone. */
enum status database_open_paths(const char *const *paths, size_t n_paths,
				const struct open_options *o,
				const struct reader_options *ro,
				struct model **out, struct error *err);

/* The registry's opener and bidder for the databases inside an archive
 * (archive_open_database), for tests and tools. */
const struct archive_db_ops *database_archive_ops(void);

/* The directory of an opened database's files: the model's local path (an
 * archive's extraction, a URL's cached copy), else `shown` (the path the
 * user gave), without a file name such as meta.db or experiment.xml (a
 * path that names a file gives its directory, "." for a bare file name).
 * Heap string; NULL when out of memory or when there is no path. */
char *database_files_dir(const struct model *m, const char *shown);

#endif
