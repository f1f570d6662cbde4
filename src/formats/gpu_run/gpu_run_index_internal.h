/* gpu_run_index_internal: what the three files of the GPU run's index
 * share -- gpu_run_index.c (the files' identities, the index's name, the
 * directory's budget), gpu_run_index_write.c (writing) and
 * gpu_run_index_read.c (reading, listing): the file magics and version,
 * the identity of a file of the run, and the node value arrays an index
 * holds.  Not for other files. */
#ifndef CALLSCOPE_GPU_RUN_INDEX_INTERNAL_H
#define CALLSCOPE_GPU_RUN_INDEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/gpu_run/gpu_run_internal.h"

#define RUN_MAGIC "CSRUNIX1"
#define IV_MAGIC "CSRUNIV1"
#define INDEX_VERSION 9u /* 4: instants; 5: line groups; 6: node groups,
			       kernels by their demangled names; 7: rocprof-sys
			       CPU samples are regions, not instants; 8: marks
			       per node; 9: v3 samples are marks too, and v3
			       marks without a link are placed by time */
#define BYTE_ORDER_MARK 0x01020304u

/* What must not have changed for an index to be used. */
struct file_id {
	uint64_t size, ino, dev;
	int64_t mtime_s, mtime_ns;
	int64_t ctime_s, ctime_ns; /* a user cannot set it back */
};

/* A file of the run as the index names it. */
struct ident {
	char *real; /* realpath() */
	struct file_id id;
};

/* The node value arrays of struct gpu_run an index holds, in order. */
#define NODE_DOUBLES(X)                                                    \
	X(gpu) X(calls) X(bytes) X(api_incl) X(api_excl) X(dur_n) X(dur_sum) \
	X(dur_min) X(dur_max) X(dur_sq) X(sized_ns) X(marks)

/* The identity of the file at `path`; false when it has none that can be
 * trusted (not a regular file, a -wal beside it). */
bool gpu_run_index_file_identity(const char *path, struct file_id *out);
/* FNV-1a of n bytes, from h. */
uint64_t gpu_run_index_fnv(uint64_t h, const void *p, size_t n);
/* Every file's real path and identity (r->n_files entries); false when one
 * has none. */
bool gpu_run_index_identities(const struct gpu_run *r, struct ident **out);
void gpu_run_index_idents_free(const struct gpu_run *r, struct ident *ids);
/* Remove whole runs' indexes from `dir`, least recently used first, until
 * it fits its budget; never those of key `keep`. */
void gpu_run_index_prune(const char *dir, const char *keep);

#endif
