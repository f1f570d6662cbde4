/* extrap_prof: the parts of the Extra-Prof reader (extrap_prof.c: the
 * directory set and the files; extrap_prof_tree.c: one point's merged
 * call tree and its measurements; extrap_demangle.c: the kernels'
 * names).  Must not depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP_PROF_H
#define CALLSCOPE_EXTRAP_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "core/status.h"
#include "formats/extrap/extrap_set.h"

/* `name` demangled as c++filt prints it (malloc'd), or NULL when it is
 * not an Itanium name of the subset read (see extrap_demangle.c). */
char *extrap_demangle(const char *name);

/* The metrics every set has, in Extra-P's order: visits, time, bytes. */
enum { PROF_VISITS, PROF_TIME, PROF_BYTES };

/* One Extra-Prof file's `len` bytes read and measured as the only file of
 * a one-point set, then dropped (what the fuzz target calls): STATUS_OK,
 * or STATUS_CORRUPT / STATUS_NOMEM with the reason naming `path`. */
enum status extrap_prof_parse_one(const char *data, size_t len,
				  const char *path, struct error *err);

/* One point's call tree, the files of the point merged into it. */
struct prof_tree;

/* A tree for the `k` files of `point`, whose values go to `s`. */
struct prof_tree *prof_tree_new(struct extrap_set *s, uint32_t point,
				uint32_t k);
void prof_tree_free(struct prof_tree *t);

/* The metrics of the file being read: the set's metric of each GPU
 * metric (Extra-Prof header field 3) and additional metric (field 4), in
 * the file's order (borrowed until the next call). */
void prof_tree_file_metrics(struct prof_tree *t, const uint32_t *gpu,
			    uint32_t n_gpu, const uint32_t *add,
			    uint32_t n_add);

/* Merge the root node `root` of file number `i` (0..k-1) of the point.
 * STATUS_CORRUPT naming `file`, STATUS_NOMEM. */
enum status prof_tree_read(struct prof_tree *t, const msgpack_object *root,
			   uint32_t i, const char *file, struct error *err);

/* The point's measurements into the set, as Extra-P's reader makes them
 * (exclusive time in seconds, visits, bytes, GPU and additional
 * metrics); callpaths flagged OVERLAP are marked as lacking points. */
enum status prof_tree_measure(struct prof_tree *t, const char *path,
			      struct error *err);

#endif
