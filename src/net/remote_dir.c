/* remote_dir: which files a directory URL needs: HPCToolkit v4's meta.db
 * and the files beside it (metrics/ from the server's listing), else
 * experiment.xml and the per-thread files its listing names; per-thread
 * files an earlier version left in the cache entry are dropped.  Must
 * not print, exit, or depend on curses or ui/. */
#include "config.h"

#include "net/remote_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/array.h"
#include "net/listing.h"
#include "net/url_cache.h"

/* Every file with a record in the entry's meta/ (one level: the older
 * layouts' names), other than `except`, is complete in data/; their
 * sizes are added to j->total.  False leaves j->total as it was. */
static bool recorded_complete(struct job *j, const char *except)
{
	char *meta_dir = remote_join_path(j->base, "meta");
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
		char *dest = remote_join_path(j->data, name);
		char *meta = remote_join_path(meta_dir, rec);
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

/* Names below `sub` ("" or "metrics/") of the listing page at
 * j->url + sub, filtered by `keep`; a missing page is an empty list. */
static enum status list_names(struct job *j, const char *sub,
			      bool (*keep)(const char *name),
			      char ***names, size_t *n_names, struct error *err)
{
	char *url = NULL;
	char *page = NULL;
	size_t len = 0;
	struct listing_entry *ents = NULL;
	size_t n = 0, cap = 0;
	enum status st = http_url_child(j->url, sub, &url, err);
	if (st != STATUS_OK)
		goto out;
	st = http_get_memory(j->s, url, REMOTE_PAGE_MAX, &page, &len, err);
	if (st == STATUS_NOT_FOUND) {
		error_clear(err);
		st = STATUS_OK;
		goto out;
	}
	if (st != STATUS_OK)
		goto out;
	/* the redacted URL: resolves links as well, and names the page in
	 * messages without a password */
	char *shown = http_url_redact(url);
	st = shown ? listing_parse(page, len, shown, j->o->cancel, &ents, &n,
				   err)
		   : error_set(err, STATUS_NOMEM, NULL, "out of memory");
	free(shown);
	if (st != STATUS_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (ents[i].is_dir || !keep(ents[i].name))
			continue;
		char *name = remote_join(sub, ents[i].name);
		if (name && url_cache_name_ok(name) &&
		    *n_names >= REMOTE_MAX_FILES) {
			free(name);
			char *r = http_url_redact(url);
			st = error_set(err, STATUS_LIMIT, r ? r : "URL",
				       "the listing names more than %d files",
				       REMOTE_MAX_FILES);
			free(r);
			goto out;
		}
		if (!name || !url_cache_name_ok(name) ||
		    !array_grow((void **)names, &cap, *n_names + 1,
				sizeof(**names))) {
			bool nomem = !name || url_cache_name_ok(name);
			free(name);
			if (nomem) {
				st = error_set(err, STATUS_NOMEM, NULL,
					       "out of memory");
				goto out;
			}
			continue;
		}
		(*names)[(*n_names)++] = name;
	}
out:
	listing_free(ents, n);
	free(page);
	free(url);
	return st;
}

/* Names of the files below data/`sub` already in the cache, filtered
 * by `keep` (an unchanged database keeps its file set). */
static enum status list_local(struct job *j, const char *sub,
			      bool (*keep)(const char *name), char ***names,
			      size_t *n_names, struct error *err)
{
	char *dir = remote_join_path(j->data, sub);
	if (!dir)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	DIR *d = opendir(dir);
	free(dir);
	size_t cap = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		if (!keep(de->d_name) || remote_ends_with(de->d_name, ".part"))
			continue;
		char *name = remote_join(sub, de->d_name);
		if (!name || !url_cache_name_ok(name) ||
		    *n_names >= REMOTE_MAX_FILES ||
		    !array_grow((void **)names, &cap, *n_names + 1,
				sizeof(**names))) {
			free(name);
			continue;
		}
		(*names)[(*n_names)++] = name;
	}
	if (d)
		closedir(d);
	return STATUS_OK;
}

static bool is_yaml(const char *name)
{
	return remote_ends_with(name, ".yaml") || remote_ends_with(name, ".yml");
}

static bool is_legacy_data(const char *name)
{
	return remote_ends_with(name, ".metric-db") || remote_ends_with(name, ".hpctrace") ||
	       strcmp(name, "experiment-1.mdb") == 0 ||
	       strcmp(name, "experiment.mt") == 0;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Remove the per-thread files of an earlier version that the listing no
 * longer names (their names carry the host and process id, so a new run
 * published at the same URL names new files): the reader would read old
 * and new threads together.  Only in a cache entry, and only files it
 * has a record of: `fetch -o DIR` never removes the user's files. */
static enum status drop_unlisted(struct job *j, char **names, size_t n,
				 struct error *err)
{
	if (!j->base) /* fetch -o DIR: the directory is the user's */
		return STATUS_OK;
	char **sorted = malloc(n * sizeof(*sorted));
	char *meta_dir = remote_join_path(j->base, "meta");
	DIR *d = opendir(j->data);
	enum status st = STATUS_OK;
	if (!sorted || !meta_dir) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	memcpy(sorted, names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_string);
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		if (!is_legacy_data(name) ||
		    bsearch(&name, sorted, n, sizeof(*sorted), by_string))
			continue;
		char *path = remote_join_path(j->data, name);
		char *meta_rel = remote_join(name, ".json");
		char *meta = meta_rel ? remote_join_path(meta_dir, meta_rel) : NULL;
		if (!path || !meta) {
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
		} else if (access(meta, F_OK) == 0) {
			/* fetched by callscope (it has a record) */
			remote_mark_dirty(j);
			unlink(path);
			unlink(meta);
			j->changed = true;
		}
		free(path);
		free(meta_rel);
		free(meta);
		if (st != STATUS_OK)
			break;
	}
out:
	if (d)
		closedir(d);
	free(sorted);
	free(meta_dir);
	return st;
}

/* Fetch every name, optional ones allowed to be missing. */
static enum status get_all(struct job *j, char **names, size_t n,
			   struct error *err)
{
	for (size_t i = 0; i < n; i++) {
		bool present = false;
		enum status st = remote_get_file(j, names[i], true, &present, err);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}

enum status remote_get_directory(struct job *j, struct error *err)
{
	static const char *const v4_optional[] = { "profile.db", "cct.db",
						   "trace.db" };
	static const char *const legacy_known[] = { "experiment-1.mdb",
						    "experiment.mt" };
	char **names = NULL;
	size_t n = 0;
	bool present = false;
	enum status st = remote_get_file(j, "meta.db", true, &present, err);
	if (st != STATUS_OK)
		goto out;
	if (present) {
		j->v4 = true;
		bool unchanged = j->last_unchanged && j->was_complete;
		for (size_t i = 0; i < 3; i++) {
			st = remote_get_file(j, v4_optional[i], true, &present, err);
			if (st != STATUS_OK)
				goto out;
		}
		if (unchanged)
			st = list_local(j, "metrics/", is_yaml, &names, &n,
					err);
		else
			st = list_names(j, "metrics/", is_yaml, &names, &n,
					err);
		if (st != STATUS_OK)
			goto out;
		if (n == 0) {
			st = remote_get_file(j, "metrics/default.yaml", true,
				      &present, err);
			goto out;
		}
		st = get_all(j, names, n, err);
		goto out;
	}
	st = remote_get_file(j, "experiment.xml", true, &present, err);
	if (st != STATUS_OK)
		goto out;
	if (!present) {
		char *r = http_url_redact(j->url);
		st = error_set(err,
			       j->o->offline ? STATUS_NOT_FOUND
					     : STATUS_NOT_DATABASE,
			       r ? r : "URL",
			       j->o->offline
				       ? "not in the cache (--offline)"
				       : "no HPCToolkit database here (neither "
					 "meta.db nor experiment.xml)");
		free(r);
		goto out;
	}
	/* hpcprof rewrites experiment.xml whenever it writes a database: an
	 * unchanged one over a complete entry whose recorded files are all
	 * there means the files beside it are the cached ones (no request
	 * per thread file), as is --offline */
	if (j->o->offline || (j->last_unchanged && j->was_complete &&
			      recorded_complete(j, "experiment.xml")))
		goto out;
	/* the 2020 sparse format's files, beside its experiment.xml */
	for (size_t i = 0; i < 3; i++) {
		st = remote_get_file(j, v4_optional[i], true, &present, err);
		if (st != STATUS_OK)
			goto out;
	}
	st = list_names(j, "", is_legacy_data, &names, &n, err);
	if (st != STATUS_OK)
		goto out;
	if (n == 0) {
		for (size_t i = 0; i < 2; i++) {
			st = remote_get_file(j, legacy_known[i], true, &present, err);
			if (st != STATUS_OK)
				goto out;
		}
		goto out;
	}
	st = get_all(j, names, n, err);
	if (st == STATUS_OK)
		st = drop_unlisted(j, names, n, err);
out:
	free_names(names, n);
	return st;
}
