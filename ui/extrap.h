/* extrap: what the viewer keeps about the performance models of a
 * parametric database (Extra-P sets, issue 17), shared by the tree's model
 * columns, the plot pane and the status line: the scaling view (models
 * fitted lazily in a background thread, peeked, never waited for), the
 * evaluation point (one value per parameter: the "sliders"), the measured
 * metric shown (the tree's sort column when it is measured), the severity
 * range, and the call paths marked for the plot's overlay.  Lives beside
 * the immutable model in the hub, reached by panes through pane_env.  No
 * curses here.
 *
 * Severity (doc/extrap-ui.md): as the Extra-P GUI colours its tree, a
 * call path's model evaluated at the evaluation point, relative to the
 * min..max of that value over all call paths (`set severity = value`, the
 * default); or its growth, the value at the evaluation point over the value
 * at the largest measured point, relative to the min..max of the growths
 * (`set severity = growth`).  The range is computed once every model is
 * ready (one pass over the call paths: O(nodes) model evaluations), then
 * again only when the evaluation point, the metric or the definition
 * changes, never per frame. */
#ifndef CALLSCOPE_UI_EXTRAP_H
#define CALLSCOPE_UI_EXTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"
#include "model/scaling.h"

#define EXTRAP_MARKS_MAX 7 /* call paths overlaid on the plot's one */

struct extrap;

/* The state of a parametric `m` (which must outlive it), fitting ahead in
 * a background thread when `background`; NULL when `m` is not parametric,
 * when the model layer has no measurements or models to offer, or when
 * out of memory (then `err` says so). */
struct extrap *extrap_new(const struct model *m, bool background,
			  struct error *err);
void extrap_free(struct extrap *x);

const struct model *extrap_model(const struct extrap *x);

/* The measured metric shown: its index and model column. */
uint32_t extrap_measured(const struct extrap *x);
uint32_t extrap_column(const struct extrap *x);
/* Show the measured metric of model column `column` when it has one
 * (the tree's sort column); true when that changed it. */
bool extrap_follow_column(struct extrap *x, uint32_t column);

/* The evaluation point (n_params values) and the slider's parameter. */
const double *extrap_at(const struct extrap *x);
uint32_t extrap_param(const struct extrap *x);
/* Select the next parameter for the slider; returns it. */
uint32_t extrap_next_param(struct extrap *x);
/* Multiply the slider's parameter's value by `factor` (2, 0.5). */
void extrap_scale(struct extrap *x, double factor);
/* "p=65536" or "p=65536 n=100" (or a bare value for the slider's
 * parameter): set those values; NULL, or what is wrong (static text). */
const char *extrap_set_at(struct extrap *x, const char *text);
/* "p=65536 n=100" (names sanitized); heap string, NULL when out of
 * memory. */
char *extrap_at_text(const struct extrap *x);
/* The measured range of parameter `param` over the points. */
void extrap_param_range(const struct extrap *x, uint32_t param, double *lo,
			double *hi);
/* A parameter's name ("" for an invalid one; not sanitized). */
const char *extrap_param_name(const struct extrap *x, uint32_t param);

/* The model of (node, shown metric), NULL while it is being fitted or when
 * the node has none; *pending (when not NULL) tells which. */
const struct scaling_model *extrap_peek(struct extrap *x, uint32_t node,
					bool *pending);
/* The model's formula as Extra-P prints it (not sanitized); heap. */
char *extrap_formula(const struct extrap *x, const struct scaling_model *sm);
/* The same in short for screens (scaling_text_compact: `digits`
 * significant digits, the fastest-growing term first); heap. */
char *extrap_formula_compact(const struct extrap *x,
			     const struct scaling_model *sm, int digits);
/* The model's value at the evaluation point; with parameter `param` set
 * to `v` (the plot's x); with `p1` set to `v1` and `p2` to `v2` (the heat
 * map).  Not thread-safe (one scratch point per state). */
double extrap_eval(const struct extrap *x, const struct scaling_model *sm);
double extrap_eval_along(struct extrap *x, const struct scaling_model *sm,
			 uint32_t param, double v);
double extrap_eval_along2(struct extrap *x, const struct scaling_model *sm,
			  uint32_t p1, double v1, uint32_t p2, double v2);
/* The measurement of (node, shown metric) at point `point`, or NULL. */
const struct model_measure *extrap_measure(const struct extrap *x,
					   uint32_t node, uint32_t point);
/* How many models are ready, of how many. */
void extrap_progress(const struct extrap *x, uint64_t *ready, uint64_t *total);

enum extrap_severity_kind {
	EXTRAP_SEVERITY_VALUE,	/* the value at the evaluation point */
	EXTRAP_SEVERITY_GROWTH, /* that over the value at the largest
				   measured point */
};

/* The severity's definition: set it from its name ("value", "growth";
 * false when unknown), and its name. */
bool extrap_set_severity(struct extrap *x, const char *name);
const char *extrap_severity_name(const struct extrap *x);

/* The models shown: fitted on statistic `k` of each point's repetitions
 * (mean at first; the points plotted are that statistic too), made in
 * the background the first time (never blocks; see extrap.c for what is
 * kept); this leaves a stored set.  False with `err` set when out of
 * memory or for an invalid `k`. */
bool extrap_set_measure(struct extrap *x, enum measure_kind k,
			struct error *err);
enum measure_kind extrap_measure_kind(const struct extrap *x);
/* The statistic shown of a measurement (NaN for NULL). */
double extrap_measure_value(const struct extrap *x,
			    const struct model_measure *me);

/* A stored model set (.extra-p, Extra-P 3 files) by name or index
 * ("0"), MODEL_NONE when there is no such set. */
uint32_t extrap_find_stored(const struct extrap *x, const char *arg);
/* Show stored set `set` instead of fitted models (taken from the file, no
 * fitting), or the fitted models again for MODEL_NONE.  False with `err`
 * set for a bad set or when out of memory. */
bool extrap_show_stored(struct extrap *x, uint32_t set, struct error *err);
/* The stored set shown, MODEL_NONE when the models are fitted. */
uint32_t extrap_stored_set(const struct extrap *x);
/* What the models are, for headers: "median", or "stored 1 Median Model"
 * (the name sanitized); heap, NULL when out of memory. */
char *extrap_models_text(const struct extrap *x);

/* Whether models are still being fitted in the background. */
bool extrap_fitting(const struct extrap *x);

/* The severity of `node` in [0, 1] (see above); false when unknown (its
 * model not ready, or no range yet).  Refreshes the range when needed. */
bool extrap_severity(struct extrap *x, uint32_t node, double *out);
/* The call path of rank `k` by severity (0: the worst), MODEL_NONE past
 * the end; the ranking is made with the range.  Its severity quantity
 * (the value, or the growth) into *quantity when not NULL. */
uint32_t extrap_worst(struct extrap *x, size_t k, double *quantity);

/* What `!` selects with the cursor on `cursor` (MODEL_NONE: none): the
 * worst call path (rank 0), wherever the cursor is; the next in the
 * ranking only when the cursor is still on the call path the last call
 * returned, for the same ranking (pressing `!` again walks down; after
 * the wrap-around or any change of the evaluation point, metric,
 * statistic or definition it starts again at the worst).  Its rank
 * (0-based) and severity quantity into *rank and *quantity (when not
 * NULL); MODEL_NONE while there is no ranking (models being fitted). */
uint32_t extrap_worst_step(struct extrap *x, uint32_t cursor, size_t *rank,
			   double *quantity);

/* The severity sort's key of `node` (issue 17: `:sort severity`): its
 * severity quantity (the model's value at the evaluation point, or its
 * growth) in *out, EXTRAP_KEY_VALUE; EXTRAP_KEY_NONE for a node without a
 * model (or a non-finite quantity); EXTRAP_KEY_PENDING while its model is
 * being fitted (peeked: never waits, moves it up the queue).  O(log
 * measurements) per call, no range needed. */
enum extrap_key {
	EXTRAP_KEY_VALUE,
	EXTRAP_KEY_NONE,
	EXTRAP_KEY_PENDING,
};
enum extrap_key extrap_sort_key(struct extrap *x, uint32_t node,
				double *out);
/* A number that changes whenever what the severities depend on changes
 * (evaluation point, metric, statistic or stored set, definition): a
 * severity sort made for another number is stale. */
uint64_t extrap_generation(const struct extrap *x);

/* Mark or unmark `node` for the plot's overlay; false when the marks are
 * full (EXTRAP_MARKS_MAX).  The marked nodes, in marking order. */
bool extrap_toggle_mark(struct extrap *x, uint32_t node, bool *marked);
const uint32_t *extrap_marks(const struct extrap *x, size_t *n);

#endif
