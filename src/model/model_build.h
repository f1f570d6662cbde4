/* model_build: the builder, used by readers only: interned strings, nodes,
 * functions, statistics, columns, profiles, parameters and measurements,
 * timelines, the value and trace providers and deferred subtrees, then
 * model_builder_finish hands out the model.  Views, presentation, the CLI
 * and the viewer never build: they read through the other headers.  Must
 * not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_BUILD_H
#define CALLSCOPE_MODEL_BUILD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model_node.h"
#include "model/model_column.h"
#include "model/model_profile.h"
#include "model/model_params.h"
#include "model/model_values.h"
#include "model/model_trace.h"
#include "model/model_data.h"

struct model;

/* ---- builder: used by readers only --------------------------------- */

struct model_builder;

struct model_builder *model_builder_new(const char *format, const char *path);

/* Intern `len` bytes (no NUL needed).  Returns the handle, 0 for "" and
 * MODEL_NONE when out of memory. */
uint32_t model_builder_intern(struct model_builder *b, const char *s,
			      size_t len);

/* Record a problem the reader worked around (copied). */
void model_builder_add_warning(struct model_builder *b, const char *text);

/* The same, printed from `fmt`, after "WHERE: " when `where` (a file's
 * path) is not NULL: the one warn formatter of the readers (their
 * cube_warn, dcpi_warn and the like pass their va_list here). */
void model_builder_warnf(struct model_builder *b, const char *where,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void model_builder_vwarnf(struct model_builder *b, const char *where,
			  const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

void model_builder_set_title(struct model_builder *b, const char *title,
			     const char *description);

/* Set model.ctx_id_base (see there). */
void model_builder_set_ctx_id_base(struct model_builder *b, uint32_t base);

/* Add a node under `parent` (0 = root), appended after its last child.
 * `node` supplies every field but parent/first_child/next_sibling/depth.
 * Returns the new node's index or MODEL_NONE when out of memory or when
 * parent is invalid. */
uint32_t model_builder_add_node(struct model_builder *b, uint32_t parent,
				const struct model_node *node);

uint32_t model_builder_add_function(struct model_builder *b,
				    const struct model_function *fn);

uint32_t model_builder_add_stat(struct model_builder *b,
				const struct model_stat *stat);

/* Declare the inclusive counterpart of statistic `exclusive`, which must
 * be flagged STAT_EXCLUSIVE_ONLY: a new statistic with the same metric,
 * formula and combine and the scope "inclusive", flagged
 * STAT_DERIVED_INCLUSIVE (stat_id and
 * prop_id MODEL_NONE: the reader has no values for it), whose values the
 * engine derives.  Build the inclusive column over it.  Returns its index,
 * or MODEL_NONE for an invalid source or when out of memory. */
uint32_t model_builder_add_inclusive_stat(struct model_builder *b,
					  uint32_t exclusive);

/* Give statistic `stat` (a derived inclusive one, whose prop_id is
 * MODEL_NONE) the reader's key for per-profile values: a format that
 * stores only exclusive values may still compute per-profile inclusive
 * ones (Cube: the subtree's rows).  False for an invalid statistic. */
bool model_builder_set_stat_prop_id(struct model_builder *b, uint32_t stat,
				    uint32_t prop_id);

/* Takes ownership of the column's strings and formula.  Its `own` is
 * MODEL_NONE whatever the reader gave. */
uint32_t model_builder_add_column(struct model_builder *b,
				  struct model_column *column);
/* A column whose value is statistic `stat` (a leaf formula), without a
 * pair or a parent: model_builder_add_leaf_column copies the texts
 * (description NULL: none) and returns the column's index, or MODEL_NONE
 * when out of memory. */
struct model_leaf_column {
	const char *name, *variant, *description, *format;
	uint32_t stat;
	uint8_t kind; /* enum column_kind */
	unsigned render;
	uint8_t unit;
	bool visible;
};
uint32_t model_builder_add_leaf_column(struct model_builder *b,
				       const struct model_leaf_column *l);
/* Free the strings and formulas of a column not handed to the builder
 * (a reader's failure path; add_column releases on its own failure) and
 * zero it: freeing twice is harmless. */
void model_column_release(struct model_column *c);

/* Make column `own` the one of column `column`'s values less its
 * sub-metrics' (model_column.own).  False when either is no column yet,
 * `own` is not after `column` or of another kind. */
bool model_builder_set_column_own(struct model_builder *b, uint32_t column,
				  uint32_t own);

/* Add a profile with its identifier tuple (copied).  The label is built
 * from the tuple when `label` is NULL. */
uint32_t model_builder_add_profile(struct model_builder *b, bool is_summary,
				   const struct model_id *ids, uint32_t n_ids,
				   const char *label);

/* Declare a parameter (name copied); every parameter must be declared
 * before the first point.  Returns its index, or MODEL_NONE when out of
 * memory, when points were already added, or when `name` is NULL or
 * already declared. */
uint32_t model_builder_add_param(struct model_builder *b, const char *name);

/* Add a measurement point: `coords` (copied) holds one real value per
 * declared parameter (not NaN), `n` must be n_params (> 0).  Returns its
 * index or MODEL_NONE. */
uint32_t model_builder_add_point(struct model_builder *b,
				 const double *coords, uint32_t n);

/* Make profile `profile` repetition `repetition` (< MODEL_NONE) at point
 * `point`.  False for an invalid profile or point. */
bool model_builder_set_profile_point(struct model_builder *b,
				     uint32_t profile, uint32_t point,
				     uint32_t repetition);

/* Declare column `column` a measured metric; returns its measured index
 * (0, 1, ... in call order) or MODEL_NONE. */
uint32_t model_builder_add_measured(struct model_builder *b, uint32_t column);

/* Keep each series' measurements in the order of the
 * model_builder_set_measure calls (model_measure_in_order) besides point
 * order; a repeated triple takes its last call's place.  Costs 4 bytes
 * per measurement, nothing when the calls come in point order. */
void model_builder_keep_measure_order(struct model_builder *b);

/* Set the measurement of (node, measured, point) (copied; a second call
 * for the same triple replaces the first).  False for an invalid index or
 * when out of memory. */
bool model_builder_set_measure(struct model_builder *b, uint32_t node,
			       uint32_t measured, uint32_t point,
			       const struct model_measure *value);

/* Declare a stored model set named `name` (copied); returns its index or
 * MODEL_NONE.  Then give it models: model_builder_set_stored_model takes
 * ownership of *model's terms (leaving *model cleared), also on failure. */
uint32_t model_builder_add_stored_set(struct model_builder *b,
				      const char *name);
bool model_builder_set_stored_model(struct model_builder *b, uint32_t set,
				    uint32_t node, uint32_t measured,
				    struct scaling_model *model);

uint32_t model_builder_add_timeline(struct model_builder *b,
				    const struct model_timeline *tl);

/* Declare a counter line of `count` (time, value) pairs, read through
 * trace_ops.counter: `profile` (MODEL_NONE for none), the label shown and
 * the unit (NULL for none).  Returns its line index or MODEL_NONE. */
uint32_t model_builder_add_counter(struct model_builder *b, uint32_t profile,
				   const char *label, const char *unit,
				   uint64_t count);

/* The time range of all timelines; call it after adding them.  Without
 * samples (every timeline empty) or with an inverted range (min > max)
 * there is no range: it is stored as 0..0. */
void model_builder_set_time_range(struct model_builder *b, uint64_t min,
				  uint64_t max);

void model_builder_set_values(struct model_builder *b,
			      const struct value_ops *ops, void *impl);
void model_builder_set_trace(struct model_builder *b,
			     const struct trace_ops *ops, void *impl);

/* What a reader that defers subtrees provides (NODE_TRAIT_DEFERRED). */
struct deferred_ops {
	/* Add the whole subtree under deferred node `node` through `b`
	 * (model_builder_add_node with `node` or a node added here as the
	 * parent; strings, functions); afterwards the reader's value
	 * provider answers for the new nodes, whose context ids are their
	 * indices or otherwise unique.  On failure the model is put back as
	 * it was (the node stays deferred). */
	enum status (*load)(void *impl, struct model_builder *b,
			    uint32_t node, struct error *err);
	/* The combination (the statistic's combine) of exclusive-only
	 * statistic `stat_id`'s values over the subtree not loaded yet under
	 * `node`; false when the whole subtree has none. */
	bool (*total)(void *impl, uint32_t node, uint32_t stat_id,
		      double *out);
	/* NULL when the value provider owns `impl` (closed after it). */
	void (*close)(void *impl);
};

/* Before finish: nodes added with NODE_TRAIT_DEFERRED are loaded through
 * `ops`; the model then keeps its builder to grow with. */
void model_builder_set_deferred(struct model_builder *b,
				const struct deferred_ops *ops, void *impl);

/* Access to what was built so far (readers resolving columns against the
 * stats they added). */
const struct model *model_builder_peek(const struct model_builder *b);

/* Finish: fills pairs and indexes, returns the immutable model.  On failure
 * (out of memory) returns NULL with `err` set.  The builder is freed in both
 * cases, and on failure the providers' close functions are called. */
struct model *model_builder_finish(struct model_builder *b,
				   struct error *err);

/* Abandon a builder (reader error path); calls the providers' close. */
void model_builder_free(struct model_builder *b);

#endif
