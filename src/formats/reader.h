/* reader: the interface every format reader implements, and the registry
 * that picks one for a path.
 *
 * Readers "bid" on a path (libarchive style): each returns how sure it is
 * that it can read it, 0 meaning not at all; the highest bid opens it.  A
 * reader fills a model through the builder in model.h and never prints or
 * exits.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_READER_H
#define CALLSCOPE_READER_H

#include "model/model.h"
#include "net/open_options.h"
#include "core/status.h"

struct reader {
	const char *name;        /* "hpctoolkit-v4" */
	const char *description; /* one line for `callscope --help` */
	/* 0..100: how sure the reader is that it can read `path` (a file or
	 * a directory).  Must only look at names and the first bytes. */
	int (*bid)(const char *path);
	/* Open `path` into a new model.  On failure returns the status with
	 * a message naming the file and the problem in `err`. */
	enum status (*open)(const char *path, struct model **out,
			    struct error *err);
};

/* The readers compiled in, NULL-terminated. */
const struct reader *const *reader_all(void);

/* Open any supported database.  STATUS_NOT_FOUND when the path does not
 * exist, STATUS_NOT_DATABASE when no reader bids.  `path` may also be a
 * URL (http, https, file, sftp, scp; see remote_open.h), opened with the
 * default open_options. */
enum status database_open(const char *path, struct model **out,
			  struct error *err);

/* The same with the options of a URL open (cache policy, limits, cancel,
 * progress); `o` NULL means the defaults.  For a local path only
 * `o->no_cache` is used: an archive (or ARCHIVE/INNER) is then extracted
 * into a temporary directory instead of the cache's extract/; so is an
 * archive a URL names.  database_open() follows archive_open_cache(). */
enum status database_open_with(const char *path, const struct open_options *o,
			       struct model **out, struct error *err);

#endif
