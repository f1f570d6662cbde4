/* remote_open: URL -> local path.  Decides which files a directory URL
 * needs (known names first, the server's listing where names are not
 * known in advance), where they go (the cache, a temporary directory, a
 * --output directory), and records complete entries.  Must not print,
 * exit, or depend on curses or ui/. */
#include "config.h"

#include "net/remote_open.h"

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

#include "core/array.h"
#include "io/blob.h"
#include "net/fetch.h"
#include "net/http.h"
#include "net/listing.h"
#include "core/temp_dirs.h"
#include "net/url_cache.h"

/* Largest listing page or experiment.xml read into memory. */
#define REMOTE_PAGE_MAX ((size_t)64 << 20)
/* Most files fetched for one directory URL. */
#define REMOTE_MAX_FILES 100000

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
	bool v4;             /* an HPCToolkit v4 database (meta.db) */
};

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

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static char *join(const char *a, const char *b)
{
	char *out = NULL;
	if (asprintf(&out, "%s%s", a, b) < 0)
		return NULL;
	return out;
}

static char *join_path(const char *a, const char *b)
{
	char *out = NULL;
	if (asprintf(&out, "%s/%s", a, b) < 0)
		return NULL;
	return out;
}

/* Files a reader reads in parts through blob_open_file (HPCToolkit v4's
 * large files), which may stay on the server.  The 2020 format's files of
 * the same names are mapped whole by their reader: downloaded. */
static bool lazy_candidate(const struct job *j, const char *name)
{
	return j->v4 && (strcmp(name, "profile.db") == 0 ||
			 strcmp(name, "cct.db") == 0 ||
			 strcmp(name, "trace.db") == 0);
}

/* A complete local copy of `dest` per its record (of *size bytes, when
 * `size` is not NULL). */
static bool have_complete(const char *dest, const char *meta, uint64_t *size)
{
	struct url_cache_file f;
	if (!meta || url_cache_read_file(meta, &f, NULL) != STATUS_OK)
		return false;
	struct stat sb;
	bool ok = f.complete && stat(dest, &sb) == 0 && S_ISREG(sb.st_mode) &&
		  (uint64_t)sb.st_size == f.size;
	if (ok && size)
		*size = f.size;
	url_cache_file_clear(&f);
	return ok;
}

/* Every file with a record in the entry's meta/ (one level: the older
 * layouts' names), other than `except`, is complete in data/; their
 * sizes are added to j->total.  False leaves j->total as it was. */
static bool recorded_complete(struct job *j, const char *except)
{
	char *meta_dir = join_path(j->base, "meta");
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
		char *dest = join_path(j->data, name);
		char *meta = join_path(meta_dir, rec);
		uint64_t size = 0;
		ok = dest && meta && have_complete(dest, meta, &size);
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

/* Leave a large file on a server that honours ranges: register it so
 * that blob_open_file(dest) reads it remotely.  *lazy false: download it
 * (small, no ranges, or --download).  STATUS_NOT_FOUND when the server
 * does not have it. */
static enum status try_lazy(struct job *j, const char *url, const char *dest,
			    const char *meta, bool *lazy, struct error *err)
{
	*lazy = false;
	blob_unregister(dest);
	if (j->o->download || !j->base || have_complete(dest, meta, NULL))
		return STATUS_OK;
	struct http_info info;
	enum status st = http_probe(j->s, url, &info, err);
	if (st != STATUS_OK)
		return st;
	bool big = info.ranges && info.size_known &&
		   info.size >= j->o->lazy_min_size;
	if (big && j->o->max_size && info.size > j->o->max_size) {
		char *r = http_url_redact(url);
		st = error_set(err, STATUS_LIMIT, r ? r : "URL",
			       "larger than --max-size %" PRIu64 " bytes",
			       j->o->max_size);
		free(r);
		big = false;
	}
	if (big)
		st = blob_register_remote_probed(dest, url, j->o, info.size,
						 info.etag, info.last_modified,
						 err);
	http_info_clear(&info);
	if (!big || st != STATUS_OK)
		return st;
	/* a stale local copy would shadow the registration */
	unlink(dest);
	*lazy = true;
	return STATUS_OK;
}

/* A file of the entry is about to be replaced: until the end of the
 * open, the entry is not a consistent database for --offline. */
static void mark_dirty(void *ctx)
{
	struct job *j = ctx;
	if (!j->base || j->entry_dirty)
		return;
	j->entry_dirty = true;
	char *ep = join_path(j->base, "entry.json");
	struct url_cache_entry e;
	if (ep && url_cache_read_entry(ep, &e, NULL) == STATUS_OK) {
		if (e.complete) {
			e.complete = false;
			url_cache_write_entry(ep, &e, NULL);
		}
		url_cache_entry_clear(&e);
	}
	free(ep);
}

/* Download one file of the job (a name relative to the URL).  An
 * optional file the server does not have is no error: *present false. */
static enum status get_file(struct job *j, const char *name, bool optional,
			    bool *present, struct error *err)
{
	char *url = NULL;
	char *dest = join_path(j->data, name);
	char *meta_rel = join(name, ".json");
	char *meta = NULL;
	struct fetch_result res = { 0 };
	*present = false;
	j->last_unchanged = false;
	enum status st = http_url_child(j->url, name, &url, err);
	if (st != STATUS_OK)
		goto out;
	if (!dest || !meta_rel) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	if (j->base) {
		char *meta_dir = join_path(j->base, "meta");
		meta = meta_dir ? join_path(meta_dir, meta_rel) : NULL;
		free(meta_dir);
		if (!meta) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
		st = url_cache_mkdirs_parent(meta, err);
		if (st != STATUS_OK)
			goto out;
	}
	st = url_cache_mkdirs_parent(dest, err);
	if (st != STATUS_OK)
		goto out;
	if (j->o->offline) {
		struct stat sb;
		if (stat(dest, &sb) == 0) {
			*present = true;
			j->total += (uint64_t)sb.st_size;
		}
		goto out;
	}
	bool lazy = false;
	if (lazy_candidate(j, name)) {
		st = try_lazy(j, url, dest, meta, &lazy, err);
		if (st == STATUS_OK && lazy) {
			mark_dirty(j);
			*present = true;
			j->remote = true;
			j->changed = true;
			goto out;
		}
	}
	struct fetch_request r = {
		.url = url,
		.dest = dest,
		.meta_path = meta,
		.name = name,
		.max_size = j->o->max_size,
		.on_replace = mark_dirty,
		.ctx = j,
	};
	if (st == STATUS_OK)
		st = fetch_file(j->s, &r, &res, err);
	if (st == STATUS_NOT_FOUND && optional) {
		/* gone from the server: so is the cached copy */
		error_clear(err);
		unlink(dest);
		if (meta)
			unlink(meta);
		st = STATUS_OK;
		goto out;
	}
	if (st != STATUS_OK)
		goto out;
	*present = true;
	j->total += res.size;
	j->last_unchanged = res.not_modified;
	if (!res.not_modified)
		j->changed = true;
out:
	fetch_result_clear(&res);
	free(url);
	free(dest);
	free(meta_rel);
	free(meta);
	return st;
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
		char *name = join(sub, ents[i].name);
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
	char *dir = join_path(j->data, sub);
	if (!dir)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	DIR *d = opendir(dir);
	free(dir);
	size_t cap = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		if (!keep(de->d_name) || ends_with(de->d_name, ".part"))
			continue;
		char *name = join(sub, de->d_name);
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
	return ends_with(name, ".yaml") || ends_with(name, ".yml");
}

static bool is_legacy_data(const char *name)
{
	return ends_with(name, ".metric-db") || ends_with(name, ".hpctrace") ||
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
	char *meta_dir = join_path(j->base, "meta");
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
		char *path = join_path(j->data, name);
		char *meta_rel = join(name, ".json");
		char *meta = meta_rel ? join_path(meta_dir, meta_rel) : NULL;
		if (!path || !meta) {
			st = error_set(err, STATUS_NOMEM, NULL,
				       "out of memory");
		} else if (access(meta, F_OK) == 0) {
			/* fetched by callscope (it has a record) */
			mark_dirty(j);
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
		enum status st = get_file(j, names[i], true, &present, err);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}

static enum status get_directory(struct job *j, struct error *err)
{
	static const char *const v4_optional[] = { "profile.db", "cct.db",
						   "trace.db" };
	static const char *const legacy_known[] = { "experiment-1.mdb",
						    "experiment.mt" };
	char **names = NULL;
	size_t n = 0;
	bool present = false;
	enum status st = get_file(j, "meta.db", true, &present, err);
	if (st != STATUS_OK)
		goto out;
	if (present) {
		j->v4 = true;
		bool unchanged = j->last_unchanged && j->was_complete;
		for (size_t i = 0; i < 3; i++) {
			st = get_file(j, v4_optional[i], true, &present, err);
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
			st = get_file(j, "metrics/default.yaml", true,
				      &present, err);
			goto out;
		}
		st = get_all(j, names, n, err);
		goto out;
	}
	st = get_file(j, "experiment.xml", true, &present, err);
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
		st = get_file(j, v4_optional[i], true, &present, err);
		if (st != STATUS_OK)
			goto out;
	}
	st = list_names(j, "", is_legacy_data, &names, &n, err);
	if (st != STATUS_OK)
		goto out;
	if (n == 0) {
		for (size_t i = 0; i < 2; i++) {
			st = get_file(j, legacy_known[i], true, &present, err);
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
	char *ep = join_path(base, "entry.json");
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
	char *ep = join_path(j->base, "entry.json");
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
		char *dest = join_path(j->data, names[i]);
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
	bool dir = ends_with(url, "/");
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
		j.data = join_path(j.base, "data");
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
		char *dir_url = join(url, "/");
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
		*out = dir ? strdup(j.data) : join_path(j.data, name);
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
		st = get_directory(&j, err);
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
	char *dest = join_path(j.data, name);
	char *meta = NULL;
	if (j.base) {
		char *md = join_path(j.base, "meta");
		meta = md ? join_path(md, name) : NULL;
		char *mj = meta ? join(meta, ".json") : NULL;
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
	    ends_with(res.effective_url, "/")) {
		/* "http://host/db" redirected to "http://host/db/": a
		 * directory after all. */
		unlink(dest);
		if (meta)
			unlink(meta);
		char *dir_url = join(url, "/");
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
