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
 * Must not depend on curses or on the UI. */
#ifndef CALLSCOPE_BLOB_H
#define CALLSCOPE_BLOB_H

#include <stdint.h>

#include "span.h"
#include "status.h"

struct blob;

/* Open a local file read-only and map it.  A missing file is
 * STATUS_NOT_FOUND, a directory or unreadable file STATUS_IO.  An empty file
 * opens with size 0. */
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

/* The window [off, off+len); STATUS_CORRUPT (naming the offset) when it lies
 * outside the file.  Valid until the next blob_read() on this blob. */
enum status blob_read(struct blob *blob, uint64_t off, uint64_t len,
		      struct span *out, struct error *err);

/* A hint that the bytes of span `s` (obtained from this blob) will not be
 * needed again soon: a mapped blob gives the whole pages inside `s` back to
 * the kernel (they are read again from the file if touched later), so that
 * one pass over a large structure does not stay in the resident set.  A
 * no-op for other blobs and for spans outside the mapping. */
void blob_release(struct blob *blob, struct span s);

void blob_close(struct blob *blob);

#endif
