/* remote_dir: the files of a directory URL.  Which files, and which may
 * stay on the server, is the planner's answer over the server's listing
 * (the caller's: the reader registry); this file fetches them, records
 * the plan, and removes from the cache entry the files an earlier
 * version had that the plan no longer names.  A complete entry whose
 * plan has a key file (rewritten with every database) is revalidated
 * from the key: unchanged, the recorded files are revalidated without a
 * listing (REMOTE_FILE_KEY) or taken as they are (REMOTE_FILE_KEY_ALL).
 * Must not print, exit, or depend on curses or ui/. */
#include "config.h"

#include "core/path.h"
#include "net/remote_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/array.h"
#include "net/url_cache.h"

#define KEYS (REMOTE_FILE_KEY | REMOTE_FILE_KEY_ALL)

/* Every file with a record in the entry's meta/ (one level), other than
 * `except`, is complete in data/; their sizes are added to j->total.
 * False leaves j->total as it was. */
static bool recorded_complete(struct job *j, const char *except)
{
	char *meta_dir = path_join(j->base, "meta");
	DIR *d = meta_dir ? opendir(meta_dir) : NULL;
	uint64_t total = 0;
	bool ok = d != NULL;
	struct dirent *de;
	while (ok && (de = readdir(d)) != NULL) {
		const char *rec = de->d_name;
		size_t len = strlen(rec);
		if (len <= 5 || strcmp(rec + len - 5, ".json") != 0)
			continue;
		char *name = strndup(rec, len - 5);
		if (!name || strcmp(name, except) == 0) {
			ok = name != NULL;
			free(name);
			continue;
		}
		char *dest = path_join(j->data, name);
		char *meta = path_join(meta_dir, rec);
		uint64_t size = 0;
		ok = dest && meta && remote_have_complete(dest, meta, &size);
		total += size;
		free(dest);
		free(meta);
		free(name);
	}
	if (d)
		closedir(d);
	free(meta_dir);
	if (ok)
		j->total += total;
	return ok;
}

static bool planned(const struct remote_file *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return true;
	return false;
}

/* Remove the files below data/`rel` that callscope fetched (they have a
 * record in meta/) and the plan does not name: a new run published at the
 * same URL has new per-thread names, and the reader would read old and
 * new together.  Only in a cache entry: `fetch -o DIR` never removes the
 * user's files. */
static enum status drop_unplanned(struct job *j, const char *rel,
				  unsigned depth, const struct remote_file *v,
				  size_t n, struct error *err)
{
	char *dir = rel[0] ? path_join(j->data, rel) : strdup(j->data);
	DIR *d = dir ? opendir(dir) : NULL;
	enum status st = dir ? STATUS_OK
			     : error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	struct dirent *de;
	while (st == STATUS_OK && d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char *name = rel[0] ? path_join(rel, de->d_name)
				    : strdup(de->d_name);
		char *path = name ? path_join(j->data, name) : NULL;
		char *meta = NULL;
		struct stat sb;
		if (!path || remote_meta_path(j, name, &meta, err) != STATUS_OK)
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
		else if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode) &&
			 depth < REMOTE_LIST_DEPTH)
			st = drop_unplanned(j, name, depth + 1, v, n, err);
		else if (S_ISREG(sb.st_mode) && !planned(v, n, name) &&
			 access(meta, F_OK) == 0) {
			remote_mark_dirty(j);
			unlink(path);
			unlink(meta);
			j->changed = true;
		}
		free(name);
		free(path);
		free(meta);
	}
	if (d)
		closedir(d);
	free(dir);
	return st;
}

/* Fetch every file of the plan but `done` (already fetched); the ones
 * the server lacks are taken out of the plan. */
static enum status get_planned(struct job *j, struct remote_file *v,
			       size_t *n, const char *done, struct error *err)
{
	size_t k = 0;
	enum status st = STATUS_OK;
	for (size_t i = 0; i < *n; i++) {
		bool present = true;
		if (st == STATUS_OK && (!done || strcmp(v[i].name, done) != 0))
			st = remote_get_file(j, v[i].name, v[i].flags, &present,
					     err);
		if (present)
			v[k++] = v[i];
		else
			free(v[i].name);
	}
	*n = k;
	return st;
}

/* A complete entry with a recorded plan: the key file revalidated; when
 * unchanged, *done and the recorded files as the plan (KEY: each
 * revalidated; KEY_ALL: taken as they are when all are complete).
 * *key is the key's name when it was fetched (heap), else NULL. */
static enum status by_key(struct job *j, struct remote_file **plan,
			  size_t *n, bool *done, char **key,
			  struct error *err)
{
	*done = false;
	*key = NULL;
	struct remote_file *rec = NULL;
	size_t n_rec = 0;
	if (!j->was_complete || !remote_plan_read(j, &rec, &n_rec))
		return STATUS_OK;
	const struct remote_file *k = NULL;
	for (size_t i = 0; i < n_rec && !k; i++)
		if (rec[i].flags & KEYS)
			k = &rec[i];
	enum status st = STATUS_OK;
	bool present = false;
	if (k)
		st = remote_get_file(j, k->name, k->flags, &present, err);
	if (st == STATUS_OK && present && !(*key = strdup(k->name)))
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (st != STATUS_OK || !present || !j->last_unchanged) {
		remote_files_free(rec, n_rec);
		return st;
	}
	if ((k->flags & REMOTE_FILE_KEY_ALL) && recorded_complete(j, k->name)) {
		*done = true;
	} else if (k->flags & REMOTE_FILE_KEY) {
		st = get_planned(j, rec, &n_rec, *key, err);
		*done = st == STATUS_OK;
	}
	if (*done) {
		*plan = rec;
		*n = n_rec;
	} else {
		remote_files_free(rec, n_rec);
	}
	return st;
}

/* No listing: the planner's guesses fetched by name, the ones the
 * server has become the listing. */
static enum status guess_files(struct job *j, struct remote_listing *l,
			       struct error *err)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	enum status st = j->planner->guess(j->planner->ctx, &names, &n, err);
	for (size_t i = 0; st == STATUS_OK && i < n; i++) {
		bool present = false;
		st = remote_get_file(j, names[i], 0, &present, err);
		if (st != STATUS_OK || !present)
			continue;
		if (!array_grow((void **)&l->files, &cap, l->n_files + 1,
				sizeof(*l->files)))
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
		else
			l->files[l->n_files++] = names[i], names[i] = NULL;
	}
	array_free_each(names, n);
	return st;
}

/* The listing, the plan over it, its files. */
static enum status by_listing(struct job *j, const char *key,
			      struct remote_file **plan, size_t *n,
			      struct error *err)
{
	struct remote_listing l;
	enum status st = remote_list_tree(j, &l, err);
	if (st == STATUS_OK && l.n_listed == 0)
		st = guess_files(j, &l, err);
	char *shown = http_url_redact(j->url);
	if (st == STATUS_OK)
		st = j->planner->plan(j->planner->ctx, shown ? shown : "URL",
				      &l, plan, n, err);
	free(shown);
	remote_listing_clear(&l);
	if (st == STATUS_OK)
		st = get_planned(j, *plan, n, key, err);
	return st;
}

enum status remote_get_directory(struct job *j, struct error *err)
{
	if (!j->planner)
		return error_set(err, STATUS_USAGE, NULL,
				 "remote_get_directory: no planner");
	struct remote_file *plan = NULL;
	size_t n = 0;
	bool done = false;
	char *key = NULL;
	enum status st = by_key(j, &plan, &n, &done, &key, err);
	if (st == STATUS_OK && !done)
		st = by_listing(j, key, &plan, &n, err);
	if (st == STATUS_OK && n == 0) {
		char *r = http_url_redact(j->url);
		st = error_set(err, STATUS_NOT_DATABASE, r ? r : "URL",
			       "none of the files the listing names is on "
			       "the server");
		free(r);
	}
	if (st == STATUS_OK && j->base && !done)
		st = drop_unplanned(j, "", 1, plan, n, err);
	if (st == STATUS_OK)
		st = remote_plan_write(j, plan, n, err);
	remote_files_free(plan, n);
	free(key);
	return st;
}
