/* remote_open: URL -> local path.  Decides where an open goes (the
 * cache, a temporary directory, a --output directory, the cache only for
 * --offline) and records complete entries; which files a directory URL
 * needs is remote_dir.c's, one file's transfer remote_get.c's.  Must not
 * print, exit, or depend on curses or ui/. */
#include "config.h"

#include "core/path.h"
#include "net/remote_open.h"

#include "net/remote_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/blob.h"
#include "net/fetch.h"
#include "core/temp_dirs.h"
#include "net/url_cache.h"

char *remote_file_url_path(const char *url)
{
	if (http_url_scheme(url) != HTTP_SCHEME_FILE)
		return NULL;
	/* libcurl also takes "file://127.0.0.1/": we take only an empty
	 * host and localhost, as before */
	const char *p = url + strlen("file://");
	if (*p != '/' && strncasecmp(p, "localhost/", 10) != 0)
		return NULL;
	char *path = http_url_path(url);
	char *out = path ? http_url_decode(path, strlen(path)) : NULL;
	free(path);
	return out;
}

char *remote_url_file_name(const char *url)
{
	char *path = NULL, *name = NULL;
	if (http_is_url(url)) {
		path = http_url_path(url);
	} else {
		path = strndup(url, strcspn(url, "?#"));
		if (!path)
			return NULL;
	}
	if (path) {
		const char *seg = strrchr(path, '/');
		seg = seg ? seg + 1 : path;
		name = http_url_decode(seg, strlen(seg));
	}
	free(path);
	if (name && !strchr(name, '/') && url_cache_name_ok(name))
		return name;
	free(name);
	return strdup("download");
}

/* The cache directory of `url` (ROOT/url/KEY) for `o`; for --no-cache a
 * new temporary root (temp_dirs: removed at exit). */
static enum status entry_base(const char *url, const struct open_options *o,
			      char **out, struct error *err)
{
	*out = NULL;
	char *root = NULL;
	enum status st = STATUS_OK;
	if (o->no_cache) {
		st = temp_dirs_create("download", &root, err);
		if (st != STATUS_OK)
			return st;
	} else {
		st = url_cache_root(o, &root, err);
		if (st != STATUS_OK)
			return st;
	}
	char key[17];
	url_cache_key(url, key);
	if (asprintf(out, "%s/url/%s", root, key) < 0) {
		*out = NULL;
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	free(root);
	return st;
}

/* An entry's record says it is complete and for this URL. */
static bool entry_complete(const char *base, const char *url,
			   struct url_cache_entry *e)
{
	char *ep = path_join(base, "entry.json");
	char *r = http_url_redact(url);
	bool ok = ep && r && url_cache_read_entry(ep, e, NULL) == STATUS_OK;
	if (ok && (!e->complete || strcmp(e->url, r) != 0)) {
		url_cache_entry_clear(e);
		ok = false;
	}
	free(ep);
	free(r);
	return ok;
}

static enum status write_entry(struct job *j, bool dir, const char *name,
			       struct error *err)
{
	if (!j->base)
		return STATUS_OK;
	char *ep = path_join(j->base, "entry.json");
	char *r = http_url_redact(j->url);
	/* The entry owns its strings (url_cache_entry_clear frees them). */
	char *kind = strdup(dir ? "dir" : "file");
	char *local = strdup(dir ? "" : name);
	enum status st = STATUS_OK;
	if (!ep || !r || !kind || !local) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	struct url_cache_entry e = {
		.url = r,
		.kind = kind,
		.name = local,
		.size = j->total,
		.date = (int64_t)time(NULL),
		.complete = true,
		.remote = j->remote,
		.layout = URL_CACHE_LAYOUT,
	};
	st = url_cache_write_entry(ep, &e, err);
out:
	free(ep);
	free(r);
	free(kind);
	free(local);
	return st;
}

/* --offline on an entry whose large files were read remotely: each such
 * file (the one `name` of a file entry, or the files of a directory its
 * recorded plan reads by range) that is not wholly in data/ is read from
 * its persisted blocks; a block that is not there is an error naming the
 * URL. */
static enum status register_offline(struct job *j, const char *name,
				    struct error *err)
{
	struct remote_file *plan = NULL;
	size_t n = 0;
	if (name) {
		plan = calloc(1, sizeof(*plan));
		if (!plan || !(plan[0].name = strdup(name))) {
			free(plan);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
		plan[0].flags = REMOTE_FILE_LAZY;
		n = 1;
	} else {
		remote_plan_read(j, &plan, &n);
	}
	enum status st = STATUS_OK;
	for (size_t i = 0; i < n && st == STATUS_OK; i++) {
		if (!(plan[i].flags & REMOTE_FILE_LAZY))
			continue;
		char *dest = path_join(j->data, plan[i].name);
		char *url = NULL;
		if (name)
			url = strdup(j->url);
		else
			st = http_url_child(j->url, plan[i].name, &url, err);
		char *r = url ? http_url_redact(url) : NULL;
		struct stat sb;
		if (st == STATUS_OK && (!dest || !r)) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		} else if (st == STATUS_OK && stat(dest, &sb) == 0 &&
			   S_ISREG(sb.st_mode)) {
			blob_unregister(dest);
		} else if (st == STATUS_OK) {
			st = blob_register_offline(dest, r, err);
			if (st == STATUS_NOT_FOUND) {
				/* never read remotely: not on the server */
				error_clear(err);
				st = STATUS_OK;
			}
		}
		free(dest);
		free(url);
		free(r);
	}
	remote_files_free(plan, n);
	return st;
}

static enum status nomem(struct error *err)
{
	return error_set(err, STATUS_NOMEM, NULL, "out of memory");
}

/* Where the job's files go: `dest_dir` (--output), else the data/ of the
 * URL's cache entry. */
static enum status job_place(struct job *j, const char *dest_dir,
			     struct error *err)
{
	if (dest_dir) {
		j->data = strdup(dest_dir);
	} else {
		enum status st = entry_base(j->url, j->o, &j->base, err);
		if (st != STATUS_OK)
			return st;
		j->data = path_join(j->base, "data");
	}
	return j->data ? STATUS_OK : nomem(err);
}

/* --offline on a file URL that has no entry: "URL/" may be cached as a
 * directory; then *dir_url is that URL (heap). */
static enum status offline_as_directory(const struct job *j, char **dir_url,
					struct error *err)
{
	*dir_url = NULL;
	struct url_cache_entry e;
	if (!j->base)
		return STATUS_OK;
	if (entry_complete(j->base, j->url, &e)) {
		url_cache_entry_clear(&e);
		return STATUS_OK;
	}
	char *u = remote_join(j->url, "/");
	if (!u)
		return nomem(err);
	char *dir_base = NULL;
	if (entry_base(u, j->o, &dir_base, NULL) == STATUS_OK &&
	    entry_complete(dir_base, u, &e)) {
		url_cache_entry_clear(&e);
		*dir_url = u;
		u = NULL;
	}
	free(dir_base);
	free(u);
	return STATUS_OK;
}

/* --offline: the entry as it is, its remotely read files registered
 * from their persisted blocks. */
static enum status open_offline(struct job *j, bool dir, const char *name,
				char **out, struct error *err)
{
	struct url_cache_entry e;
	if (!j->base || !entry_complete(j->base, j->url, &e))
		return http_url_error(err, STATUS_NOT_FOUND, j->url,
				      "not in the cache (--offline)");
	bool was_dir = strcmp(e.kind, "dir") == 0;
	bool remote = e.remote;
	url_cache_entry_clear(&e);
	if (was_dir != dir)
		return error_set(err, STATUS_CORRUPT, j->base,
				 "cache entry of the wrong kind");
	if (remote) {
		enum status st = register_offline(j, dir ? NULL : name, err);
		if (st != STATUS_OK)
			return st;
	}
	*out = dir ? strdup(j->data) : path_join(j->data, name);
	return *out ? STATUS_OK : nomem(err);
}

/* A directory URL: the files it needs, then the entry.  An entry of an
 * older layout may lack files: revalidated file by file. */
static enum status open_directory(struct job *j, char **out,
				  struct error *err)
{
	struct url_cache_entry e;
	j->was_complete = j->base && entry_complete(j->base, j->url, &e);
	if (j->was_complete) {
		j->was_complete = e.layout == URL_CACHE_LAYOUT;
		url_cache_entry_clear(&e);
	}
	enum status st = remote_get_directory(j, err);
	if (st == STATUS_OK)
		st = write_entry(j, true, "", err);
	if (st == STATUS_OK && !(*out = strdup(j->data)))
		st = nomem(err);
	return st;
}

/* A file URL, fetched whole into data/NAME.  A server that redirects it
 * to "URL/" ("http://host/db" to "http://host/db/") had a directory
 * after all: *dir_url is then that URL (heap) and nothing is kept. */
static enum status open_file(struct job *j, const char *name, char **out,
			     char **dir_url, struct error *err)
{
	*dir_url = NULL;
	char *dest = path_join(j->data, name);
	char *meta = NULL;
	struct fetch_result res = { 0 };
	enum status st = dest ? remote_meta_path(j, name, &meta, err)
			      : nomem(err);
	if (st == STATUS_OK) {
		struct fetch_request r = {
			.url = j->url,
			.dest = dest,
			.meta_path = meta,
			.name = name,
			.max_size = j->o->max_size,
		};
		st = fetch_file(j->s, &r, &res, err);
	}
	if (st == STATUS_OK && res.effective_url &&
	    remote_ends_with(res.effective_url, "/")) {
		unlink(dest);
		if (meta)
			unlink(meta);
		if (!(*dir_url = remote_join(j->url, "/")))
			st = nomem(err);
	} else if (st == STATUS_OK) {
		j->total = res.size;
		st = write_entry(j, false, name, err);
		if (st == STATUS_OK) {
			*out = dest;
			dest = NULL;
		}
	}
	fetch_result_clear(&res);
	free(meta);
	free(dest);
	return st;
}

/* Resolve or fetch `url` (a directory when it ends in '/').  `dest_dir`
 * non-NULL: --output. */
static enum status materialize(const char *url, const struct open_options *o,
			       const struct remote_planner *planner,
			       const char *dest_dir, char **out,
			       struct error *err)
{
	*out = NULL;
	struct job j = { .url = url, .o = o, .planner = planner };
	char *name = NULL, *again = NULL;
	bool dir = remote_ends_with(url, "/");
	enum status st = job_place(&j, dest_dir, err);
	if (st == STATUS_OK && !dir && !(name = remote_url_file_name(url)))
		st = nomem(err);
	if (st == STATUS_OK && o->offline && !dir)
		st = offline_as_directory(&j, &again, err);
	if (st != STATUS_OK || again)
		goto out;
	if (o->offline) {
		st = open_offline(&j, dir, name, out, err);
		goto out;
	}
	st = url_cache_mkdirs(j.data, err);
	if (st == STATUS_OK)
		st = http_session_new(o, &j.s, err);
	if (st == STATUS_OK)
		st = dir ? open_directory(&j, out, err)
			 : open_file(&j, name, out, &again, err);
out:
	http_session_free(j.s);
	free(j.base);
	free(j.data);
	free(name);
	if (st == STATUS_OK && again)
		st = materialize(again, o, planner, dest_dir, out, err);
	free(again);
	return st;
}

enum status remote_open_resolve(const char *url, const struct open_options *o,
				const struct remote_planner *planner,
				char **out, struct error *err)
{
	*out = NULL;
	struct open_options defaults;
	if (!o) {
		open_options_init(&defaults);
		o = &defaults;
	}
	if (http_url_scheme(url) == HTTP_SCHEME_FILE) {
		*out = remote_file_url_path(url);
		if (!*out)
			return error_set(err, STATUS_USAGE, url,
					 "only file:///path and "
					 "file://localhost/path name local "
					 "files");
		return STATUS_OK;
	}
	enum status st = http_check_url(url, err);
	if (st != STATUS_OK)
		return st;
	return materialize(url, o, planner, NULL, out, err);
}

enum status remote_fetch(const char *url, const struct open_options *o,
			 const struct remote_planner *planner,
			 const char *dest_dir, char **out, struct error *err)
{
	*out = NULL;
	struct open_options opts;
	if (o)
		opts = *o;
	else
		open_options_init(&opts);
	opts.download = true;
	enum status st = http_check_url(url, err);
	if (st != STATUS_OK)
		return st;
	if (dest_dir) {
		if (opts.offline)
			return error_set(err, STATUS_USAGE, NULL,
					 "--offline cannot fetch to a "
					 "directory");
		st = url_cache_mkdirs(dest_dir, err);
		if (st != STATUS_OK)
			return st;
	}
	return materialize(url, &opts, planner, dest_dir, out, err);
}
