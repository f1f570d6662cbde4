/* legacy_common: pieces shared by the readers of pre-v4 HPCToolkit binary
 * files: rank and thread from a per-thread file name, the table at the head
 * of the merged files (experiment-1.mdb, experiment.mt) that locates one
 * embedded per-thread file per profile, the per-thread files opened either
 * way with their heads checked, and a reader's first failure.  Layouts in
 * doc/hpctoolkit-legacy-binaries.md.  Must not depend on curses, on the XML
 * parser or on the model builder. */
#ifndef CALLSCOPE_LEGACY_COMMON_H
#define CALLSCOPE_LEGACY_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "io/blob.h"
#include "core/span.h"
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
enum status legacy_table_read(struct blob *blob, uint32_t *type,
			      struct legacy_table_entry **out, uint32_t *n,
			      struct error *err);

/* ---- the per-thread files of a database ---------------------------------
 *
 * A reader's per-thread files (one metric-db per profile, one hpctrace per
 * trace line) are stored apart, one file each, or merged into one file whose
 * table locates them.  Either way the reader sees parts: an extent of a
 * blob and whose it is.  Every part begins with a head: an 18-byte magic, a
 * 5-byte version and the byte order 'b'. */

#define LEGACY_MAGIC_LEN 18
#define LEGACY_VERSION_LEN 5
#define LEGACY_HEAD_LEN 24 /* magic, version, byte order */

/* What a reader's files are. */
struct legacy_kind {
	const char *what;	  /* "metric-db": the files in errors */
	const char *merged;	  /* "mdb": the merged file in errors */
	const char *magic;	  /* LEGACY_MAGIC_LEN bytes */
	const char *versions[2]; /* the known versions, the first NULL-free */
	uint32_t header;	  /* bytes a part must hold, read by the check */
};

/* One per-thread file: [off, end) of blob `blob`, and its rank and thread
 * (UINT32_MAX when unknown). */
struct legacy_part {
	uint32_t blob; /* index into legacy_files.blobs */
	uint64_t off, end;
	uint32_t rank, thread;
};

/* A reader's per-thread files, owning its blobs.  `name` is the merged
 * file's name (errors about the whole set name it), NULL for files stored
 * apart. */
struct legacy_files {
	const struct legacy_kind *kind;
	struct blob **blobs;
	uint32_t n_blobs;
	struct legacy_part *parts;
	uint32_t n_parts;
	const char *name;
};

/* Where a reader's files come from: stored apart, `n` paths or opened
 * blobs (rank and thread from the file name or blob_name()), or merged,
 * one path or opened blob (its table read by legacy_table_read).  Opened
 * blobs pass to the files, also on failure (an array stays the caller's). */
struct legacy_source {
	const char *const *paths;
	struct blob **blobs;
	uint32_t n;
	bool merged;
	const char *path;
	struct blob *blob;
};

/* The files of `src`, one part per file apart (in the given order) or per
 * table entry (in the table's order).  Nothing given is STATUS_USAGE ("no
 * metric-db files given", "no mdb file given"). */
enum status legacy_files_open(const struct legacy_source *src,
			      const struct legacy_kind *kind,
			      struct legacy_files *out, struct error *err);

/* Check the head of part `i`: at least kind->header bytes, the magic, a
 * known version (its index in kind->versions into *version) and the byte
 * order.  *head holds the kind->header bytes read. */
enum status legacy_files_check_head(const struct legacy_files *f, uint32_t i,
				    struct span *head, uint32_t *version,
				    struct error *err);

/* Close the blobs and free the parts; `f` is left empty. */
void legacy_files_close(struct legacy_files *f);

/* The first failure a reader met after open (reading a value or a
 * sample), kept to be reported once the caller asks. */
struct legacy_failure {
	struct error error;
	bool failed;
};

/* Keep `e` when it is the first failure, else clear it. */
void legacy_failure_keep(struct legacy_failure *kept, struct error *e);

/* The kept failure, or NULL when none. */
const struct error *legacy_failure_get(const struct legacy_failure *kept);

#endif
