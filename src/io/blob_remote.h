/* blob_remote: the block cache behind a remote blob.
 *
 * A remote file is read in fixed-size blocks (64 KiB by default) through a
 * fetcher (struct blob_fetcher in blob.h: one range request per call).  A
 * read fetches only the blocks its window touches that are neither in
 * memory nor on disk, adjacent missing blocks in one request; blocks are
 * kept in a bounded in-memory LRU and persisted in a cache directory (a
 * sparse data file, a bitmap of present blocks and the validator they
 * belong to).  A bit is set in the bitmap only after the data it covers is
 * on disk (fdatasync), so a crash never leaves a block marked present but
 * not written; a changed size or validator drops the cache (only when no
 * other process is using it: processes reading the same version share the
 * directory and each other's blocks).  Every call is
 * thread-safe (one mutex, held during fetches too: the fetcher need not be
 * thread-safe).  blob.c wraps this as one implementation of struct blob;
 * readers never see it.  Must not depend on curses, on ui/ or on curl. */
#ifndef CALLSCOPE_BLOB_REMOTE_H
#define CALLSCOPE_BLOB_REMOTE_H

#include <stdint.h>

#include "io/blob.h"
#include "core/status.h"

struct blob_remote;

/* Tuning; zero fields take the defaults. */
struct blob_remote_config {
	uint32_t block_shift; /* log2 of the block size: default 16 (64 KiB) */
	uint64_t mem_limit;   /* bytes of blocks kept in memory: 64 MiB */
	uint32_t readahead;   /* extra blocks fetched on sequential reads: 2;
				 UINT32_MAX for none */
	uint32_t flush_every; /* fetched blocks between bitmap flushes: 64 */
};

/* What the cache has done so far (tests, benchmarks). */
struct blob_remote_stats {
	uint64_t fetches;       /* requests made through the fetcher */
	uint64_t fetched_bytes; /* bytes they returned */
	uint64_t disk_reads;    /* blocks read back from the cache directory */
	uint64_t mem_blocks;    /* blocks in memory now */
	uint64_t mem_bytes;     /* bytes of block data in memory now */
};

/* A cache over the remote file `name` (a URL, for messages) of `size`
 * bytes whose version is `validator` (an ETag or Last-Modified; NULL or ""
 * when the server gives none: the persisted blocks are then trusted only
 * for the same size).  `cache_dir` is created if needed and holds the
 * persisted blocks; NULL keeps blocks in memory only.  The fetcher is
 * copied; its ctx must outlive the cache.  STATUS_IO when the cache
 * directory cannot be created or written. */
enum status blob_remote_open(const char *name, const struct blob_fetcher *f,
			     uint64_t size, const char *validator,
			     const char *cache_dir,
			     const struct blob_remote_config *config,
			     struct blob_remote **out, struct error *err);

/* What the persisted blocks in `cache_dir` belong to, as saved with them:
 * the file's size and validator (heap string in *validator, NULL when it
 * was saved empty).  STATUS_NOT_FOUND when the directory holds no meta
 * file, STATUS_CORRUPT when it is not one of ours. */
enum status blob_remote_read_meta(const char *cache_dir, uint64_t *size,
				  char **validator, struct error *err);

uint64_t blob_remote_size(const struct blob_remote *r);

/* Copy [off, off+len) of the remote file into `dst`, fetching the missing
 * blocks.  STATUS_CORRUPT (naming the offset) when the range lies outside
 * the file; a failed fetch returns the fetcher's status and message.
 * Windows of more than a quarter of the memory bound bypass the LRU (the
 * blocks are still persisted). */
enum status blob_remote_copy(struct blob_remote *r, uint64_t off,
			     uint64_t len, void *dst, struct error *err);

/* Write the bitmap of the blocks fetched so far (after syncing their
 * data).  Done every `flush_every` fetched blocks and at close. */
enum status blob_remote_flush(struct blob_remote *r, struct error *err);

void blob_remote_get_stats(struct blob_remote *r,
			   struct blob_remote_stats *out);

/* Flush and free; NULL is a no-op. */
void blob_remote_close(struct blob_remote *r);

#endif
