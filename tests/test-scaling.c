/* test-scaling: performance models (scaling.c) and the fitter
 * (scaling_fit.c, scaling_fit_multi.c): degenerate inputs first (no
 * points, one, two, constant, zeros, negative, NaN and inf values,
 * duplicate points, coordinates below 1), exact synthetic functions of one
 * and two parameters recovered, and Extra-P's model text (Python's float
 * repr, fractions, omitted constant and coefficients). */
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
#include <time.h>
#include <unistd.h>

#include "model/scaling.h"
#include "analysis/scaling_fit.h"

static const char *const names[] = {"x", "y", "z"};

/* |a - b| <= eps (cmocka 1.1.5 has no assert_double_equal) */
#define assert_double_equal(a, b, eps) \
	assert_true(fabs((double)(a) - (double)(b)) <= (double)(eps))

/* ---- text --------------------------------------------------------- */

static void expect_const_text(double c, const char *want)
{
	struct scaling_model m = {.kind = SCALING_CONSTANT, .constant = c};
	char *t = scaling_text(&m, names, 1);

	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

static void test_repr(void **state)
{
	(void)state;
	expect_const_text(0.0, "0.0");
	expect_const_text(-0.0, "-0.0");
	expect_const_text(1.0, "1.0");
	expect_const_text(0.1, "0.1");
	expect_const_text(1.0 / 3, "0.3333333333333333");
	expect_const_text(-0.5, "-0.5");
	expect_const_text(1e16, "1e+16");
	expect_const_text(9999999999999998.0, "9999999999999998.0");
	expect_const_text(123456789012345680.0, "1.2345678901234568e+17");
	expect_const_text(0.0001, "0.0001");
	expect_const_text(0.00001, "1e-05");
	expect_const_text(1.5e-5, "1.5e-05");
	expect_const_text(9.99997985800278e-07, "9.99997985800278e-07");
	expect_const_text(1.5005727639296185, "1.5005727639296185");
	expect_const_text(4.0680000000000005, "4.0680000000000005");
	expect_const_text(5e-324, "5e-324");
	expect_const_text(1.7976931348623157e308, "1.7976931348623157e+308");
	expect_const_text(1e22, "1e+22");
	expect_const_text(123.0, "123.0");
	expect_const_text((double)NAN, "nan");
	expect_const_text((double)INFINITY, "inf");
	expect_const_text(-(double)INFINITY, "-inf");
}

static struct scaling_term term1(double coef, uint32_t param, int num,
				 int den, double lg)
{
	struct scaling_term t = {.coefficient = coef, .n_factors = 1};

	t.factors[0] = (struct scaling_factor){
		.param = param,
		.exponent = den ? (double)num / den : num,
		.exponent_num = num,
		.exponent_den = den,
		.log_exponent = lg,
		.log_exponent_int = den != 0,
	};
	return t;
}

static void test_text_terms(void **state)
{
	struct scaling_term t[3];
	struct scaling_model m = {.kind = SCALING_SINGLE, .terms = t};
	char *s;

	(void)state;
	t[0] = term1(2.0, 0, 3, 2, 1);
	m.constant = 3;
	m.n_terms = 1;
	s = scaling_text(&m, names, 1);
	assert_string_equal(s, "3.0 + 2.0 * x^(3/2) * log2(x)^(1)");
	free(s);
	/* pure log, negative coefficient */
	t[0] = term1(-0.5, 0, 0, 1, 2);
	s = scaling_text(&m, names, 1);
	assert_string_equal(s, "3.0 + -0.5 * log2(x)^(2)");
	free(s);
	/* integer exponent, coefficient 1 and constant 0 left out */
	m.kind = SCALING_MULTI;
	m.constant = 0;
	m.n_terms = 2;
	t[0] = term1(1.0, 0, 2, 1, 0);
	t[1] = term1(0.9999999999999998, 1, 1, 1, 0);
	s = scaling_text(&m, names, 2);
	assert_string_equal(s, "x^(2) + 0.9999999999999998 * y^(1)");
	free(s);
	/* a product, in parameter order */
	m.constant = 1.5;
	m.n_terms = 1;
	t[0] = term1(0.25, 0, 1, 3, 0);
	t[0].n_factors = 2;
	t[0].factors[1] = (struct scaling_factor){
		.param = 1, .exponent_den = 1, .log_exponent = 1,
		.log_exponent_int = true};
	s = scaling_text(&m, names, 2);
	assert_string_equal(s, "1.5 + 0.25 * x^(1/3) * log2(y)^(1)");
	free(s);
	/* stored models: float exponents */
	m.n_terms = 1;
	t[0] = term1(4.0, 1, 2, 0, 0);
	t[0].factors[0].exponent = 2.0;
	t[0].factors[0].log_exponent = 1.0;
	t[0].factors[0].log_exponent_int = false;
	s = scaling_text(&m, names, 2);
	assert_string_equal(s, "1.5 + 4.0 * y^(2.0) * log2(y)^(1.0)");
	free(s);
	/* a stored fraction with a float log exponent (.extra-p) */
	t[0] = term1(2.5, 0, 3, 2, 2);
	t[0].factors[0].log_exponent_int = false;
	s = scaling_text(&m, names, 2);
	assert_string_equal(s, "1.5 + 2.5 * x^(3/2) * log2(x)^(2.0)");
	free(s);
	t[0] = term1(4.0, 1, 2, 0, 0);
	t[0].factors[0].exponent = 0.5;
	t[0].factors[0].log_exponent = 0;
	s = scaling_text(&m, names, 2);
	assert_string_equal(s, "1.5 + 4.0 * y^(0.5)");
	free(s);
}

static void test_eval_copy(void **state)
{
	struct scaling_term t[1];
	struct scaling_model m = {.kind = SCALING_SINGLE, .terms = t,
				  .n_terms = 1, .constant = 3}, c;
	double x = 16;
	struct error err = {0};

	(void)state;
	t[0] = term1(2.0, 0, 3, 2, 1);
	assert_double_equal(scaling_eval(&m, &x), 3 + 2 * 64.0 * 4, 1e-9);
	assert_int_equal(scaling_model_copy(&c, &m, &err), STATUS_OK);
	assert_ptr_not_equal(c.terms, m.terms);
	assert_double_equal(scaling_eval(&c, &x), scaling_eval(&m, &x), 0);
	scaling_model_clear(&c);
	assert_null(c.terms);
	assert_int_equal(c.n_terms, 0);
	assert_double_equal(scaling_eval(&c, &x), 0, 0);
}

/* ---- the fitter: degenerate inputs -------------------------------- */

static struct scaling_model fit1(const double *x, const double *y, uint32_t n,
				 unsigned *warn)
{
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(1, &err);
	struct scaling_model m = {0};

	assert_non_null(f);
	assert_int_equal(scaling_fit(f, x, y, n, &m, warn, &err), STATUS_OK);
	scaling_fitter_free(f);
	return m;
}

/* m is one term x^exponent log2(x)^log_exponent with this coefficient
 * (to 1e-9). */
static void assert_single_term(const struct scaling_model *m,
			       double exponent, double log_exponent,
			       double coefficient)
{
	assert_int_equal(m->kind, SCALING_SINGLE);
	assert_double_equal(m->terms[0].factors[0].exponent, exponent, 0);
	assert_double_equal(m->terms[0].factors[0].log_exponent, log_exponent,
			    0);
	assert_double_equal(m->terms[0].coefficient, coefficient, 1e-9);
}

static void test_fit_bad(void **state)
{
	struct error err = {0};
	struct scaling_fitter *f;
	struct scaling_model m = {0};
	double x = 1, y = 1;

	(void)state;
	assert_null(scaling_fitter_new(0, &err));
	assert_int_equal(err.status, STATUS_USAGE);
	error_clear(&err);
	assert_null(scaling_fitter_new(SCALING_MAX_PARAMS + 1, &err));
	error_clear(&err);
	f = scaling_fitter_new(1, &err);
	assert_int_equal(scaling_fit(f, &x, &y, 0, &m, NULL, &err),
			 STATUS_USAGE);
	assert_int_equal(m.n_terms, 0);
	error_clear(&err);
	scaling_fitter_free(f);
	scaling_fitter_free(NULL);
}

static void test_fit_one_two(void **state)
{
	double x[] = {4, 8}, y[] = {7.5, 9};
	unsigned warn = 0;
	struct scaling_model m;

	(void)state;
	m = fit1(x, y, 1, &warn);
	assert_int_equal(m.kind, SCALING_CONSTANT);
	assert_double_equal(m.constant, 7.5, 0);
	assert_true(warn & SCALING_WARN_FEW_POINTS);
	scaling_model_clear(&m);
	m = fit1(x, y, 2, NULL); /* Extra-P: AR2 from n - 2 = 0 dof */
	assert_true(m.kind == SCALING_CONSTANT || m.kind == SCALING_SINGLE);
	scaling_model_clear(&m);
}

static void test_fit_constant_zero(void **state)
{
	double x[] = {1, 2, 4, 8, 16}, y[] = {5, 5, 5, 5, 5}, z[5] = {0};
	struct scaling_model m;
	char *s;

	(void)state;
	m = fit1(x, y, 5, NULL);
	assert_int_equal(m.kind, SCALING_CONSTANT);
	assert_double_equal(m.constant, 5, 0);
	assert_double_equal(m.rss, 0, 0);
	assert_double_equal(m.ar2, 1, 0);
	scaling_model_clear(&m);
	m = fit1(x, z, 5, NULL);
	assert_int_equal(m.kind, SCALING_CONSTANT);
	s = scaling_text(&m, names, 1);
	assert_string_equal(s, "0.0");
	free(s);
	assert_true(isnan(m.nrss)); /* mean 0 */
	scaling_model_clear(&m);
}

static void test_fit_negative(void **state)
{
	double x[] = {2, 4, 8, 16, 32, 64}, y[6];
	struct scaling_model m;

	(void)state;
	for (int i = 0; i < 6; i++)
		y[i] = -3 - 2 * x[i];
	m = fit1(x, y, 6, NULL);
	assert_single_term(&m, 1, 0, -2);
	assert_int_equal(m.n_terms, 1);
	assert_double_equal(m.constant, -3, 1e-9);
	scaling_model_clear(&m);
}

static void test_fit_nan_inf(void **state)
{
	double x[] = {2, 4, 8, 16, 32, 64, 128};
	double y[] = {4, 16, (double)NAN, 256, 1024, 4096, 16384};
	double x2[] = {2, 4, 16, 32, 64, 128};
	double y2[] = {4, 16, 256, 1024, 4096, 16384};
	double yn[] = {(double)NAN, (double)NAN, (double)NAN};
	double yi[] = {1, 2, (double)INFINITY, 4, 5, 6, 7};
	struct scaling_model a, b;
	char *sa, *sb;

	(void)state;
	a = fit1(x, y, 7, NULL); /* a NaN is a point without a value */
	b = fit1(x2, y2, 6, NULL);
	sa = scaling_text(&a, names, 1);
	sb = scaling_text(&b, names, 1);
	assert_string_equal(sa, sb);
	assert_double_equal(a.smape, b.smape, 0);
	free(sa);
	free(sb);
	scaling_model_clear(&a);
	scaling_model_clear(&b);
	a = fit1(x, yn, 3, NULL); /* all NaN: Extra-P's constant "nan" */
	assert_int_equal(a.kind, SCALING_CONSTANT);
	assert_true(isnan(a.constant));
	scaling_model_clear(&a);
	a = fit1(x, yi, 7, NULL); /* inf: no crash, some model */
	scaling_model_clear(&a);
}

static void test_fit_duplicates_and_small_x(void **state)
{
	double x[] = {2, 2, 4, 4, 8, 8, 16, 16}, y[8];
	double xs[] = {0.25, 0.5, 1, 2, 4, 8}, ys[6];
	unsigned warn = 0;
	struct scaling_model m;

	(void)state;
	for (int i = 0; i < 8; i++)
		y[i] = 1 + x[i] * x[i] + (i % 2 ? 0.01 : -0.01);
	m = fit1(x, y, 8, &warn);
	assert_int_equal(m.kind, SCALING_SINGLE);
	assert_double_equal(m.terms[0].factors[0].exponent, 2, 0);
	assert_int_equal(warn, 0);
	scaling_model_clear(&m);
	for (int i = 0; i < 6; i++)
		ys[i] = 2 + 3 * xs[i] * xs[i];
	m = fit1(xs, ys, 6, &warn);
	assert_true(warn & SCALING_WARN_LOG_DROPPED);
	assert_single_term(&m, 2, 0, 3);
	scaling_model_clear(&m);
}

/* ---- exact synthetic functions ---------------------------------------- */

static void test_fit_synthetic_one(void **state)
{
	double x[] = {2, 4, 8, 16, 32, 64, 128}, y[7];
	struct scaling_model m;

	(void)state;
	for (int i = 0; i < 7; i++)
		y[i] = 3 + 2 * pow(x[i], 1.5) * log2(x[i]);
	m = fit1(x, y, 7, NULL);
	assert_int_equal(m.kind, SCALING_SINGLE);
	assert_int_equal(m.terms[0].factors[0].exponent_num, 3);
	assert_int_equal(m.terms[0].factors[0].exponent_den, 2);
	assert_double_equal(m.terms[0].factors[0].log_exponent, 1, 0);
	assert_double_equal(m.terms[0].coefficient, 2, 1e-9);
	assert_double_equal(m.constant, 3, 1e-6);
	assert_true(m.smape < 1e-6);
	assert_true(fabs(scaling_eval(&m, &x[3]) - y[3]) < 1e-6 * y[3]);
	scaling_model_clear(&m);
	/* a pure log */
	for (int i = 0; i < 7; i++)
		y[i] = 10 + 4 * log2(x[i]) * log2(x[i]);
	m = fit1(x, y, 7, NULL);
	assert_single_term(&m, 0, 2, 4);
	scaling_model_clear(&m);
}

static void test_fit_synthetic_two(void **state)
{
	double px[] = {2, 4, 8, 16, 32}, py[] = {1, 2, 3, 4, 5};
	double coords[50], y[25];
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(2, &err);
	struct scaling_model m = {0};
	char *s;

	(void)state;
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++) {
			int k = i * 5 + j;

			coords[2 * k] = px[i];
			coords[2 * k + 1] = py[j];
			y[k] = 5 + 2 * px[i] * sqrt(py[j]);
		}
	assert_int_equal(scaling_fit(f, coords, y, 25, &m, NULL, &err),
			 STATUS_OK);
	assert_int_equal(m.kind, SCALING_MULTI);
	assert_int_equal(m.n_terms, 1);
	assert_int_equal(m.terms[0].n_factors, 2);
	assert_double_equal(m.terms[0].factors[0].exponent, 1, 0);
	assert_int_equal(m.terms[0].factors[1].param, 1);
	assert_double_equal(m.terms[0].factors[1].exponent, 0.5, 0);
	assert_double_equal(m.terms[0].coefficient, 2, 1e-9);
	assert_double_equal(m.constant, 5, 1e-6);
	s = scaling_text(&m, names, 2);
	assert_non_null(strstr(s, " * x^(1) * y^(1/2)"));
	free(s);
	scaling_model_clear(&m);
	/* an additive model: x^2 + 3 log2(y) */
	for (int k = 0; k < 25; k++)
		y[k] = 1 + coords[2 * k] * coords[2 * k] +
		       3 * log2(coords[2 * k + 1]);
	assert_int_equal(scaling_fit(f, coords, y, 25, &m, NULL, &err),
			 STATUS_OK);
	assert_int_equal(m.n_terms, 2);
	assert_double_equal(m.terms[0].coefficient, 1, 1e-9);
	assert_double_equal(m.terms[1].coefficient, 3, 1e-9);
	scaling_model_clear(&m);
	/* constant in both parameters */
	for (int k = 0; k < 25; k++)
		y[k] = 7;
	assert_int_equal(scaling_fit(f, coords, y, 25, &m, NULL, &err),
			 STATUS_OK);
	assert_int_equal(m.kind, SCALING_CONSTANT);
	assert_double_equal(m.constant, 7, 0);
	scaling_model_clear(&m);
	scaling_fitter_free(f);
}

/* The same fitter on many series sharing the coordinates (its caches)
 * gives what a fresh fitter gives. */
static void test_fit_cache_consistent(void **state)
{
	double x[] = {2, 4, 8, 16, 32, 64}, y[6];
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(1, &err);

	(void)state;
	for (int s = 0; s < 40; s++) {
		struct scaling_model a = {0}, b;
		char *sa, *sb;

		for (int i = 0; i < 6; i++)
			y[i] = 1 + s * 0.1 + pow(x[i], 0.25 * (s % 12)) *
						   (1 + 0.01 * ((i * 7 + s) % 5));
		assert_int_equal(scaling_fit(f, x, y, 6, &a, NULL, &err),
				 STATUS_OK);
		b = fit1(x, y, 6, NULL);
		sa = scaling_text(&a, names, 1);
		sb = scaling_text(&b, names, 1);
		assert_string_equal(sa, sb);
		assert_true(a.rss == b.rss || (isnan(a.rss) && isnan(b.rss)));
		free(sa);
		free(sb);
		scaling_model_clear(&a);
		scaling_model_clear(&b);
	}
	scaling_fitter_free(f);
}

/* Eight parameters (SCALING_MAX_PARAMS), all of them non-constant: the
 * full-sum candidate has eight terms and nine coefficients (review finding
 * 1: a stack overflow, UBSan "index 8 out of bounds").  A star design:
 * a base point and five values along each axis. */
static void test_fit_eight_params(void **state)
{
	enum { NP = SCALING_MAX_PARAMS, NPT = 1 + NP * 4 };
	double coords[NPT * NP], y[NPT], v[] = {4, 8, 16, 32};
	struct error err = {0};
	struct scaling_fitter *f = scaling_fitter_new(NP, &err);
	struct scaling_model m = {0};
	uint32_t n = 0;

	(void)state;
	assert_non_null(f);
	for (uint32_t p = 0; p < NP; p++)
		coords[p] = 2;
	n = 1;
	for (uint32_t p = 0; p < NP; p++)
		for (int k = 0; k < 4; k++, n++)
			for (uint32_t q = 0; q < NP; q++)
				coords[n * NP + q] = q == p ? v[k] : 2;
	for (uint32_t i = 0; i < NPT; i++) {
		y[i] = 1;
		for (uint32_t p = 0; p < NP; p++)
			y[i] += (p + 1) * coords[i * NP + p];
	}
	assert_int_equal(scaling_fit(f, coords, y, NPT, &m, NULL, &err),
			 STATUS_OK);
	assert_int_equal(m.kind, SCALING_MULTI);
	assert_int_equal(m.n_terms, NP);
	for (uint32_t t = 0; t < NP; t++) {
		assert_int_equal(m.terms[t].n_factors, 1);
		assert_int_equal(m.terms[t].factors[0].param, t);
		assert_double_equal(m.terms[t].coefficient, t + 1, 1e-6);
	}
	assert_double_equal(m.constant, 1, 1e-6);
	scaling_model_clear(&m);
	scaling_fitter_free(f);
	/* more than the fitter can take: refused, not a crash */
	assert_null(scaling_fitter_new(NP + 1, &err));
	assert_int_equal(err.status, STATUS_USAGE);
	error_clear(&err);
}

/* Coordinates that make a design matrix non-finite (a negative one and
 * fractional powers, 1e300 squared, inf): LAPACK is never called with a
 * NaN or an inf (its XERBLA printed "Parameter 4 to routine DLASCL was
 * incorrect" on stderr, and the fit failed), the hypotheses with such
 * values are discarded and the others still give a model (review finding
 * 3).  Whatever the fitter writes on stderr is caught in a file. */
static void test_fit_nonfinite_design(void **state)
{
	double xn[] = {-4, 2, 4, 8, 16, 32}, xb[] = {2, 4, 8, 16, 32, 1e300};
	double xi[] = {2, 4, 8, 16, 32, (double)INFINITY};
	double yi[] = {5, 9, 17, 33, 65, 100}, y[6];
	double px[] = {-2, 2, 4, 8, 16}, py[] = {1, 2, 3, 4, 5};
	double coords[50], y2[25];
	struct error err = {0};
	struct scaling_fitter *f2 = scaling_fitter_new(2, &err);
	struct scaling_model m = {0};
	FILE *cap = tmpfile();
	int saved = dup(2);
	long size;

	(void)state;
	assert_non_null(cap);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(cap), 2) == 2);
	/* a negative coordinate: x^(1/2) and the like are NaN, x^1 fits */
	for (int i = 0; i < 6; i++)
		y[i] = 1 + 2 * xn[i];
	m = fit1(xn, y, 6, NULL);
	assert_int_equal(m.kind, SCALING_SINGLE);
	assert_double_equal(m.terms[0].factors[0].exponent, 1, 0);
	assert_double_equal(m.terms[0].coefficient, 2, 1e-9);
	assert_double_equal(m.constant, 1, 1e-9);
	scaling_model_clear(&m);
	/* 1e300: x^(1/2) and beyond are too large for dgelsd (x^2
	 * overflows), x^(1/4) is 1e75 and fits */
	for (int i = 0; i < 6; i++)
		y[i] = 1 + 2 * pow(xb[i], 0.25);
	m = fit1(xb, y, 6, NULL);
	assert_int_equal(m.kind, SCALING_SINGLE);
	assert_int_equal(m.terms[0].factors[0].exponent_num, 1);
	assert_int_equal(m.terms[0].factors[0].exponent_den, 4);
	assert_double_equal(m.terms[0].coefficient, 2, 1e-9);
	assert_true(isfinite(m.smape));
	scaling_model_clear(&m);
	/* inf: every term is inf there, the constant remains */
	m = fit1(xi, yi, 6, NULL);
	assert_int_equal(m.kind, SCALING_CONSTANT);
	assert_double_equal(m.constant, 229.0 / 6, 1e-12);
	scaling_model_clear(&m);
	/* two parameters, x negative at one value: x's fractional powers are
	 * discarded, x^1 * y stays */
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++) {
			int k = i * 5 + j;

			coords[2 * k] = px[i];
			coords[2 * k + 1] = py[j];
			y2[k] = 50 + 2 * px[i] * py[j];
		}
	assert_int_equal(scaling_fit(f2, coords, y2, 25, &m, NULL, &err),
			 STATUS_OK);
	assert_int_equal(m.kind, SCALING_MULTI);
	assert_true(isfinite(m.smape));
	scaling_model_clear(&m);
	scaling_fitter_free(f2);
	fflush(stderr);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	fseek(cap, 0, SEEK_END);
	size = ftell(cap);
	if (size > 0) {
		char buf[200] = "";

		rewind(cap);
		fread(buf, 1, sizeof buf - 1, cap);
		fprintf(stderr, "stderr during the fits: %s\n", buf);
	}
	fclose(cap);
	assert_int_equal(size, 0);
}

/* Many points in one series (review finding 2: the pseudo-inverses per
 * hypothesis and left-out point cost O(42 n^3): 400 points took 21 s,
 * 800 points 167 s and 430 MB).  400 points fit in well under 5 s, and
 * every route gives what dgelsd alone gives, on both sides of the point
 * count where the cache stops being built. */
static void test_fit_many_points(void **state)
{
	static const uint32_t counts[] = {64, 65, 400};
	enum { N = 400 };
	double x[N], y[N];

	(void)state;
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		uint32_t n = counts[c];
		struct error err = {0};
		struct scaling_fitter *f = scaling_fitter_new(1, &err);
		struct scaling_fitter *d = scaling_fitter_new(1, &err);
		struct scaling_model a = {0}, b = {0};
		struct timespec t0, t1;
		char *sa, *sb;

		for (uint32_t i = 0; i < n; i++) {
			x[i] = 2 + i;
			y[i] = 3 + 2 * pow(x[i], 1.5) *
					   (1 + 0.001 * ((i * 7) % 5));
		}
		scaling_fitter_set_direct(d, true);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(scaling_fit(f, x, y, n, &a, NULL, &err),
				 STATUS_OK);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		assert_int_equal(scaling_fit(d, x, y, n, &b, NULL, &err),
				 STATUS_OK);
		assert_true((double)(t1.tv_sec - t0.tv_sec) +
				    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9 <
			    5.0);
		assert_int_equal(a.kind, SCALING_SINGLE);
		assert_int_equal(a.terms[0].factors[0].exponent_num, 3);
		sa = scaling_text(&a, names, 1);
		sb = scaling_text(&b, names, 1);
		assert_string_equal(sa, sb);
		assert_true(a.rss == b.rss && a.smape == b.smape &&
			    a.ar2 == b.ar2 && a.re == b.re);
		free(sa);
		free(sb);
		scaling_model_clear(&a);
		scaling_model_clear(&b);
		scaling_fitter_free(f);
		scaling_fitter_free(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repr),
		cmocka_unit_test(test_text_terms),
		cmocka_unit_test(test_eval_copy),
		cmocka_unit_test(test_fit_bad),
		cmocka_unit_test(test_fit_one_two),
		cmocka_unit_test(test_fit_constant_zero),
		cmocka_unit_test(test_fit_negative),
		cmocka_unit_test(test_fit_nan_inf),
		cmocka_unit_test(test_fit_duplicates_and_small_x),
		cmocka_unit_test(test_fit_synthetic_one),
		cmocka_unit_test(test_fit_synthetic_two),
		cmocka_unit_test(test_fit_cache_consistent),
		cmocka_unit_test(test_fit_eight_params),
		cmocka_unit_test(test_fit_nonfinite_design),
		cmocka_unit_test(test_fit_many_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
