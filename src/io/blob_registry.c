/* blob_registry: remote files.  A local path registered with a fetcher
 * (blob_register_fetcher, or --offline's persisted blocks) opens as a
 * remote blob: windows copied out of the block cache of blob_remote.c,
 * which the blobs over one registration share.  Depends on POSIX only
 * (the network is behind struct blob_fetcher). */
#include "config.h"

#include "io/blob_internal.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/blob_remote.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct remote_entry *registry;

static enum status remote_read(struct blob *blob, uint64_t off, uint64_t len,
			       struct span *out, struct error *err)
{
	uint8_t *buf = NULL;
	enum status st = blob_window_for(blob, off, len, &buf, err);
	if (st == STATUS_OK)
		st = blob_remote_copy(blob->remote->cache, off, len, buf, err);
	if (st != STATUS_OK)
		return st;
	out->data = buf;
	out->len = len;
	return STATUS_OK;
}

/* The whole file, fetched once (the missing blocks) and kept until
 * close: readers do this for metadata files only. */
static enum status remote_map_all(struct blob *blob, struct span *out,
				  struct error *err)
{
	enum status st = STATUS_OK;
	pthread_mutex_lock(&blob->window_lock);
	if (!blob->all) {
		if (blob->len > BLOB_REMOTE_MAP_MAX) {
			st = error_set(err, STATUS_LIMIT, blob->name,
				       "%llu bytes is too large to read whole "
				       "from %s (at most %llu); it is read in "
				       "windows only",
				       (unsigned long long)blob->len,
				       blob->remote->url,
				       (unsigned long long)BLOB_REMOTE_MAP_MAX);
			goto out;
		}
		uint8_t *all = malloc(blob->len ? blob->len : 1);
		if (!all) {
			st = error_set(err, STATUS_NOMEM, blob->name,
				       "out of memory");
			goto out;
		}
		st = blob_remote_copy(blob->remote->cache, 0, blob->len, all,
				      err);
		if (st != STATUS_OK) {
			free(all);
			goto out;
		}
		blob->all = all;
	}
	out->data = blob->all;
	out->len = blob->len;
out:
	pthread_mutex_unlock(&blob->window_lock);
	return st;
}

/* A copy of [off, off+len) kept until close (a piece of the whole copy
 * when blob_map_all made one). */
static enum status remote_map_range(struct blob *blob, uint64_t off,
				    uint64_t len, struct span *out,
				    struct error *err)
{
	enum status st = STATUS_OK;
	pthread_mutex_lock(&blob->window_lock);
	if (blob->all) {
		out->data = blob->all + off;
		out->len = len;
		goto out;
	}
	if (len > BLOB_REMOTE_MAP_MAX) {
		st = error_set_at(err, STATUS_LIMIT, blob->name, off,
				  "%llu bytes is too large to read at once "
				  "from %s (at most %llu)",
				  (unsigned long long)len, blob->remote->url,
				  (unsigned long long)BLOB_REMOTE_MAP_MAX);
		goto out;
	}
	struct blob_piece *piece = malloc(sizeof(*piece) + (len ? len : 1));
	if (!piece) {
		st = error_set_at(err, STATUS_NOMEM, blob->name, off,
				  "out of memory for %llu bytes",
				  (unsigned long long)len);
		goto out;
	}
	st = blob_remote_copy(blob->remote->cache, off, len, piece->data, err);
	if (st != STATUS_OK) {
		free(piece);
		goto out;
	}
	piece->next = blob->pieces;
	blob->pieces = piece;
	out->data = piece->data;
	out->len = len;
out:
	pthread_mutex_unlock(&blob->window_lock);
	return st;
}

static void entry_unref_locked(struct remote_entry *e)
{
	if (--e->refs > 0)
		return;
	if (e->fetcher.free_ctx)
		e->fetcher.free_ctx(e->fetcher.ctx);
	free(e->path);
	free(e->url);
	free(e->validator);
	free(e->cache_dir);
	free(e);
}

static void remote_close(struct blob *blob)
{
	blob_windows_free(blob);
	free(blob->all);
	for (struct blob_piece *q = blob->pieces, *next; q; q = next) {
		next = q->next;
		free(q);
	}
	struct remote_entry *e = blob->remote;
	if (!e)
		return;
	pthread_mutex_lock(&registry_lock);
	if (--e->open_blobs == 0) {
		blob_remote_close(e->cache);
		e->cache = NULL;
	}
	entry_unref_locked(e);
	pthread_mutex_unlock(&registry_lock);
}

const struct blob_ops blob_remote_ops = {
	.map_all = remote_map_all,
	.map_range = remote_map_range,
	.read = remote_read,
	.release = blob_no_release,
	.close = remote_close,
};

/* ---- the registry of remote files ---- */

/* `path` with its directory resolved (realpath) when it exists, else with
 * repeated and trailing slashes removed: "db//trace.db", "./db/trace.db"
 * and "/abs/db/trace.db" name one registration. */
static char *canonical_path(const char *path)
{
	char *copy = strdup(path), *copy2 = strdup(path), *out = NULL;
	if (!copy || !copy2)
		goto out;
	char *real = realpath(dirname(copy), NULL);
	if (real) {
		const char *base = basename(copy2);
		if (asprintf(&out, "%s/%s", strcmp(real, "/") ? real : "",
			     base) < 0)
			out = NULL;
		free(real);
		goto out;
	}
	out = strdup(path);
	if (!out)
		goto out;
	char *w = out;
	for (const char *r = out; *r; r++)
		if (!(*r == '/' && w > out && w[-1] == '/'))
			*w++ = *r;
	while (w > out + 1 && w[-1] == '/')
		w--;
	*w = '\0';
out:
	free(copy);
	free(copy2);
	return out;
}

/* The entry of `canon`; the caller holds registry_lock. */
static struct remote_entry *registry_find(const char *canon)
{
	for (struct remote_entry *e = registry; e; e = e->next)
		if (strcmp(e->path, canon) == 0)
			return e;
	return NULL;
}

static void registry_remove_locked(const char *canon)
{
	for (struct remote_entry **pp = &registry; *pp; pp = &(*pp)->next) {
		if (strcmp((*pp)->path, canon) == 0) {
			struct remote_entry *e = *pp;
			*pp = e->next;
			entry_unref_locked(e);
			return;
		}
	}
}

enum status blob_register_fetcher(const char *local_path, const char *url,
				  const struct blob_fetcher *f, uint64_t size,
				  const char *validator, const char *cache_dir,
				  struct error *err)
{
	struct remote_entry *e = calloc(1, sizeof(*e));
	if (!e || !f || !f->fetch || !local_path || !url) {
		if (f && f->free_ctx)
			f->free_ctx(f->ctx);
		free(e);
		return e ? error_set(err, STATUS_USAGE, local_path,
				     "registration without a path, URL or "
				     "fetcher")
			 : error_set(err, STATUS_NOMEM, local_path,
				     "out of memory");
	}
	e->fetcher = *f;
	e->refs = 1;
	e->size = size;
	e->path = canonical_path(local_path);
	e->url = strdup(url);
	e->validator = validator ? strdup(validator) : NULL;
	e->cache_dir = cache_dir ? strdup(cache_dir) : NULL;
	if (!e->path || !e->url || (validator && !e->validator) ||
	    (cache_dir && !e->cache_dir)) {
		pthread_mutex_lock(&registry_lock);
		entry_unref_locked(e);
		pthread_mutex_unlock(&registry_lock);
		return error_set(err, STATUS_NOMEM, local_path,
				 "out of memory");
	}
	pthread_mutex_lock(&registry_lock);
	registry_remove_locked(e->path);
	e->next = registry;
	registry = e;
	pthread_mutex_unlock(&registry_lock);
	return STATUS_OK;
}

/* The fetcher of an --offline registration: every block it is asked for
 * is one the cache directory does not have. */
static enum status offline_fetch(void *ctx, uint64_t off, uint64_t len,
				 void *buf, struct error *err)
{
	(void)buf;
	return error_set(err, STATUS_NOT_FOUND, ctx,
			 "bytes %llu-%llu are not in the cache (--offline)",
			 (unsigned long long)off,
			 (unsigned long long)(off + len - 1));
}

enum status blob_register_offline(const char *local_path, const char *url,
				  struct error *err)
{
	enum status st = STATUS_OK;
	char *cache_dir = NULL, *validator = NULL, *name = NULL;
	uint64_t size = 0;
	if (!local_path || !url)
		return error_set(err, STATUS_USAGE, local_path,
				 "registration without a path or URL");
	if (asprintf(&cache_dir, "%s.blocks", local_path) < 0 ||
	    !(name = strdup(url))) {
		cache_dir = NULL;
		st = error_set(err, STATUS_NOMEM, local_path, "out of memory");
		goto out;
	}
	st = blob_remote_read_meta(cache_dir, &size, &validator, err);
	if (st != STATUS_OK)
		goto out;
	struct blob_fetcher f = {
		.fetch = offline_fetch,
		.free_ctx = free,
		.ctx = name,
	};
	name = NULL; /* the registration owns it */
	st = blob_register_fetcher(local_path, url, &f, size, validator,
				   cache_dir, err);
out:
	free(name);
	free(cache_dir);
	free(validator);
	return st;
}

void blob_unregister(const char *local_path)
{
	char *canon = local_path ? canonical_path(local_path) : NULL;
	if (!canon)
		return;
	pthread_mutex_lock(&registry_lock);
	registry_remove_locked(canon);
	pthread_mutex_unlock(&registry_lock);
	free(canon);
}

void blob_unregister_all(void)
{
	pthread_mutex_lock(&registry_lock);
	while (registry) {
		struct remote_entry *e = registry;
		registry = e->next;
		entry_unref_locked(e);
	}
	pthread_mutex_unlock(&registry_lock);
}

/* The size of registered `path`: false when it is not registered. */
static bool registered_size(const char *path, uint64_t *size)
{
	bool found = false;
	pthread_mutex_lock(&registry_lock);
	if (registry) {
		char *canon = canonical_path(path);
		struct remote_entry *e = canon ? registry_find(canon) : NULL;
		if (e) {
			*size = e->size;
			found = true;
		}
		free(canon);
	}
	pthread_mutex_unlock(&registry_lock);
	return found;
}

enum status blob_remote_names_in(const char *dir, char ***names, size_t *n,
				 struct error *err)
{
	*names = NULL;
	*n = 0;
	enum status st = STATUS_OK;
	char *probe = NULL, *canon_dir = NULL;
	char **v = NULL;
	size_t count = 0;
	pthread_mutex_lock(&registry_lock);
	if (!registry)
		goto out;
	/* the canonical form of a file in `dir`, without its last part */
	if (asprintf(&probe, "%s/x", dir) < 0) {
		probe = NULL;
		goto nomem;
	}
	canon_dir = canonical_path(probe);
	if (!canon_dir)
		goto nomem;
	canon_dir[strlen(canon_dir) - 1] = '\0'; /* keeps the '/' */
	size_t dlen = strlen(canon_dir), total = 0;
	for (struct remote_entry *e = registry; e; e = e->next)
		total++;
	v = calloc(total ? total : 1, sizeof(*v));
	if (!v)
		goto nomem;
	for (struct remote_entry *e = registry; e; e = e->next) {
		if (strncmp(e->path, canon_dir, dlen) != 0 ||
		    strchr(e->path + dlen, '/') || !e->path[dlen])
			continue;
		if (!(v[count] = strdup(e->path + dlen)))
			goto nomem;
		count++;
	}
	if (count) {
		*names = v;
		*n = count;
		v = NULL;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, dir, "out of memory");
out:
	pthread_mutex_unlock(&registry_lock);
	for (size_t i = 0; v && i < count; i++)
		free(v[i]);
	free(v);
	free(probe);
	free(canon_dir);
	return st;
}

bool blob_path_size(const char *path, uint64_t *size)
{
	struct stat sb;
	if (!path)
		return false;
	if (registered_size(path, size))
		return true;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return false;
	*size = (uint64_t)sb.st_size;
	return true;
}

bool blob_path_exists(const char *path)
{
	uint64_t size;
	return blob_path_size(path, &size);
}

/* A remote blob when `path` is registered (*found), sharing the entry's
 * block cache (opened by the first blob). */
enum status blob_open_registered(const char *path, struct blob **out,
				   bool *found, struct error *err)
{
	enum status st = STATUS_OK;
	struct blob *blob = NULL;
	char *canon = NULL;
	*found = false;
	pthread_mutex_lock(&registry_lock);
	if (!registry)
		goto out;
	canon = canonical_path(path);
	if (!canon) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	struct remote_entry *e = registry_find(canon);
	if (!e)
		goto out;
	*found = true;
	if (!e->cache) {
		st = blob_remote_open(e->url, &e->fetcher, e->size,
				      e->validator, e->cache_dir, NULL,
				      &e->cache, err);
		if (st != STATUS_OK)
			goto out;
	}
	st = blob_new(path, &blob_remote_ops, &blob, err);
	if (st != STATUS_OK) {
		if (e->open_blobs == 0) {
			blob_remote_close(e->cache);
			e->cache = NULL;
		}
		goto out;
	}
	pthread_mutex_init(&blob->window_lock, NULL);
	blob->len = e->size;
	blob->remote = e;
	e->refs++;
	e->open_blobs++;
	*out = blob;
out:
	pthread_mutex_unlock(&registry_lock);
	free(canon);
	return st;
}
