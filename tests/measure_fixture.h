/* measure_fixture: what the tests of measured (scaling) models share:
 * numpy's pairwise sum, the independent side of the measurement
 * statistics, and the builder's measured time column (cmocka). */
#ifndef CALLSCOPE_TESTS_MEASURE_FIXTURE_H
#define CALLSCOPE_TESTS_MEASURE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* numpy's pairwise sum, written from its description rather than from
 * measure_np_sum: above 128 items the sum of two parts, the first the
 * largest multiple of 8 not over half; up to 128, eight lanes, lane k
 * summing items k, k+8, ... of the whole blocks of 8 in order, the lanes
 * added as a balanced tree, then the items after the last whole block
 * one by one (under 8 items: those alone, from 0). */
static inline double ref_sum(const double *a, size_t n)
{
	if (n > 128) {
		size_t first = n / 16 * 8;
		return ref_sum(a, first) + ref_sum(a + first, n - first);
	}
	size_t whole = n < 8 ? 0 : n - n % 8;
	double sum = 0;
	if (whole) {
		double lane[8];
		for (size_t k = 0; k < 8; k++) {
			lane[k] = a[k];
			for (size_t j = k + 8; j < whole; j += 8)
				lane[k] += a[j];
		}
		sum = ((lane[0] + lane[1]) + (lane[2] + lane[3])) +
		      ((lane[4] + lane[5]) + (lane[6] + lane[7]));
	}
	for (size_t i = whole; i < n; i++)
		sum += a[i];
	return sum;
}

/* Column 0 of builder b: "time" (%g), measured. */
static inline void add_time_measured(struct model_builder *b)
{
	struct model_column col = {.name = strdup("time"),
				   .variant = strdup(""),
				   .format = strdup("%g"),
				   .pair = MODEL_NONE,
				   .parent = MODEL_NONE};
	assert_int_equal(model_builder_add_column(b, &col), 0);
	assert_int_equal(model_builder_add_measured(b, 0), 0);
}

#endif
