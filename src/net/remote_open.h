/* remote_open: from a URL to a local path that database_open can read.
 * A directory URL (ending in '/') becomes a cache directory holding the
 * files its format needs (HPCToolkit v4: meta.db, profile.db, cct.db,
 * trace.db, metrics/; older HPCToolkit: experiment.xml and the files
 * beside it); any other URL (an archive, a single-file database) becomes
 * one cached file.  The policy comes from open_options: --offline uses
 * the cache only, --no-cache downloads to a temporary directory removed at
 * exit (temp_dirs), otherwise cached files are revalidated.  file://
 * URLs name local paths and are not copied.  Must not print, exit, or
 * depend on curses or ui/. */
#ifndef CALLSCOPE_REMOTE_OPEN_H
#define CALLSCOPE_REMOTE_OPEN_H

#include "net/open_options.h"
#include "core/status.h"

/* The local path for `url` (heap string in *out): downloaded or
 * revalidated as `o` says (NULL: defaults).  Errors name the URL: "not in
 * the cache (--offline)", "no HPCToolkit database here (neither meta.db
 * nor experiment.xml)", and every transfer error of http.h. */
enum status remote_open_resolve(const char *url, const struct open_options *o,
				char **out, struct error *err);

/* `callscope fetch`: download `url` completely (never lazily) into
 * `dest_dir` (created; NULL: the cache, as remote_open_resolve) and set
 * *out to the path of the database (dest_dir itself for a directory URL,
 * dest_dir/NAME for a file). */
enum status remote_fetch(const char *url, const struct open_options *o,
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
