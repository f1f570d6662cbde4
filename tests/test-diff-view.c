/* test-diff-view: what the viewer shows of two compared runs beyond the
 * merged model (compare/diff_open.h, compare/diff_view.h), on two small
 * runs whose answers are worked out by hand below: a metric no run has
 * and a run compared with itself first (a pairing error as a value, no
 * regression); then the senses and signs of every role's column, the
 * marks of new and gone nodes, the regressions ranked by the growth in
 * each node itself, and deltas of values that differ by rounding only. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "compare/diff_open.h"
#include "compare/diff_view.h"
#include "view_fixture.h"

/* root -> main -> children: names[i] under main with inclusive value
 * incl[i] (exclusive too: leaves); main's and the root's inclusive value
 * `total`. */
static struct model *run(double total, const char *const *names,
			 const double *incl, int n)
{
	struct model_builder *b = model_builder_new("test", "run");
	struct fx_values *fv = fx_values_new((uint32_t)n + 2);
	fx_add_columns(b);
	struct model_node main_nd = {.kind = NODE_FUNCTION,
				     .ctx_id = 1,
				     .function = MODEL_NONE,
				     .name = model_builder_intern(b, "main", 4)};
	uint32_t m = model_builder_add_node(b, 0, &main_nd);
	fx_set(fv, 0, 0, total);
	fx_set(fv, 1, 0, total);
	for (int i = 0; i < n; i++) {
		struct model_node nd = {
		    .kind = NODE_FUNCTION,
		    .ctx_id = (uint32_t)i + 2,
		    .function = MODEL_NONE,
		    .name = model_builder_intern(b, names[i], strlen(names[i])),
		};
		model_builder_add_node(b, m, &nd);
		fx_set(fv, (uint32_t)i + 2, 0, incl[i]);
		fx_set(fv, (uint32_t)i + 2, 1, incl[i]);
	}
	model_builder_set_values(b, &fx_value_ops, fv);
	struct error err = {0};
	return fx_need(model_builder_finish(b, &err));
}

static const char *const base_names[] = {"solve", "io", "old"};
static const double base_incl[] = {6, 3, 1};
static const char *const new_names[] = {"solve", "io", "fresh"};
static const double new_incl[] = {9, 2, 2.5};

/* The merged model of two runs (default pair). */
static struct model *compare(struct model *b, struct model *n,
			     struct diff **d)
{
	struct diff_request rq = {.opt = {DIFF_MATCH_PATH, true}};
	struct model *m = NULL;
	struct error err = {0};
	assert_int_equal(diff_open_models(b, n, &rq, &m, d, &err), STATUS_OK);
	assert_non_null(m);
	return m;
}

/* The merged node named `name`. */
static uint32_t node_named(const struct model *m, const char *name)
{
	for (uint32_t i = 0; i < m->n_nodes; i++)
		if (strcmp(model_str(m, m->nodes[i].name), name) == 0)
			return i;
	fail_msg("no node %s", name);
	return MODEL_NONE;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model *a = run(10, base_names, base_incl, 3);
	/* a metric no run has: the reason, as a value */
	const char *const nope[] = {"NOPE"};
	struct diff_request rq = {.metrics = nope, .n_metrics = 1,
				  .opt = {DIFF_MATCH_PATH, true}};
	struct model *m = NULL;
	struct diff *d = NULL;
	struct error err = {0};
	assert_int_equal(diff_open_models(a, a, &rq, &m, &d, &err),
			 STATUS_USAGE);
	assert_null(m);
	assert_null(d);
	assert_non_null(strstr(err.message, "NOPE"));
	error_clear(&err);
	/* a run with itself: nothing grew, nothing marked */
	m = compare(a, a, &d);
	struct diff_regression *r = (void *)1;
	size_t n = 7;
	assert_true(diff_view_regressions(d, 0, &r, &n));
	assert_null(r);
	assert_int_equal(n, 0);
	assert_true(diff_view_regressions(d, 5, &r, &n)); /* no metric 5 */
	assert_int_equal(n, 0);
	for (uint32_t i = 0; i < d->n_nodes + 2; i++)
		assert_null(diff_view_mark(d, i));
	assert_int_equal(diff_view_matched(d), d->n_nodes);
	assert_int_equal(diff_view_sense(d, MODEL_NONE, 1), DIFF_SENSE_NONE);
	assert_false(diff_view_signed(d, 1000));
	model_free(m);
	model_free(a);
}

static void test_senses_and_marks(void **state)
{
	(void)state;
	struct model *a = run(10, base_names, base_incl, 3);
	struct model *b = run(14, new_names, new_incl, 3);
	struct diff *d = NULL;
	struct model *m = compare(a, b, &d);
	uint32_t delta = diff_view_delta_column(d);
	size_t k;
	enum diff_scope sc;
	enum diff_role role;
	assert_true(diff_model_column_of(d, delta, &k, &sc, &role));
	assert_true(k == 0 && sc == DIFF_INCLUSIVE && role == DIFF_ROLE_DELTA);
	uint32_t base = delta - 2, nw = delta - 1, pct = delta + 1,
		 ratio = delta + 2;
	assert_int_equal(diff_view_sense(d, delta, 3), DIFF_SENSE_WORSE);
	assert_int_equal(diff_view_sense(d, delta, -1), DIFF_SENSE_BETTER);
	assert_int_equal(diff_view_sense(d, delta, 0), DIFF_SENSE_NONE);
	assert_int_equal(diff_view_sense(d, pct, -10), DIFF_SENSE_BETTER);
	assert_int_equal(diff_view_sense(d, ratio, 1.5), DIFF_SENSE_WORSE);
	assert_int_equal(diff_view_sense(d, ratio, 0.5), DIFF_SENSE_BETTER);
	assert_int_equal(diff_view_sense(d, ratio, 1), DIFF_SENSE_NONE);
	assert_int_equal(diff_view_sense(d, base, 5), DIFF_SENSE_NONE);
	assert_int_equal(diff_view_sense(d, nw, -5), DIFF_SENSE_NONE);
	assert_true(diff_view_signed(d, delta) && diff_view_signed(d, pct));
	assert_false(diff_view_signed(d, base) || diff_view_signed(d, nw) ||
		     diff_view_signed(d, ratio));
	assert_string_equal(diff_view_mark(d, node_named(m, "old")),
			    DIFF_MARK_GONE);
	assert_null(diff_view_mark(d, node_named(m, "solve")));
	/* the model is built unmarked here: the diff still knows */
	uint32_t fresh = node_named(m, "fresh");
	assert_string_equal(diff_view_mark(d, fresh), DIFF_MARK_NEW);
	/* root, main, solve, io: both; old gone; fresh new */
	assert_int_equal(diff_view_matched(d), 4);
	model_free(m);
	model_free(a);
	model_free(b);
}

/* Inclusive deltas: main +4, solve +3, io -1, old -1, fresh +2.5; in
 * itself main grew 4 - (3 - 1 - 1 + 2.5) = 0.5, the root 4 - 4 = 0. */
static void test_regressions(void **state)
{
	(void)state;
	struct model *a = run(10, base_names, base_incl, 3);
	struct model *b = run(14, new_names, new_incl, 3);
	struct diff *d = NULL;
	struct model *m = compare(a, b, &d);
	struct diff_regression *r = NULL;
	size_t n = 0;
	assert_true(diff_view_regressions(d, 0, &r, &n));
	assert_int_equal(n, 3);
	static const char *const want[] = {"solve", "fresh", "main"};
	static const double grew[] = {3, 2.5, 0.5};
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(r[i].node, node_named(m, want[i]));
		assert_true(fabs(r[i].growth - grew[i]) < 1e-12);
	}
	free(r);
	model_free(m);
	model_free(a);
	model_free(b);
}

/* Values that differ in their last bits: a delta of 0; a change of one
 * part in a billion is one. */
static void test_rounding(void **state)
{
	(void)state;
	double one = 0.1 + 0.2, other = 0.3; /* 5.55e-17 apart */
	assert_true(one != other);
	struct model *a = run(one, NULL, NULL, 0);
	struct model *b = run(other, NULL, NULL, 0);
	struct model *c = run(0.3 * (1 + 1e-9), NULL, NULL, 0);
	struct diff *d = NULL;
	struct model *m = compare(a, b, &d);
	double v = 1;
	assert_true(diff_role_value(d, 0, 0, DIFF_INCLUSIVE, DIFF_ROLE_DELTA,
				    &v));
	assert_true(v == 0);
	assert_true(diff_role_value(d, 0, 0, DIFF_INCLUSIVE,
				    DIFF_ROLE_PERCENT, &v));
	assert_true(v == 0);
	model_free(m);
	m = compare(b, c, &d);
	assert_true(diff_role_value(d, 0, 0, DIFF_INCLUSIVE, DIFF_ROLE_DELTA,
				    &v));
	assert_true(fabs(v - 0.3e-9) < 1e-15);
	model_free(m);
	model_free(a);
	model_free(b);
	model_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_senses_and_marks),
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_rounding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
