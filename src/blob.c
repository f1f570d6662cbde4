/* blob: local implementation of the file access interface (read-only
 * mmap of a whole file, or caller-owned memory).  Large files are read by
 * blob_read() through pread(2) into a bounded cache of 4 KiB blocks, so
 * that lazily read data (trace samples, value blocks) costs a fixed amount
 * of memory whatever the size of the file; blob_map_all() still maps them
 * (lazily) for metadata.  A remote implementation will sit beside this one
 * behind the same functions, with the same block cache.  Depends on POSIX
 * only. */
#include "blob.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

struct blob_block {
	uint64_t index; /* block number (offset >> BLOB_BLOCK_SHIFT) */
	uint64_t used;  /* clock of the last use; 0 = empty */
	uint64_t len;   /* valid bytes (short at the end of the file) */
	uint8_t *data;  /* BLOB_BLOCK_SIZE bytes, allocated on first use */
};

struct blob {
	char *name;
	const uint8_t *data; /* the mapping or caller's bytes, or NULL */
	uint64_t len;
	bool mapped;
	int fd;              /* >= 0 when read through the block cache */
	struct blob_block *blocks; /* BLOB_SETS * BLOB_WAYS, or NULL */
	uint64_t clock;
	uint8_t *scratch;    /* windows that straddle blocks */
	uint64_t scratch_cap;
};

static enum status blob_new(const char *name, struct blob **out,
			    struct error *err)
{
	struct blob *blob = calloc(1, sizeof(*blob));
	if (!blob || !(blob->name = strdup(name))) {
		free(blob);
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	}
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
	blob->data = p;
	blob->mapped = true;
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
	st = blob_new(path, &blob, err);
	if (st != STATUS_OK)
		goto out;
	blob->len = (uint64_t)sb.st_size;
	if (blob->len >= BLOB_CACHED_SIZE) {
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
	enum status st = blob_new(name ? name : "<memory>", &blob, err);
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
	if (!blob->data && blob->fd >= 0 && blob->len > 0) {
		enum status st = map_file(blob, blob->fd, err);
		if (st != STATUS_OK)
			return st;
	}
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
 * used way of its set.  NULL when it cannot be read. */
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

static enum status cached_read(struct blob *blob, uint64_t off, uint64_t len,
			       struct span *out, struct error *err)
{
	uint64_t first = off >> BLOB_BLOCK_SHIFT;
	if (len > 0 && (off + len - 1) >> BLOB_BLOCK_SHIFT == first) {
		struct blob_block *b = cached_block(blob, first);
		if (!b)
			goto fail;
		out->data = b->data + (off - (first << BLOB_BLOCK_SHIFT));
		out->len = len;
		return STATUS_OK;
	}
	/* straddling or empty windows: read directly, not cached */
	if (len > blob->scratch_cap) {
		uint8_t *p = realloc(blob->scratch, len ? len : 1);
		if (!p)
			return error_set_at(err, STATUS_NOMEM, blob->name, off,
					    "out of memory for a %llu-byte "
					    "window",
					    (unsigned long long)len);
		blob->scratch = p;
		blob->scratch_cap = len;
	}
	if (!pread_all(blob->fd, blob->scratch, len, off))
		goto fail;
	out->data = blob->scratch;
	out->len = len;
	return STATUS_OK;
fail:
	return error_set_at(err, STATUS_IO, blob->name, off,
			    "cannot read %llu bytes: %s",
			    (unsigned long long)len,
			    errno ? strerror(errno) : "short read");
}

enum status blob_read(struct blob *blob, uint64_t off, uint64_t len,
		      struct span *out, struct error *err)
{
	if (off > blob->len || len > blob->len - off)
		return error_set_at(err, STATUS_CORRUPT, blob->name, off,
				    "%llu bytes wanted past the end of the "
				    "file (size %llu)",
				    (unsigned long long)len,
				    (unsigned long long)blob->len);
	if (blob->fd >= 0)
		return cached_read(blob, off, len, out, err);
	struct span all = {blob->data, blob->len};
	(void)span_sub(all, off, len, out);
	return STATUS_OK;
}

void blob_release(struct blob *blob, struct span s)
{
	if (!blob || !blob->mapped || !blob->data || s.len == 0 ||
	    s.data < blob->data || s.data - blob->data > (ptrdiff_t)blob->len ||
	    s.len > blob->len - (uint64_t)(s.data - blob->data))
		return;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)s.data + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)s.data + s.len) & ~(page - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

void blob_close(struct blob *blob)
{
	if (!blob)
		return;
	if (blob->mapped)
		munmap((void *)blob->data, (size_t)blob->len);
	if (blob->fd >= 0)
		close(blob->fd);
	for (size_t i = 0; blob->blocks && i < BLOB_SETS * BLOB_WAYS; i++)
		free(blob->blocks[i].data);
	free(blob->blocks);
	free(blob->scratch);
	free(blob->name);
	free(blob);
}
