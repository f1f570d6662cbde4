/* blob: the file access interface, dispatched through one ops table per
 * kind of blob, and two kinds: caller-owned memory and a local file
 * mapped read-only.  Large local files are blob_cached.c's, remote files
 * (a registered local path) blob_registry.c's; the per-thread window
 * buffers both use, and the positioned whole-buffer reads and writes of
 * io/, are here.  Depends on POSIX only (the network is behind struct
 * blob_fetcher). */
#include "config.h"

#include "io/blob_internal.h"
#include "core/array.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct blob_ops memory_ops, mapped_ops;

enum status blob_new(const char *name, const struct blob_ops *ops,
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

enum status blob_map_file(struct blob *blob, int fd, struct error *err)
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

enum status blob_open_file(const char *path, struct blob **out,
			   struct error *err)
{
	struct blob *blob = NULL;
	enum status st = STATUS_OK;
	bool found = false;
	st = blob_open_registered(path, out, &found, err);
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
	st = blob_new(path, len >= BLOB_CACHED_SIZE ? &blob_cached_ops : &mapped_ops,
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
		st = blob_map_file(blob, fd, err);
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
	return blob && blob->ops == &blob_remote_ops;
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
enum status blob_piece_of_all(struct blob *blob, uint64_t off, uint64_t len,
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

void blob_no_release(struct blob *blob, struct span s)
{
	(void)blob;
	(void)s;
}

static void memory_close(struct blob *blob)
{
	(void)blob;
}

/* Give the whole pages inside `s` back to the kernel. */
void blob_mapped_release(struct blob *blob, struct span s)
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

void blob_mapped_close(struct blob *blob)
{
	if (blob->map)
		munmap(blob->map, (size_t)blob->len);
}

static const struct blob_ops memory_ops = {
	.map_all = whole_map_all,
	.map_range = blob_piece_of_all,
	.read = whole_read,
	.release = blob_no_release,
	.close = memory_close,
};

static const struct blob_ops mapped_ops = {
	.map_all = whole_map_all,
	.map_range = blob_piece_of_all,
	.read = whole_read,
	.release = blob_mapped_release,
	.close = blob_mapped_close,
};

/* ---- window buffers (large local and remote blobs) ---- */

/* The calling thread's buffer, at least `len` bytes; NULL when out of
 * memory. */
static uint8_t *window_buffer(struct blob *blob, uint64_t len)
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

enum status blob_window_for(struct blob *blob, uint64_t off, uint64_t len,
			    uint8_t **buf, struct error *err)
{
	*buf = window_buffer(blob, len);
	if (!*buf)
		return error_set_at(err, STATUS_NOMEM, blob->name, off,
				    "out of memory for a %llu-byte window",
				    (unsigned long long)len);
	return STATUS_OK;
}

void blob_windows_free(struct blob *blob)
{
	for (size_t i = 0; i < blob->n_windows; i++)
		free(blob->windows[i].buf);
	FREE_AND_NULL(blob->windows);
	blob->n_windows = 0;
	pthread_mutex_destroy(&blob->window_lock);
}

/* Into `rd`, or from `wr`: the one loop of blob_pread_all and
 * blob_pwrite_all. */
static bool pio_all(int fd, uint8_t *rd, const uint8_t *wr, uint64_t len,
		    uint64_t off)
{
	uint64_t done = 0;
	while (done < len) {
		size_t want = (size_t)(len - done);
		off_t at = (off_t)(off + done);
		ssize_t n = wr ? pwrite(fd, wr + done, want, at)
			       : pread(fd, rd + done, want, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0; /* the file shrank */
			return false;
		}
		done += (uint64_t)n;
	}
	return true;
}

bool blob_pread_all(int fd, void *buf, uint64_t len, uint64_t off)
{
	return pio_all(fd, buf, NULL, len, off);
}

bool blob_pwrite_all(int fd, const void *buf, uint64_t len, uint64_t off)
{
	return pio_all(fd, NULL, buf, len, off);
}
