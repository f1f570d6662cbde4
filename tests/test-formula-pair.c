/* test-formula-pair: formula_pair (model/formula_pair.c), the two-argument
 * node the readers build Cube's and METRICS.yaml's formulas with.  Each
 * pair is compared with the same text parsed by formula_parse (the text
 * form and the values), and a missing argument gives NULL. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/formula_pair.h"

static const double vals[] = {2, 3, 10, 0.5};

static bool leaf_value(void *ctx, uint32_t leaf, double *out)
{
	(void)ctx;
	if (leaf >= sizeof(vals) / sizeof(vals[0]))
		return false;
	*out = vals[leaf];
	return true;
}

/* `f` (consumed) prints and evaluates as `text` parsed does. */
static void assert_same_as_text(struct formula *f, const char *text)
{
	struct formula *want = NULL;
	struct error err = {0};
	assert_non_null(f);
	assert_int_equal(formula_parse(text, &want, &err), STATUS_OK);
	char *got_s = formula_to_string(f, NULL, NULL);
	char *want_s = formula_to_string(want, NULL, NULL);
	assert_non_null(got_s);
	assert_non_null(want_s);
	assert_string_equal(got_s, want_s);
	double got_v = 0, want_v = 1;
	assert_true(formula_eval(want, leaf_value, NULL, &want_v));
	assert_true(formula_eval(f, leaf_value, NULL, &got_v));
	assert_true(got_v == want_v);
	free(got_s);
	free(want_s);
	formula_free(want);
	formula_free(f);
}

static void test_pairs(void **state)
{
	(void)state;
	assert_same_as_text(
		formula_pair(FORMULA_SUB, formula_leaf(0), formula_leaf(1)),
		"$1 - $2");
	assert_same_as_text(
		formula_pair(FORMULA_DIV, formula_leaf(2), formula_leaf(3)),
		"$3 / $4");
	assert_same_as_text(
		formula_pair(FORMULA_POW, formula_leaf(1), formula_number(2)),
		"$2 ^ 2");
	assert_same_as_text(
		formula_pair(FORMULA_MAX, formula_leaf(0),
			     formula_pair(FORMULA_SUB, formula_leaf(1),
					  formula_leaf(2))),
		"max($1, $2 - $3)");
}

/* A constructor that ran out of memory hands formula_pair a NULL: the
 * pair is NULL, and the other argument is freed (a leak shows under the
 * sanitizers that the CI build runs the tests with). */
static void test_missing_argument(void **state)
{
	(void)state;
	assert_null(formula_pair(FORMULA_SUB, NULL, formula_leaf(0)));
	assert_null(formula_pair(FORMULA_SUB, formula_leaf(0), NULL));
	assert_null(formula_pair(FORMULA_DIV, NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_missing_argument),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
