/* blob_cached: large local files (BLOB_CACHED_SIZE and more) read by
 * blob_read() through pread(2) into a bounded cache of 4 KiB blocks, so
 * that lazily read data costs a fixed amount of memory whatever the size
 * of the file; blob_map_all() still maps it, lazily, for metadata.
 * Depends on POSIX only. */
#include "config.h"

#include "io/blob_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The mapping is made on first use; cache_lock keeps two threads from
 * making it twice. */
static enum status cached_map_all(struct blob *blob, struct span *out,
				  struct error *err)
{
	enum status st = STATUS_OK;
	pthread_mutex_lock(&blob->cache_lock);
	if (!blob->data && blob->len > 0)
		st = blob_map_file(blob, blob->fd, err);
	pthread_mutex_unlock(&blob->cache_lock);
	if (st != STATUS_OK)
		return st;
	out->data = blob->data;
	out->len = blob->len;
	return STATUS_OK;
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
	if (!blob_pread_all(blob->fd, victim->data, len, off))
		return NULL;
	victim->index = index;
	victim->len = len;
	victim->used = blob->clock;
	return victim;
}

/* A window is copied into the calling thread's own buffer (as for remote
 * blobs): a block of the shared cache may be replaced by another thread's
 * read as soon as cache_lock is released, so a span must never point into
 * it.  The copy is of the window only (a few bytes for a trace element). */
static enum status cached_read(struct blob *blob, uint64_t off, uint64_t len,
			       struct span *out, struct error *err)
{
	uint8_t *buf = NULL;
	enum status st = blob_window_for(blob, off, len, &buf, err);
	if (st != STATUS_OK)
		return st;
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
	} else if (!blob_pread_all(blob->fd, buf, len, off)) {
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

static void cached_close(struct blob *blob)
{
	blob_mapped_close(blob);
	if (blob->fd >= 0)
		close(blob->fd);
	for (size_t i = 0; blob->blocks && i < BLOB_SETS * BLOB_WAYS; i++)
		free(blob->blocks[i].data);
	free(blob->blocks);
	blob_windows_free(blob);
	pthread_mutex_destroy(&blob->cache_lock);
}

const struct blob_ops blob_cached_ops = {
	.map_all = cached_map_all,
	.map_range = blob_piece_of_all,
	.read = cached_read,
	.release = blob_mapped_release,
	.close = cached_close,
};
