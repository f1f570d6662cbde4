/* archive_extract: safe extraction of a tar (plain, gzip, xz, zstd, bzip2)
 * or zip archive into a new directory, and the listing of its members
 * (the databases inside are found by archive_roots.h, with the reader
 * registry's bids).  An archive is untrusted input: entries that would write
 * outside the destination, links, device nodes and oversized contents are
 * refused, and nothing is left behind on failure.  Built on libarchive's
 * reader only (files are created here with openat, O_NOFOLLOW and
 * O_EXCL).  Must not depend on curses, ui/ or the model. */
#ifndef CALLSCOPE_ARCHIVE_EXTRACT_H
#define CALLSCOPE_ARCHIVE_EXTRACT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* Bounds on what one extraction may write. */
struct archive_limits {
	uint64_t max_total_bytes; /* all entries' contents together */
	uint64_t max_entry_bytes; /* one entry's contents */
	uint64_t max_entries;     /* entries of any type */
	size_t max_path;          /* bytes of an entry's path */
	/* bomb guard: once more than `ratio_floor` bytes are out, at most
	 * `max_ratio` bytes out per byte of archive read */
	uint64_t max_ratio;
	uint64_t ratio_floor;
};

/* The defaults: 64 GiB in total and per entry, 1,000,000 entries, paths of
 * 1024 bytes, a ratio of 1000 past the first 256 MiB. */
struct archive_limits archive_limits_default(void);

/* Extract the archive file `archive_path` into the directory `dest`, which
 * must not exist (its parent must).  The entries go into a new
 * `DEST.tmp-XXXXXX` that is renamed to DEST when every entry is in, and
 * removed on any failure.  Should DEST appear meanwhile (another process
 * extracting the same archive), that one is kept and this is a success.
 *
 * Refused with an error naming the archive and the entry: absolute paths
 * and `..` components (STATUS_CORRUPT), symbolic and hard links, devices,
 * FIFOs and sockets (STATUS_UNSUPPORTED), anything past `limits`
 * (STATUS_LIMIT).  STATUS_NOT_DATABASE when the file is not an archive of
 * a known format, STATUS_CORRUPT when it is truncated or damaged.  Files
 * are created 0644 and directories 0755, whatever the archive says; no
 * owner, mode or time is taken from it.  `limits` NULL means the
 * defaults.  `cancel`, when not NULL, is polled between blocks: once it is
 * non-zero the extraction stops with STATUS_IO ("interrupted"). */
enum status archive_extract_file(const char *archive_path, const char *dest,
				 const struct archive_limits *limits,
				 volatile sig_atomic_t *cancel,
				 struct error *err);

/* The same for an archive held in memory; `name` names it in messages. */
enum status archive_extract_memory(const void *data, size_t len,
				   const char *name, const char *dest,
				   const struct archive_limits *limits,
				   volatile sig_atomic_t *cancel,
				   struct error *err);

/* True when `path` is a regular file that libarchive recognises, by its
 * content, as a tar (compressed or not) or zip archive. */
bool archive_is_archive(const char *path);

/* The member names of archive `path`, in archive order, from its headers
 * alone: at most `max_members`, and no more once `max_bytes` of the file
 * have been read (a compressed archive must be decompressed to reach each
 * header), so the list may be a prefix (*complete false).  *is_archive
 * false (and STATUS_OK, no names) when `path` is not an archive.  A heap
 * array of heap strings: free with archive_free_paths(). */
enum status archive_list_members(const char *path, size_t max_members,
				 uint64_t max_bytes, bool *is_archive,
				 char ***names, size_t *n, bool *complete,
				 struct error *err);

/* Free a heap array of heap paths (archive_list_members,
 * archive_find_roots). */
void archive_free_paths(char **paths, size_t n);

#endif
