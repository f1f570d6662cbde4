/* test-formula: evaluation (formula.c) and the text form (formula_text.c):
 * degenerate inputs, precedence, associativity, functions, round trips of
 * parse and print, error positions and the nesting bound. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "text_repeat.h"

/* Leaf i has value values[i]; leaves past n_values have no value. */
struct leaves {
	const double *values;
	uint32_t n_values;
};

static bool leaf_value(void *ctx, uint32_t leaf, double *out)
{
	const struct leaves *l = ctx;
	if (leaf >= l->n_values)
		return false;
	*out = l->values[leaf];
	return true;
}

static const double vals[] = {2, 3, 10, 0.5};
static struct leaves lv = {.values = vals, .n_values = 4};

/* Parse `text`, evaluate with leaves $1=2 $2=3 $3=10 $4=0.5.  A formula
 * without any leaf value is "absent" (formula_eval returns false), so the
 * text is evaluated as "(text) + 0 * $1". */
static double eval_text(const char *text)
{
	struct formula *f = NULL;
	struct error err = {0};
	size_t len = strlen(text) + 16;
	char *wrapped = malloc(len);
	snprintf(wrapped, len, "(%s) + 0 * $1", text);
	assert_int_equal(formula_parse(wrapped, &f, &err), STATUS_OK);
	free(wrapped);
	double v = (double)NAN;
	assert_true(formula_eval(f, leaf_value, &lv, &v));
	formula_free(f);
	return v;
}

/* The error message of parsing `text`, which must fail with STATUS_USAGE. */
static char *parse_error(const char *text)
{
	struct formula *f = NULL;
	struct error err = {0};
	assert_int_equal(formula_parse(text, &f, &err), STATUS_USAGE);
	assert_null(f);
	assert_non_null(err.message);
	char *m = strdup(err.message);
	error_clear(&err);
	return m;
}

static void assert_error(const char *text, const char *expected)
{
	char *m = parse_error(text);
	if (!strstr(m, expected))
		fail_msg("\"%s\": got \"%s\", expected \"%s\"", text, m,
			 expected);
	free(m);
}

static char *print_text(const char *text)
{
	struct formula *f = NULL;
	struct error err = {0};
	assert_int_equal(formula_parse(text, &f, &err), STATUS_OK);
	char *s = formula_to_string(f, NULL, NULL);
	assert_non_null(s);
	formula_free(f);
	return s;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct formula *f = NULL;
	struct error err = {0};
	double v = 42;
	assert_false(formula_eval(NULL, leaf_value, &lv, &v));
	assert_int_equal(formula_parse(NULL, &f, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(formula_parse("", &f, &err), STATUS_USAGE);
	assert_null(f);
	error_clear(&err);
	assert_int_equal(formula_parse("   ", &f, &err), STATUS_USAGE);
	error_clear(&err);
	assert_null(formula_to_string(NULL, NULL, NULL));
	formula_free(NULL);
	/* a node with no arguments evaluates to 0 and prints as 0 */
	f = formula_node(FORMULA_ADD, NULL, 0);
	assert_non_null(f);
	char *s = formula_to_string(f, NULL, NULL);
	assert_string_equal(s, "0");
	free(s);
	formula_free(f);
}

static void test_eval_leaves(void **state)
{
	(void)state;
	double v = 42;
	struct formula *f = formula_leaf(7);
	/* a leaf without a value: absent */
	assert_false(formula_eval(f, leaf_value, &lv, &v));
	assert_false(formula_eval(f, NULL, NULL, &v));
	formula_free(f);
	/* a constant is never absent */
	f = formula_number(1.5);
	assert_true(formula_eval(f, NULL, NULL, &v));
	assert_true(v == 1.5);
	formula_free(f);
	/* but an expression over constants only is */
	struct error err = {0};
	assert_int_equal(formula_parse("1 + 2", &f, &err), STATUS_OK);
	assert_false(formula_eval(f, leaf_value, &lv, &v));
	formula_free(f);
	/* one present leaf is enough; the absent one counts as 0 */
	struct formula **args = malloc(2 * sizeof(*args));
	args[0] = formula_leaf(1);
	args[1] = formula_leaf(9);
	f = formula_node(FORMULA_ADD, args, 2);
	assert_true(formula_eval(f, leaf_value, &lv, &v));
	assert_true(v == 3);
	formula_free(f);
	uint32_t leaf = 0;
	f = formula_leaf(5);
	assert_true(formula_is_leaf(f, &leaf));
	assert_int_equal(leaf, 5);
	formula_free(f);
	f = formula_number(5);
	assert_false(formula_is_leaf(f, &leaf));
	formula_free(f);
}

/* Each row: in GROUP (named when it fails), TEXT evaluates to WANT
 * (within TOL when not 0) with the leaves above. */
static const struct {
	const char *group, *text;
	double want, tol;
} evals[] = {
	{"arithmetic", "1 + 2 * 3", 7, 0},
	{"arithmetic", "(1 + 2) * 3", 9, 0},
	{"arithmetic", "10 - 4 - 3", 3, 0},
	{"arithmetic", "48 / 4 / 3", 4, 0},
	{"arithmetic", "2 ^ 3 ^ 2", 512, 0},
	{"arithmetic", "-2 ^ 2", -4, 0},
	{"arithmetic", "(-2) ^ 2", 4, 0},
	{"arithmetic", "2 ^ -1", 0.5, 0},
	{"arithmetic", "--3", 3, 0},
	{"arithmetic", "4 * -2", -8, 0},
	{"arithmetic", "1e-3 * 1000", 1, 0},
	{"arithmetic", "2.5E+1", 25, 0},
	{"arithmetic", ".5 + 1.", 1.5, 0},
	{"arithmetic", "$2 / $1 * 100", 150, 0},
	{"arithmetic", "$3 - $2 * $1", 4, 0},
	/* division by zero shows as 0, as hpcviewer does */
	{"arithmetic", "$1 / 0", 0, 0},
	{"arithmetic", "$1 / ($2 - 3)", 0, 0},
	{"functions", "sum($1, $2, $3)", 15, 0},
	{"functions", "avg($1, $2, $3, 1)", 4, 0},
	{"functions", "min($3, $1, $2)", 2, 0},
	{"functions", "max($1, $3, $2)", 10, 0},
	{"functions", "prod($1, $2, $3)", 60, 0},
	{"functions", "sqrt(16)", 4, 0},
	{"functions", "sqrt(-4)", 0, 0},
	{"functions", "log(100, 10)", 2, 1e-12},
	{"functions", "log(1)", 0, 1e-12},
	{"functions", "log(8, $1)", 3, 1e-12},
	{"functions", "log(0)", 0, 0},
	{"functions", "pow($1, $3)", 1024, 0},
	{"functions", "floor(2.7)", 2, 0},
	{"functions", "floor(-2.5)", -3, 0},
	{"functions", "ceil(2.1)", 3, 0},
	{"functions", "strict_floor(3)", 2, 0},
	{"functions", "strict_ceil(3)", 4, 0},
	{"functions", "strict_floor(3.5)", 3, 0},
	{"functions", "max(sum(1, 2), prod(2, 2)) * $4", 2, 0},
};

/* Every row; each row that fails names itself (its group, index and
 * text), and the test fails when any did. */
static void test_eval(void **state)
{
	(void)state;
	size_t failed = 0;
	for (size_t i = 0; i < sizeof(evals) / sizeof(evals[0]); i++) {
		double v = eval_text(evals[i].text);
		if (evals[i].tol > 0 ? fabs(v - evals[i].want) < evals[i].tol
				     : v == evals[i].want)
			continue;
		print_error("%s row %zu: %s is %.17g, want %.17g\n",
			    evals[i].group, i, evals[i].text, v,
			    evals[i].want);
		failed++;
	}
	assert_int_equal(failed, 0);
}

static void assert_round_trip(const char *in, const char *out)
{
	char *s = print_text(in);
	if (strcmp(s, out) != 0)
		fail_msg("\"%s\" printed as \"%s\", expected \"%s\"", in, s,
			 out);
	/* printing is a fixed point: parse(print(f)) prints the same */
	char *again = print_text(s);
	assert_string_equal(again, s);
	free(again);
	free(s);
}

static void test_round_trip(void **state)
{
	(void)state;
	assert_round_trip("$1", "$1");
	assert_round_trip("  $2/$1*100 ", "$2 / $1 * 100");
	assert_round_trip("((($1)))", "$1");
	assert_round_trip("($1 + $2) * $3", "($1 + $2) * $3");
	assert_round_trip("$1 + ($2 * $3)", "$1 + $2 * $3");
	assert_round_trip("$1 - ($2 - $3)", "$1 - ($2 - $3)");
	assert_round_trip("($1 - $2) - $3", "$1 - $2 - $3");
	assert_round_trip("$1 / ($2 / $3)", "$1 / ($2 / $3)");
	assert_round_trip("2 ^ 3 ^ 2", "2 ^ 3 ^ 2");
	assert_round_trip("(2 ^ 3) ^ 2", "(2 ^ 3) ^ 2");
	assert_round_trip("-$1 ^ 2", "-$1 ^ 2");
	assert_round_trip("(-$1) ^ 2", "(-$1) ^ 2");
	assert_round_trip("-($1 + 1)", "-($1 + 1)");
	assert_round_trip("-($1 * 2)", "-($1 * 2)");
	assert_round_trip("$1 * -2", "$1 * -2");
	assert_round_trip("0.1 + 1e-3", "0.1 + 0.001");
	assert_round_trip("1e300", "1e+300");
	assert_round_trip("sum($1,$2 ,  $3)", "sum($1, $2, $3)");
	assert_round_trip("log( $1 )", "log($1)");
	assert_round_trip("log($1, 2)", "log($1, 2)");
	assert_round_trip("pow($1 + 1, 2)", "($1 + 1) ^ 2");
	assert_round_trip("sqrt(floor(ceil($12)))", "sqrt(floor(ceil($12)))");
	assert_round_trip("avg(min($1), max($2, $3), prod(1, 2))",
			  "avg(min($1), max($2, $3), prod(1, 2))");
	assert_round_trip("$4294967295", "$4294967295");
}

static const char *leaf_name(void *ctx, uint32_t leaf)
{
	(void)ctx;
	return leaf == 0 ? "CPUTIME" : NULL;
}

static void test_print_trees(void **state)
{
	(void)state;
	/* n-ary nodes as METRICS.yaml builds them: {+: [a, b, c]} */
	struct formula **args = malloc(3 * sizeof(*args));
	args[0] = formula_leaf(0);
	args[1] = formula_number(2);
	args[2] = formula_leaf(2);
	struct formula *f = formula_node(FORMULA_SUB, args, 3);
	char *s = formula_to_string(f, leaf_name, NULL);
	assert_string_equal(s, "CPUTIME - 2 - $3");
	free(s);
	formula_free(f);
	/* n-ary power folds left: ((2 ^ 3) ^ 2) = 64 */
	args = malloc(3 * sizeof(*args));
	args[0] = formula_leaf(0);
	args[1] = formula_leaf(1);
	args[2] = formula_number(2);
	f = formula_node(FORMULA_POW, args, 3);
	double v = 0;
	assert_true(formula_eval(f, leaf_value, &lv, &v));
	assert_true(v == 64);
	s = formula_to_string(f, NULL, NULL);
	assert_string_equal(s, "($1 ^ $2) ^ 2");
	assert_true(eval_text(s) == 64);
	free(s);
	formula_free(f);
	/* strict floor prints in a form the parser reads back */
	args = malloc(sizeof(*args));
	args[0] = formula_number(2.5);
	f = formula_node(FORMULA_STRICT_CEIL, args, 1);
	s = formula_to_string(f, NULL, NULL);
	assert_string_equal(s, "strict_ceil(2.5)");
	free(s);
	formula_free(f);
}

static void test_errors(void **state)
{
	(void)state;
	assert_error("($1 + $2", "at column 9: expected ')'");
	assert_error("sum($1 $2)", "at column 8: expected ',' or ')'");
	assert_error("$1 +", "at column 5: unexpected end");
	assert_error("$1 + * $2", "at column 6: expected a number");
	assert_error("$0", "at column 1: columns are numbered from $1");
	assert_error("$", "at column 2: expected a column number");
	assert_error("$99999999999", "column number too large");
	assert_error("foo(1)", "at column 1: unknown function");
	/* the function table's names, words joined by '_' in text */
	assert_error("strict_floor(1, 2)", "takes one argument");
	assert_error("sqr(1)", "at column 1: unknown function");
	assert_error("sqrtt(1)", "at column 1: unknown function");
	assert_error("sqrt(1, 2)", "takes one argument");
	assert_error("pow(1)", "takes two arguments");
	assert_error("log(1, 2, 3)", "one or two arguments");
	assert_error("sum()", "at column 5: expected an argument");
	assert_error("sqrt 4", "at column 6: expected '('");
	assert_error("$1 $2", "at column 4: expected an operator");
	assert_error("$1)", "at column 3: unbalanced ')'");
	assert_error("1e999", "number out of range");
	assert_error("#", "at column 1: expected a number");
}

static void test_depth(void **state)
{
	(void)state;
	/* 100 levels are fine */
	char *s = text_repeat("(", 100, "$1", ")", 100);
	assert_true(eval_text(s) == 2);
	free(s);
	s = text_repeat("sqrt(", 100, "16", ")", 100);
	struct formula *f = NULL;
	struct error err = {0};
	assert_int_equal(formula_parse(s, &f, &err), STATUS_OK);
	formula_free(f);
	free(s);
	/* 10,000 levels are refused, without exhausting the stack */
	const char *heads[] = {"(", "-", "sqrt(", "2^", "sum(1,"};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		s = text_repeat(heads[i], 10000, "1", ")", 0);
		char *m = parse_error(s);
		if (!strstr(m, "nesting deeper than 256"))
			fail_msg("%s...: %s", heads[i], m);
		free(m);
		free(s);
	}
	/* a long flat chain is not nesting */
	s = text_repeat("1+", 10000, "1", "", 0);
	assert_true(eval_text(s) == 10001);
	free(s);
	/* too long a text */
	s = text_repeat("1+", 40000, "1", "", 0);
	char *m = parse_error(s);
	assert_non_null(strstr(m, "longer than"));
	free(m);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_eval_leaves),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_print_trees),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
