/* measure_stats: the statistics of a point's repeated measurements as
 * Extra-P's Measurement computes them with numpy (mean by numpy's pairwise
 * summation, median as the mean of the two middle values for an even
 * count, population standard deviation), and numpy's pairwise sum, which
 * the fitter (scaling_fit) shares so that its means equal Extra-P's to the
 * last bit.  The readers of parametric sets (formats/extrap) store the
 * results in the model (model_builder_set_measure).  Must not depend on
 * curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_MEASURE_STATS_H
#define CALLSCOPE_MEASURE_STATS_H

#include <stddef.h>

#include "core/status.h"
#include "model/model_params.h"

/* The statistics of `n` values (n > 0, NaN counted as any number) into
 * *out, as numpy computes them.  STATUS_USAGE for n 0, STATUS_NOMEM. */
enum status measure_stats_of(const double *values, size_t n,
			     struct model_measure *out, struct error *err);

/* The sum of `n` values as numpy adds them (pairwise summation: a loop
 * under 8 items, 8 partial sums up to 128, halving above), so that means
 * equal Extra-P's to the last bit.  Used by the statistics and the fitter. */
double measure_np_sum(const double *values, size_t n);

#endif
