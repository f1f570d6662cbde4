/* Tests of the parameter space (model_params.c): degenerate builder calls
 * first (no parameters, a parameter after a point, a wrong coordinate
 * count, NaN, bad profile or point), then random parametric sets whose
 * point -> profiles index (model_point_profiles) and plot series
 * (model_param_series) are compared with brute-force scans over the
 * profiles and points the test made. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"

static void test_degenerate(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	double c[2] = {1, 2};
	assert_int_equal(model_builder_add_point(b, c, 0), MODEL_NONE);
	assert_int_equal(model_builder_add_param(b, NULL), MODEL_NONE);
	assert_int_equal(model_builder_add_param(b, "p"), 0);
	assert_int_equal(model_builder_add_param(b, "p"), MODEL_NONE);
	assert_int_equal(model_builder_add_param(b, "n"), 1);
	assert_int_equal(model_builder_add_point(b, c, 1), MODEL_NONE);
	assert_int_equal(model_builder_add_point(b, NULL, 2), MODEL_NONE);
	double nan2[2] = {1, NAN};
	assert_int_equal(model_builder_add_point(b, nan2, 2), MODEL_NONE);
	assert_int_equal(model_builder_add_point(b, c, 2), 0);
	assert_int_equal(model_builder_add_param(b, "q"), MODEL_NONE);
	uint32_t prof = model_builder_add_profile(b, false, NULL, 0, "run");
	assert_int_equal(prof, 0);
	assert_false(model_builder_set_profile_point(b, 1, 0, 0));
	assert_false(model_builder_set_profile_point(b, 0, 1, 0));
	assert_false(model_builder_set_profile_point(b, 0, 0, MODEL_NONE));
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	/* a profile never placed is not parametric */
	assert_int_equal(model_profiles(m)[0].point, MODEL_NONE);
	assert_int_equal(model_profiles(m)[0].repetition, MODEL_NONE);
	const uint32_t *ps = (const uint32_t *)m;
	assert_int_equal(model_point_profiles(m, 0, &ps), 0);
	assert_null(ps);
	assert_int_equal(model_point_profiles(m, 1, &ps), 0);
	assert_null(model_point_coords(m, 1));
	assert_int_equal(model_find_param(m, "n"), 1);
	assert_int_equal(model_find_param(m, "x"), MODEL_NONE);
	uint32_t *pts = NULL;
	size_t n = 0;
	struct error err = {0};
	assert_int_equal(model_param_series(m, 2, 0, &pts, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(model_param_series(m, 0, 1, &pts, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	model_free(m);
	/* not parametric at all */
	b = model_builder_new("test", "mem");
	assert_int_equal(model_builder_add_profile(b, true, NULL, 0, NULL), 0);
	m = model_builder_finish(b, NULL);
	assert_int_equal(model_n_params(m), 0);
	assert_int_equal(model_n_points(m), 0);
	assert_null(model_point_coords(m, 0));
	assert_int_equal(model_point_profiles(m, 0, &ps), 0);
	assert_int_equal(model_profiles(m)[0].point, MODEL_NONE);
	model_free(m);
}

static void test_random_sets(void **state)
{
	(void)state;
	srand(21);
	static const char *names[] = {"p", "n", "size"};
	for (int round = 0; round < 30; round++) {
		struct model_builder *b = model_builder_new("test", "mem");
		uint32_t np = 1 + (uint32_t)(rand() % 3);
		for (uint32_t i = 0; i < np; i++)
			assert_int_equal(model_builder_add_param(b, names[i]),
					 i);
		/* coordinates from a small grid so that series have
		 * several points; real values, not only integers */
		uint32_t npts = 1 + (uint32_t)(rand() % 40);
		double coords[40][3];
		for (uint32_t p = 0; p < npts; p++) {
			for (uint32_t i = 0; i < np; i++)
				coords[p][i] = (rand() % 4) * 0.5 + 1;
			assert_int_equal(model_builder_add_point(b, coords[p],
								 np),
					 p);
		}
		/* profiles: a summary, then repetitions in random order,
		 * some not placed */
		uint32_t nprof = (uint32_t)(rand() % 120);
		uint32_t point[121], rep[121];
		point[0] = rep[0] = MODEL_NONE;
		assert_int_equal(model_builder_add_profile(b, true, NULL, 0,
							   NULL),
				 0);
		for (uint32_t k = 1; k <= nprof; k++) {
			assert_int_equal(model_builder_add_profile(
						 b, false, NULL, 0, "m"),
					 k);
			point[k] = rep[k] = MODEL_NONE;
			if (rand() % 8 == 0)
				continue;
			point[k] = (uint32_t)rand() % npts;
			rep[k] = (uint32_t)(rand() % 5);
			assert_true(model_builder_set_profile_point(
				b, k, point[k], rep[k]));
		}
		struct model *m = model_builder_finish(b, NULL);
		assert_non_null(m);
		for (uint32_t k = 0; k <= nprof; k++) {
			assert_int_equal(model_profiles(m)[k].point, point[k]);
			assert_int_equal(model_profiles(m)[k].repetition, rep[k]);
		}
		for (uint32_t p = 0; p < npts; p++) {
			const double *c = model_point_coords(m, p);
			for (uint32_t i = 0; i < np; i++)
				assert_true(c[i] == coords[p][i]);
			/* brute force: every (repetition, profile) at p in
			 * increasing order */
			const uint32_t *got;
			uint32_t n = model_point_profiles(m, p, &got);
			uint32_t k = 0;
			for (uint32_t r = 0; r < 5; r++)
				for (uint32_t q = 1; q <= nprof; q++) {
					if (point[q] != p || rep[q] != r)
						continue;
					assert_true(k < n);
					assert_int_equal(got[k], q);
					k++;
				}
			assert_int_equal(n, k);
			/* series along each parameter through p */
			for (uint32_t param = 0; param < np; param++) {
				uint32_t *pts = NULL;
				size_t ns = 0;
				assert_int_equal(model_param_series(m, param,
								    p, &pts,
								    &ns, NULL),
						 STATUS_OK);
				size_t want = 0;
				for (uint32_t o = 0; o < npts; o++) {
					bool same = true;
					for (uint32_t i = 0; i < np; i++)
						if (i != param &&
						    coords[o][i] != coords[p][i])
							same = false;
					want += same;
					if (!same)
						continue;
					/* o is in the series */
					size_t at = 0;
					while (at < ns && pts[at] != o)
						at++;
					assert_true(at < ns);
				}
				assert_int_equal(ns, want);
				for (size_t i = 1; i < ns; i++) {
					double x0 = coords[pts[i - 1]][param];
					double x1 = coords[pts[i]][param];
					assert_true(x0 < x1 ||
						    (x0 == x1 &&
						     pts[i - 1] < pts[i]));
				}
				free(pts);
			}
		}
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
