/* measure_stats: the statistics of a point's repeated measurements as
 * Extra-P's Measurement computes them with numpy (mean by numpy's pairwise
 * summation, median as the mean of the two middle values for an even
 * count, population standard deviation), and numpy's pairwise sum, which
 * the fitter (scaling_fit) shares so that its means equal Extra-P's to the
 * last bit.  The readers of parametric sets (formats/extrap) store the
 * results in the model (model_builder_set_measure).  Must not depend on
 * curses, on ui/ or on any reader. */
#include "config.h"

#include "analysis/measure_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* numpy's pairwise_sum (numpy/_core/src/umath/loops_utils.h.src): a plain
 * loop under 8 items, 8 partial sums up to 128 items, halving above (the
 * split rounded down to a multiple of 8). */
double measure_np_sum(const double *a, size_t n)
{
	if (n < 8) {
		double res = 0.;
		for (size_t i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		double r[8];
		for (int k = 0; k < 8; k++)
			r[k] = a[k];
		size_t i;
		for (i = 8; i < n - (n % 8); i += 8)
			for (int k = 0; k < 8; k++)
				r[k] += a[i + k];
		double res = ((r[0] + r[1]) + (r[2] + r[3])) +
			     ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	size_t n2 = n / 2;
	n2 -= n2 % 8;
	return measure_np_sum(a, n2) + measure_np_sum(a + n2, n - n2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

enum status measure_stats_of(const double *values, size_t n,
			     struct model_measure *out, struct error *err)
{
	if (!values || n == 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "no values to measure");
	double *tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	bool nan = false;
	for (size_t i = 0; i < n; i++)
		nan |= isnan(values[i]);
	/* numpy.mean: the reduction starts from the identity 0 */
	double mean = (0. + measure_np_sum(values, n)) / (double)n;
	/* numpy.var: sum of squared deviations, pairwise, over n */
	for (size_t i = 0; i < n; i++) {
		double d = values[i] - mean;
		tmp[i] = d * d;
	}
	double var = (0. + measure_np_sum(tmp, n)) / (double)n;
	out->mean = mean;
	out->std = sqrt(var);
	out->repetitions = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	if (nan) {
		out->median = out->minimum = out->maximum = (double)NAN;
		free(tmp);
		return STATUS_OK;
	}
	memcpy(tmp, values, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	out->minimum = tmp[0];
	out->maximum = tmp[n - 1];
	if (n % 2)
		out->median = tmp[n / 2];
	else
		out->median = (0. + tmp[n / 2 - 1] + tmp[n / 2]) / 2.;
	free(tmp);
	return STATUS_OK;
}
