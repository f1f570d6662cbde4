/* blob_internal: what the files of blob share: struct blob and its ops
 * table, the registered remote files, the per-thread window buffers and
 * the helpers of more than one kind of blob.  blob.c has the interface,
 * memory and mapped blobs and the windows; blob_cached.c large local
 * files read through a block cache; blob_registry.c remote blobs and the
 * registry of remote files.  Private to io/. */
#ifndef CALLSCOPE_BLOB_INTERNAL_H
#define CALLSCOPE_BLOB_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/blob.h"

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

extern const struct blob_ops blob_cached_ops, blob_remote_ops;

/* A blob of `ops` named `name` (fd -1, nothing else set). */
enum status blob_new(const char *name, const struct blob_ops *ops,
		     struct blob **out, struct error *err);

/* Map blob->len bytes of `fd` read-only (random access when large). */
enum status blob_map_file(struct blob *blob, int fd, struct error *err);

/* Ops shared by kinds of blob: a piece of map_all's span; no release;
 * the pages of a span given back; the mapping undone. */
enum status blob_piece_of_all(struct blob *blob, uint64_t off, uint64_t len,
			      struct span *out, struct error *err);
void blob_no_release(struct blob *blob, struct span s);
void blob_mapped_release(struct blob *blob, struct span s);
void blob_mapped_close(struct blob *blob);

/* The calling thread's window buffer `*buf`, at least `len` bytes (for
 * a window at `off`, named in the message when out of memory). */
enum status blob_window_for(struct blob *blob, uint64_t off, uint64_t len,
			    uint8_t **buf, struct error *err);

/* Read (write) all `len` bytes at `off` of `fd` into (from) `buf`, again
 * after EINTR and short transfers.  False on an error, or at the end of
 * the file (errno 0 then). */
bool blob_pread_all(int fd, void *buf, uint64_t len, uint64_t off);
bool blob_pwrite_all(int fd, const void *buf, uint64_t len, uint64_t off);

/* Free the window buffers and destroy window_lock. */
void blob_windows_free(struct blob *blob);

/* A remote blob when `path` is registered (*found), sharing the entry's
 * block cache (opened by the first blob). */
enum status blob_open_registered(const char *path, struct blob **out,
				 bool *found, struct error *err);

#endif
