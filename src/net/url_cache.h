/* url_cache: where downloads live.  The cache root is
 * $XDG_CACHE_HOME/callscope (default ~/.cache/callscope); each URL has a
 * directory ROOT/url/KEY (KEY: 16 hex digits of a 64-bit FNV-1a hash of
 * the URL) holding
 *   entry.json      {"url", "kind": "dir"|"file", "name", "size", "date",
 *                    "complete", "remote"} -- written last, by rename
 *   data/NAME       the files, under their names (a directory URL's files
 *                   make data/ a database directory); a file appears only
 *                   when complete: written as NAME.part, fsync'd, renamed
 *   meta/NAME.json  per file {"etag", "last_modified", "size",
 *                   "complete"}; with "complete": false it describes
 *                   data/NAME.part, so that a resume can check it.
 * Also here: the check that a name a server gave is safe as a path, the
 * list and the clearing of the cache.  Files are replaced only by rename,
 * so a reader never sees half a file.  Must not depend on curl, curses
 * or ui/. */
#ifndef CALLSCOPE_URL_CACHE_H
#define CALLSCOPE_URL_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/open_options.h"
#include "core/status.h"

/* The cache root for `o` (o->cache_dir when set), a heap string.  Fails
 * (STATUS_USAGE) when neither $XDG_CACHE_HOME nor $HOME is set. */
enum status url_cache_root(const struct open_options *o, char **out,
			   struct error *err);

/* The key of `url`: 16 lowercase hex digits and a NUL in `out`. */
void url_cache_key(const char *url, char out[17]);

/* True when `name` (from a server: a listing, experiment.xml, a URL's
 * last segment) is safe as a relative path below a directory: 1 to 255
 * bytes per component, at most 4 components, only letters, digits and
 * "._+-=,@~" plus '/' between components; no "." or ".." component, no
 * leading '.' or '-', no empty component, no trailing '/'. */
bool url_cache_name_ok(const char *name);

/* mkdir -p `path` (mode 0700 for what it creates). */
enum status url_cache_mkdirs(const char *path, struct error *err);

/* mkdir -p the parent directory of `path`. */
enum status url_cache_mkdirs_parent(const char *path, struct error *err);

/* Validators and state of one cached file (meta/NAME.json). */
struct url_cache_file {
	char *etag;
	char *last_modified;
	uint64_t size;
	bool complete;
};

/* Read `path`; STATUS_NOT_FOUND when it does not exist, STATUS_CORRUPT
 * when it is not what write_file wrote (the caller then downloads
 * again). */
enum status url_cache_read_file(const char *path, struct url_cache_file *f,
				struct error *err);

/* Write `path` atomically (temporary file, fsync, rename). */
enum status url_cache_write_file(const char *path,
				 const struct url_cache_file *f,
				 struct error *err);

void url_cache_file_clear(struct url_cache_file *f);

/* One entry.json. */
struct url_cache_entry {
	char *url;      /* redacted */
	char *kind;     /* "dir" or "file" */
	char *name;     /* the local name under data/ ("" for a dir) */
	char *dir;      /* ROOT/url/KEY (filled by url_cache_list) */
	uint64_t size;  /* bytes of all files */
	int64_t date;   /* last complete fetch, seconds since the epoch */
	bool complete;
	bool remote;    /* some files are read remotely (not for --offline) */
	int layout;     /* what the writer fetched: URL_CACHE_LAYOUT, or
			   older (0: written before the field existed) */
};

/* The entries' layout now: 2 since a directory of an older HPCToolkit
 * layout also holds the 2020 profile.db/cct.db/trace.db and records every
 * file it holds (entries of 1 may lack them). */
#define URL_CACHE_LAYOUT 2

enum status url_cache_read_entry(const char *path,
				 struct url_cache_entry *e,
				 struct error *err);
enum status url_cache_write_entry(const char *path,
				  const struct url_cache_entry *e,
				  struct error *err);
void url_cache_entry_clear(struct url_cache_entry *e);

/* Every entry under ROOT/url, sorted by URL; a missing root is an empty
 * list; unreadable entries are skipped. */
enum status url_cache_list(const char *root, struct url_cache_entry **out,
			   size_t *n, struct error *err);
void url_cache_list_free(struct url_cache_entry *entries, size_t n);

/* Remove ROOT/url and ROOT/extract (the archive extraction cache). */
enum status url_cache_clear(const char *root, struct error *err);

/* Write `len` bytes of `data` to `path` atomically (PATH.tmp.PID, fsync,
 * rename). */
enum status url_cache_write_atomic(const char *path, const void *data,
				   size_t len, struct error *err);

#endif
