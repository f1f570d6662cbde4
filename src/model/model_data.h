/* model_data: the accessors of struct model, whose definition only the
 * model's own files see (model_internal.h): the arrays every view reads
 * (nodes, strings, functions, statistics, columns, profiles, parameters,
 * timelines) as const pointers and counts, its lifetime (model_free) and
 * the one change made to a finished model by a container
 * (model_set_origin).  The types of the arrays' elements are in the
 * headers of their concerns (model_node.h, model_column.h, ...); this
 * header only names them.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_DATA_H
#define CALLSCOPE_MODEL_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct model;

/* The accessors (model_data.c): plain reads of the model's fields, so
 * `model_nodes(m)[i]` is `m->nodes[i]` without the struct.  They are pure
 * (the compiler may hoist them out of a loop), and an array read before a
 * call that grows the model (model_load_children) must be read again
 * after it. */
#if defined(__GNUC__)
#define MODEL_PURE __attribute__((pure))
#else
#define MODEL_PURE
#endif

/* The reader's name ("hpctoolkit-v4"); what was opened; where its files
 * are when the path names an archive or URL (model_set_origin), else
 * NULL; the database's title and description (NULL when it has none). */
MODEL_PURE const char *model_format(const struct model *m);
MODEL_PURE const char *model_path(const struct model *m);
MODEL_PURE const char *model_local_path(const struct model *m);
MODEL_PURE const char *model_title(const struct model *m);
MODEL_PURE const char *model_description(const struct model *m);

/* The interned strings: the NUL-terminated texts of every string handle,
 * one after another, handle 0 ""; read one with model_str. */
MODEL_PURE const char *model_strings(const struct model *m);
MODEL_PURE uint32_t model_n_strings(const struct model *m);

/* The calling-context tree: nodes[0] is the root; the deepest depth. */
MODEL_PURE const struct model_node *model_nodes(const struct model *m);
MODEL_PURE uint32_t model_n_nodes(const struct model *m);
MODEL_PURE uint32_t model_max_depth(const struct model *m);

MODEL_PURE const struct model_function *model_functions(const struct model *m);
MODEL_PURE uint32_t model_n_functions(const struct model *m);

/* Statistics stored in the database and the columns built over them. */
MODEL_PURE const struct model_stat *model_stats(const struct model *m);
MODEL_PURE uint32_t model_n_stats(const struct model *m);
MODEL_PURE const struct model_column *model_columns(const struct model *m);
MODEL_PURE uint32_t model_n_columns(const struct model *m);

/* Execution contexts and the identifier tuples that label them. */
MODEL_PURE const struct model_profile *model_profiles(const struct model *m);
MODEL_PURE uint32_t model_n_profiles(const struct model *m);
MODEL_PURE const struct model_id *model_ids(const struct model *m);
MODEL_PURE uint32_t model_n_ids(const struct model *m);

/* Parameter space (Extra-P): an Extra-P set is profiles x call paths, a
 * profile being one repetition at one point; a point's coordinates are
 * model_point_coords, its profiles model_point_profiles (model_params.h).
 * NULL / 0 when the database is not parametric. */
MODEL_PURE const struct model_param *model_params(const struct model *m);
MODEL_PURE uint32_t model_n_params(const struct model *m);
MODEL_PURE uint32_t model_n_points(const struct model *m);

/* Timelines, and the first and last time over all of them (ns). */
MODEL_PURE const struct model_timeline *model_timelines(const struct model *m);
MODEL_PURE uint32_t model_n_timelines(const struct model *m);
MODEL_PURE uint64_t model_time_min(const struct model *m);
MODEL_PURE uint64_t model_time_max(const struct model *m);

/* Problems the reader worked around (a METRICS.yaml it could not use,
 * ...): one line each, naming the file. */
MODEL_PURE const char *const *model_warnings(const struct model *m);
MODEL_PURE uint32_t model_n_warnings(const struct model *m);

/* What a context id is shown as (the top-down view's output ids): ctx_id
 * - ctx_id_base.  A format whose own ids start at 0 (Cube cnode ids)
 * stores id + 1, because context id 0 is the synthetic root, and sets 1;
 * the root then has no id to show (MODEL_NONE).  0 for most formats. */
MODEL_PURE uint32_t model_ctx_id_base(const struct model *m);

/* How many nodes are still NODE_TRAIT_DEFERRED (model_deferred.h). */
MODEL_PURE uint32_t model_n_deferred(const struct model *m);

void model_free(struct model *m);

/* The one change allowed to a finished model, made by a container (an
 * archive, a URL) that opened the database inside it through another reader,
 * before the model is handed out: the path shown becomes `shown` (the archive
 * or URL the user gave, not the extracted or cached copy; the reader's path
 * is kept as `local_path`), `warning` (NULL
 * for none) is appended to the warnings, and `release(arg)` (NULL for none)
 * runs at model_free after the providers are closed.  A model has at most
 * one release hook.  STATUS_NOMEM leaves the model as it was. */
enum status model_set_origin(struct model *m, const char *shown,
			     const char *warning, void (*release)(void *arg),
			     void *arg, struct error *err);

#endif
