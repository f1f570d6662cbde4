/* remote_open: from a URL to a local path that database_open can read.
 * A directory URL (ending in '/') becomes a cache directory holding the
 * files its format needs: the server's listing of the directory (and of
 * its subdirectories) goes to a planner the caller lends (src/open.c: the
 * reader registry), which answers which files to fetch and which may be
 * read by range; net/ knows no format.  Any other URL (an archive, a
 * single-file database) becomes one cached file.  The policy comes from open_options: --offline uses
 * the cache only, --no-cache downloads to a temporary directory removed at
 * exit (temp_dirs), otherwise cached files are revalidated.  file://
 * URLs name local paths and are not copied.  Must not print, exit, or
 * depend on curses or ui/. */
#ifndef CALLSCOPE_REMOTE_OPEN_H
#define CALLSCOPE_REMOTE_OPEN_H

#include <stddef.h>

#include "net/open_options.h"
#include "core/status.h"

/* What the server lists of a directory URL: relative paths. */
struct remote_listing {
	char **files; /* the files ("a.db", "sub/b"), sorted */
	size_t n_files;
	char **dirs; /* the subdirectories ("sub") */
	size_t n_dirs;
	char **listed; /* the directories whose listing was read ("") */
	size_t n_listed;
};

/* How a planned file is fetched. */
enum remote_file_flag {
	/* may stay on the server and be read by range */
	REMOTE_FILE_LAZY = 1u << 0,
	/* unchanged over a complete entry: the file set is as recorded */
	REMOTE_FILE_KEY = 1u << 1,
	/* the same, and no other file is asked for */
	REMOTE_FILE_KEY_ALL = 1u << 2,
};

/* One file of a directory URL to fetch: relative `name` (heap). */
struct remote_file {
	char *name;
	unsigned flags;
};

/* Decides which files a directory URL needs (lent by the caller). */
struct remote_planner {
	/* The files of the directory `url` (redacted, for messages) with
	 * listing `l`: a heap array of heap names (n >= 1), or an error
	 * (STATUS_NOT_DATABASE: nothing there is a database). */
	enum status (*plan)(void *ctx, const char *url,
			    const struct remote_listing *l,
			    struct remote_file **out, size_t *n,
			    struct error *err);
	/* The names to try in a directory that has no listing (heap array
	 * of heap strings). */
	enum status (*guess)(void *ctx, char ***out, size_t *n,
			     struct error *err);
	void *ctx;
};

void remote_files_free(struct remote_file *v, size_t n);

/* The local path for `url` (heap string in *out): downloaded or
 * revalidated as `o` says (NULL: defaults), a directory's files as
 * `planner` says.  Errors name the URL: "not in the cache (--offline)",
 * the planner's (no database here), and every transfer error of
 * http.h. */
enum status remote_open_resolve(const char *url, const struct open_options *o,
				const struct remote_planner *planner,
				char **out, struct error *err);

/* `callscope fetch`: download `url` completely (never lazily) into
 * `dest_dir` (created; NULL: the cache, as remote_open_resolve) and set
 * *out to the path of the database (dest_dir itself for a directory URL,
 * dest_dir/NAME for a file). */
enum status remote_fetch(const char *url, const struct open_options *o,
			 const struct remote_planner *planner,
			 const char *dest_dir, char **out, struct error *err);

/* The local path of a file:// URL ("file:///p", "file://localhost/p"),
 * percent-decoded, as a heap string; NULL when `url` is not such a URL
 * (another host, a NUL byte, not file://). */
char *remote_file_url_path(const char *url);

/* The file name a single-file URL is stored under: its last path
 * segment, percent-decoded, when url_cache_name_ok accepts it, else
 * "download".  Heap string; NULL when out of memory. */
char *remote_url_file_name(const char *url);

#endif
