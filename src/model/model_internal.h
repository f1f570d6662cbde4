/* model_internal: what the files of the model module share and nothing
 * else may see (tests/check-layers.sh keeps it so): struct model itself
 * (every other file reads it through model_data.h's accessors), the
 * builder's state, and the steps of
 * model_builder_finish that live in the other files.  Must not depend on
 * curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_MODEL_INTERNAL_H
#define CALLSCOPE_MODEL_INTERNAL_H

#include "model/model.h"

/* The model (model_data.h names its fields' meanings and reads them). */
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

/* The part of struct model that only the model's files see (model.priv,
 * allocated in one block with the model by model_builder_new). */
struct model_private {
	/* the reader's providers of values and trace elements */
	const struct value_ops *value_ops;
	void *value_impl;
	const struct trace_ops *trace_ops;
	void *trace_impl;

	/* string handle h is the text at strings + string_offsets[h] */
	uint32_t *string_offsets;
	/* point p's profiles, by repetition then profile index, are
	 * point_profiles[point_first[p] .. point_first[p + 1]) (built at
	 * finish; NULL when the database is not parametric) */
	uint32_t *point_first;
	uint32_t *point_profiles;
	/* Measurements and stored performance models of a parametric set
	 * (model_measures.c), NULL when there are none. */
	struct model_measures *measures;

	/* context id -> node index (see model_node_of_ctx) */
	uint32_t *ctx_index;  /* dense table, or NULL */
	uint32_t ctx_index_len;
	uint64_t *ctx_sorted; /* (ctx_id << 32 | node) sorted, or NULL */
	bool ctx_unique;      /* no two nodes share a context id */

	/* Inclusive values of STAT_DERIVED_INCLUSIVE statistics, computed
	 * by one pass over the tree the first time one of a statistic's
	 * values is asked for, then kept (model_inclusive.c); NULL when the
	 * model has no derived statistic. */
	struct model_inclusive *inclusive;

	/* Deferred subtrees (model_deferred.c): the reader's loader, the
	 * growth handle (NULL when nothing was deferred), and how many of the
	 * deferred nodes are NODE_TRAIT_DEFERRED_LEAVES. */
	const struct deferred_ops *deferred_ops;
	void *deferred_impl;
	struct model_growth *growth;
	uint32_t n_deferred_leaves;

	/* Set by model_set_origin: run at model_free, after the providers
	 * are closed (a temporary extraction removed, ...). */
	void (*release)(void *arg);
	void *release_arg;
};

struct model_builder {
	struct model *m;
	size_t strings_len, strings_cap;
	uint32_t offsets_cap;
	uint32_t *hash; /* open addressing: handle+1, 0 = empty */
	uint32_t hash_cap;
	uint32_t nodes_cap;
	uint32_t *last_child;
	uint32_t functions_cap, stats_cap, columns_cap, profiles_cap;
	uint32_t ids_cap, timelines_cap;
	uint32_t params_cap, points_cap; /* model_params.c */
	uint32_t measured_cap;           /* model_measures.c */
	size_t measures_cap, models_cap;
	bool failed;
};

/* The growth handle (model_deferred.h): the builder kept from finish,
 * whose model is the one it grows (b.m == the model; b.m is writable). */
struct model_growth {
	struct model_builder b;
};

/* model.c, in builds with invariant checks (core/check.h): the tree's
 * links of nodes [from, n_nodes) (parents before children, depths, first
 * children and siblings pointing forward at nodes of the right parent);
 * nothing in a release build. */
#ifdef CALLSCOPE_CHECKS
void model_check_links(const struct model *m, uint32_t from);
#else
#define model_check_links(m, from) ((void)0)
#endif

/* model_params.c: the point -> profiles index.  False when out of
 * memory. */
bool model_params_finish(struct model *m);

/* model_measures.c: sort the measurements and stored models into their
 * lookup order (false when out of memory); free them (model_free). */
bool model_measures_finish(struct model *m);
void model_measures_free(struct model *m);

/* model_inclusive.c: the cache of derived inclusive statistics, made at
 * finish when the model has one (false when out of memory) and freed by
 * model_free; a derived statistic's value at a node (false when absent or
 * when its pass failed); every node's values, as model_stat_dense (arrays
 * already cleared by the caller: left so when the pass failed); the first
 * failed pass not yet reported. */
bool model_inclusive_init(struct model *m);
void model_inclusive_free(struct model *m);
bool model_inclusive_value(const struct model *m, uint32_t node,
			   uint32_t stat, double *out);
void model_inclusive_dense(const struct model *m, uint32_t stat,
			   double *values, uint8_t *present);
bool model_inclusive_take_error(const struct model *m, struct error *err);
/* After the model grew (model_deferred.c): forget the derived sums, made
 * again over every node when next asked for. */
void model_inclusive_reset(struct model *m);

/* model_ctx.c: the context id -> node index (model_node_of_ctx), made
 * over every node; false when out of memory.  Frees the one made before. */
bool model_ctx_index_build(struct model *m);
/* The same for nodes [from, n_nodes) appended since (model_deferred.c):
 * O(new nodes) when the index is a dense table, else made again. */
bool model_ctx_index_extend(struct model *m, uint32_t from);

/* model_deferred.c: at finish, count the deferred nodes; false when the
 * model has some but no loader. */
bool model_deferred_finish(struct model *m);

#endif
