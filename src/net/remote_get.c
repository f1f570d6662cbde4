/* remote_get: one file of an open by URL: downloaded (fetch.c: resumed,
 * revalidated) into the job's data directory with its record in meta/,
 * or -- a large file of a database read in parts, on a server that does
 * ranges -- left on the server and registered with blob so that reads
 * fetch only the blocks they touch.  Must not print, exit, or depend on
 * curses or ui/. */
#include "config.h"

#include "core/path.h"
#include "net/remote_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/blob.h"
#include "net/fetch.h"
#include "net/url_cache.h"

bool remote_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

char *remote_join(const char *a, const char *b)
{
	char *out = NULL;
	if (asprintf(&out, "%s%s", a, b) < 0)
		return NULL;
	return out;
}

/* A complete local copy of `dest` per its record (of *size bytes, when
 * `size` is not NULL). */
bool remote_have_complete(const char *dest, const char *meta, uint64_t *size)
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

/* Leave a large file on a server that honours ranges: register it so
 * that blob_open_file(dest) reads it remotely.  *lazy false: download it
 * (small, no ranges, or --download).  STATUS_NOT_FOUND when the server
 * does not have it. */
static enum status try_lazy(struct job *j, const char *url, const char *dest,
			    const char *meta, bool *lazy, struct error *err)
{
	*lazy = false;
	blob_unregister(dest);
	if (j->o->download || !j->base || remote_have_complete(dest, meta, NULL))
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
void remote_mark_dirty(void *ctx)
{
	struct job *j = ctx;
	if (!j->base || j->entry_dirty)
		return;
	j->entry_dirty = true;
	char *ep = path_join(j->base, "entry.json");
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

enum status remote_meta_path(const struct job *j, const char *name,
			     char **meta, struct error *err)
{
	*meta = NULL;
	if (!j->base)
		return STATUS_OK;
	char *dir = path_join(j->base, "meta");
	char *rel = remote_join(name, ".json");
	*meta = dir && rel ? path_join(dir, rel) : NULL;
	free(dir);
	free(rel);
	if (!*meta)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	return url_cache_mkdirs_parent(*meta, err);
}

enum status remote_get_file(struct job *j, const char *name, unsigned flags,
			    bool *present, struct error *err)
{
	char *url = NULL;
	char *dest = path_join(j->data, name);
	char *meta = NULL;
	struct fetch_result res = { 0 };
	*present = false;
	j->last_unchanged = false;
	enum status st = http_url_child(j->url, name, &url, err);
	if (st != STATUS_OK)
		goto out;
	st = dest ? remote_meta_path(j, name, &meta, err)
		  : error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (st != STATUS_OK)
		goto out;
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
	if (flags & REMOTE_FILE_LAZY) {
		st = try_lazy(j, url, dest, meta, &lazy, err);
		if (st == STATUS_OK && lazy) {
			remote_mark_dirty(j);
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
		.on_replace = remote_mark_dirty,
		.ctx = j,
	};
	if (st == STATUS_OK)
		st = fetch_file(j->s, &r, &res, err);
	if (st == STATUS_NOT_FOUND) {
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
	free(meta);
	return st;
}
