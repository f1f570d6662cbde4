/* archive_open: opening a database that sits inside an archive file
 * (`callscope DB.tar.gz`, `callscope ARCHIVE/INNER/DIR`).  The archive is
 * extracted once into the cache, $XDG_CACHE_HOME/callscope/extract/KEY
 * (~/.cache when XDG_CACHE_HOME is unset), KEY being a hash of the
 * archive's real path, size and modification time, so that a changed
 * archive is extracted again and an unchanged one is reused; or, without
 * the cache, into a temporary directory removed when the model is freed
 * (or at exit).  Must not depend on curses or ui/. */
#ifndef CALLSCOPE_ARCHIVE_OPEN_H
#define CALLSCOPE_ARCHIVE_OPEN_H

#include <stdbool.h>

#include "archive/archive_roots.h"
#include "model/model.h"
#include "core/status.h"

/* Open the database inside the archive file `archive_path`.  `inner` NULL
 * or "" picks the first database root in path order (adding a model
 * warning that names the others and how to pick one when there are
 * several); otherwise `inner` is the directory (or database file, as
 * "db/meta.db") inside the archive to open ("NPB-UPC/database"), refused
 * when it has a ".." component.  The model's
 * path reads `archive_path` or `archive_path/inner`, not the extraction
 * directory.  STATUS_NOT_DATABASE naming the archive when it holds no
 * database (or `inner` is not in it), and the extraction's
 * errors (see archive_extract.h).  `ops->open` opens the extracted
 * database. */
/* How a database found inside an archive is opened (src/open.c passes
 * the registry's local open: archives sit below the format readers). */
typedef enum status (*archive_opener)(const char *path, struct model **out,
				      struct error *err);

/* What the reader registry lends the archive code: the opener, and the
 * bidder that tells the databases (bids above `sure` are sure). */
struct archive_db_ops {
	archive_opener open;
	archive_bidder bid;
	void *ctx;
	int sure;
};

enum status archive_open_database(const char *archive_path, const char *inner,
				  bool use_cache,
				  const struct archive_db_ops *ops,
				  struct model **out, struct error *err);

/* For a path that does not exist: when a prefix of it, ending at a '/',
 * is an archive file (archive_is_archive), split it into that prefix and
 * the rest (without leading slashes).  Both heap strings; false when no
 * prefix is an archive (or out of memory). */
bool archive_split_path(const char *path, char **archive, char **inner);

/* Whether database_open (src/open.h) extracts into the cache (the default, true) or
 * into a temporary directory (`--no-cache`).  Process-wide. */
void archive_open_set_cache(bool use_cache);
bool archive_open_cache(void);

/* The directory extractions of archive `archive_path` are cached in (heap
 * string; NULL with `err` set when neither XDG_CACHE_HOME nor HOME is
 * usable or the archive cannot be stat'ed).  For tests and `info`. */
char *archive_cache_dir(const char *archive_path, struct error *err);

#endif
