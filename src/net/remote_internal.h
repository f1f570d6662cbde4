/* remote_internal: what the files of remote_open share: one open in
 * progress (struct job) and the steps each file does for the others.
 * remote_open.c decides where an open goes (the cache entry, --output,
 * --offline), remote_get.c fetches or leaves remote one file,
 * remote_dir.c fetches a directory URL's files as the caller's planner
 * says over the listing remote_list.c reads (and records the plan).
 * Private to net/. */
#ifndef CALLSCOPE_REMOTE_INTERNAL_H
#define CALLSCOPE_REMOTE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/http.h"
#include "net/open_options.h"
#include "net/remote_open.h"
#include "core/status.h"

/* Largest listing page or experiment.xml read into memory. */
#define REMOTE_PAGE_MAX ((size_t)64 << 20)
/* Most files fetched for one directory URL. */
#define REMOTE_MAX_FILES 100000
/* How deep, and how many, subdirectories of a directory URL are listed. */
#define REMOTE_LIST_DEPTH 3
#define REMOTE_LIST_DIRS 256

/* One open in progress. */
struct job {
	const char *url;     /* the directory or file URL */
	const struct open_options *o;
	struct http_session *s;
	char *base;          /* ROOT/url/KEY; NULL for --output */
	char *data;          /* where the files go */
	uint64_t total;      /* bytes of all files */
	bool changed;        /* a file was (re)downloaded */
	bool entry_dirty;    /* entry.json marked incomplete */
	bool was_complete;   /* entry.json was complete before this open */
	bool last_unchanged; /* the last get_file was a 304 */
	bool remote;         /* a file is read remotely (lazily) */
	const struct remote_planner *planner; /* a directory's files */
};

/* a followed by b (heap; "a/b" is core/path.h's path_join); NULL when
 * out of memory. */
char *remote_join(const char *a, const char *b);

bool remote_ends_with(const char *s, const char *suffix);

/* A complete local copy of `dest` per its record `meta` (of *size bytes,
 * when `size` is not NULL). */
bool remote_have_complete(const char *dest, const char *meta, uint64_t *size);

/* A file of the entry (the job `ctx`) is about to be replaced: until the
 * end of the open, the entry is not a consistent database for --offline. */
void remote_mark_dirty(void *ctx);

/* The record of data file `name`: BASE/meta/NAME.json in *meta (heap),
 * its directory made; NULL without a cache entry (--output). */
enum status remote_meta_path(const struct job *j, const char *name,
			     char **meta, struct error *err);

/* Download one file of the job (a name relative to the URL), or leave
 * it on the server when `flags` has REMOTE_FILE_LAZY and the server does
 * ranges.  A file the server does not have is no error: *present
 * false. */
enum status remote_get_file(struct job *j, const char *name, unsigned flags,
			    bool *present, struct error *err);

/* Every file the directory URL j->url needs (j->planner), into j->data;
 * the plan recorded in the entry (BASE/plan) for the next open. */
enum status remote_get_directory(struct job *j, struct error *err);

/* The plan recorded in the entry of `j` (false: none, or unreadable). */
bool remote_plan_read(const struct job *j, struct remote_file **out,
		      size_t *n);
enum status remote_plan_write(const struct job *j,
			      const struct remote_file *v, size_t n,
			      struct error *err);

/* The listing of j->url and of its subdirectories (REMOTE_LIST_DEPTH,
 * REMOTE_LIST_DIRS); a directory without a listing is not in
 * out->listed.  Free with remote_listing_clear. */
enum status remote_list_tree(struct job *j, struct remote_listing *out,
			     struct error *err);
void remote_listing_clear(struct remote_listing *l);

#endif
