/* url_cache: the layout of the download cache, its small JSON records
 * (written by rename, never in place), the safety check of server-given
 * names, the list and the clearing.  Must not depend on curl, curses or
 * ui/. */
#include "config.h"

#include "core/path.h"
#include "net/url_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <dirent.h>
#include <unistd.h>

#include "core/array.h"
#include "core/file_tree.h"
#include "core/fd.h"
#include "core/hash.h"

/* Largest JSON record read (they are a few hundred bytes). */
#define RECORD_MAX_BYTES (1u << 20)

enum status url_cache_root(const struct open_options *o, char **out,
			   struct error *err)
{
	*out = NULL;
	if (o && o->cache_dir && *o->cache_dir) {
		*out = strdup(o->cache_dir);
	} else {
		const char *xdg = getenv("XDG_CACHE_HOME");
		const char *home = getenv("HOME");
		int n = -1;
		if (xdg && xdg[0] == '/')
			n = asprintf(out, "%s/callscope", xdg);
		else if (home && *home)
			n = asprintf(out, "%s/.cache/callscope", home);
		else
			return error_set(err, STATUS_USAGE, NULL,
					 "no cache directory: set "
					 "XDG_CACHE_HOME or HOME");
		if (n < 0)
			*out = NULL;
	}
	if (!*out)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	return STATUS_OK;
}

void url_cache_key(const char *url, char out[17])
{
	if (!url)
		url = "";
	uint64_t h = fnv1a(FNV1A_SEED, url, strlen(url));
	snprintf(out, 17, "%016" PRIx64, h);
}

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c != '\0' && strchr("._+-=,@~", c));
}

bool url_cache_name_ok(const char *name)
{
	if (!name || !*name)
		return false;
	int components = 0;
	const char *p = name;
	for (;;) {
		size_t len = 0;
		if (p[0] == '.' || p[0] == '-')
			return false; /* also rejects "." and ".." */
		while (p[len] && p[len] != '/') {
			if (!name_char_ok(p[len]))
				return false;
			len++;
		}
		if (len == 0 || len > 255 || ++components > 4)
			return false;
		if (p[len] == '\0')
			return true;
		p += len + 1;
	}
}

enum status url_cache_mkdirs(const char *path, struct error *err)
{
	char *copy = strdup(path);
	if (!copy)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	enum status st = STATUS_OK;
	size_t len = strlen(copy);
	for (size_t i = 1; i <= len; i++) {
		if (copy[i] != '/' && copy[i] != '\0')
			continue;
		char saved = copy[i];
		copy[i] = '\0';
		if (mkdir(copy, 0700) != 0 && errno != EEXIST) {
			st = error_set(err, STATUS_IO, copy,
				       "cannot create directory: %s",
				       strerror(errno));
			goto out;
		}
		copy[i] = saved;
	}
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		st = error_set(err, STATUS_IO, path, "not a directory");
out:
	free(copy);
	return st;
}

enum status url_cache_mkdirs_parent(const char *path, struct error *err)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return STATUS_OK;
	char *dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	enum status st = url_cache_mkdirs(dir, err);
	free(dir);
	return st;
}

static enum status fsync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1
						      : (size_t)(slash - path))
			  : strdup(".");
	if (!dir)
		return STATUS_NOMEM;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return STATUS_IO;
	fsync(fd);
	close(fd);
	return STATUS_OK;
}

enum status url_cache_write_atomic(const char *path, const void *data,
				   size_t len, struct error *err)
{
	char *tmp = NULL;
	int fd = -1;
	enum status st = url_cache_mkdirs_parent(path, err);
	if (st != STATUS_OK)
		return st;
	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		tmp = NULL;
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		st = error_set(err, STATUS_IO, tmp, "cannot create: %s",
			       strerror(errno));
		goto out;
	}
	int e = fd_write_all(fd, data, len);
	if (e != 0) {
		st = error_set(err, STATUS_IO, tmp, "cannot write: %s",
			       e > 0 ? strerror(e) : "no progress");
		goto out;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		st = error_set(err, STATUS_IO, tmp, "cannot write: %s",
			       strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		st = error_set(err, STATUS_IO, path, "cannot rename: %s",
			       strerror(errno));
		goto out;
	}
	fsync_dir_of(path);
out:
	if (fd >= 0)
		close(fd);
	if (st != STATUS_OK && tmp)
		unlink(tmp);
	free(tmp);
	return st;
}

/* Load a JSON object from `path`. */
static enum status read_json(const char *path, json_t **out,
			     struct error *err)
{
	*out = NULL;
	struct stat sb;
	if (stat(path, &sb) != 0)
		return error_set(err,
				 errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
				 path, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode) || sb.st_size > RECORD_MAX_BYTES)
		return error_set(err, STATUS_CORRUPT, path,
				 "not a cache record");
	json_error_t je;
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!j || !json_is_object(j)) {
		json_decref(j);
		return error_set(err, STATUS_CORRUPT, path,
				 "not a cache record: %s", j ? "" : je.text);
	}
	*out = j;
	return STATUS_OK;
}

static enum status write_json(const char *path, json_t *j, struct error *err)
{
	char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS) : NULL;
	if (!text)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	size_t len = strlen(text);
	enum status st = url_cache_write_atomic(path, text, len, err);
	free(text);
	return st;
}

/* A heap copy of string member `key`, NULL when absent or not a string. */
static char *get_str(json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? strdup(s) : NULL;
}

static uint64_t get_u64(json_t *j, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(j, key));
	return v > 0 ? (uint64_t)v : 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void url_cache_file_clear(struct url_cache_file *f)
{
	if (!f)
		return;
	free(f->etag);
	free(f->last_modified);
	memset(f, 0, sizeof(*f));
}

enum status url_cache_read_file(const char *path, struct url_cache_file *f,
				struct error *err)
{
	memset(f, 0, sizeof(*f));
	json_t *j = NULL;
	enum status st = read_json(path, &j, err);
	if (st != STATUS_OK)
		return st;
	f->etag = get_str(j, "etag");
	f->last_modified = get_str(j, "last_modified");
	f->size = get_u64(j, "size");
	f->complete = json_is_true(json_object_get(j, "complete"));
	json_decref(j);
	return STATUS_OK;
}

enum status url_cache_write_file(const char *path,
				 const struct url_cache_file *f,
				 struct error *err)
{
	json_t *j = json_pack("{s:o, s:o, s:I, s:b}", "etag",
			      str_or_null(f->etag), "last_modified",
			      str_or_null(f->last_modified), "size",
			      (json_int_t)f->size, "complete", f->complete);
	enum status st = write_json(path, j, err);
	json_decref(j);
	return st;
}

void url_cache_entry_clear(struct url_cache_entry *e)
{
	if (!e)
		return;
	free(e->url);
	free(e->kind);
	free(e->name);
	free(e->dir);
	memset(e, 0, sizeof(*e));
}

enum status url_cache_read_entry(const char *path,
				 struct url_cache_entry *e,
				 struct error *err)
{
	memset(e, 0, sizeof(*e));
	json_t *j = NULL;
	enum status st = read_json(path, &j, err);
	if (st != STATUS_OK)
		return st;
	e->url = get_str(j, "url");
	e->kind = get_str(j, "kind");
	e->name = get_str(j, "name");
	e->size = get_u64(j, "size");
	e->date = (int64_t)get_u64(j, "date");
	e->complete = json_is_true(json_object_get(j, "complete"));
	e->remote = json_is_true(json_object_get(j, "remote"));
	e->layout = (int)get_u64(j, "layout");
	json_decref(j);
	if (!e->url || !e->kind || !e->name) {
		url_cache_entry_clear(e);
		return error_set(err, STATUS_CORRUPT, path,
				 "not a cache entry");
	}
	return STATUS_OK;
}

enum status url_cache_write_entry(const char *path,
				  const struct url_cache_entry *e,
				  struct error *err)
{
	json_t *j = json_pack("{s:o, s:o, s:o, s:I, s:I, s:b, s:b, s:i}",
			      "url", str_or_null(e->url), "kind",
			      str_or_null(e->kind), "name",
			      str_or_null(e->name), "size",
			      (json_int_t)e->size, "date", (json_int_t)e->date,
			      "complete", e->complete, "remote", e->remote,
			      "layout", e->layout);
	enum status st = write_json(path, j, err);
	json_decref(j);
	return st;
}

static int by_url(const void *a, const void *b)
{
	const struct url_cache_entry *x = a, *y = b;
	return strcmp(x->url, y->url);
}

static bool is_key(const char *s)
{
	if (strlen(s) != 16)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

void url_cache_list_free(struct url_cache_entry *entries, size_t n)
{
	for (size_t i = 0; entries && i < n; i++)
		url_cache_entry_clear(&entries[i]);
	free(entries);
}

enum status url_cache_list(const char *root, struct url_cache_entry **out,
			   size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	char *dir = NULL, *path = NULL;
	struct url_cache_entry *list = NULL;
	size_t count = 0, cap = 0;
	DIR *d = NULL;
	enum status st = STATUS_OK;
	if (asprintf(&dir, "%s/url", root) < 0) {
		dir = NULL;
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	d = opendir(dir);
	if (!d) {
		if (errno != ENOENT)
			st = error_set(err, STATUS_IO, dir, "%s",
				       strerror(errno));
		goto out;
	}
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!is_key(de->d_name))
			continue;
		free(path);
		if (asprintf(&path, "%s/%s/entry.json", dir, de->d_name) < 0) {
			path = NULL;
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
		struct url_cache_entry e;
		if (url_cache_read_entry(path, &e, NULL) != STATUS_OK)
			continue;
		e.dir = path_join(dir, de->d_name);
		if (!e.dir || !array_grow((void **)&list, &cap, count + 1,
					  sizeof(*list))) {
			url_cache_entry_clear(&e);
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			goto out;
		}
		list[count++] = e;
	}
	if (count > 1)
		qsort(list, count, sizeof(*list), by_url);
out:
	if (d)
		closedir(d);
	free(dir);
	free(path);
	if (st != STATUS_OK) {
		url_cache_list_free(list, count);
		return st;
	}
	*out = list;
	*n = count;
	return STATUS_OK;
}

enum status url_cache_clear(const char *root, struct error *err)
{
	static const char *const subdirs[] = { "url", "extract", "runs" };
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		char *path = path_join(root, subdirs[i]);
		if (!path)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		/* Renamed away first, so that a concurrent reader sees the
		 * cache either whole or gone. */
		char *trash = NULL;
		if (asprintf(&trash, "%s.deleted.%ld", path, (long)getpid()) <
		    0) {
			free(path);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
		const char *victim = rename(path, trash) == 0 ? trash : path;
		enum status st = file_tree_remove(victim, err);
		free(path);
		free(trash);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}
