/* blob_remote: the block cache of remote blobs (see blob_remote.h).  A
 * window is served block by block: from the in-memory LRU, else from the
 * cache directory (the block's bit is set in the bitmap), else fetched
 * with the adjacent missing blocks of the window in one request.  The
 * cache directory holds three files: `data` (sparse, the remote file's
 * size, fetched blocks at their offsets), `bitmap` (one bit per block,
 * written only after `data` is synced) and `meta` (the size, block size
 * and validator the other two belong to, replaced by rename).  Must not
 * depend on curses, on ui/ or on curl: the network is behind the fetcher. */
#include "config.h"

#include "core/path.h"
#include "core/array.h"
#include "io/blob_remote.h"
#include "io/blob_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REMOTE_BLOCK_SHIFT 16
#define REMOTE_MEM_LIMIT ((uint64_t)64 << 20)
#define REMOTE_READAHEAD 2
#define REMOTE_FLUSH_EVERY 64
/* One request fetches at most this many bytes. */
#define REMOTE_MAX_REQUEST ((uint64_t)16 << 20)
/* A meta file longer than this is not ours. */
#define REMOTE_META_MAX 8192
/* The largest file read in blocks: its bitmap is 32 MiB at 64 KiB blocks.
 * A size is a server's word; a bigger one is refused, not allocated. */
#define REMOTE_MAX_SIZE ((uint64_t)16 << 40)

struct rblock {
	uint64_t index;
	uint64_t len;               /* valid bytes (short at the end) */
	struct rblock *hash_next;   /* chain of its hash bucket */
	struct rblock *prev, *next; /* LRU list, most recent first */
	uint8_t data[];             /* the block size */
};

struct blob_remote {
	pthread_mutex_t lock;
	char *name;
	struct blob_fetcher fetcher;
	uint64_t size;
	uint32_t shift;
	uint64_t block_size;
	uint64_t n_blocks;
	uint64_t max_mem_blocks;
	uint32_t readahead;
	uint32_t flush_every;
	/* memory */
	struct rblock **buckets;
	uint64_t n_buckets; /* a power of two */
	struct rblock *lru_head, *lru_tail;
	/* the cache directory; data_fd < 0 when blocks are not persisted;
	 * lock_fd holds a shared flock on its `lock` file for the session */
	int data_fd, bitmap_fd, lock_fd;
	uint8_t *present; /* a bit per block: its bytes are in `data` */
	uint64_t bitmap_bytes;
	uint64_t unflushed; /* blocks written since the last flush */
	uint64_t dirty_lo, dirty_hi; /* bitmap bytes [lo, hi) set since */
	/* the block after the previous window (sequential reads) */
	uint64_t next_seq;
	struct blob_remote_stats stats;
};

static bool bit_get(const uint8_t *bits, uint64_t i)
{
	return bits && bits[i >> 3] >> (i & 7) & 1;
}

static void bit_set(uint8_t *bits, uint64_t i)
{
	bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static uint64_t block_len(const struct blob_remote *r, uint64_t index)
{
	uint64_t off = index << r->shift;
	return r->size - off < r->block_size ? r->size - off : r->block_size;
}

/* ---- the in-memory LRU ---- */

static uint64_t bucket_of(const struct blob_remote *r, uint64_t index)
{
	return (index * 0x9e3779b97f4a7c15ULL >> 20) & (r->n_buckets - 1);
}

static struct rblock *lru_find(struct blob_remote *r, uint64_t index)
{
	for (struct rblock *e = r->buckets[bucket_of(r, index)]; e;
	     e = e->hash_next)
		if (e->index == index)
			return e;
	return NULL;
}

static void list_unlink(struct blob_remote *r, struct rblock *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		r->lru_head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		r->lru_tail = e->prev;
	e->prev = e->next = NULL;
}

static void list_push(struct blob_remote *r, struct rblock *e)
{
	e->prev = NULL;
	e->next = r->lru_head;
	if (r->lru_head)
		r->lru_head->prev = e;
	r->lru_head = e;
	if (!r->lru_tail)
		r->lru_tail = e;
}

static void lru_touch(struct blob_remote *r, struct rblock *e)
{
	if (r->lru_head == e)
		return;
	list_unlink(r, e);
	list_push(r, e);
}

static void hash_unlink(struct blob_remote *r, struct rblock *e)
{
	struct rblock **pp = &r->buckets[bucket_of(r, e->index)];
	while (*pp && *pp != e)
		pp = &(*pp)->hash_next;
	if (*pp)
		*pp = e->hash_next;
	e->hash_next = NULL;
}

/* A block slot for `index` (new, or the least recently used one taken
 * back), not yet in the hash or the list.  NULL when out of memory. */
static struct rblock *lru_slot(struct blob_remote *r)
{
	if (r->stats.mem_blocks < r->max_mem_blocks) {
		struct rblock *e = malloc(sizeof(*e) + r->block_size);
		if (e) {
			r->stats.mem_blocks++;
			return e;
		}
		if (!r->lru_tail)
			return NULL;
	}
	struct rblock *e = r->lru_tail;
	list_unlink(r, e);
	hash_unlink(r, e);
	r->stats.mem_bytes -= e->len;
	return e;
}

static void lru_insert(struct blob_remote *r, struct rblock *e,
		       uint64_t index)
{
	e->index = index;
	e->len = block_len(r, index);
	uint64_t h = bucket_of(r, index);
	e->hash_next = r->buckets[h];
	r->buckets[h] = e;
	list_push(r, e);
	r->stats.mem_bytes += e->len;
}

/* Keep a copy of block `index` (bytes `src`) in memory; a failed
 * allocation only means it is not kept. */
static void lru_keep(struct blob_remote *r, uint64_t index,
		     const uint8_t *src)
{
	struct rblock *e = lru_slot(r);
	if (!e)
		return;
	memcpy(e->data, src, block_len(r, index));
	lru_insert(r, e, index);
}

/* ---- the cache directory ---- */

/* Stop persisting (a write failed: a full disk, a removed directory):
 * what is in memory stays, and nothing on disk is trusted again. */
static void disk_drop(struct blob_remote *r)
{
	if (r->data_fd >= 0)
		close(r->data_fd);
	/* the bitmap on disk keeps only bits of synced data: it stays */
	if (r->bitmap_fd >= 0)
		close(r->bitmap_fd);
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	r->data_fd = r->bitmap_fd = r->lock_fd = -1;
	FREE_AND_NULL(r->present);
	r->unflushed = 0;
	r->dirty_lo = r->dirty_hi = 0;
}

/* Write the bitmap bytes our fetches changed since the last flush, with
 * the bits other processes sharing the directory set in them merged in:
 * bits only ever mean "this block's bytes are on disk", so a union of
 * valid bitmaps is valid, and bytes we did not change are not written
 * (theirs stay, and a flush costs what was fetched, not the file's size).
 * The bitmap file's own flock makes read-merge-write one step. */
static bool bitmap_write_merged(struct blob_remote *r)
{
	uint64_t lo = r->dirty_lo, hi = r->dirty_hi;
	if (hi <= lo)
		return true;
	if (flock(r->bitmap_fd, LOCK_EX) != 0)
		return false;
	uint8_t chunk[4096];
	for (uint64_t at = lo; at < hi; at += sizeof(chunk)) {
		uint64_t n = hi - at < sizeof(chunk) ? hi - at : sizeof(chunk);
		if (!blob_pread_all(r->bitmap_fd, chunk, n, at))
			break; /* a short bitmap (new file): ours alone */
		for (uint64_t i = 0; i < n; i++)
			r->present[at + i] |= chunk[i];
	}
	bool ok = blob_pwrite_all(r->bitmap_fd, r->present + lo, hi - lo, lo);
	flock(r->bitmap_fd, LOCK_UN);
	if (ok)
		r->dirty_lo = r->dirty_hi = 0;
	return ok;
}

static enum status flush_locked(struct blob_remote *r, struct error *err)
{
	if (r->data_fd < 0 || r->unflushed == 0)
		return STATUS_OK;
	/* the data first: a bit never reaches the disk before its block */
	if (fdatasync(r->data_fd) != 0 || !bitmap_write_merged(r)) {
		int e = errno;
		disk_drop(r);
		return error_set(err, STATUS_IO, r->name,
				 "cannot write the block cache: %s",
				 strerror(e));
	}
	r->unflushed = 0;
	return STATUS_OK;
}

/* The contents of the `meta` file for this file and version. */
static char *meta_text(const struct blob_remote *r, const char *validator)
{
	char *t = NULL;
	if (asprintf(&t,
		     "callscope block cache 1\nsize %llu\nblock %llu\n"
		     "validator %s\n",
		     (unsigned long long)r->size,
		     (unsigned long long)r->block_size,
		     validator ? validator : "") < 0)
		return NULL;
	return t;
}

/* Whether the file at `path` holds exactly `want`. */
static bool file_holds(const char *path, const char *want)
{
	size_t n = strlen(want);
	if (n > REMOTE_META_MAX)
		return false;
	char *buf = malloc(n + 1);
	FILE *f = fopen(path, "rb");
	bool same = false;
	if (buf && f) {
		size_t got = fread(buf, 1, n + 1, f);
		same = got == n && memcmp(buf, want, n) == 0;
	}
	if (f)
		fclose(f);
	free(buf);
	return same;
}

/* Forget every block: empty the bitmap, then the data, then write the new
 * meta (a crash in between leaves an empty bitmap, which is safe). */
static bool disk_reset(struct blob_remote *r, const char *dir,
		       const char *meta_path, const char *meta)
{
	char *tmp = path_join(dir, "meta.tmp");
	bool ok = tmp && ftruncate(r->bitmap_fd, 0) == 0 &&
		  fsync(r->bitmap_fd) == 0 && ftruncate(r->data_fd, 0) == 0 &&
		  ftruncate(r->data_fd, (off_t)r->size) == 0 &&
		  ftruncate(r->bitmap_fd, (off_t)r->bitmap_bytes) == 0;
	if (ok) {
		int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0600);
		ok = fd >= 0 && blob_pwrite_all(fd, meta, strlen(meta), 0) &&
		     fsync(fd) == 0;
		if (fd >= 0)
			close(fd);
		ok = ok && rename(tmp, meta_path) == 0;
	}
	if (ok) {
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			(void)fsync(dfd);
			close(dfd);
		}
	}
	free(tmp);
	return ok;
}

/* A shared flock on `path` (created), retried for about a second while a
 * process resetting the directory holds it exclusively; -1 when refused. */
static int lock_shared(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	for (int i = 0; i < 100; i++) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	close(fd);
	return -1;
}

/* Open (or create) the cache directory and load the bitmap when its meta
 * matches.  Several processes share a directory of the same version: each
 * holds a shared flock on `lock` for its session, reads what the others
 * saved and merges its bits into theirs.  A different version empties the
 * directory only with the lock exclusive (no other process using it);
 * otherwise, as when the lock is refused, this cache stays in memory. */
static enum status disk_open(struct blob_remote *r, const char *dir,
			     const char *validator, struct error *err)
{
	enum status st = STATUS_OK;
	char *data_path = path_join(dir, "data");
	char *bitmap_path = path_join(dir, "bitmap");
	char *meta_path = path_join(dir, "meta");
	char *lock_path = path_join(dir, "lock");
	char *meta = meta_text(r, validator);
	if (!data_path || !bitmap_path || !meta_path || !lock_path || !meta) {
		st = error_set(err, STATUS_NOMEM, dir, "out of memory");
		goto out;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		st = error_set(err, STATUS_IO, dir,
			       "cannot create the block cache: %s",
			       strerror(errno));
		goto out;
	}
	r->lock_fd = lock_shared(lock_path);
	if (r->lock_fd < 0)
		goto out; /* memory only */
	r->bitmap_fd = open(bitmap_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (r->bitmap_fd < 0) {
		st = error_set(err, STATUS_IO, bitmap_path, "%s",
			       strerror(errno));
		goto out;
	}
	r->data_fd = open(data_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	r->present = calloc(r->bitmap_bytes ? r->bitmap_bytes : 1, 1);
	if (r->data_fd < 0 || !r->present) {
		st = r->present ? error_set(err, STATUS_IO, data_path, "%s",
					    strerror(errno))
				: error_set(err, STATUS_NOMEM, dir,
					    "out of memory");
		goto out;
	}
	struct stat sb;
	bool same = file_holds(meta_path, meta) &&
		    fstat(r->data_fd, &sb) == 0 &&
		    (uint64_t)sb.st_size == r->size &&
		    fstat(r->bitmap_fd, &sb) == 0 &&
		    (uint64_t)sb.st_size == r->bitmap_bytes &&
		    blob_pread_all(r->bitmap_fd, r->present, r->bitmap_bytes, 0);
	if (!same) {
		memset(r->present, 0, r->bitmap_bytes);
		/* another version: only when nobody else uses the directory
		 * (a failed conversion has dropped our shared lock too) */
		if (flock(r->lock_fd, LOCK_EX | LOCK_NB) != 0) {
			disk_drop(r);
			goto out; /* memory only */
		}
		if (!disk_reset(r, dir, meta_path, meta)) {
			st = error_set(err, STATUS_IO, dir,
				       "cannot reset the block cache: %s",
				       strerror(errno));
			goto out;
		}
		flock(r->lock_fd, LOCK_SH);
	}
out:
	if (st != STATUS_OK)
		disk_drop(r);
	free(data_path);
	free(bitmap_path);
	free(meta_path);
	free(lock_path);
	free(meta);
	return st;
}

/* ---- reads ---- */

/* Copy the part of block `index` (bytes `src`) that lies in the window
 * [off, off+len) to its place in `dst`. */
static void put(const struct blob_remote *r, uint64_t index,
		const uint8_t *src, uint64_t off, uint64_t len, uint8_t *dst)
{
	uint64_t b_start = index << r->shift, b_end = b_start + block_len(r, index);
	uint64_t s = off > b_start ? off : b_start;
	uint64_t e = off + len < b_end ? off + len : b_end;
	if (s < e)
		memcpy(dst + (s - off), src + (s - b_start), e - s);
}

static bool missing(struct blob_remote *r, uint64_t index)
{
	return !bit_get(r->present, index) && !lru_find(r, index);
}

/* Fetch blocks [first, end) in one request, persist them, keep them in
 * memory when `keep` (always those after `last`: read-ahead), and copy
 * their part of the window. */
static enum status fetch_run(struct blob_remote *r, uint64_t first,
			     uint64_t end, uint64_t last, bool keep,
			     uint64_t off, uint64_t len, uint8_t *dst,
			     struct error *err)
{
	uint64_t f_off = first << r->shift;
	uint64_t f_end = end << r->shift < r->size ? end << r->shift : r->size;
	uint64_t f_len = f_end - f_off;
	uint8_t *buf = malloc(f_len);
	if (!buf)
		return error_set_at(err, STATUS_NOMEM, r->name, f_off,
				    "out of memory for %llu bytes",
				    (unsigned long long)f_len);
	enum status st = r->fetcher.fetch(r->fetcher.ctx, f_off, f_len, buf,
					  err);
	r->stats.fetches++;
	if (st != STATUS_OK)
		goto out;
	r->stats.fetched_bytes += f_len;
	if (r->data_fd >= 0) {
		if (blob_pwrite_all(r->data_fd, buf, f_len, f_off)) {
			for (uint64_t k = first; k < end; k++)
				bit_set(r->present, k);
			if (first >> 3 < r->dirty_lo || r->dirty_hi == 0)
				r->dirty_lo = first >> 3;
			if (((end - 1) >> 3) + 1 > r->dirty_hi)
				r->dirty_hi = ((end - 1) >> 3) + 1;
			r->unflushed += end - first;
			if (r->unflushed >= r->flush_every)
				(void)flush_locked(r, NULL);
		} else {
			disk_drop(r);
		}
	}
	for (uint64_t k = first; k < end; k++) {
		const uint8_t *src = buf + ((k - first) << r->shift);
		if (keep || k > last)
			lru_keep(r, k, src);
		put(r, k, src, off, len, dst);
	}
out:
	free(buf);
	return st;
}

/* Block `index` from the cache directory.  False when it cannot be read
 * back (its bit is cleared: the caller fetches it). */
static bool disk_block(struct blob_remote *r, uint64_t index, bool keep,
		       uint64_t off, uint64_t len, uint8_t *dst)
{
	uint64_t b_start = index << r->shift, b_len = block_len(r, index);
	bool ok;
	if (keep) {
		struct rblock *e = lru_slot(r);
		ok = e && blob_pread_all(r->data_fd, e->data, b_len, b_start);
		if (ok) {
			lru_insert(r, e, index);
			put(r, index, e->data, off, len, dst);
		} else if (e) {
			free(e);
			r->stats.mem_blocks--;
		}
	} else {
		uint64_t s = off > b_start ? off : b_start;
		uint64_t e = off + len < b_start + b_len ? off + len
							 : b_start + b_len;
		ok = blob_pread_all(r->data_fd, dst + (s - off), e - s, s);
	}
	if (ok)
		r->stats.disk_reads++;
	else
		r->present[index >> 3] &= (uint8_t)~(1u << (index & 7));
	return ok;
}

static enum status copy_locked(struct blob_remote *r, uint64_t off,
			       uint64_t len, uint8_t *dst, struct error *err)
{
	if (off > r->size || len > r->size - off)
		return error_set_at(err, STATUS_CORRUPT, r->name, off,
				    "%llu bytes wanted past the end of the "
				    "file (size %llu)",
				    (unsigned long long)len,
				    (unsigned long long)r->size);
	if (len == 0)
		return STATUS_OK;
	uint64_t first = off >> r->shift, last = (off + len - 1) >> r->shift;
	uint64_t quarter = r->max_mem_blocks / 4 ? r->max_mem_blocks / 4 : 1;
	bool keep = last - first + 1 <= quarter;
	bool sequential = first == r->next_seq ||
			  (r->next_seq > 0 && first + 1 == r->next_seq);
	uint64_t max_run = REMOTE_MAX_REQUEST >> r->shift;
	r->next_seq = last + 1;
	for (uint64_t b = first; b <= last;) {
		struct rblock *e = lru_find(r, b);
		if (e) {
			lru_touch(r, e);
			put(r, b, e->data, off, len, dst);
			b++;
			continue;
		}
		if (bit_get(r->present, b) &&
		    disk_block(r, b, keep, off, len, dst)) {
			b++;
			continue;
		}
		/* a run of missing blocks, and read-ahead after the window */
		uint64_t end = b + 1;
		while (end <= last && end - b < max_run && missing(r, end))
			end++;
		if (end > last && sequential)
			while (end < r->n_blocks && end - last <= r->readahead &&
			       end - b < max_run && missing(r, end))
				end++;
		enum status st =
			fetch_run(r, b, end, last, keep, off, len, dst, err);
		if (st != STATUS_OK)
			return st;
		b = end;
	}
	return STATUS_OK;
}

/* ---- the interface ---- */

enum status blob_remote_open(const char *name, const struct blob_fetcher *f,
			     uint64_t size, const char *validator,
			     const char *cache_dir,
			     const struct blob_remote_config *config,
			     struct blob_remote **out, struct error *err)
{
	enum status st = STATUS_OK;
	struct blob_remote_config c = config ? *config
					     : (struct blob_remote_config){0};
	*out = NULL;
	if (!f || !f->fetch)
		return error_set(err, STATUS_USAGE, name, "no fetcher");
	if (c.block_shift == 0)
		c.block_shift = REMOTE_BLOCK_SHIFT;
	if (c.block_shift < 9 || c.block_shift > 24)
		return error_set(err, STATUS_USAGE, name,
				 "block size 2^%u is outside 2^9..2^24",
				 c.block_shift);
	if (size > REMOTE_MAX_SIZE)
		return error_set(err, STATUS_LIMIT, name,
				 "%llu bytes: larger than the 16 TiB read in "
				 "parts",
				 (unsigned long long)size);
	struct blob_remote *r = calloc(1, sizeof(*r));
	if (!r)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	r->data_fd = r->bitmap_fd = r->lock_fd = -1;
	pthread_mutex_init(&r->lock, NULL);
	r->fetcher = *f;
	r->size = size;
	r->shift = c.block_shift;
	r->block_size = (uint64_t)1 << c.block_shift;
	r->n_blocks = (size + r->block_size - 1) >> r->shift;
	r->bitmap_bytes = (r->n_blocks + 7) / 8;
	uint64_t limit = c.mem_limit ? c.mem_limit : REMOTE_MEM_LIMIT;
	r->max_mem_blocks = limit >> r->shift ? limit >> r->shift : 1;
	r->readahead = c.readahead == UINT32_MAX ? 0
		       : c.readahead	       ? c.readahead
						: REMOTE_READAHEAD;
	r->flush_every = c.flush_every ? c.flush_every : REMOTE_FLUSH_EVERY;
	r->n_buckets = 16;
	while (r->n_buckets < 2 * r->max_mem_blocks)
		r->n_buckets *= 2;
	r->name = strdup(name ? name : "<remote>");
	r->buckets = calloc(r->n_buckets, sizeof(*r->buckets));
	if (!r->name || !r->buckets) {
		st = error_set(err, STATUS_NOMEM, name, "out of memory");
		goto out;
	}
	if (cache_dir) {
		st = disk_open(r, cache_dir, validator, err);
		if (st != STATUS_OK)
			goto out;
	}
	*out = r;
	r = NULL;
out:
	blob_remote_close(r);
	return st;
}

enum status blob_remote_read_meta(const char *cache_dir, uint64_t *size,
				  char **validator, struct error *err)
{
	enum status st = STATUS_OK;
	char *path = cache_dir ? path_join(cache_dir, "meta") : NULL;
	char *text = NULL;
	FILE *f = NULL;
	*size = 0;
	*validator = NULL;
	if (!path) {
		st = error_set(err, STATUS_NOMEM, cache_dir, "out of memory");
		goto out;
	}
	f = fopen(path, "rb");
	if (!f) {
		st = error_set(err,
			       errno == ENOENT || errno == ENOTDIR
				       ? STATUS_NOT_FOUND
				       : STATUS_IO,
			       path, "%s", strerror(errno));
		goto out;
	}
	text = malloc(REMOTE_META_MAX + 1);
	if (!text) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	size_t n = fread(text, 1, REMOTE_META_MAX + 1, f);
	text[n > REMOTE_META_MAX ? REMOTE_META_MAX : n] = '\0';
	unsigned long long sz = 0, block = 0;
	int used = 0;
	const char *v = NULL;
	if (n <= REMOTE_META_MAX && strlen(text) == n &&
	    sscanf(text, "callscope block cache 1\nsize %llu\nblock %llu\n%n",
		   &sz, &block, &used) == 2 &&
	    used > 0 && strncmp(text + used, "validator ", 10) == 0)
		v = text + used + 10;
	char *nl = v ? strchr(v, '\n') : NULL;
	if (!nl || nl[1] != '\0') {
		st = error_set(err, STATUS_CORRUPT, path,
			       "not a block cache record");
		goto out;
	}
	*nl = '\0';
	if (*v && !(*validator = strdup(v))) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	*size = sz;
out:
	if (f)
		fclose(f);
	free(text);
	free(path);
	return st;
}

uint64_t blob_remote_size(const struct blob_remote *r)
{
	return r->size;
}

enum status blob_remote_copy(struct blob_remote *r, uint64_t off,
			     uint64_t len, void *dst, struct error *err)
{
	pthread_mutex_lock(&r->lock);
	enum status st = copy_locked(r, off, len, dst, err);
	pthread_mutex_unlock(&r->lock);
	return st;
}

enum status blob_remote_flush(struct blob_remote *r, struct error *err)
{
	pthread_mutex_lock(&r->lock);
	enum status st = flush_locked(r, err);
	pthread_mutex_unlock(&r->lock);
	return st;
}

void blob_remote_get_stats(struct blob_remote *r,
			   struct blob_remote_stats *out)
{
	pthread_mutex_lock(&r->lock);
	*out = r->stats;
	pthread_mutex_unlock(&r->lock);
}

void blob_remote_close(struct blob_remote *r)
{
	if (!r)
		return;
	(void)flush_locked(r, NULL);
	disk_drop(r); /* closes the files, frees the bitmap */
	for (struct rblock *e = r->lru_head, *next; e; e = next) {
		next = e->next;
		free(e);
	}
	free(r->buckets);
	free(r->name);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
