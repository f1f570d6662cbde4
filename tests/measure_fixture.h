/* measure_fixture: what the tests of measured (scaling) models share:
 * numpy's pairwise sum, the independent side of the measurement
 * statistics, and the builder's measured time column (cmocka). */
#ifndef CALLSCOPE_TESTS_MEASURE_FIXTURE_H
#define CALLSCOPE_TESTS_MEASURE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* numpy's pairwise sum, recursive as numpy describes it: blocks of 8
 * partial sums up to 128 items, halves (multiple of 8) above. */
static inline double ref_sum(const double *a, size_t n)
{
	if (n < 8) {
		double s = 0;
		for (size_t i = 0; i < n; i++)
			s += a[i];
		return s;
	}
	if (n <= 128) {
		double r[8];
		memcpy(r, a, sizeof(r));
		size_t i = 8;
		while (i + 8 <= n) {
			for (int k = 0; k < 8; k++)
				r[k] += a[i + k];
			i += 8;
		}
		double s = (r[0] + r[1]) + (r[2] + r[3]);
		s += (r[4] + r[5]) + (r[6] + r[7]);
		while (i < n)
			s += a[i++];
		return s;
	}
	size_t h = (n / 2) / 8 * 8;
	return ref_sum(a, h) + ref_sum(a + h, n - h);
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
