/* blob: the implementations of the file access interface, behind one ops
 * table each: caller-owned memory; a local file mapped read-only; a large
 * local file read by blob_read() through pread(2) into a bounded cache of
 * 4 KiB blocks (so that lazily read data costs a fixed amount of memory
 * whatever the size of the file; blob_map_all() still maps it, lazily, for
 * metadata); and a remote file read through the block cache of
 * blob_remote.c, reached by registering a local path (the registry below).
 * Depends on POSIX only (the network is behind struct blob_fetcher). */
#include "config.h"

#include "io/blob.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/blob_remote.h"

/* Files at least this large are read through the block cache. */
#define BLOB_CACHED_SIZE ((uint64_t)256 << 20)

/* The block cache: BLOB_SETS sets of BLOB_WAYS blocks, least recently used
 * replaced within a set; 2048 x 4 x 4 KiB = 32 MiB per large file, filled
 * on demand.  Blocks are page-sized for local files: a trace window probes
 * one place per cell, and copying 64 KiB per probe made a 16 x 1000 window
 * over the 10 GB trace 6 times slower (0.58 s against 0.09 s); a remote
 * implementation will fetch larger blocks. */
#define BLOB_BLOCK_SHIFT 12
#define BLOB_BLOCK_SIZE ((uint64_t)1 << BLOB_BLOCK_SHIFT)
#define BLOB_SETS 2048
#define BLOB_WAYS 4

/* blob_map_all() of a remote file larger than this is refused: readers map
 * metadata files only, and a large file must be read in windows. */
#define BLOB_REMOTE_MAP_MAX ((uint64_t)1 << 30)

struct blob_ops {
	enum status (*map_all)(struct blob *blob, struct span *out,
			       struct error *err);
	/* [off, off+len) already checked; valid until close */
	enum status (*map_range)(struct blob *blob, uint64_t off,
				 uint64_t len, struct span *out,
				 struct error *err);
	/* [off, off+len) already checked against the size */
	enum status (*read)(struct blob *blob, uint64_t off, uint64_t len,
			    struct span *out, struct error *err);
	void (*release)(struct blob *blob, struct span s);
	void (*close)(struct blob *blob);
};

/* A registered remote file: the fetcher, what the probe said, and the
 * block cache while blobs over it are open (they share it). */
struct remote_entry {
	struct remote_entry *next;
	char *path; /* canonical local path */
	char *url;
	struct blob_fetcher fetcher;
	uint64_t size;
	char *validator;
	char *cache_dir;
	struct blob_remote *cache;
	unsigned open_blobs;
	unsigned refs; /* the registry's, and one per open blob */
};

/* A copy made by blob_map_range() on a remote blob, kept until close. */
struct blob_piece {
	struct blob_piece *next;
	uint8_t data[];
};

/* A thread's window buffer on a remote blob. */
struct blob_window {
	pthread_t owner;
	uint8_t *buf;
	uint64_t cap;
};

struct blob_block {
	uint64_t index; /* block number (offset >> BLOB_BLOCK_SHIFT) */
	uint64_t used;  /* clock of the last use; 0 = empty */
	uint64_t len;   /* valid bytes (short at the end of the file) */
	uint8_t *data;  /* BLOB_BLOCK_SIZE bytes, allocated on first use */
};

struct blob {
	const struct blob_ops *ops;
	char *name;
	const uint8_t *data; /* the mapping or caller's bytes, or NULL */
	uint64_t len;
	void *map;           /* the mapping as mmap returned it, or NULL */
	int fd;              /* >= 0 when read through the block cache */
	struct blob_block *blocks; /* BLOB_SETS * BLOB_WAYS, or NULL */
	uint64_t clock;
	pthread_mutex_t cache_lock; /* blocks, clock, the lazy mapping */
	/* large local and remote blobs: one window buffer per thread */
	pthread_mutex_t window_lock; /* windows, n_windows, all, pieces */
	struct blob_window *windows;
	size_t n_windows;
	/* remote blobs */
	struct remote_entry *remote;
	uint8_t *all; /* blob_map_all's copy */
	struct blob_piece *pieces; /* blob_map_range's copies */
};

static const struct blob_ops memory_ops, mapped_ops, cached_ops, remote_ops;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct remote_entry *registry;

static enum status blob_new(const char *name, const struct blob_ops *ops,
			    struct blob **out, struct error *err)
{
	struct blob *blob = calloc(1, sizeof(*blob));
	if (!blob || !(blob->name = strdup(name))) {
		free(blob);
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	}
	blob->ops = ops;
	blob->fd = -1;
	*out = blob;
	return STATUS_OK;
}

static enum status map_file(struct blob *blob, int fd, struct error *err)
{
	void *p = mmap(NULL, (size_t)blob->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return error_set(err, STATUS_IO, blob->name, "cannot map: %s",
				 strerror(errno));
	blob->map = p;
	blob->data = p;
	/* a large file is read where binary searches land: read-ahead
	 * around each probe would only fill memory with unread pages */
	if (blob->len >= BLOB_CACHED_SIZE)
		madvise(p, (size_t)blob->len, MADV_RANDOM);
	return STATUS_OK;
}

static enum status open_registered(const char *path, struct blob **out,
				   bool *found, struct error *err);

enum status blob_open_file(const char *path, struct blob **out,
			   struct error *err)
{
	struct blob *blob = NULL;
	enum status st = STATUS_OK;
	bool found = false;
	st = open_registered(path, out, &found, err);
	if (found || st != STATUS_OK)
		return st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return error_set(err,
				 e == ENOENT ? STATUS_NOT_FOUND : STATUS_IO,
				 path, "%s", strerror(e));
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0) {
		st = error_set(err, STATUS_IO, path, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		st = error_set(err, STATUS_IO, path, "not a regular file");
		goto out;
	}
	uint64_t len = (uint64_t)sb.st_size;
	st = blob_new(path, len >= BLOB_CACHED_SIZE ? &cached_ops : &mapped_ops,
		      &blob, err);
	if (st != STATUS_OK)
		goto out;
	blob->len = len;
	if (blob->len >= BLOB_CACHED_SIZE) {
		pthread_mutex_init(&blob->cache_lock, NULL);
		pthread_mutex_init(&blob->window_lock, NULL);
		/* mapped only if someone asks for all of it (blob_map_all) */
		blob->blocks = calloc(BLOB_SETS * BLOB_WAYS,
				      sizeof(*blob->blocks));
		if (!blob->blocks) {
			st = error_set(err, STATUS_NOMEM, path,
				       "out of memory");
			goto out;
		}
		blob->fd = fd;
		fd = -1;
	} else if (blob->len > 0) {
		st = map_file(blob, fd, err);
		if (st != STATUS_OK)
			goto out;
	}
	*out = blob;
	blob = NULL;
out:
	if (fd >= 0)
		close(fd);
	blob_close(blob);
	return st;
}

enum status blob_open_memory(const void *data, uint64_t len, const char *name,
			     struct blob **out, struct error *err)
{
	struct blob *blob = NULL;
	enum status st =
		blob_new(name ? name : "<memory>", &memory_ops, &blob, err);
	if (st != STATUS_OK)
		return st;
	blob->data = data;
	blob->len = len;
	*out = blob;
	return STATUS_OK;
}

uint64_t blob_size(const struct blob *blob)
{
	return blob->len;
}

const char *blob_name(const struct blob *blob)
{
	return blob->name;
}

enum status blob_map_all(struct blob *blob, struct span *out,
			 struct error *err)
{
	return blob->ops->map_all(blob, out, err);
}

static enum status outside(const struct blob *blob, uint64_t off,
			   uint64_t len, struct error *err)
{
	return error_set_at(err, STATUS_CORRUPT, blob->name, off,
			    "%llu bytes wanted past the end of the file "
			    "(size %llu)",
			    (unsigned long long)len,
			    (unsigned long long)blob->len);
}

enum status blob_map_range(struct blob *blob, uint64_t off, uint64_t len,
			   struct span *out, struct error *err)
{
	if (off > blob->len || len > blob->len - off)
		return outside(blob, off, len, err);
	return blob->ops->map_range(blob, off, len, out, err);
}

enum status blob_read(struct blob *blob, uint64_t off, uint64_t len,
		      struct span *out, struct error *err)
{
	if (off > blob->len || len > blob->len - off)
		return outside(blob, off, len, err);
	return blob->ops->read(blob, off, len, out, err);
}

void blob_release(struct blob *blob, struct span s)
{
	if (blob)
		blob->ops->release(blob, s);
}

void blob_close(struct blob *blob)
{
	if (!blob)
		return;
	blob->ops->close(blob);
	free(blob->name);
	free(blob);
}

bool blob_is_remote(const struct blob *blob)
{
	return blob && blob->ops == &remote_ops;
}

/* ---- memory and mapped files ---- */

static enum status whole_map_all(struct blob *blob, struct span *out,
				 struct error *err)
{
	(void)err;
	out->data = blob->data;
	out->len = blob->len;
	return STATUS_OK;
}

/* A piece of the whole mapping (made on first use for a cached blob). */
static enum status piece_of_all(struct blob *blob, uint64_t off, uint64_t len,
				struct span *out, struct error *err)
{
	struct span all;
	enum status st = blob->ops->map_all(blob, &all, err);
	if (st == STATUS_OK)
		(void)span_sub(all, off, len, out);
	return st;
}

static enum status whole_read(struct blob *blob, uint64_t off, uint64_t len,
			      struct span *out, struct error *err)
{
	(void)err;
	struct span all = {blob->data, blob->len};
	(void)span_sub(all, off, len, out);
	return STATUS_OK;
}

static void no_release(struct blob *blob, struct span s)
{
	(void)blob;
	(void)s;
}

static void memory_close(struct blob *blob)
{
	(void)blob;
}

/* Give the whole pages inside `s` back to the kernel. */
static void mapped_release(struct blob *blob, struct span s)
{
	if (!blob->map || !blob->data || s.len == 0 ||
	    s.data < blob->data || s.data - blob->data > (ptrdiff_t)blob->len ||
	    s.len > blob->len - (uint64_t)(s.data - blob->data))
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)s.data + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)s.data + s.len) & ~(page - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

static void mapped_close(struct blob *blob)
{
	if (blob->map)
		munmap(blob->map, (size_t)blob->len);
}

static const struct blob_ops memory_ops = {
	.map_all = whole_map_all,
	.map_range = piece_of_all,
	.read = whole_read,
	.release = no_release,
	.close = memory_close,
};

static const struct blob_ops mapped_ops = {
	.map_all = whole_map_all,
	.map_range = piece_of_all,
	.read = whole_read,
	.release = mapped_release,
	.close = mapped_close,
};

/* ---- large local files: pread into the block cache ---- */

/* The mapping is made on first use; cache_lock keeps two threads from
 * making it twice. */
static enum status cached_map_all(struct blob *blob, struct span *out,
				  struct error *err)
{
	enum status st = STATUS_OK;
	pthread_mutex_lock(&blob->cache_lock);
	if (!blob->data && blob->len > 0)
		st = map_file(blob, blob->fd, err);
	pthread_mutex_unlock(&blob->cache_lock);
	if (st != STATUS_OK)
		return st;
	out->data = blob->data;
	out->len = blob->len;
	return STATUS_OK;
}

static bool pread_all(int fd, uint8_t *buf, uint64_t len, uint64_t off)
{
	while (len > 0) {
		ssize_t n = pread(fd, buf, (size_t)len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0; /* the file shrank */
			return false;
		}
		buf += n;
		len -= (uint64_t)n;
		off += (uint64_t)n;
	}
	return true;
}

/* The cached block number `index`, read on a miss into the least recently
 * used way of its set.  NULL when it cannot be read.  The caller holds
 * cache_lock. */
static struct blob_block *cached_block(struct blob *blob, uint64_t index)
{
	uint64_t h = index * 0x9e3779b97f4a7c15ULL;
	struct blob_block *set =
		blob->blocks + (h >> 32) % BLOB_SETS * BLOB_WAYS;
	struct blob_block *victim = &set[0];
	blob->clock++;
	for (int w = 0; w < BLOB_WAYS; w++) {
		if (set[w].used && set[w].index == index) {
			set[w].used = blob->clock;
			return &set[w];
		}
		if (set[w].used < victim->used)
			victim = &set[w];
	}
	if (!victim->data && !(victim->data = malloc(BLOB_BLOCK_SIZE)))
		return NULL;
	uint64_t off = index << BLOB_BLOCK_SHIFT;
	uint64_t len = blob->len - off < BLOB_BLOCK_SIZE ? blob->len - off
							 : BLOB_BLOCK_SIZE;
	victim->used = 0;
	if (!pread_all(blob->fd, victim->data, len, off))
		return NULL;
	victim->index = index;
	victim->len = len;
	victim->used = blob->clock;
	return victim;
}

static uint8_t *window_for(struct blob *blob, uint64_t len);

/* A window is copied into the calling thread's own buffer (as for remote
 * blobs): a block of the shared cache may be replaced by another thread's
 * read as soon as cache_lock is released, so a span must never point into
 * it.  The copy is of the window only (a few bytes for a trace element). */
static enum status cached_read(struct blob *blob, uint64_t off, uint64_t len,
			       struct span *out, struct error *err)
{
	uint8_t *buf = window_for(blob, len);
	if (!buf)
		return error_set_at(err, STATUS_NOMEM, blob->name, off,
				    "out of memory for a %llu-byte window",
				    (unsigned long long)len);
	uint64_t first = off >> BLOB_BLOCK_SHIFT;
	if (len > 0 && (off + len - 1) >> BLOB_BLOCK_SHIFT == first) {
		pthread_mutex_lock(&blob->cache_lock);
		struct blob_block *b = cached_block(blob, first);
		if (b)
			memcpy(buf, b->data + (off - (first << BLOB_BLOCK_SHIFT)),
			       (size_t)len);
		pthread_mutex_unlock(&blob->cache_lock);
		if (!b)
			goto fail;
	} else if (!pread_all(blob->fd, buf, len, off)) {
		/* straddling or empty windows: read directly, not cached */
		goto fail;
	}
	out->data = buf;
	out->len = len;
	return STATUS_OK;
fail:
	return error_set_at(err, STATUS_IO, blob->name, off,
			    "cannot read %llu bytes: %s",
			    (unsigned long long)len,
			    errno ? strerror(errno) : "short read");
}

static void windows_free(struct blob *blob);

static void cached_close(struct blob *blob)
{
	mapped_close(blob);
	if (blob->fd >= 0)
		close(blob->fd);
	for (size_t i = 0; blob->blocks && i < BLOB_SETS * BLOB_WAYS; i++)
		free(blob->blocks[i].data);
	free(blob->blocks);
	windows_free(blob);
	pthread_mutex_destroy(&blob->cache_lock);
}

static void windows_free(struct blob *blob)
{
	for (size_t i = 0; i < blob->n_windows; i++)
		free(blob->windows[i].buf);
	free(blob->windows);
	blob->windows = NULL;
	blob->n_windows = 0;
	pthread_mutex_destroy(&blob->window_lock);
}

static const struct blob_ops cached_ops = {
	.map_all = cached_map_all,
	.map_range = piece_of_all,
	.read = cached_read,
	.release = mapped_release,
	.close = cached_close,
};

/* ---- remote files: the block cache of blob_remote.c ---- */

/* The calling thread's window buffer, at least `len` bytes.  NULL when out
 * of memory. */
static uint8_t *window_for(struct blob *blob, uint64_t len)
{
	uint8_t *buf = NULL;
	pthread_t self = pthread_self();
	pthread_mutex_lock(&blob->window_lock);
	struct blob_window *w = NULL;
	for (size_t i = 0; i < blob->n_windows && !w; i++)
		if (pthread_equal(blob->windows[i].owner, self))
			w = &blob->windows[i];
	if (!w) {
		struct blob_window *grown =
			realloc(blob->windows,
				(blob->n_windows + 1) * sizeof(*grown));
		if (!grown)
			goto out;
		blob->windows = grown;
		w = &grown[blob->n_windows++];
		*w = (struct blob_window){.owner = self};
	}
	if (len > w->cap || !w->buf) {
		uint8_t *p = realloc(w->buf, len ? len : 1);
		if (!p)
			goto out;
		w->buf = p;
		w->cap = len;
	}
	buf = w->buf;
out:
	pthread_mutex_unlock(&blob->window_lock);
	return buf;
}

static enum status remote_read(struct blob *blob, uint64_t off, uint64_t len,
			       struct span *out, struct error *err)
{
	uint8_t *buf = window_for(blob, len);
	if (!buf)
		return error_set_at(err, STATUS_NOMEM, blob->name, off,
				    "out of memory for a %llu-byte window",
				    (unsigned long long)len);
	enum status st =
		blob_remote_copy(blob->remote->cache, off, len, buf, err);
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
	windows_free(blob);
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

static const struct blob_ops remote_ops = {
	.map_all = remote_map_all,
	.map_range = remote_map_range,
	.read = remote_read,
	.release = no_release,
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
static enum status open_registered(const char *path, struct blob **out,
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
	st = blob_new(path, &remote_ops, &blob, err);
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
