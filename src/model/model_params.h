/* model_params: the parameter space of a parametric set (Extra-P:
 * model.params, points and the profiles measured at each), the
 * measurements stored per (node, measured metric, point) and the
 * performance models stored with them (model_params.c, model_measures.c).
 * Computing statistics and fitting models is analysis/.  Must not depend
 * on curses or on ui/. */
#ifndef CALLSCOPE_MODEL_PARAMS_H
#define CALLSCOPE_MODEL_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct model;

/* A parameter of a parametric set: "p" (processes), "n" (problem size). */
struct model_param {
	uint32_t name; /* string */
};

/* ---- parameter space (model_params.c) ------------------------------ */

/* The parameter named `name`, or MODEL_NONE. */
uint32_t model_find_param(const struct model *m, const char *name);

/* The n_params coordinates of point `point`, or NULL for an invalid
 * point. */
const double *model_point_coords(const struct model *m, uint32_t point);

/* The profiles measured at `point` (the repetitions, ordered by repetition
 * then profile index) into *profiles (inside the model; NULL when none);
 * returns their number, 0 for an invalid point.  O(1). */
uint32_t model_point_profiles(const struct model *m, uint32_t point,
			      const uint32_t **profiles);

/* The points of a plot along parameter `param` through point `through`:
 * every point whose other coordinates equal `through`'s, ordered by their
 * `param` coordinate (ties by point index), into *points (malloc'd, caller
 * frees; NULL when *n is 0).  With model_point_profiles and
 * model_per_profile, a per-profile series.  O(n_points x n_params).
 * STATUS_USAGE for an invalid parameter or point, STATUS_NOMEM. */
enum status model_param_series(const struct model *m, uint32_t param,
			       uint32_t through, uint32_t **points, size_t *n,
			       struct error *err);

/* ---- measurements of parametric sets (model_measures.c) ------------ */

/* What a parametric set (Extra-P) holds per call path, metric and point:
 * the statistics of the repetitions measured there, as Extra-P's
 * Measurement computes them (numpy: mean by pairwise summation, median,
 * min, max, population standard deviation), or as a file stores them
 * (.extra-p, Extra-P 3: aggregates only). */
struct model_measure {
	double mean, median, minimum, maximum, std;
	uint32_t repetitions; /* values behind the statistics (files for a
				 Cube set); 0 when stored without a count */
};

enum measure_kind {
	MEASURE_MEAN,
	MEASURE_MEDIAN,
	MEASURE_MINIMUM,
	MEASURE_MAXIMUM,
};

/* The statistic `kind` of a measurement. */
double model_measure_get(const struct model_measure *m, enum measure_kind kind);

/* The statistic's name ("mean", "median", "minimum", "maximum"; "" for
 * an invalid kind), and the kind named `name` (those, or "min", "max"):
 * false when `name` names none. */
const char *model_measure_name(enum measure_kind kind);
bool model_measure_parse(const char *name, enum measure_kind *out);

/* The metrics of a parametric set that carry measurements ("measured
 * metrics"), each shown as one model column: their number (0 when the
 * model is not parametric) and the column of measured metric `measured`
 * (MODEL_NONE when invalid). */
uint32_t model_n_measured(const struct model *m);
uint32_t model_measured_column(const struct model *m, uint32_t measured);

/* The measurement of node `node` for measured metric `measured` at point
 * `point`, or NULL when there is none (a call path without data there, a
 * node that is only a prefix of call paths).  O(log n) or better. */
const struct model_measure *model_measure_at(const struct model *m,
					     uint32_t node, uint32_t measured,
					     uint32_t point);

/* The measurements in order, for a walk that must not search each
 * (node, measured, point) (cost O(measurements), not nodes x metrics x
 * points): their number, and measurement `i` (0 <= i < that number),
 * ordered by node, then measured metric, then point, with its key in
 * *node, *measured and *point (each may be NULL); NULL for an invalid i. */
size_t model_n_measures(const struct model *m);
const struct model_measure *model_measure_by_index(const struct model *m,
						   size_t i, uint32_t *node,
						   uint32_t *measured,
						   uint32_t *point);

/* The measurements of one series (node, measured metric): their number
 * (0 when there are none) and, in *first, the index (for
 * model_measure_by_index) of the first, in point order.  O(log n). */
size_t model_measure_series(const struct model *m, uint32_t node,
			    uint32_t measured, size_t *first);

/* The index (for model_measure_by_index) of the k-th measurement of the
 * series starting at `first` (k < its count) in the order Extra-P's
 * modeler sees them: the order of the builder's model_builder_set_measure
 * calls when it asked for that (model_builder_keep_measure_order: text
 * and JSON files, whose measurements Extra-P keeps in file order), else
 * point order (first + k).  O(1). */
size_t model_measure_in_order(const struct model *m, size_t first, size_t k);

/* Performance models stored in the file (.extra-p, Extra-P 3: named model
 * sets, shown as stored, not refitted): their number, a set's name, and
 * the model of (node, measured metric) in set `set`, or NULL. */
struct scaling_model;
uint32_t model_n_stored_sets(const struct model *m);
const char *model_stored_set_name(const struct model *m, uint32_t set);
const struct scaling_model *model_stored_model(const struct model *m,
					       uint32_t set, uint32_t node,
					       uint32_t measured);
/* The stored set named `arg`, else the one of index `arg` (decimal
 * digits); MODEL_NONE when there is none. */
uint32_t model_stored_set_find(const struct model *m, const char *arg);

/* The stored models in order (set, then node, then measured metric), as
 * model_measure_by_index walks the measurements: their number and model
 * `i` with its key; NULL for an invalid i. */
size_t model_n_stored_models(const struct model *m);
const struct scaling_model *model_stored_model_by_index(const struct model *m,
							size_t i, uint32_t *set,
							uint32_t *node,
							uint32_t *measured);

#endif
