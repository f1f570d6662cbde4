/* blob: the engine's one way to read the bytes of a database file.
 *
 * A blob is a read-only file.  Readers never call read(2) or mmap(2)
 * themselves; they ask the blob for spans, so the same reader works on a
 * local mapping now and on a remote block cache (the URL issue) later.
 *
 * Two kinds of access:
 *  - blob_map_all(): the whole file as one span that stays valid until
 *    blob_close().  For metadata that is read at open (meta.db, headers).
 *  - blob_read(): a window [off, off+len) that stays valid only until the
 *    next blob_read() on the same blob.  For lazily read data (trace
 *    elements, value blocks); a remote implementation fetches only the
 *    blocks the window touches.  Local blobs return a window of the mapping.
 *
 * Every blob may be used from several threads at once (the viewer builds
 * views on a background thread while the UI thread reads values): a
 * window then stays valid until the next blob_read() on the same blob by
 * the same thread; blob_close() only when no other thread uses it.
 *
 * Must not depend on curses or on the UI. */
#ifndef CALLSCOPE_BLOB_H
#define CALLSCOPE_BLOB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/span.h"
#include "core/status.h"

struct blob;
struct open_options;

/* The seam between the block cache and the network: fetch the bytes
 * [off, off+len) of the remote file into `buf` (exactly len bytes, or a
 * failure whose message names the URL).  `free_ctx` (may be NULL) releases
 * `ctx` when the registration is dropped. */
struct blob_fetcher {
	enum status (*fetch)(void *ctx, uint64_t off, uint64_t len, void *buf,
			     struct error *err);
	void (*free_ctx)(void *ctx);
	void *ctx;
};

/* Open a local file read-only and map it.  A missing file is
 * STATUS_NOT_FOUND, a directory or unreadable file STATUS_IO.  An empty file
 * opens with size 0.  A path registered with blob_register_remote() or
 * blob_register_fetcher() opens as a remote blob instead (whether or not a
 * local file exists there). */
enum status blob_open_file(const char *path, struct blob **out,
			   struct error *err);

/* Wrap bytes the caller owns (tests, fuzz targets).  The bytes must outlive
 * the blob.  `name` is used in error messages. */
enum status blob_open_memory(const void *data, uint64_t len, const char *name,
			     struct blob **out, struct error *err);

uint64_t blob_size(const struct blob *blob);

/* The path or name given at open; used in every error message. */
const char *blob_name(const struct blob *blob);

/* The whole file; valid until blob_close(). */
enum status blob_map_all(struct blob *blob, struct span *out,
			 struct error *err);

/* The part [off, off+len) of the file, valid until blob_close(), like a
 * piece of blob_map_all(); STATUS_CORRUPT (naming the offset) when it lies
 * outside the file.  Local blobs return a piece of the mapping; a remote
 * blob fetches only that part (a reader that needs one section of a large
 * file at open uses this instead of mapping the whole file). */
enum status blob_map_range(struct blob *blob, uint64_t off, uint64_t len,
			   struct span *out, struct error *err);

/* The window [off, off+len); STATUS_CORRUPT (naming the offset) when it lies
 * outside the file.  Valid until the next blob_read() on this blob by the
 * same thread. */
enum status blob_read(struct blob *blob, uint64_t off, uint64_t len,
		      struct span *out, struct error *err);

/* A hint that the bytes of span `s` (obtained from this blob) will not be
 * needed again soon: a mapped blob gives the whole pages inside `s` back to
 * the kernel (they are read again from the file if touched later), so that
 * one pass over a large structure does not stay in the resident set.  A
 * no-op for other blobs and for spans outside the mapping. */
void blob_release(struct blob *blob, struct span s);

void blob_close(struct blob *blob);

/* Make blob_open_file(local_path) read `url` lazily: probe the URL (size,
 * ETag / Last-Modified, range support) with the transfer options `o` (NULL:
 * the defaults), then register it with its blocks persisted in the
 * directory "local_path.blocks".  STATUS_UNSUPPORTED when the server does
 * not honour range requests (the caller downloads the file instead); the
 * probe's errors otherwise, each naming the URL.  Registering a path again
 * replaces the earlier registration (blobs already open keep theirs). */
enum status blob_register_remote(const char *local_path, const char *url,
				 const struct open_options *o,
				 struct error *err);

/* The same without the probe, for a caller that has just probed `url`
 * and found that the server honours ranges: the file has `size` bytes,
 * the ETag `etag` and the Last-Modified date `last_modified` (each NULL
 * when the server sent none).  Makes no request itself (one round trip
 * less per file). */
enum status blob_register_remote_probed(const char *local_path,
					const char *url,
					const struct open_options *o,
					uint64_t size, const char *etag,
					const char *last_modified,
					struct error *err);

/* For --offline: make blob_open_file(local_path) read the blocks of `url`
 * persisted in "local_path.blocks" by an earlier remote read, with the
 * size and validator saved with them.  A read that needs a block that is
 * not there fails with STATUS_NOT_FOUND, "URL: bytes A-B are not in the
 * cache (--offline)"; nothing is ever fetched.  STATUS_NOT_FOUND when no
 * blocks were persisted there. */
enum status blob_register_offline(const char *local_path, const char *url,
				  struct error *err);

/* The same with a caller's fetcher (tests, other transports): the remote
 * file `url` has `size` bytes and version `validator` (may be NULL); its
 * blocks are persisted in `cache_dir` (NULL: in memory only).  The
 * registration owns f->ctx from here on, also on failure. */
enum status blob_register_fetcher(const char *local_path, const char *url,
				  const struct blob_fetcher *f, uint64_t size,
				  const char *validator, const char *cache_dir,
				  struct error *err);

/* Drop the registration of `local_path` (no-op when there is none), or of
 * every path.  Blobs already open stay usable until closed. */
void blob_unregister(const char *local_path);
void blob_unregister_all(void);

/* Whether `path` is a regular file or a registered remote file, and its
 * size (false when it is neither).  Readers ask these instead of stat(2)
 * so that a database directory with a remote file still opens. */
bool blob_path_exists(const char *path);
bool blob_path_size(const char *path, uint64_t *size);

/* The last components of the paths registered as remote whose directory
 * is `dir` (a directory listing misses them when no local copy exists).
 * A heap array of heap strings in *names (NULL when none); free each and
 * the array.  STATUS_NOMEM is the only failure. */
enum status blob_remote_names_in(const char *dir, char ***names, size_t *n,
				 struct error *err);

/* True for a blob read through a fetcher. */
bool blob_is_remote(const struct blob *blob);

#endif
