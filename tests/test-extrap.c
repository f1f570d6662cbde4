/* Tests of the viewer's model state (ui/extrap.c) on a parametric model made
 * with the builder and a fake scaling view defined here (the seam: the
 * scaling_view functions, whose models are hand-made): degenerate inputs
 * first (no model, a model without parameters), then the evaluation point
 * (starts at the largest measured value; doubling, halving, `:set at`
 * text and its errors, a parameter name with a control character
 * sanitized), peeking (pending vs no measurements), the severity range and
 * the worst-scaling ranking (by value and by growth) against values
 * computed here by hand, what `!` selects wherever the cursor is, the
 * metric shown first (time), the overlay's marks, and the statistic the
 * models are fitted on and the stored sets (which views are made,
 * paused, kept and freed). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extrap.h"
#include "model/model.h"
#include "model/scaling.h"
#include "views/scaling_view.h"
#include "measure_fixture.h"

/* ---- the fake scaling view ------------------------------------------- */

#define N_NODES 5

static struct scaling_model models[N_NODES]; /* by node; kind 255: none */
static bool ready[N_NODES];

/* the views made, with their options, paused or not, freed or not (the
 * models are the same whatever the options) */
#define VIEWS_MAX 16
struct scaling_view {
	struct scaling_view_options opt;
	bool paused, freed;
};
static struct scaling_view views[VIEWS_MAX];
static size_t n_views;

struct scaling_view *scaling_view_new(const struct model *m,
				      const struct scaling_view_options *opt,
				      struct error *err)
{
	if (opt->stored_set != MODEL_NONE &&
	    opt->stored_set >= model_n_stored_sets(m)) {
		error_set(err, STATUS_USAGE, NULL, "no stored set");
		return NULL;
	}
	assert_true(n_views < VIEWS_MAX);
	views[n_views] = (struct scaling_view){.opt = *opt};
	return &views[n_views++];
}

void scaling_view_pause(struct scaling_view *v, bool paused)
{
	v->paused = paused;
}

const struct scaling_model *scaling_view_peek(struct scaling_view *v,
					      uint32_t node, uint32_t measured)
{
	(void)v;
	if (node >= N_NODES || measured != 0 || !ready[node] ||
	    models[node].kind == 255)
		return NULL;
	return &models[node];
}

const struct scaling_model *scaling_view_model(struct scaling_view *v,
					       uint32_t node, uint32_t measured,
					       struct error *err)
{
	(void)err;
	if (node < N_NODES)
		ready[node] = true;
	return scaling_view_peek(v, node, measured);
}

void scaling_view_progress(const struct scaling_view *v, uint64_t *r,
			   uint64_t *total)
{
	(void)v;
	*r = *total = 0;
	for (int i = 0; i < N_NODES; i++)
		if (models[i].kind != 255) {
			++*total;
			*r += ready[i];
		}
}

void scaling_view_free(struct scaling_view *v)
{
	if (v) {
		assert_false(v->freed);
		v->freed = true;
	}
}

/* ---- fixtures -------------------------------------------------------- */

static struct scaling_term terms[N_NODES];

/* c * x^e as a model of node `node` */
static void power_model(uint32_t node, double c, double e)
{
	terms[node] = (struct scaling_term){.coefficient = c,
					    .n_factors = 1,
					    .factors = {{.param = 0,
							 .exponent = e,
							 .exponent_num = (int)e,
							 .exponent_den = 1}}};
	models[node] = (struct scaling_model){
	    .kind = SCALING_SINGLE, .n_terms = 1, .terms = &terms[node]};
	ready[node] = true;
}

/* root 0 > a 1 (2x), b 2 (x^2), c 3 (5), prefix 4 (no measurements);
 * points x = 1, 2, 4, 8; parameter name `pname`; stored model sets
 * "set 0", "set 1", ... (`n_stored` of them, node 3's model in each) */
static struct model *make_model_stored(const char *pname, uint32_t n_stored)
{
	struct model_builder *b = model_builder_new("test", "mem");
	add_time_measured(b);
	assert_int_equal(model_builder_add_param(b, pname), 0);
	for (double x = 1; x <= 8; x *= 2)
		assert_int_not_equal(model_builder_add_point(b, &x, 1),
				     MODEL_NONE);
	for (int i = 1; i < N_NODES; i++) {
		struct model_node n = {.function = MODEL_NONE,
				       .kind = NODE_REGION};
		assert_int_equal(model_builder_add_node(b, 0, &n), (uint32_t)i);
	}
	for (uint32_t node = 1; node <= 3; node++)
		for (uint32_t p = 0; p < 4; p++) {
			struct model_measure me = {.mean = 1, .repetitions = 1};
			assert_true(
			    model_builder_set_measure(b, node, 0, p, &me));
		}
	for (uint32_t k = 0; k < n_stored; k++) {
		char name[16];
		struct scaling_model sm = {.kind = SCALING_CONSTANT,
					   .constant = k};
		snprintf(name, sizeof(name), "set %u", k);
		assert_int_equal(model_builder_add_stored_set(b, name), k);
		assert_true(model_builder_set_stored_model(b, k, 3, 0, &sm));
	}
	struct model *m = model_builder_finish(b, NULL);
	n_views = 0;
	assert_non_null(m);
	for (int i = 0; i < N_NODES; i++) {
		models[i] = (struct scaling_model){.kind = 255};
		ready[i] = false;
	}
	power_model(1, 2, 1);
	power_model(2, 1, 2);
	models[3] =
	    (struct scaling_model){.kind = SCALING_CONSTANT, .constant = 5};
	ready[3] = true;
	return m;
}

static struct model *make_model(const char *pname)
{
	return make_model_stored(pname, 0);
}

/* The fixture most tests start from: the model above with parameter x
 * and a viewer state on it, fitting in the background (*state). */
static struct model *fixture_model;

static int setup_x(void **state)
{
	fixture_model = make_model("x");
	*state = extrap_new(fixture_model, true, NULL);
	return *state ? 0 : -1;
}

static int teardown_x(void **state)
{
	extrap_free(*state);
	model_free(fixture_model);
	fixture_model = NULL;
	return 0;
}

/* ---- tests ----------------------------------------------------------- */

static void test_degenerate(void **state)
{
	(void)state;
	extrap_free(NULL);
	assert_null(extrap_new(NULL, true, NULL));
	/* a model without parameters is not parametric */
	struct model_builder *b = model_builder_new("test", "mem");
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	assert_null(extrap_new(m, true, NULL));
	model_free(m);
}

static void test_evaluation_point(void **state)
{
	struct extrap *x = *state;
	assert_true(extrap_at(x)[0] == 8); /* the largest measured */
	double lo, hi;
	extrap_param_range(x, 0, &lo, &hi);
	assert_true(lo == 1 && hi == 8);
	assert_int_equal(extrap_next_param(x), 0); /* one parameter */
	extrap_scale(x, 2);
	assert_true(extrap_at(x)[0] == 16);
	extrap_scale(x, 0.5);
	extrap_scale(x, 0.5);
	assert_true(extrap_at(x)[0] == 4);
	extrap_scale(x, 0); /* refused: not positive */
	assert_true(extrap_at(x)[0] == 4);
	assert_null(extrap_set_at(x, "x=65536"));
	assert_true(extrap_at(x)[0] == 65536);
	assert_null(extrap_set_at(x, "64")); /* the slider's parameter */
	assert_true(extrap_at(x)[0] == 64);
	assert_non_null(extrap_set_at(x, "q=1"));
	assert_non_null(extrap_set_at(x, "x=-1"));
	assert_non_null(extrap_set_at(x, "x=abc"));
	assert_non_null(extrap_set_at(x, "x=inf"));
	assert_true(extrap_at(x)[0] == 64); /* errors change nothing */
	char *t = extrap_at_text(x);
	assert_string_equal(t, "x=64");
	free(t);
	assert_false(extrap_follow_column(x, 0)); /* already shown */
	assert_int_equal(extrap_column(x), 0);
}

static void test_name_sanitized(void **state)
{
	(void)state;
	struct model *m = make_model("p\x1b[2J");
	struct extrap *x = extrap_new(m, true, NULL);
	assert_non_null(x);
	char *t = extrap_at_text(x);
	assert_non_null(t);
	assert_null(strchr(t, 0x1b));
	assert_non_null(strstr(t, "=8"));
	free(t);
	extrap_free(x);
	model_free(m);
}

static void test_peek_and_severity(void **state)
{
	struct extrap *x = *state;
	bool pending = true;
	/* the root and the prefix: no measurements, not pending */
	assert_null(extrap_peek(x, 0, &pending));
	assert_false(pending);
	assert_null(extrap_peek(x, 4, &pending));
	assert_false(pending);
	assert_null(extrap_peek(x, 99, &pending));
	/* b not fitted yet: pending; no severity while fitting */
	ready[2] = false;
	assert_true(extrap_fitting(x));
	assert_null(extrap_peek(x, 2, &pending));
	assert_true(pending);
	double s;
	assert_false(extrap_severity(x, 1, &s));
	assert_int_equal(extrap_worst(x, 0, NULL), MODEL_NONE);
	ready[2] = true;
	assert_false(extrap_fitting(x));
	const struct scaling_model *sm = extrap_peek(x, 2, &pending);
	assert_non_null(sm);
	assert_false(pending);
	assert_true(extrap_eval(x, sm) == 64);
	assert_true(extrap_eval_along(x, sm, 0, 3) == 9);
	/* at x = 8: a 16, b 64, c 5 */
	assert_true(extrap_severity(x, 2, &s) && s == 1);
	assert_true(extrap_severity(x, 3, &s) && s == 0);
	assert_true(extrap_severity(x, 1, &s) &&
		    fabs(s - (16.0 - 5) / (64 - 5)) < 1e-12);
	assert_false(extrap_severity(x, 4, &s));
	assert_int_equal(extrap_worst(x, 0, NULL), 2);
	assert_int_equal(extrap_worst(x, 1, NULL), 1);
	assert_int_equal(extrap_worst(x, 2, NULL), 3);
	assert_int_equal(extrap_worst(x, 3, NULL), MODEL_NONE);
	/* at x = 1: a 2, b 1, c 5: the constant is the worst now */
	assert_null(extrap_set_at(x, "x=1"));
	assert_int_equal(extrap_worst(x, 0, NULL), 3);
	assert_int_equal(extrap_worst(x, 2, NULL), 2);
	assert_true(extrap_severity(x, 2, &s) && s == 0);
	/* growth from x = 8 to x = 16: a 32/16 = 2, b 256/64 = 4, c 5/5 = 1 */
	assert_false(extrap_set_severity(x, "speed"));
	assert_string_equal(extrap_severity_name(x), "value");
	assert_true(extrap_set_severity(x, "growth"));
	assert_string_equal(extrap_severity_name(x), "growth");
	assert_null(extrap_set_at(x, "x=16"));
	double q = 0;
	assert_int_equal(extrap_worst(x, 0, &q), 2);
	assert_true(q == 4);
	assert_int_equal(extrap_worst(x, 1, &q), 1);
	assert_true(q == 2);
	assert_int_equal(extrap_worst(x, 2, &q), 3);
	assert_true(q == 1);
	assert_true(extrap_severity(x, 1, &s) && fabs(s - 1.0 / 3) < 1e-12);
	assert_true(extrap_set_severity(x, "value"));
	assert_int_equal(extrap_worst(x, 0, &q), 2);
	assert_true(q == 256);
	char *f = extrap_formula(x, sm);
	assert_non_null(f);
	assert_non_null(strstr(f, "x"));
	free(f);
}

/* `!` (issue 26, critique b5): the worst call path wherever the cursor
 * is; the next only when the cursor is still on the one `!` selected. */
static void test_worst_step(void **state)
{
	struct extrap *x = *state;
	size_t k = 99;
	double q = 0;
	/* while a model is being fitted there is no ranking */
	ready[2] = false;
	assert_int_equal(extrap_worst_step(x, MODEL_NONE, &k, &q), MODEL_NONE);
	ready[2] = true;
	/* at x = 8: b 64, a 16, c 5.  The cursor on a (rank 1) before any
	 * `!`: the worst, b, not the one after a */
	assert_int_equal(extrap_worst_step(x, 1, &k, &q), 2);
	assert_int_equal(k, 0);
	assert_true(q == 64);
	/* again on b: a, then c, then around to b */
	assert_int_equal(extrap_worst_step(x, 2, &k, &q), 1);
	assert_int_equal(k, 1);
	assert_true(q == 16);
	assert_int_equal(extrap_worst_step(x, 1, &k, &q), 3);
	assert_int_equal(k, 2);
	assert_true(q == 5);
	assert_int_equal(extrap_worst_step(x, 3, &k, NULL), 2);
	assert_int_equal(k, 0);
	/* the cursor moved away (to c) from b: the worst again */
	assert_int_equal(extrap_worst_step(x, 3, &k, NULL), 2);
	assert_int_equal(k, 0);
	/* the ranking changed (x = 1: c 5, a 2, b 1): from b, the worst of
	 * the new ranking, not b's successor */
	assert_null(extrap_set_at(x, "x=1"));
	assert_int_equal(extrap_worst_step(x, 2, &k, &q), 3);
	assert_int_equal(k, 0);
	assert_true(q == 5);
	/* the cursor nowhere (another view): the worst */
	assert_int_equal(extrap_worst_step(x, MODEL_NONE, &k, NULL), 3);
}

/* The metric shown first: "time" when the set has one, else the first
 * whose name contains it, else the first (issue 26, critique b7). */
static void test_time_first(void **state)
{
	(void)state;
	static const char *const sets[][4] = {
	    {"visits", "Time", "bytes", NULL},	  /* "time", any case */
	    {"visits", "min_time", "time", NULL}, /* "time" before min_time */
	    {"visits", "min_time", "max_time", NULL}, /* the first with it */
	    {"visits", "bytes", NULL, NULL},	      /* none: the first */
	};
	static const uint32_t want[] = {1, 2, 1, 0};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct model_builder *b = model_builder_new("test", "mem");
		uint32_t n = 0;
		for (; n < 4 && sets[i][n]; n++) {
			struct model_column col = {
			    .name = strdup(sets[i][n]),
			    .variant = strdup(""),
			    .format = strdup("%g"),
			    .pair = MODEL_NONE,
			    .parent = MODEL_NONE};
			assert_int_equal(model_builder_add_column(b, &col), n);
			assert_int_equal(model_builder_add_measured(b, n), n);
		}
		assert_int_equal(model_builder_add_param(b, "x"), 0);
		for (double v = 1; v <= 2; v++)
			assert_int_not_equal(model_builder_add_point(b, &v, 1),
					     MODEL_NONE);
		struct model_node nd = {.function = MODEL_NONE,
					.kind = NODE_REGION};
		assert_int_equal(model_builder_add_node(b, 0, &nd), 1);
		struct model_measure me = {.mean = 1, .repetitions = 1};
		for (uint32_t k = 0; k < n; k++)
			for (uint32_t p = 0; p < 2; p++)
				assert_true(
				    model_builder_set_measure(b, 1, k, p, &me));
		struct model *m = model_builder_finish(b, NULL);
		assert_non_null(m);
		struct extrap *x = extrap_new(m, false, NULL);
		assert_non_null(x);
		assert_int_equal(extrap_measured(x), want[i]);
		assert_int_equal(extrap_column(x), want[i]);
		extrap_free(x);
		model_free(m);
	}
}

static void test_sync_fits_when_asked(void **state)
{
	(void)state;
	struct model *m = make_model("x");
	ready[1] = false;
	/* without a background thread a peek fits (scaling_view_model) */
	struct extrap *x = extrap_new(m, false, NULL);
	assert_false(extrap_fitting(x));
	assert_non_null(extrap_peek(x, 1, NULL));
	extrap_free(x);
	model_free(m);
}

static void test_marks(void **state)
{
	struct extrap *x = *state;
	size_t n;
	bool marked;
	extrap_marks(x, &n);
	assert_int_equal(n, 0);
	for (uint32_t i = 0; i < EXTRAP_MARKS_MAX; i++) {
		assert_true(extrap_toggle_mark(x, 10 + i, &marked));
		assert_true(marked);
	}
	assert_false(extrap_toggle_mark(x, 99, &marked)); /* full */
	assert_true(extrap_toggle_mark(x, 11, &marked));  /* unmark */
	assert_false(marked);
	const uint32_t *marks = extrap_marks(x, &n);
	assert_int_equal(n, EXTRAP_MARKS_MAX - 1);
	assert_int_equal(marks[0], 10);
	assert_int_equal(marks[1], 12); /* order kept */
	assert_true(extrap_toggle_mark(x, 99, &marked));
	assert_true(marked);
}

/* The statistic the models are fitted on and stored sets: one view per
 * statistic, made when first shown, kept and paused while another is
 * shown (never freed before the end, so never joined on a key); a
 * stored set's view replaces the previous stored one. */
static void test_measure_and_stored(void **state)
{
	(void)state;
	struct model *m = make_model_stored("x", 2);
	struct extrap *x = extrap_new(m, true, NULL);
	struct error err = {0};
	assert_non_null(x);
	assert_int_equal(n_views, 1);
	assert_int_equal(views[0].opt.measure, MEASURE_MEAN);
	assert_int_equal(extrap_measure_kind(x), MEASURE_MEAN);
	char *t = extrap_models_text(x);
	assert_string_equal(t, "mean");
	free(t);
	/* an invalid statistic changes nothing */
	assert_false(extrap_set_measure(x, (enum measure_kind)9, &err));
	assert_int_equal(err.status, STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(n_views, 1);
	/* the median: a new view, fitting in the background; the mean's is
	 * paused */
	assert_true(extrap_set_measure(x, MEASURE_MEDIAN, &err));
	assert_int_equal(n_views, 2);
	assert_int_equal(views[1].opt.measure, MEASURE_MEDIAN);
	assert_true(views[1].opt.background);
	assert_int_equal(views[1].opt.stored_set, MODEL_NONE);
	assert_true(views[0].paused);
	assert_false(views[1].paused);
	assert_false(views[0].freed);
	t = extrap_models_text(x);
	assert_string_equal(t, "median");
	free(t);
	/* the points plotted are the statistic shown */
	struct model_measure me = {.mean = 1, .median = 2, .minimum = 0.5,
				   .maximum = 3};
	assert_true(extrap_measure_value(x, &me) == 2);
	assert_true(isnan(extrap_measure_value(x, NULL)));
	/* back to the mean: the same view, resumed; nothing made */
	assert_true(extrap_set_measure(x, MEASURE_MEAN, &err));
	assert_int_equal(n_views, 2);
	assert_false(views[0].paused);
	assert_true(views[1].paused);
	assert_true(extrap_measure_value(x, &me) == 1);
	/* stored sets: by name or index; none past the end */
	assert_int_equal(extrap_find_stored(x, "set 1"), 1);
	assert_int_equal(extrap_find_stored(x, "0"), 0);
	assert_int_equal(extrap_find_stored(x, "2"), MODEL_NONE);
	assert_int_equal(extrap_find_stored(x, "-1"), MODEL_NONE);
	assert_int_equal(extrap_find_stored(x, ""), MODEL_NONE);
	assert_int_equal(extrap_stored_set(x), MODEL_NONE);
	assert_false(extrap_show_stored(x, 5, &err));
	assert_int_equal(err.status, STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(extrap_stored_set(x), MODEL_NONE);
	assert_true(extrap_show_stored(x, 1, &err));
	assert_int_equal(extrap_stored_set(x), 1);
	assert_int_equal(n_views, 3);
	assert_int_equal(views[2].opt.stored_set, 1);
	assert_false(views[2].opt.background); /* nothing to fit */
	assert_true(views[0].paused && views[1].paused);
	t = extrap_models_text(x);
	assert_string_equal(t, "stored 1 set 1");
	free(t);
	/* a stored set has what it has: a node without a stored model is
	 * not pending, whatever its measurements */
	bool pending = true;
	ready[2] = false;
	assert_null(extrap_peek(x, 2, &pending));
	assert_false(pending);
	ready[2] = true;
	/* another stored set replaces the view (no thread to join) */
	assert_true(extrap_show_stored(x, 0, &err));
	assert_true(views[2].freed);
	assert_int_equal(views[3].opt.stored_set, 0);
	/* a statistic leaves the stored set: the kept view, resumed */
	assert_true(extrap_set_measure(x, MEASURE_MEDIAN, &err));
	assert_int_equal(extrap_stored_set(x), MODEL_NONE);
	assert_int_equal(n_views, 4);
	assert_false(views[1].paused);
	/* fitted again (MODEL_NONE): the statistic shown before */
	assert_true(extrap_show_stored(x, 0, &err));
	assert_true(extrap_show_stored(x, MODEL_NONE, &err));
	assert_int_equal(extrap_measure_kind(x), MEASURE_MEDIAN);
	assert_false(views[1].paused);
	extrap_free(x);
	for (size_t i = 0; i < n_views; i++)
		assert_true(views[i].freed);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test_setup_teardown(test_evaluation_point, setup_x,
					    teardown_x),
	    cmocka_unit_test(test_name_sanitized),
	    cmocka_unit_test_setup_teardown(test_peek_and_severity, setup_x,
					    teardown_x),
	    cmocka_unit_test_setup_teardown(test_worst_step, setup_x,
					    teardown_x),
	    cmocka_unit_test(test_time_first),
	    cmocka_unit_test(test_sync_fits_when_asked),
	    cmocka_unit_test_setup_teardown(test_marks, setup_x,
					    teardown_x),
	    cmocka_unit_test(test_measure_and_stored),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
