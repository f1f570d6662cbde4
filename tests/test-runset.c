/* test-runset: N runs as one set (compare/runset.h).  The statistics
 * across runs (runset_stats_of) on degenerate inputs first -- no run, no
 * run with a value, one value, two, all equal -- then on values worked
 * out by hand here: the median, the population standard deviation, the
 * outlier (the run farthest from the median) and its modified z-score,
 * with the MAD and with the mean-absolute-deviation fallback when the MAD
 * is 0, and absent runs left out.  Then a set of two random fixture runs
 * holds at every merged node the same two values as diff_build's merged
 * tree of the pair, by path and by function (the same matching; tested
 * in test-diff), a set of a
 * run three times has no spread and no outlier anywhere, and a run added
 * past the declared number is refused. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "compare/runset.h"
#include "view_fixture.h"

static void stats(const double *v, size_t n, double out[RUNSET_N_STATS])
{
	double scratch[64];
	struct error err = {0};
	assert_true(n <= 32);
	assert_int_equal(runset_stats_of(v, n, scratch, out, &err), STATUS_OK);
}

static void near(double got, double want)
{
	assert_true(fabs(got - want) <= 1e-12 * fmax(1, fabs(want)));
}

static void test_degenerate(void **state)
{
	(void)state;
	double out[RUNSET_N_STATS];
	stats(NULL, 0, out);
	assert_true(out[RUNSET_COUNT] == 0);
	for (int s = 0; s < RUNSET_N_STATS; s++)
		if (s != RUNSET_COUNT)
			assert_true(isnan(out[s]));
	double none[3] = {NAN, NAN, NAN};
	stats(none, 3, out);
	assert_true(out[RUNSET_COUNT] == 0 && isnan(out[RUNSET_MEDIAN]));
	double one[1] = {4};
	stats(one, 1, out);
	assert_true(out[RUNSET_MIN] == 4 && out[RUNSET_MAX] == 4 &&
		    out[RUNSET_MEDIAN] == 4 && out[RUNSET_STDDEV] == 0 &&
		    out[RUNSET_CV] == 0 && isnan(out[RUNSET_OUTLIER]));
	/* two values: the median is their mean, and no outlier */
	double two[2] = {2, 6};
	stats(two, 2, out);
	assert_true(out[RUNSET_MEDIAN] == 4 && out[RUNSET_STDDEV] == 2 &&
		    isnan(out[RUNSET_OUTLIER]) && out[RUNSET_COUNT] == 2);
	double same[4] = {3, 3, 3, 3};
	stats(same, 4, out);
	assert_true(out[RUNSET_STDDEV] == 0 && isnan(out[RUNSET_OUTLIER]) &&
		    isnan(out[RUNSET_OUTLIER_Z]));
	/* a mean of 0: no cv */
	double zero[2] = {-1, 1};
	stats(zero, 2, out);
	assert_true(isnan(out[RUNSET_CV]));
	assert_string_equal(runset_stat_name(RUNSET_OUTLIER_Z), "outlier z");
	assert_string_equal(runset_stat_name(RUNSET_N_STATS), "");
}

static void test_by_hand(void **state)
{
	(void)state;
	double out[RUNSET_N_STATS];
	/* 1 2 3 4 100: median 3, mean 22, deviations 2 1 0 1 97, MAD 1 */
	double v[5] = {1, 2, 3, 4, 100};
	stats(v, 5, out);
	near(out[RUNSET_MEDIAN], 3);
	near(out[RUNSET_MEAN], 22);
	/* population variance: (441 + 400 + 361 + 324 + 6084) / 5 */
	near(out[RUNSET_STDDEV], sqrt(7610.0 / 5));
	near(out[RUNSET_CV], sqrt(7610.0 / 5) / 22);
	assert_true(out[RUNSET_OUTLIER] == 5);
	near(out[RUNSET_OUTLIER_Z], 97 / 1.4826);
	/* MAD 0 (four equal values): the mean absolute deviation, 4 / 5 */
	double w[5] = {5, 5, 9, 5, 5};
	stats(w, 5, out);
	assert_true(out[RUNSET_OUTLIER] == 3);
	near(out[RUNSET_OUTLIER_Z], 4 / (1.2533 * 0.8));
	/* absent runs left out: 1 3 2 at runs 2 4 5; a tie of distance 1
	 * goes to the first run (2) */
	double x[5] = {NAN, 1, NAN, 3, 2};
	stats(x, 5, out);
	assert_true(out[RUNSET_COUNT] == 3 && out[RUNSET_MEDIAN] == 2 &&
		    out[RUNSET_MIN] == 1 && out[RUNSET_MAX] == 3);
	near(out[RUNSET_STDDEV], sqrt(2.0 / 3));
	assert_true(out[RUNSET_OUTLIER] == 2);
	near(out[RUNSET_OUTLIER_Z], 1 / 1.4826);
	/* sums that differ in their last bits only: no outlier (the z was
	 * 2e15 on the corpus loops set); one real outlier among them is
	 * measured against the others' mean deviation, not their rounding */
	double r[4] = {0.3, 0.1 + 0.2, 0.3, 0.30000000000000004};
	stats(r, 4, out);
	assert_true(isnan(out[RUNSET_OUTLIER]) &&
		    isnan(out[RUNSET_OUTLIER_Z]));
	double q[5] = {0.3, 0.1 + 0.2, 0.3, 0.6, 0.30000000000000004};
	stats(q, 5, out);
	assert_true(out[RUNSET_OUTLIER] == 4);
	near(out[RUNSET_OUTLIER_Z], 0.3 / (1.2533 * 0.3 / 5));
}

static struct runset *new_set(uint32_t n, enum diff_match match)
{
	struct runset_options o = {
	    .match = match, .normalize = true, .scope = -1};
	struct error err = {0};
	struct runset *rs = runset_new(n, &o, &err);
	assert_non_null(rs);
	return rs;
}

static void test_pair_as_diff(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		enum diff_match match =
		    seed % 2 ? DIFF_MATCH_PATH : DIFF_MATCH_FUNCTION;
		struct model *a = fx_need(fx_random_model(400, 40, seed, false));
		struct model *b =
		    fx_need(fx_random_model(300, 40, seed + 100, false));
		struct diff_metric dm;
		char *why = NULL;
		struct diff_options opt = {match, true};
		struct diff *d = NULL;
		struct error err = {0};
		assert_true(diff_pair_default(a, b, &dm, &why));
		assert_int_equal(diff_build(a, b, &dm, 1, &opt, &d, &err),
				 STATUS_OK);
		struct runset *rs = new_set(2, match);
		assert_int_equal(runset_add(rs, a, "a", NULL, &err), STATUS_OK);
		assert_int_equal(runset_add(rs, b, "b", NULL, &err), STATUS_OK);
		assert_int_equal(runset_finish(rs, &err), STATUS_OK);
		assert_int_equal(rs->n_nodes, d->n_nodes);
		enum diff_scope sc = rs->scope[0];
		for (uint32_t i = 0; i < d->n_nodes; i++)
			for (uint32_t r = 0; r < 2; r++) {
				double x = 0, y = 0;
				bool hx = runset_value(rs, i, 0, r, &x);
				bool hy = diff_value(d, i, 0, sc,
						     (enum diff_run)r, &y);
				assert_int_equal(hx, hy);
				if (hx)
					assert_true(x == y);
			}
		diff_free(d);
		runset_free(rs);
	}
}

static void test_same_run_thrice(void **state)
{
	(void)state;
	struct error err = {0};
	struct runset *rs = new_set(3, DIFF_MATCH_PATH);
	for (int r = 0; r < 3; r++)
		assert_int_equal(
		    runset_add(rs, fx_need(fx_random_model(200, 20, 9, false)),
			       "run", NULL, &err),
		    STATUS_OK);
	assert_int_equal(runset_add(rs, fx_need(fx_random_model(5, 2, 1, false)),
				    "extra", NULL, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(runset_finish(rs, &err), STATUS_OK);
	for (uint32_t i = 0; i < rs->n_nodes; i++) {
		double n = 0, x;
		assert_true(runset_stat(rs, i, 0, RUNSET_COUNT, &n));
		assert_true(n == 0 || n == 3);
		if (n == 3) {
			assert_true(runset_stat(rs, i, 0, RUNSET_STDDEV, &x));
			assert_true(x == 0);
		}
		assert_false(runset_stat(rs, i, 0, RUNSET_OUTLIER, &x));
	}
	runset_free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_by_hand),
	    cmocka_unit_test(test_pair_as_diff),
	    cmocka_unit_test(test_same_run_thrice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
