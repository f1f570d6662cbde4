/* model_values: metric values, read lazily through the reader's provider
 * (struct value_ops): one node's value of a column or statistic, every
 * node's at once (model_dense.c), per-profile values, and the first
 * failed read.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_VALUES_H
#define CALLSCOPE_MODEL_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct model;

/* One per-profile value of a context (thread view). */
struct profile_value {
	uint32_t profile; /* index into model.profiles */
	double value;
};

/* What a reader provides for lazily read values.  Every function must be
 * bounds-safe on corrupt input: a failure is "absent" plus a note in `err`
 * where one is passed; where none is passed (summary), `take_error` tells a
 * failed read from an absent value. */
struct value_ops {
	/* Summary value of statistic `stat_id` at context `ctx_id`. */
	bool (*summary)(void *impl, uint32_t ctx_id, uint32_t stat_id,
			double *out);
	/* All non-zero per-profile values of propagated metric `prop_id` at
	 * context `ctx_id`, sorted by profile.  *out is malloc'd (caller
	 * frees).  NULL when the format has no per-profile values. */
	enum status (*per_profile)(void *impl, uint32_t ctx_id,
				   uint32_t prop_id, struct profile_value **out,
				   size_t *n, struct error *err);
	void (*close)(void *impl);
	/* Optional (NULL when the format cannot do better than `summary`):
	 * every summary value of statistic `stat_id` in one sequential pass.
	 * Calls emit(ctx, ctx_id, value) at most once per context id, for
	 * exactly the contexts where `summary` returns true and with the
	 * value it returns, preferably in increasing ctx_id order.
	 * STATUS_UNSUPPORTED when it cannot promise that for this database:
	 * the caller forgets what was emitted and asks `summary` per
	 * context.  Any other error is a failure. */
	enum status (*summary_all)(void *impl, uint32_t stat_id,
				   void (*emit)(void *ctx, uint32_t ctx_id,
						double value),
				   void *ctx, struct error *err);
	/* Optional (NULL: a value read never fails but for corrupt data,
	 * which is "absent").  A summary read that fails for another reason
	 * (an I/O error of a lazily read file: a remote file whose server
	 * went away) returns false like an absent value; this moves the
	 * first such failure since the last call into `err` (NULL: drop it)
	 * and returns true, or returns false when there was none.  As
	 * trace_ops.take_error. */
	bool (*take_error)(void *impl, struct error *err);
	/* Optional (NULL: every statistic combines profiles as its
	 * `combine` says).  Statistic `stat_id`'s value over the profiles
	 * whose values are vals[0..n), in profile order, where the reader
	 * combines them its own way (Cube's <cubeplaggr> aggr): true and
	 * *out; false: as `combine` says (then *out is untouched). */
	bool (*combine_profiles)(void *impl, uint32_t stat_id,
				 const double *vals, size_t n, double *out);

	/* ---- cubeaggr (issue #29): rows of several contexts ---- */
	/* Optional (NULL: every statistic combines contexts as its
	 * `combine` says).  Statistic `stat_id`'s value over the contexts
	 * ctx_ids[0..n) together (a flat or bottom-up row, in the row's
	 * order), whose own values are vals[0..n) (0 where absent), where
	 * the reader combines contexts its own way (Cube: a prederived
	 * metric's <cubeplaggr> aggr over their values; a POSTDERIVED
	 * metric's expression over the referred metrics' values over the
	 * contexts, as CubeLib's get_sev_native of a list of call paths):
	 * true, with *present and *out; false: as `combine` says (then
	 * *out and *present are untouched).  n may be 0 (to ask whether;
	 * then nothing is read). */
	bool (*combine_contexts)(void *impl, uint32_t stat_id,
				 const uint32_t *ctx_ids, const double *vals,
				 size_t n, double *out, bool *present);

	/* scalefn (issue #29): optional (NULL: a value is only its
	 * number).  Where the values of statistic `stat_id` are codes of
	 * something richer (a column with RENDER_CODE: Cube's SCALE_FUNC,
	 * the ranking code of a scaling function), the text of that thing
	 * at context `ctx_id` for profile `profile` (UINT32_MAX: over every
	 * profile, as `summary` gives it): *out malloc'd, NULL where the
	 * statistic has no text or no value there.  STATUS_OK, or a failed
	 * read's status with `err` set (a damaged cell). */
	enum status (*value_text)(void *impl, uint32_t ctx_id,
				  uint32_t stat_id, uint32_t profile,
				  char **out, struct error *err);
};

/* The first failed value read since the last call (see value_ops
 * take_error: a value that came back absent because its read failed; then
 * a failed pass of a derived inclusive statistic), moved into `err` (NULL:
 * dropped): true when there was one.  Callers that
 * show values may ask after drawing them; absent values stay absent. */
bool model_take_value_error(const struct model *m, struct error *err);

/* Value of column `column` at node `node`.  False when absent. */
bool model_value(const struct model *m, uint32_t node, uint32_t column,
		 double *out);

/* Value of column `column` at node `node` through its standard formula
 * (expr_standard, or expr when there is none): what the bottom-up and flat
 * views aggregate.  False when absent. */
bool model_value_standard(const struct model *m, uint32_t node,
			  uint32_t column, double *out);

/* Value of statistic index `stat` at node `node`.  False when absent.  A
 * STAT_DERIVED_INCLUSIVE statistic's first value costs one pass over the
 * source's values (model_stat_dense) and over the tree (children before
 * parents, no recursion), 9 bytes per node kept until model_free; every
 * later value is a lookup.  A failed pass leaves the statistic absent, is
 * not retried, and is reported by model_take_value_error. */
bool model_stat_value(const struct model *m, uint32_t node, uint32_t stat,
		      double *out);

/* Statistic index `stat` at every node at once: values[i] and present[i]
 * (arrays of n_nodes; `present` may be NULL) are what model_stat_value
 * gives at node i, with values[i] 0 where absent.  One sequential pass over
 * the provider's summary values when it has summary_all, else one summary
 * lookup per node.  STATUS_USAGE for an unknown statistic (everything
 * absent), STATUS_NOMEM, or the provider's error.  A derived inclusive
 * statistic is copied from its kept pass (see model_stat_value; a failed
 * pass gives everything absent and STATUS_OK). */
enum status model_stat_dense(const struct model *m, uint32_t stat,
			     double *values, uint8_t *present,
			     struct error *err);

/* Column `column` at every node at once, through its standard formula
 * (as model_value_standard) when `standard`, else its own formula (as
 * model_value): values[i] and present[i] as in model_stat_dense.  Reads
 * each statistic the formula uses with model_stat_dense (9 bytes per node
 * per statistic while it runs, when the formula is more than one leaf).
 * STATUS_USAGE for an unknown column, STATUS_NOMEM, or the provider's
 * error. */
enum status model_column_dense(const struct model *m, uint32_t column,
			       bool standard, double *values, uint8_t *present,
			       struct error *err);

/* Statistic `stat`'s value over the profile values vals[0..n) (in
 * profile order) where the reader combines them its own way (see
 * value_ops combine_profiles): true and *out; false where they combine
 * as the statistic's `combine` says.  n may be 0 (to ask whether). */
bool model_combine_profiles(const struct model *m, uint32_t stat,
			    const double *vals, size_t n, double *out);

/* Statistic `stat` over the model nodes nodes[0..n) together (a flat or
 * bottom-up row), whose own values are vals[0..n) (0 where absent), where
 * the reader combines contexts its own way (see value_ops
 * combine_contexts): true, with *present and *out; false where they
 * combine as the statistic's `combine` says.  n may be 0 (to ask
 * whether). */
bool model_combine_contexts(const struct model *m, uint32_t stat,
			    const uint32_t *nodes, const double *vals,
			    size_t n, double *out, bool *present);

/* The text column `column`'s value at `node` stands for, where the
 * column is a code (value_ops value_text: Cube's SCALE_FUNC scaling
 * function), over profile `profile` (UINT32_MAX: every profile): *out
 * malloc'd, NULL when the column has no text or no value there (a column
 * of several statistics has none).  STATUS_OK or the reader's error. */
enum status model_value_text(const struct model *m, uint32_t node,
			     uint32_t column, uint32_t profile, char **out,
			     struct error *err);

/* Whether the reader gives per-profile values at all (value_ops
 * per_profile); a statistic has them when, besides, its prop_id is set. */
bool model_has_per_profile(const struct model *m);

/* Per-profile values (thread view).  STATUS_UNSUPPORTED when the database
 * has none. */
enum status model_per_profile(const struct model *m, uint32_t node,
			      uint32_t stat, struct profile_value **out,
			      size_t *n, struct error *err);

/* Column `column`'s per-profile values at `node`: model_per_profile of its
 * statistic, or, for a formula over several statistics (a Cube metric's
 * own column, model_column.own), the formula (`expr`) evaluated at each
 * profile that has a value of any of them over their per-profile values
 * (absent ones count 0; model_profile_column.c).  Sorted by profile. */
enum status model_per_profile_column(const struct model *m, uint32_t node,
				     uint32_t column, struct profile_value **out,
				     size_t *n, struct error *err);

#endif
