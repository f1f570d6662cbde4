/* legacy_common: pieces shared by the readers of pre-v4 HPCToolkit binary
 * files: rank and thread from a per-thread file name, and the table at the
 * head of the merged files (experiment-1.mdb, experiment.mt) that locates
 * one embedded per-thread file per profile.  Layouts in
 * doc/hpctoolkit-legacy-binaries.md.  Must not depend on curses, on the XML
 * parser or on the model builder. */
#ifndef CALLSCOPE_LEGACY_COMMON_H
#define CALLSCOPE_LEGACY_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "io/blob.h"
#include "core/status.h"

/* Rank and thread from the name of a per-thread file,
 * `[N.]NAME-RANK-THREAD-HOSTID-PID-GEN.EXT` (the directory part is
 * ignored).  False, with both set to UINT32_MAX, when the name does not
 * follow that pattern. */
bool legacy_name_parse(const char *path, uint32_t *rank, uint32_t *thread);

/* Flags of the merged-file table (`type` word). */
enum legacy_table_flag {
	LEGACY_TABLE_PROCESSES = 1, /* profiles differ by rank */
	LEGACY_TABLE_THREADS = 2,   /* profiles differ by thread */
};

/* One embedded file: [off, end) inside the merged file. */
struct legacy_table_entry {
	uint32_t rank, thread;
	uint64_t off, end;
};

/* Read and check the table of a merged file: u32 type, u32 count, then
 * count x {u32 rank, u32 thread, u64 offset}, all big-endian.  Offsets must
 * lie after the table, inside the file, and increase; an entry ends where the
 * next begins, the last one at the end of the file or before the 8-byte end
 * marker FFFFFFFF DEADF00D.  *out is malloc'd (NULL when the count is 0). */
/* Open the `n_paths` files as blobs, all or none: *out is a malloc'd
 * array of n_paths blobs (the caller frees the array; the blobs go to an
 * open_*_blobs function, which owns them).  `what` ("metric-db") names the
 * files in the error for an empty list. */
enum status legacy_blobs_open(const char *const *paths, uint32_t n_paths,
			      const char *what, struct blob ***out,
			      struct error *err);

enum status legacy_table_read(struct blob *blob, uint32_t *type,
			      struct legacy_table_entry **out, uint32_t *n,
			      struct error *err);

#endif
