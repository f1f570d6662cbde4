/* model_data: struct model itself, the arrays every view reads (nodes,
 * strings, functions, statistics, columns, profiles, parameters,
 * timelines), its lifetime (model_free) and the one change made to a
 * finished model by a container (model_set_origin).  The types of the
 * arrays' elements are in the headers of their concerns (model_node.h,
 * model_column.h, ...); this header only names them.  Must not depend on
 * curses or on ui/. */
#ifndef CALLSCOPE_MODEL_DATA_H
#define CALLSCOPE_MODEL_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct model;

struct model {
	char *format;      /* reader name: "hpctoolkit-v4" */
	char *path;        /* what was opened */
	char *local_path;  /* where its files are, when `path` names an
			    * archive or URL (model_set_origin); else NULL */
	char *title;       /* database title, may be NULL */
	char *description; /* may be NULL */

	/* Strings: the NUL-terminated texts of every string handle, one
	 * after another, handle 0 ""; read them with model_str. */
	char *strings;
	uint32_t n_strings;

	struct model_node *nodes; /* nodes[0] is the root */
	uint32_t n_nodes;
	uint32_t max_depth;

	struct model_function *functions;
	uint32_t n_functions;

	struct model_stat *stats;
	uint32_t n_stats;
	struct model_column *columns;
	uint32_t n_columns;

	struct model_profile *profiles;
	uint32_t n_profiles;
	struct model_id *ids;
	uint32_t n_ids;

	/* Parameter space (Extra-P): an Extra-P set is profiles x call
	 * paths, a profile being one repetition at one point.  Point p's
	 * coordinates are point_coords[p * n_params .. + n_params), real
	 * numbers; point p's profiles are model_point_profiles.  All NULL / 0
	 * when the database is not parametric. */
	struct model_param *params;
	uint32_t n_params;
	double *point_coords;
	uint32_t n_points;

	struct model_timeline *timelines;
	uint32_t n_timelines;
	uint64_t time_min, time_max; /* over all timelines, ns */

	/* Problems the reader worked around (a METRICS.yaml it could not
	 * use, ...): one line each, naming the file. */
	char **warnings;
	uint32_t n_warnings;

	/* What a context id is shown as (the top-down view's output ids):
	 * ctx_id - ctx_id_base.  A format whose own ids start at 0 (Cube
	 * cnode ids) stores id + 1, because context id 0 is the synthetic
	 * root, and sets 1; the root then has no id to show (MODEL_NONE).
	 * 0 for most formats. */
	uint32_t ctx_id_base;

	/* How many nodes are still NODE_TRAIT_DEFERRED (model_deferred.h). */
	uint32_t n_deferred;

	/* What only the model's own files see (model_internal.h): string
	 * offsets, the value and trace providers (read through the
	 * accessors of model_values.h and model_trace.h), the point ->
	 * profiles index, measurements, the context
	 * index, derived inclusive sums, the deferred subtrees' loader and
	 * growth handle, the release hook.  Allocated with the model. */
	struct model_private *priv;
};

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
