/* scaling_view: the performance models of a parametric model (Extra-P
 * sets), one per (node, measured metric), fitted with scaling_fit when
 * first asked for and then kept; or, for a model set stored in the file,
 * taken from the model.  Fitting can run ahead in one background thread,
 * nearest-asked first, so that no key waits for a model: the viewer peeks
 * (never blocks) and draws "..." until the model is there; the batch
 * commands ask and wait.  A fitted model is published once and never
 * changes, so a pointer returned stays valid until scaling_view_free.
 * Must not depend on curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_SCALING_VIEW_H
#define CALLSCOPE_SCALING_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"
#include "model/scaling.h"

struct scaling_view;

struct scaling_view_options {
	enum measure_kind measure; /* the per-point value fitted (mean) */
	uint32_t stored_set;       /* a stored set's index (model_n_stored_sets)
				      to show instead of fitting, or
				      MODEL_NONE to fit */
	bool background;           /* fit ahead in a background thread */
};

/* A view over `m` (which must outlive it).  NULL with `err` set when out
 * of memory, when the model is not parametric (STATUS_UNSUPPORTED), or
 * for a bad stored set (STATUS_USAGE). */
struct scaling_view *scaling_view_new(const struct model *m,
				      const struct scaling_view_options *opt,
				      struct error *err);

/* The model of (node, measured), fitted now in the caller's thread when
 * it is not there yet.  NULL when the node has no measurements for that
 * metric (a prefix-only node) or, with `err` set, when fitting failed. */
const struct scaling_model *scaling_view_model(struct scaling_view *v,
					       uint32_t node,
					       uint32_t measured,
					       struct error *err);

/* The model of (node, measured) when it is ready, else NULL; never blocks.
 * With a background thread, a missing model is moved to the front of the
 * thread's queue. */
const struct scaling_model *scaling_view_peek(struct scaling_view *v,
					      uint32_t node,
					      uint32_t measured);

/* How many models are ready out of how many there are (for a progress
 * note). */
void scaling_view_progress(const struct scaling_view *v, uint64_t *ready,
			   uint64_t *total);

/* Pause (true) or resume the background thread: paused, it fits nothing
 * more after the model it is fitting (callers still get theirs, fitted in
 * their thread), so that a view not shown leaves the processors to the
 * one shown and keeps what it has fitted.  Never blocks; nothing without
 * a thread. */
void scaling_view_pause(struct scaling_view *v, bool paused);

/* Stops and joins the background thread first (at most one fit's wait,
 * paused or not). */
void scaling_view_free(struct scaling_view *v);

#endif
