/* runset_stats: one call path's statistics across runs
 * (runset_stats.h). */
#include "config.h"

#include "analysis/measure_stats.h"
#include "compare/runset_stats.h"

#include <math.h>
#include <stdlib.h>

#include "model/model.h"

const char *runset_stat_name(enum runset_stat s)
{
	static const char *const names[] = {
	    "min", "median", "mean",	    "max",	 "stddev",
	    "cv",  "runs",   "outlier run", "outlier z"};
	return s < RUNSET_N_STATS ? names[s] : "";
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of n sorted values (n > 0). */
static double sorted_median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The outlier of the n present values `v` (in run order, `run` their
 * run indices) around `median`; `tmp` holds n doubles.  A value within
 * ROUNDING of the median (relative) is the median: runs whose sums differ
 * only in the last bits (the same work added in another order) have no
 * outlier, and their rounding is no scale to measure a real one by (a
 * z of 2e15 before). */
#define ROUNDING 1e-12
static void outlier(const double *v, const uint32_t *run, size_t n,
		    double median, double *tmp, double out[RUNSET_N_STATS])
{
	size_t far = 0;
	double sum = 0;
	double noise = ROUNDING * fabs(median);
	for (size_t i = 0; i < n; i++) {
		tmp[i] = fabs(v[i] - median);
		if (tmp[i] <= noise)
			tmp[i] = 0;
		sum += tmp[i];
		if (tmp[i] > tmp[far])
			far = i;
	}
	double dist = tmp[far];
	qsort(tmp, n, sizeof(*tmp), by_value);
	double mad = sorted_median(tmp, n);
	double scale = mad > 0 ? 1.4826 * mad : 1.2533 * (sum / (double)n);
	if (n < 3 || dist == 0 || !(scale > 0))
		return;
	out[RUNSET_OUTLIER] = (double)run[far] + 1;
	out[RUNSET_OUTLIER_Z] = dist / scale;
}

enum status runset_stats_of(const double *values, size_t n, double *scratch,
			    double out[RUNSET_N_STATS], struct error *err)
{
	for (int s = 0; s < RUNSET_N_STATS; s++)
		out[s] = NAN;
	uint32_t *run = malloc((n ? n : 1) * sizeof(*run));
	if (!run)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(values[i])) {
			scratch[m] = values[i];
			run[m++] = (uint32_t)i;
		}
	out[RUNSET_COUNT] = (double)m;
	enum status st = STATUS_OK;
	if (m > 0) {
		struct model_measure ms;
		st = measure_stats_of(scratch, m, &ms, err);
		if (st == STATUS_OK) {
			out[RUNSET_MIN] = ms.minimum;
			out[RUNSET_MEDIAN] = ms.median;
			out[RUNSET_MEAN] = ms.mean;
			out[RUNSET_MAX] = ms.maximum;
			out[RUNSET_STDDEV] = ms.std;
			if (ms.mean != 0)
				out[RUNSET_CV] = ms.std / fabs(ms.mean);
			outlier(scratch, run, m, ms.median, scratch + n, out);
		}
	}
	free(run);
	return st;
}
