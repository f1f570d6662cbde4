/* test-scaling-compact: the short model text for screens
 * (scaling_text_compact, src/model/scaling_compact.c).  Degenerate models
 * first (constant 0, NaN, infinite, no terms, a constant left out, a
 * coefficient of 1), then the example of issue 26 (lulesh's main), the
 * order by growth (one parameter: the highest exponent first, a shrinking
 * term after the constant; several: by the exponents' sum), the number
 * forms, and, over many random models of Extra-P's hypothesis space, that
 * the text parses back (a small expression reader written here, not the
 * code under test) to a function equal to the model at several points to
 * within half a unit of the last digit shown of each term. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/scaling.h"

static const char *const names[] = {"x", "y", "z"};

/* ---- an independent reader of the text ----------------------------- */

struct rd {
	const char *p;
	const double *at; /* per name in `names` */
	bool bad;
};

static void skip_blanks(struct rd *r)
{
	while (*r->p == ' ')
		r->p++;
}

static double rd_number(struct rd *r)
{
	char *end;
	double v = strtod(r->p, &end);
	if (end == r->p)
		r->bad = true;
	r->p = end;
	return v;
}

static double rd_name(struct rd *r)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		size_t n = strlen(names[i]);
		if (strncmp(r->p, names[i], n) == 0 && !isalnum((unsigned char)r->p[n])) {
			r->p += n;
			return r->at[i];
		}
	}
	r->bad = true;
	return NAN;
}

/* "2", "(1/4)", "(-1)", "(2.5)" */
static double rd_power(struct rd *r)
{
	if (*r->p != '(')
		return rd_number(r);
	r->p++;
	double v = rd_number(r);
	if (*r->p == '/') {
		r->p++;
		v /= rd_number(r);
	}
	if (*r->p != ')')
		r->bad = true;
	else
		r->p++;
	return v;
}

static double rd_factor(struct rd *r)
{
	double v;
	if (strncmp(r->p, "log2(", 5) == 0) {
		r->p += 5;
		v = log2(rd_name(r));
		if (*r->p != ')')
			r->bad = true;
		else
			r->p++;
	} else if (isalpha((unsigned char)*r->p) && strncmp(r->p, "nan", 3) &&
		   strncmp(r->p, "inf", 3)) {
		v = rd_name(r);
	} else {
		v = rd_number(r);
	}
	if (*r->p == '^') {
		r->p++;
		v = pow(v, rd_power(r));
	}
	return v;
}

/* The text's value at `at`, and the sum of the terms' magnitudes. */
static double rd_eval(const char *text, const double *at, double *mag,
		      bool *bad)
{
	struct rd r = {text, at, false};
	double sum = 0;
	*mag = 0;
	double sign = 1;
	skip_blanks(&r);
	if (*r.p == '-') {
		sign = -1;
		r.p++;
	}
	for (;;) {
		double t = rd_factor(&r);
		while (*r.p == '*') {
			r.p++;
			t *= rd_factor(&r);
		}
		sum += sign * t;
		*mag += fabs(t);
		skip_blanks(&r);
		if (*r.p == '\0' || r.bad)
			break;
		if (*r.p != '+' && *r.p != '-') {
			r.bad = true;
			break;
		}
		sign = *r.p == '-' ? -1 : 1;
		r.p++;
		skip_blanks(&r);
	}
	*bad = r.bad;
	return sum;
}

/* ---- helpers ------------------------------------------------------- */

static struct scaling_term term1(double c, uint32_t param, int num, int den,
				 int log_exp)
{
	struct scaling_term t = {.coefficient = c, .n_factors = 1};
	t.factors[0] = (struct scaling_factor){
	    .param = param,
	    .exponent = den ? (double)num / den : 0,
	    .exponent_num = num,
	    .exponent_den = den ? den : 1,
	    .log_exponent = log_exp,
	    .log_exponent_int = true,
	};
	return t;
}

static void expect(const struct scaling_model *m, uint32_t n_names,
		   int digits, const char *want)
{
	char *t = scaling_text_compact(m, names, n_names, digits);
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

/* ---- tests --------------------------------------------------------- */

static void test_degenerate(void **state)
{
	(void)state;
	struct scaling_model m = {.kind = SCALING_CONSTANT};
	expect(&m, 1, 3, "0");
	m.constant = NAN;
	expect(&m, 1, 3, "nan");
	m.constant = -INFINITY;
	expect(&m, 1, 3, "-inf");
	m.constant = -2.5;
	expect(&m, 1, 3, "-2.5");
	/* digits out of range are clamped, not trusted */
	m.constant = 1.0 / 3;
	expect(&m, 1, 0, "0.3");
	expect(&m, 1, 99, "0.33333333333333331");
	/* a constant of exactly 0 beside terms is left out; a coefficient
	 * of 1 too */
	struct scaling_term t[1] = {term1(1, 0, 2, 1, 0)};
	m = (struct scaling_model){.kind = SCALING_SINGLE, .constant = 0,
				   .n_terms = 1, .terms = t};
	expect(&m, 1, 3, "x^2");
	t[0].coefficient = -1;
	expect(&m, 1, 3, "-x^2");
	/* a term without factors is its coefficient */
	t[0].n_factors = 0;
	t[0].coefficient = 4;
	expect(&m, 1, 3, "4");
	/* a parameter index past the names */
	t[0] = term1(2, 5, 1, 1, 0);
	expect(&m, 1, 3, "2*?");
}

static void test_issue_example(void **state)
{
	(void)state;
	/* lulesh's main as Extra-P fits it: 9.413925782119421e-07 +
	 * 2.4335815739922145e-08 * s^(1/4) * log2(s)^(2) */
	const char *const s[] = {"s"};
	struct scaling_term t[1] = {term1(2.4335815739922145e-08, 0, 1, 4, 2)};
	struct scaling_model m = {.kind = SCALING_SINGLE,
				  .constant = 9.413925782119421e-07,
				  .n_terms = 1, .terms = t};
	char *text = scaling_text_compact(&m, s, 1, 3);
	assert_string_equal(text, "2.43e-8*s^(1/4)*log2(s)^2 + 9.41e-7");
	free(text);
	/* the plot legend's example: 0.49862841738495267 + 1.25e-06 * s^.. */
	t[0] = term1(1.2510184193800768e-06, 0, 5, 4, 1);
	m.constant = 0.49862841738495267;
	text = scaling_text_compact(&m, s, 1, 3);
	assert_string_equal(text, "1.25e-6*s^(5/4)*log2(s) + 0.499");
	free(text);
}

static void test_order_and_forms(void **state)
{
	(void)state;
	/* Extra-P's order: constant, then the terms as fitted */
	struct scaling_term t[3];
	struct scaling_model m = {.kind = SCALING_MULTI, .constant = 12.5,
				  .n_terms = 3, .terms = t};
	t[0] = term1(3, 0, 1, 2, 0);	    /* x^(1/2) */
	t[1] = term1(-0.000123, 0, 1, 2, 1); /* x^(1/2)*log2(x): faster */
	t[2] = term1(0.5, 0, -1, 1, 0);	    /* x^(-1): shrinks */
	expect(&m, 1, 3,
	       "-1.23e-4*x^(1/2)*log2(x) + 3*x^(1/2) + 12.5 + 0.5*x^(-1)");
	/* several parameters: the sum of the exponents decides; a product
	 * x*y (2) before x^(3/2) (1.5) before y*log2(y) (1, log 1) */
	t[0] = term1(7, 0, 3, 2, 0);
	t[1] = term1(2, 0, 1, 1, 0);
	t[1].n_factors = 2;
	t[1].factors[1] = (struct scaling_factor){
	    .param = 1, .exponent = 1, .exponent_num = 1, .exponent_den = 1};
	t[2] = term1(123456, 1, 1, 1, 1);
	m.constant = -0.001;
	expect(&m, 2, 3, "2*x*y + 7*x^(3/2) + 1.23e5*y*log2(y) - 1e-3");
	/* stored models: float exponents become fractions when they are
	 * one, else stay floats in parentheses */
	m.n_terms = 1;
	t[0] = term1(4, 1, 0, 0, 0);
	t[0].factors[0].exponent = 1.0 / 3;
	t[0].factors[0].exponent_den = 0;
	t[0].factors[0].log_exponent = 2.0;
	expect(&m, 2, 4, "4*y^(1/3)*log2(y)^2 - 1e-3");
	t[0].factors[0].exponent = M_E;
	t[0].factors[0].log_exponent = 0.5;
	expect(&m, 2, 4, "4*y^(2.71828)*log2(y)^(1/2) - 1e-3");
}

/* A pseudo-random number in [0, 1) (a fixed sequence: the test is
 * repeatable). */
static double rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*s >> 11) / 9007199254740992.0;
}

static void test_parses_back(void **state)
{
	(void)state;
	/* Extra-P's exponents: i/4 and i/3 up to 3, log exponents 0..2 */
	static const int nums[][2] = {{0, 1}, {1, 4}, {1, 3}, {1, 2}, {2, 3},
				      {3, 4}, {1, 1}, {5, 4}, {4, 3}, {3, 2},
				      {5, 3}, {7, 4}, {2, 1}, {9, 4}, {7, 3},
				      {5, 2}, {8, 3}, {11, 4}, {3, 1}, {-1, 2}};
	const size_t n_nums = sizeof(nums) / sizeof(*nums);
	uint64_t seed = 26;
	int checked = 0;
	for (int trial = 0; trial < 2000; trial++) {
		struct scaling_term t[3];
		uint32_t n_params = 1 + (uint32_t)(rnd(&seed) * 3);
		struct scaling_model m = {
		    .kind = n_params > 1 ? SCALING_MULTI : SCALING_SINGLE,
		    .constant = (rnd(&seed) - 0.3) *
				pow(10, rnd(&seed) * 16 - 10),
		    .n_terms = 1 + (uint32_t)(rnd(&seed) * 3),
		    .terms = t};
		for (uint32_t i = 0; i < m.n_terms; i++) {
			t[i] = (struct scaling_term){
			    .coefficient = (rnd(&seed) - 0.3) *
					   pow(10, rnd(&seed) * 16 - 12)};
			for (uint32_t p = 0; p < n_params; p++) {
				if (p > 0 && rnd(&seed) < 0.5)
					continue;
				const int *e = nums[(size_t)(rnd(&seed) *
							     (double)n_nums)];
				int lg = (int)(rnd(&seed) * 3);
				if (e[0] == 0 && lg == 0)
					lg = 1;
				t[i].factors[t[i].n_factors++] =
				    (struct scaling_factor){
					.param = p,
					.exponent = (double)e[0] / e[1],
					.exponent_num = e[0],
					.exponent_den = e[1],
					.log_exponent = lg,
					.log_exponent_int = true};
			}
		}
		int digits = 3 + trial % 2;
		char *text = scaling_text_compact(&m, names, n_params, digits);
		assert_non_null(text);
		for (int k = 0; k < 4; k++) {
			double at[3];
			for (uint32_t p = 0; p < 3; p++)
				at[p] = pow(2, 1 + rnd(&seed) * 20);
			double mag = 0;
			bool bad = false;
			double got = rd_eval(text, at, &mag, &bad);
			double want = scaling_eval(&m, at);
			if (bad)
				fail_msg("'%s' does not parse", text);
			/* each coefficient within half a unit of its last
			 * digit: relative 0.5 * 10^(1 - digits) */
			double tol = 0.5 * pow(10, 1 - digits) * mag * 1.000001 +
				     1e-300;
			if (!(fabs(got - want) <= tol))
				fail_msg("'%s' at (%g, %g, %g): %.17g, model "
					 "%.17g (tolerance %g)",
					 text, at[0], at[1], at[2], got, want,
					 tol);
			checked++;
		}
		free(text);
	}
	assert_int_equal(checked, 8000);
}

/* The first term shown is the one that grows fastest: for a large x it
 * is the largest term in magnitude (on one parameter). */
static void test_first_term_dominates(void **state)
{
	(void)state;
	struct scaling_term t[2];
	struct scaling_model m = {.kind = SCALING_SINGLE, .constant = 5e3,
				  .n_terms = 2, .terms = t};
	t[0] = term1(1e3, 0, 1, 2, 0);  /* 1e3 x^(1/2) */
	t[1] = term1(1e-9, 0, 1, 2, 2); /* tiny, but log2(x)^2 faster */
	char *text = scaling_text_compact(&m, names, 1, 3);
	assert_string_equal(text, "1e-9*x^(1/2)*log2(x)^2 + 1e3*x^(1/2) + 5e3");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_issue_example),
	    cmocka_unit_test(test_order_and_forms),
	    cmocka_unit_test(test_parses_back),
	    cmocka_unit_test(test_first_term_dominates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
