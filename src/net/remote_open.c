/* remote_open: URL -> local path.  Decides where an open goes (the
 * cache, a temporary directory, a --output directory, the cache only for
 * --offline) and records complete entries; which files a directory URL
 * needs is remote_dir.c's, one file's transfer remote_get.c's.  Must not
 * print, exit, or depend on curses or ui/. */
#include "config.h"

#include "net/remote_open.h"

#include "net/remote_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <dirent.h>
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
	char *ep = remote_join_path(base, "entry.json");
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
	char *ep = remote_join_path(j->base, "entry.json");
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
 * file (the one `name` of a file entry, or the lazily read files of a
 * directory) that is not wholly in data/ is read from its persisted
 * blocks; a block that is not there is an error naming the URL. */
static enum status register_offline(struct job *j, const char *name,
				    struct error *err)
{
	static const char *const dir_names[] = {"profile.db", "cct.db",
						"trace.db", NULL};
	const char *const one[] = {name, NULL};
	const char *const *names = name ? one : dir_names;
	enum status st = STATUS_OK;
	for (size_t i = 0; names[i] && st == STATUS_OK; i++) {
		char *dest = remote_join_path(j->data, names[i]);
		char *url = NULL;
		if (name)
			url = strdup(j->url);
		else
			st = http_url_child(j->url, names[i], &url, err);
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
	return st;
}

/* Resolve or fetch `url` (a directory when it ends in '/').  `dest_dir`
 * non-NULL: --output. */
static enum status materialize(const char *url, const struct open_options *o,
			       const char *dest_dir, char **out,
			       struct error *err)
{
	*out = NULL;
	struct job j = { .url = url, .o = o };
	char *name = NULL;
	enum status st = STATUS_OK;
	bool dir = remote_ends_with(url, "/");
	if (dest_dir) {
		j.data = strdup(dest_dir);
		if (!j.data) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
	} else {
		st = entry_base(url, o, &j.base, err);
		if (st != STATUS_OK)
			goto out;
		j.data = remote_join_path(j.base, "data");
		if (!j.data) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
	}
	if (!dir) {
		name = remote_url_file_name(url);
		if (!name) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
	}
	struct url_cache_entry probe = { 0 };
	bool have_file_entry = j.base && entry_complete(j.base, url, &probe);
	url_cache_entry_clear(&probe);
	if (o->offline && !dir && j.base && !have_file_entry) {
		/* maybe cached as the directory "URL/" */
		char *dir_url = remote_join(url, "/");
		if (!dir_url) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
		char *dir_base = NULL;
		struct url_cache_entry e;
		if (entry_base(dir_url, o, &dir_base, NULL) == STATUS_OK &&
		    entry_complete(dir_base, dir_url, &e)) {
			url_cache_entry_clear(&e);
			free(dir_base);
			st = materialize(dir_url, o, dest_dir, out, err);
			free(dir_url);
			goto out;
		}
		free(dir_base);
		free(dir_url);
	}
	if (o->offline) {
		struct url_cache_entry e;
		if (!j.base || !entry_complete(j.base, url, &e)) {
			char *r = http_url_redact(url);
			st = error_set(err, STATUS_NOT_FOUND, r ? r : "URL",
				       "not in the cache (--offline)");
			free(r);
			goto out;
		}
		bool was_dir = strcmp(e.kind, "dir") == 0;
		bool remote = e.remote;
		url_cache_entry_clear(&e);
		if (was_dir != dir) {
			st = error_set(err, STATUS_CORRUPT, j.base,
				       "cache entry of the wrong kind");
			goto out;
		}
		if (remote) {
			st = register_offline(&j, dir ? NULL : name, err);
			if (st != STATUS_OK)
				goto out;
		}
		*out = dir ? strdup(j.data) : remote_join_path(j.data, name);
		if (!*out)
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	st = url_cache_mkdirs(j.data, err);
	if (st != STATUS_OK)
		goto out;
	st = http_session_new(o, &j.s, err);
	if (st != STATUS_OK)
		goto out;
	if (dir) {
		struct url_cache_entry e;
		/* an entry of an older layout may lack files: revalidated
		 * file by file */
		j.was_complete = j.base && entry_complete(j.base, url, &e);
		if (j.was_complete) {
			j.was_complete = e.layout == URL_CACHE_LAYOUT;
			url_cache_entry_clear(&e);
		}
		/* The job's names are relative to the directory URL. */
		st = remote_get_directory(&j, err);
		if (st != STATUS_OK)
			goto out;
		st = write_entry(&j, true, "", err);
		if (st == STATUS_OK) {
			*out = strdup(j.data);
			if (!*out)
				st = error_set(err, STATUS_NOMEM, NULL,
					       "out of memory");
		}
		goto out;
	}
	/* A file: its name relative to its directory. */
	char *dest = remote_join_path(j.data, name);
	char *meta = NULL;
	if (j.base) {
		char *md = remote_join_path(j.base, "meta");
		meta = md ? remote_join_path(md, name) : NULL;
		char *mj = meta ? remote_join(meta, ".json") : NULL;
		free(meta);
		meta = mj;
		if (md && url_cache_mkdirs(md, err) != STATUS_OK) {
			free(md);
			free(dest);
			free(meta);
			st = err ? err->status : STATUS_IO;
			goto out;
		}
		free(md);
	}
	struct fetch_result res = { 0 };
	if (!dest || (j.base && !meta)) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	} else {
		struct fetch_request r = {
			.url = url,
			.dest = dest,
			.meta_path = meta,
			.name = name,
			.max_size = o->max_size,
		};
		st = fetch_file(j.s, &r, &res, err);
	}
	if (st == STATUS_OK && res.effective_url &&
	    remote_ends_with(res.effective_url, "/")) {
		/* "http://host/db" redirected to "http://host/db/": a
		 * directory after all. */
		unlink(dest);
		if (meta)
			unlink(meta);
		char *dir_url = remote_join(url, "/");
		fetch_result_clear(&res);
		free(dest);
		free(meta);
		if (!dir_url) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
		http_session_free(j.s);
		j.s = NULL;
		st = materialize(dir_url, o, dest_dir, out, err);
		free(dir_url);
		goto out;
	}
	if (st == STATUS_OK) {
		j.total = res.size;
		st = write_entry(&j, false, name, err);
	}
	fetch_result_clear(&res);
	free(meta);
	if (st == STATUS_OK)
		*out = dest;
	else
		free(dest);
out:
	http_session_free(j.s);
	free(j.base);
	free(j.data);
	free(name);
	return st;
}

enum status remote_open_resolve(const char *url, const struct open_options *o,
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
	return materialize(url, o, NULL, out, err);
}

enum status remote_fetch(const char *url, const struct open_options *o,
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
	return materialize(url, &opts, dest_dir, out, err);
}
