/* extrap_set: what every Extra-P reader collects before the model is
 * built, and the one place that builds it.  A reader declares parameters,
 * callpaths (names joined by "->"), metrics and points (coordinate
 * tuples), then adds per (callpath, metric, point) either repetition
 * values or stored aggregates, and stored models; extrap_set_build then
 * makes the common model: the parameters, the points sorted by coordinate
 * tuple, the call tree split on "->" (NODE_REGION nodes, a missing prefix
 * a node without data), one column and measured metric per metric, the
 * measurements (measure_stats_of over the repetitions, or the stored
 * aggregates), one profile per point ("p=64 n=10"), and a value provider
 * whose column value is the mean at the last point (the largest
 * coordinates) and whose per-profile values are the means at each point.
 * Must not depend on curses, on ui/ or on another format. */
#ifndef CALLSCOPE_EXTRAP_SET_H
#define CALLSCOPE_EXTRAP_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"
#include "model/scaling.h"

struct extrap_set;

struct extrap_set *extrap_set_new(void);
void extrap_set_free(struct extrap_set *s);

/* Number of parameters declared so far. */
uint32_t extrap_set_n_params(const struct extrap_set *s);

/* Declare parameter `name` (len bytes); its index, MODEL_NONE when
 * already declared or out of memory (extrap_set_nomem tells). */
uint32_t extrap_set_param(struct extrap_set *s, const char *name, size_t len);
/* The index of parameter `name`, or MODEL_NONE. */
uint32_t extrap_set_find_param(const struct extrap_set *s, const char *name,
			       size_t len);

/* The index of callpath / metric `name` (len bytes), added when new;
 * MODEL_NONE when out of memory. */
uint32_t extrap_set_callpath(struct extrap_set *s, const char *name,
			     size_t len);
uint32_t extrap_set_metric(struct extrap_set *s, const char *name, size_t len);

/* The name of callpath `cp` and its length in *len (NULL for an invalid
 * index): valid until the next callpath is added. */
const char *extrap_set_callpath_name(const struct extrap_set *s, uint32_t cp,
				     size_t *len);

/* The index of the point with these n_params coordinates, added when
 * new; MODEL_NONE when out of memory or a coordinate is NaN. */
uint32_t extrap_set_point(struct extrap_set *s, const double *coords);
uint32_t extrap_set_n_points(const struct extrap_set *s);

/* Append repetition values to (callpath, metric, point). */
bool extrap_set_add_values(struct extrap_set *s, uint32_t callpath,
			   uint32_t metric, uint32_t point,
			   const double *values, size_t n);
/* Append one row of values (a Cube file's locations) to (callpath,
 * metric, point): the statistics are over all values, the repetitions
 * count the rows, as Extra-P's Measurement of a 2-D array does. */
bool extrap_set_add_row(struct extrap_set *s, uint32_t callpath,
			uint32_t metric, uint32_t point, const double *values,
			size_t n);
/* The number of values of (callpath, metric, point) so far. */
size_t extrap_set_n_values(const struct extrap_set *s, uint32_t callpath,
			   uint32_t metric, uint32_t point);
/* Set the stored aggregates of (callpath, metric, point). */
bool extrap_set_put_measure(struct extrap_set *s, uint32_t callpath,
			    uint32_t metric, uint32_t point,
			    const struct model_measure *m);

/* A stored model set and one of its models (terms taken, also on
 * failure). */
uint32_t extrap_set_model_set(struct extrap_set *s, const char *name);
bool extrap_set_put_model(struct extrap_set *s, uint32_t set,
			  uint32_t callpath, uint32_t metric,
			  struct scaling_model *model);

/* A problem the reader worked around (copied), a warning of the model. */
void extrap_set_warn(struct extrap_set *s, const char *text);

/* Merge a (callpath, metric) measured at fewer points than the set has
 * into its nearest ancestor with that metric, as Extra-P unifies a Cube
 * set's call trees (extrap_merge.c), instead of refusing it; callpaths
 * left without data are not in the tree. */
void extrap_set_merge_incomplete(struct extrap_set *s);

/* Mark callpath `cp` as one whose series may lack points (Extra-P's
 * `validation__ignore__num_measurements` tag, the Nsight sets'
 * "->OVERLAP->name" paths): the validation and the build do not require
 * its (callpath, metric) pairs at every point; the statistics and
 * `points` then hold only the points it has.  No other reader marks
 * any, so their output is unchanged. */
void extrap_set_may_lack_points(struct extrap_set *s, uint32_t cp);

/* Model what can be modelled where a (callpath, metric) has data at
 * fewer points than the set has, as Extra-P does when it only warns:
 * every such callpath is marked as lacking points
 * (extrap_set_may_lack_points) and one warning names how many series
 * were short and the first three ("callpath" metric (n of N)), those
 * already marked (Extra-P's validation__ignore__num_measurements)
 * excepted.  Returns the number named. */
size_t extrap_set_allow_short(struct extrap_set *s, const char *path);

/* Have the fitter see each (callpath, metric)'s points in the order they
 * were first added (extrap_set_add_values, extrap_set_put_measure), as
 * Extra-P's modeler sees the measurements of a text, JSON, JSON Lines,
 * TaLPas, .extra-p or Extra-P 3 file, instead of in point order (the
 * point directories of Cube and Nsight sets: Extra-P sorts a Cube set's
 * points): the order decides a constant model's RE (the last point's),
 * the multi-parameter point selection, and the last bits of a fit
 * (model_builder_keep_measure_order). */
void extrap_set_keep_file_order(struct extrap_set *s);

/* Declare the values exclusive (a call path's own, without its callees'),
 * as Extra-P reads a Cube set's metrics: the columns are labelled E, and
 * the flat and bottom-up views add them over every context.  Without it
 * the columns are inclusive, the files saying nothing either way. */
void extrap_set_values_exclusive(struct extrap_set *s);

/* Whether an allocation failed. */
bool extrap_set_nomem(const struct extrap_set *s);

/* Check what Extra-P's validate_experiment checks: parameters, points,
 * metrics, callpaths, and as many points with data as there are points
 * for every (callpath, metric) that has data.  STATUS_CORRUPT naming
 * `path` otherwise. */
enum status extrap_set_validate(const struct extrap_set *s, const char *path,
				struct error *err);

/* Build the model (see the paragraph above); `s` stays the caller's. */
enum status extrap_set_build(struct extrap_set *s, const char *format,
			     const char *path, struct model **out,
			     struct error *err);

/* A reader's last step: extrap_set_validate, then extrap_set_build. */
enum status extrap_set_finish(struct extrap_set *s, const char *format,
			      const char *path, struct model **out,
			      struct error *err);

/* Parse a number as Python's float() does for the files' numbers
 * (surrounding blanks, "inf", "nan", "1e3", "1_000" not taken); false
 * when `text` (len bytes) is not one. */
bool extrap_parse_double(const char *text, size_t len, double *out);

#endif
