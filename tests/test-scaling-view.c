/* test-scaling-view: the lazily fitted models of a parametric model
 * (scaling_view.c): a model that is not parametric and a bad stored set
 * first, then every (node, measured) model asked in the caller's thread
 * compared with scaling_fit run directly, a node without measurements,
 * the progress counts, the background thread (peeks that reorder its
 * queue, callers asking for the models it is fitting, completion awaited
 * by polling the progress with a time bound, no sleeps), and a stored
 * set shown as stored. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/scaling.h"
#include "model/scaling_fit.h"
#include "views/scaling_view.h"

#define N_PATHS 120
#define N_POINTS 6

static const double xs[N_POINTS] = {2, 4, 8, 16, 32, 64};

static double value_of(uint32_t node, uint32_t measured, uint32_t p)
{
	double x = xs[p], e = 0.25 * (node % 12);

	return 1 + node * 0.5 + (measured + 1) * pow(x, e) *
					(1 + 0.003 * ((p * 7 + node) % 5));
}

static struct model_column column(const char *name)
{
	return (struct model_column){.name = strdup(name),
				     .variant = strdup(""),
				     .format = strdup("%g"),
				     .pair = MODEL_NONE,
				     .parent = MODEL_NONE};
}

/* Root, one prefix node (1) without data, N_PATHS children with data for
 * two measured metrics at 6 points; a stored set with one model. */
static struct model *make_set(void)
{
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_REGION};
	struct model_column c0 = column("time"), c1 = column("visits");

	assert_non_null(b);
	assert_int_equal(model_builder_add_column(b, &c0), 0);
	assert_int_equal(model_builder_add_column(b, &c1), 1);
	assert_int_equal(model_builder_add_measured(b, 0), 0);
	assert_int_equal(model_builder_add_measured(b, 1), 1);
	assert_int_equal(model_builder_add_param(b, "p"), 0);
	for (uint32_t p = 0; p < N_POINTS; p++)
		assert_int_equal(model_builder_add_point(b, &xs[p], 1), p);
	assert_int_equal(model_builder_add_node(b, 0, &n), 1);
	for (uint32_t i = 0; i < N_PATHS; i++) {
		uint32_t node = model_builder_add_node(b, 1, &n);

		assert_int_equal(node, i + 2);
		for (uint32_t k = 0; k < 2; k++)
			for (uint32_t p = 0; p < N_POINTS; p++) {
				struct model_measure ms = {
					.mean = value_of(node, k, p),
					.median = value_of(node, k, p) + 1,
					.repetitions = 1};

				assert_true(model_builder_set_measure(
					b, node, k, p, &ms));
			}
	}
	assert_int_equal(model_builder_add_stored_set(b, "stored"), 0);
	struct scaling_model sm = {.kind = SCALING_CONSTANT, .constant = 42};
	assert_true(model_builder_set_stored_model(b, 0, 2, 0, &sm));
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

static char *direct_text(uint32_t node, uint32_t measured, bool median)
{
	double v[N_POINTS];
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(1, &err);
	struct scaling_model m = {0};
	const char *names[] = {"p"};
	char *t;

	for (uint32_t p = 0; p < N_POINTS; p++)
		v[p] = value_of(node, measured, p) + (median ? 1 : 0);
	assert_int_equal(scaling_fit(f, xs, v, N_POINTS, &m, NULL, &err),
			 STATUS_OK);
	t = scaling_text(&m, names, 1);
	scaling_model_clear(&m);
	scaling_fitter_free(f);
	return t;
}

static void expect_same(const struct scaling_model *got, uint32_t node,
			uint32_t measured, bool median)
{
	const char *names[] = {"p"};
	char *a, *b;

	assert_non_null(got);
	a = scaling_text(got, names, 1);
	b = direct_text(node, measured, median);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void test_degenerate(void **state)
{
	struct model_builder *b = model_builder_new("test", "mem");
	struct model *m = model_builder_finish(b, NULL);
	struct scaling_view_options opt = {.stored_set = MODEL_NONE};
	struct error err = {0};

	(void)state;
	assert_null(scaling_view_new(m, &opt, &err));
	assert_int_equal(err.status, STATUS_UNSUPPORTED);
	error_clear(&err);
	model_free(m);
	m = make_set();
	opt.stored_set = 3;
	assert_null(scaling_view_new(m, &opt, &err));
	assert_int_equal(err.status, STATUS_USAGE);
	error_clear(&err);
	scaling_view_free(NULL);
	model_free(m);
}

static void test_foreground(void **state)
{
	struct model *m = make_set();
	struct scaling_view_options opt = {.measure = MEASURE_MEAN,
					   .stored_set = MODEL_NONE};
	struct error err = {0};
	struct scaling_view *v = scaling_view_new(m, &opt, &err);
	uint64_t ready, total;

	(void)state;
	assert_non_null(v);
	scaling_view_progress(v, &ready, &total);
	assert_int_equal(ready, 0);
	assert_int_equal(total, 2 * N_PATHS);
	assert_null(scaling_view_model(v, 0, 0, &err)); /* the root */
	assert_null(scaling_view_model(v, 1, 1, &err)); /* a prefix */
	assert_int_equal(err.status, STATUS_OK);
	assert_null(scaling_view_peek(v, 2, 0)); /* not fitted yet */
	assert_null(scaling_view_model(v, 9999, 0, &err));
	for (uint32_t node = 2; node < N_PATHS + 2; node += 7) {
		const struct scaling_model *a = scaling_view_model(v, node, 1,
								   &err);

		expect_same(a, node, 1, false);
		/* published once: the same pointer again, and from peek */
		assert_ptr_equal(scaling_view_model(v, node, 1, &err), a);
		assert_ptr_equal(scaling_view_peek(v, node, 1), a);
	}
	scaling_view_progress(v, &ready, &total);
	assert_int_equal(ready, (N_PATHS + 6) / 7);
	scaling_view_free(v);
	/* another measure */
	opt.measure = MEASURE_MEDIAN;
	v = scaling_view_new(m, &opt, &err);
	expect_same(scaling_view_model(v, 5, 0, &err), 5, 0, true);
	scaling_view_free(v);
	model_free(m);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_background(void **state)
{
	struct model *m = make_set();
	struct scaling_view_options opt = {.measure = MEASURE_MEAN,
					   .stored_set = MODEL_NONE,
					   .background = true};
	struct error err = {0};
	struct scaling_view *v = scaling_view_new(m, &opt, &err);
	uint64_t ready = 0, total = 0;
	double deadline = now() + 60;

	(void)state;
	assert_non_null(v);
	/* peeks move models to the front; the caller asks for others,
	 * some of which the thread may be fitting at that moment */
	for (uint32_t node = N_PATHS + 1; node >= 2; node -= 11)
		(void)scaling_view_peek(v, node, 0);
	for (uint32_t node = 2; node < N_PATHS + 2; node += 3)
		expect_same(scaling_view_model(v, node, node % 2, &err), node,
			    node % 2, false);
	do {
		scaling_view_progress(v, &ready, &total);
		if (ready < total)
			sched_yield();
	} while (ready < total && now() < deadline);
	assert_int_equal(ready, total);
	assert_int_equal(total, 2 * N_PATHS);
	for (uint32_t node = 2; node < N_PATHS + 2; node++)
		for (uint32_t k = 0; k < 2; k++) {
			const struct scaling_model *a =
				scaling_view_peek(v, node, k);

			assert_non_null(a);
			assert_ptr_equal(scaling_view_model(v, node, k, &err),
					 a);
			if (node % 9 == 0)
				expect_same(a, node, k, false);
		}
	assert_null(scaling_view_peek(v, 1, 0));
	scaling_view_free(v);
	/* freed while the thread is still working: it stops and joins */
	v = scaling_view_new(m, &opt, &err);
	assert_non_null(v);
	scaling_view_free(v);
	model_free(m);
}

static void test_stored(void **state)
{
	struct model *m = make_set();
	struct scaling_view_options opt = {.stored_set = 0};
	struct error err = {0};
	struct scaling_view *v = scaling_view_new(m, &opt, &err);
	uint64_t ready, total;

	(void)state;
	assert_non_null(v);
	assert_ptr_equal(scaling_view_model(v, 2, 0, &err),
			 model_stored_model(m, 0, 2, 0));
	assert_ptr_equal(scaling_view_peek(v, 2, 0),
			 model_stored_model(m, 0, 2, 0));
	assert_null(scaling_view_model(v, 3, 0, &err));
	scaling_view_progress(v, &ready, &total);
	assert_int_equal(ready, 1);
	assert_int_equal(total, 1);
	scaling_view_free(v);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_foreground),
		cmocka_unit_test(test_background),
		cmocka_unit_test(test_stored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
