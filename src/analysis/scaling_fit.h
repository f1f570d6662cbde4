/* scaling_fit: Extra-P 4.2.5's default modeler reimplemented in C (see
 * ../shared/notes/extrap.md section 3): for one parameter, the 42-term
 * hypothesis space with leave-one-out selection by SMAPE; for several, the
 * per-parameter point selection, one-parameter models, and the
 * combination of their terms.  Least squares through LAPACK (LAPACKE).
 * A fitter keeps what depends only on the coordinates (design matrices,
 * their factorisations), because every call path and metric of a set
 * shares the set's points: fitting thousands of series costs little more
 * than solving for their values.  Must not depend on curses, on ui/ or on
 * any reader. */
#ifndef CALLSCOPE_SCALING_FIT_H
#define CALLSCOPE_SCALING_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "model/scaling.h"

struct scaling_fitter;

/* A fitter for sets of `n_params` parameters (1 .. SCALING_MAX_PARAMS).
 * NULL with `err` set when out of memory or for a bad count. */
struct scaling_fitter *scaling_fitter_new(uint32_t n_params,
					  struct error *err);

/* Fit `values[i]`, measured at point `coords[i * n_params ..]` (i <
 * n_points), as Extra-P 4.2.5's default modeler does, into *out (cleared
 * first; scaling_model_clear frees it).  NaN values are points without a
 * measurement and are left out.  Warnings Extra-P prints (terms with a log
 * dropped because a coordinate is < 1, fewer than 5 points) are set in
 * *warnings as SCALING_WARN_* bits when it is not NULL.  One thread at a
 * time per fitter; separate fitters may run in parallel.  STATUS_USAGE for
 * no points, STATUS_NOMEM, STATUS_CORRUPT for a solver failure. */
enum scaling_warning {
	SCALING_WARN_LOG_DROPPED = 1 << 0,
	SCALING_WARN_FEW_POINTS = 1 << 1,
};
enum status scaling_fit(struct scaling_fitter *fitter, const double *coords,
			const double *values, uint32_t n_points,
			struct scaling_model *out, unsigned *warnings,
			struct error *err);

/* Solve every least-squares problem with dgelsd itself, without the
 * cached pseudo-inverses (much slower; the results are the same, which
 * the tests and the benchmark check). */
void scaling_fitter_set_direct(struct scaling_fitter *fitter, bool direct);

void scaling_fitter_free(struct scaling_fitter *fitter);

#endif
