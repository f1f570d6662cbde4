/* test-scaling-view: the lazily fitted models of a parametric model
 * (scaling_view.c): a model that is not parametric and a bad stored set
 * first, then every (node, measured) model asked in the caller's thread
 * compared with scaling_fit run directly, a node without measurements,
 * the progress counts, the background thread (peeks that reorder its
 * queue, callers asking for the models it is fitting, completion awaited
 * by polling the progress with a time bound, no sleeps), the statistic
 * switched (one repetition, where every statistic fits the same model,
 * first; then a view per statistic, paused and resumed as the viewer
 * does), a stored set shown as stored, and a series fitted in the order
 * its measurements were given (Extra-P's file order) where the model
 * depends on it: a constant model's RE, computed by hand. */
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

#include "formats/extrap/extrap.h"
#include "analysis/measure_stats.h"
#include "model/model.h"
#include "model/scaling.h"
#include "analysis/scaling_fit.h"
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

/* The statistic `kind` of (node, measured, p) in make_set's set: each a
 * different function of the point, so that each fits another model. */
static double stat_of(uint32_t node, uint32_t measured, uint32_t p,
		      enum measure_kind kind)
{
	double v = value_of(node, measured, p);

	switch (kind) {
	case MEASURE_MEDIAN:
		return v + 1;
	case MEASURE_MINIMUM:
		return v * 0.75;
	case MEASURE_MAXIMUM:
		return v * 1.5 + xs[p];
	default:
		return v;
	}
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
					.mean = stat_of(node, k, p,
							MEASURE_MEAN),
					.median = stat_of(node, k, p,
							  MEASURE_MEDIAN),
					.minimum = stat_of(node, k, p,
							   MEASURE_MINIMUM),
					.maximum = stat_of(node, k, p,
							   MEASURE_MAXIMUM),
					.repetitions = 3};

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

static char *direct_text(uint32_t node, uint32_t measured,
			 enum measure_kind kind)
{
	double v[N_POINTS];
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(1, &err);
	struct scaling_model m = {0};
	const char *names[] = {"p"};
	char *t;

	for (uint32_t p = 0; p < N_POINTS; p++)
		v[p] = stat_of(node, measured, p, kind);
	assert_int_equal(scaling_fit(f, xs, v, N_POINTS, &m, NULL, &err),
			 STATUS_OK);
	t = scaling_text(&m, names, 1);
	scaling_model_clear(&m);
	scaling_fitter_free(f);
	return t;
}

static void expect_same(const struct scaling_model *got, uint32_t node,
			uint32_t measured, enum measure_kind kind)
{
	const char *names[] = {"p"};
	char *a, *b;

	assert_non_null(got);
	a = scaling_text(got, names, 1);
	b = direct_text(node, measured, kind);
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

		expect_same(a, node, 1, MEASURE_MEAN);
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
	expect_same(scaling_view_model(v, 5, 0, &err), 5, 0, MEASURE_MEDIAN);
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
			    node % 2, MEASURE_MEAN);
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
				expect_same(a, node, k, MEASURE_MEAN);
		}
	assert_null(scaling_view_peek(v, 1, 0));
	scaling_view_free(v);
	/* freed while the thread is still working: it stops and joins */
	v = scaling_view_new(m, &opt, &err);
	assert_non_null(v);
	scaling_view_free(v);
	model_free(m);
}


/* Degenerate first: one repetition per point, its statistics made by
 * measure_stats_of as the readers make them, so the mean, median,
 * minimum and maximum are one value; a view per statistic (switching
 * the statistic is making or resuming its view) fits the same model, the
 * one scaling_fit makes of the values directly. */
static void test_one_repetition(void **state)
{
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_REGION};
	struct model_column c0 = column("time");
	struct error err = {0};
	const char *names[] = {"p"};
	double v[N_POINTS];
	char *want, *got;

	(void)state;
	assert_non_null(b);
	assert_int_equal(model_builder_add_column(b, &c0), 0);
	assert_int_equal(model_builder_add_measured(b, 0), 0);
	assert_int_equal(model_builder_add_param(b, "p"), 0);
	for (uint32_t p = 0; p < N_POINTS; p++)
		assert_int_equal(model_builder_add_point(b, &xs[p], 1), p);
	assert_int_equal(model_builder_add_node(b, 0, &n), 1);
	for (uint32_t p = 0; p < N_POINTS; p++) {
		struct model_measure ms;

		v[p] = 3 + 0.5 * xs[p] * log2(xs[p]);
		assert_int_equal(measure_stats_of(&v[p], 1, &ms, &err),
				 STATUS_OK);
		assert_int_equal(ms.repetitions, 1);
		assert_true(ms.mean == v[p] && ms.median == v[p] &&
			    ms.minimum == v[p] && ms.maximum == v[p]);
		assert_true(model_builder_set_measure(b, 1, 0, p, &ms));
	}
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	{
		struct scaling_fitter *f = scaling_fitter_new(1, &err);
		struct scaling_model direct = {0};

		assert_int_equal(scaling_fit(f, xs, v, N_POINTS, &direct,
					     NULL, &err),
				 STATUS_OK);
		want = scaling_text(&direct, names, 1);
		scaling_model_clear(&direct);
		scaling_fitter_free(f);
	}
	for (int k = MEASURE_MEAN; k <= MEASURE_MAXIMUM; k++) {
		struct scaling_view_options opt = {
			.measure = (enum measure_kind)k,
			.stored_set = MODEL_NONE,
			.background = k % 2 == 1};
		struct scaling_view *view = scaling_view_new(m, &opt, &err);
		uint64_t ready, total;

		assert_non_null(view);
		scaling_view_progress(view, &ready, &total);
		assert_int_equal(total, 1);
		got = scaling_text(scaling_view_model(view, 1, 0, &err), names,
				   1);
		assert_string_equal(got, want);
		free(got);
		assert_null(scaling_view_model(view, 0, 0, &err));
		assert_int_equal(err.status, STATUS_OK);
		scaling_view_free(view);
	}
	free(want);
	model_free(m);
}

/* Switching the statistic as the viewer does: a background view per
 * statistic, the one not shown paused.  Each fits the models of its
 * statistic (minimum and maximum too, which make_set makes differ from
 * the mean and median); a paused view still gives a caller the model it
 * asks for (fitted in the caller's thread), resumed it finishes the rest,
 * and a paused view is freed without waiting for a thread that waits. */
static void test_measure_switch(void **state)
{
	struct model *m = make_set();
	struct scaling_view *views[MEASURE_MAXIMUM + 1] = {NULL};
	struct error err = {0};
	uint64_t ready = 0, total = 0;
	double deadline = now() + 60;

	(void)state;
	/* a view without a thread: pausing it does nothing */
	{
		struct scaling_view_options opt = {.measure = MEASURE_MEAN,
						   .stored_set = MODEL_NONE};
		struct scaling_view *fg = scaling_view_new(m, &opt, &err);

		scaling_view_pause(fg, true);
		expect_same(scaling_view_model(fg, 4, 0, &err), 4, 0,
			    MEASURE_MEAN);
		scaling_view_free(fg);
		scaling_view_pause(NULL, true);
	}
	for (int k = MEASURE_MEAN; k <= MEASURE_MAXIMUM; k++) {
		struct scaling_view_options opt = {
			.measure = (enum measure_kind)k,
			.stored_set = MODEL_NONE,
			.background = true};

		/* the statistic shown before is paused, this one made */
		if (k > MEASURE_MEAN)
			scaling_view_pause(views[k - 1], true);
		views[k] = scaling_view_new(m, &opt, &err);
		assert_non_null(views[k]);
		for (uint32_t node = 2; node < N_PATHS + 2; node += 13)
			expect_same(scaling_view_model(views[k], node, 1, &err),
				    node, 1, (enum measure_kind)k);
	}
	/* the statistics differ: so do their models */
	{
		const char *names[] = {"p"};
		char *t[MEASURE_MAXIMUM + 1];

		for (int k = MEASURE_MEAN; k <= MEASURE_MAXIMUM; k++)
			t[k] = scaling_text(scaling_view_model(views[k], 7, 0,
							       &err),
					    names, 1);
		for (int k = MEASURE_MEAN; k < MEASURE_MAXIMUM; k++)
			assert_string_not_equal(t[k], t[k + 1]);
		for (int k = MEASURE_MEAN; k <= MEASURE_MAXIMUM; k++)
			free(t[k]);
	}
	/* back to the median: resumed, it finishes every model */
	scaling_view_pause(views[MEASURE_MAXIMUM], true);
	scaling_view_pause(views[MEASURE_MEDIAN], false);
	do {
		scaling_view_progress(views[MEASURE_MEDIAN], &ready, &total);
		if (ready < total)
			sched_yield();
	} while (ready < total && now() < deadline);
	assert_int_equal(ready, total);
	assert_int_equal(total, 2 * N_PATHS);
	for (uint32_t node = 2; node < N_PATHS + 2; node += 5)
		expect_same(scaling_view_peek(views[MEASURE_MEDIAN], node, 0),
			    node, 0, MEASURE_MEDIAN);
	/* paused views are freed (their threads wake to stop) */
	for (int k = MEASURE_MEAN; k <= MEASURE_MAXIMUM; k++)
		scaling_view_free(views[k]);
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

/* Zigzag values y = 10, 20, 10, 20, 10 at x = 1..5 fit Extra-P's constant
 * model: c = 70 / 5 = 14, and its RE is |c - y| / y of the *last* point
 * the modeler sees (hypotheses.py: overwritten in the loop).  Given in
 * the order x = 4, 1, 5, 3, 2, that is x = 2: |14 - 20| / 20 = 0.3; in
 * point order it would be x = 5: |14 - 10| / 10 = 0.4. */
static const double zz_x[5] = {1, 2, 3, 4, 5};
static const double zz_y[5] = {10, 20, 10, 20, 10};
static const uint32_t zz_order[5] = {3, 0, 4, 2, 1}; /* point indices */

static struct model *zigzag(bool keep_order)
{
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_REGION};
	struct model_column c0 = column("time");

	assert_non_null(b);
	assert_int_equal(model_builder_add_column(b, &c0), 0);
	assert_int_equal(model_builder_add_measured(b, 0), 0);
	assert_int_equal(model_builder_add_param(b, "x"), 0);
	for (uint32_t p = 0; p < 5; p++)
		assert_int_equal(model_builder_add_point(b, &zz_x[p], 1), p);
	assert_int_equal(model_builder_add_node(b, 0, &n), 1);
	if (keep_order)
		model_builder_keep_measure_order(b);
	for (uint32_t k = 0; k < 5; k++) {
		uint32_t p = zz_order[k];
		struct model_measure ms = {zz_y[p], zz_y[p], zz_y[p], zz_y[p],
					   0, 1};

		assert_true(model_builder_set_measure(b, 1, 0, p, &ms));
	}
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

static void expect_constant(struct model *m, double re)
{
	struct scaling_view_options opt = {.stored_set = MODEL_NONE};
	struct error err = {0};
	struct scaling_view *v = scaling_view_new(m, &opt, &err);
	const struct scaling_model *sm;

	assert_non_null(v);
	sm = scaling_view_model(v, 1, 0, &err);
	assert_non_null(sm);
	assert_int_equal(sm->kind, SCALING_CONSTANT);
	assert_true(sm->constant == 14.0);
	assert_true(sm->rss == 120.0); /* 3 x 4^2 + 2 x 6^2 */
	if (!(sm->re == re))
		fail_msg("RE %.17g, want %.17g", sm->re, re);
	scaling_view_free(v);
}

static void test_file_order(void **state)
{
	struct model *m = zigzag(true);
	size_t first, n;

	(void)state;
	/* the series in call order beside point order */
	n = model_measure_series(m, 1, 0, &first);
	assert_int_equal(n, 5);
	for (size_t k = 0; k < n; k++) {
		uint32_t p = MODEL_NONE;

		assert_non_null(model_measure_by_index(
			m, model_measure_in_order(m, first, k), NULL, NULL,
			&p));
		assert_int_equal(p, zz_order[k]);
		assert_non_null(
			model_measure_by_index(m, first + k, NULL, NULL, &p));
		assert_int_equal(p, k);
	}
	assert_int_equal(model_measure_series(m, 0, 0, &first), 0);
	expect_constant(m, 6.0 / 20.0);
	model_free(m);
	/* without keep_measure_order: point order */
	m = zigzag(false);
	n = model_measure_series(m, 1, 0, &first);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(model_measure_in_order(m, first, k),
				 first + k);
	expect_constant(m, 4.0 / 10.0);
	model_free(m);
	/* the same series through the text reader: POINTS order kept */
	static const char text[] = "PARAMETER x\nPOINTS 4 1 5 3 2\n"
				   "REGION r\nDATA 20\nDATA 10\nDATA 10\n"
				   "DATA 10\nDATA 20\n";
	struct error err = {0};

	assert_int_equal(extrap_text_parse(text, strlen(text), "zz.txt", &m,
					   &err),
			 STATUS_OK);
	expect_constant(m, 6.0 / 20.0);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_one_repetition),
		cmocka_unit_test(test_foreground),
		cmocka_unit_test(test_background),
		cmocka_unit_test(test_measure_switch),
		cmocka_unit_test(test_stored),
		cmocka_unit_test(test_file_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
