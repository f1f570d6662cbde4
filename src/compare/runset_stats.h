/* runset_stats: the statistics of one call path's values across the runs
 * of a set (compare/runset.h), over the runs that have a value there
 * (an absent run is left out, never counted as 0): minimum, median,
 * mean, maximum and standard deviation as Extra-P's repetition
 * statistics compute them (measure_stats_of: numpy's, the standard
 * deviation the population one, ddof 0), the coefficient of variation
 * (stddev / mean, none when the mean is 0), and the outlier: the run
 * farthest from the median, with its distance in robust units -- the
 * modified z-score |x - median| / (1.4826 MAD), MAD the median absolute
 * deviation from the median, or |x - median| / (1.2533 MeanAD) when the
 * MAD is 0 (MeanAD the mean absolute deviation from the median; the
 * IBM/Iglewicz-Hoaglin convention).  No outlier with fewer than three
 * values or when every value is the same.  Pure functions on arrays. */
#ifndef CALLSCOPE_RUNSET_STATS_H
#define CALLSCOPE_RUNSET_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

enum runset_stat {
	RUNSET_MIN,
	RUNSET_MEDIAN,
	RUNSET_MEAN,
	RUNSET_MAX,
	RUNSET_STDDEV,
	RUNSET_CV,
	RUNSET_COUNT,	  /* runs with a value */
	RUNSET_OUTLIER,	  /* the outlier's run number, 1-based */
	RUNSET_OUTLIER_Z, /* its modified z-score */
	RUNSET_N_STATS
};

/* "min", "median", "mean", "max", "stddev", "cv", "runs", "outlier run",
 * "outlier z". */
const char *runset_stat_name(enum runset_stat s);

/* The statistics of `values[0..n)`, NaN meaning absent, into out[] (NaN
 * where a statistic has no value: all of them when no run has one).
 * `scratch` holds 2n doubles.  STATUS_NOMEM with `err`. */
enum status runset_stats_of(const double *values, size_t n, double *scratch,
			    double out[RUNSET_N_STATS], struct error *err);

#endif
