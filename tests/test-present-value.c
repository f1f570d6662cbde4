/* Tests of present_value_fit / present_number_fit: every number the viewer
 * draws.  Degenerate inputs first (no room, NaN, infinities, zero,
 * out-of-range scales), then the forms a reader expects for each unit,
 * then an exhaustive sweep: for many values of every kind and every width
 * from 1 to 20 the output is never longer than the width, is printable
 * ASCII without an ellipsis, and read back (digit groups, unit suffixes)
 * gives the value within the precision it shows.  The expected strings
 * are worked out by hand from the values (373,300,000 ns = 0.3733 s). */
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

#include "model/model.h"
#include "model/model_internal.h" /* a model made by hand: its struct */
#include "present/present_value.h"

static const struct present_kind plain_2e = {
    .unit = PRESENT_PLAIN, .scale = 1, .format = "%.2e"};
static const struct present_kind plain_g = {
    .unit = PRESENT_PLAIN, .scale = 1, .format = "%.4g"};
static const struct present_kind plain_none = {
    .unit = PRESENT_PLAIN, .scale = 1, .format = NULL};
static const struct present_kind count = {
    .unit = PRESENT_COUNT, .scale = 1, .format = "%.0f"};
static const struct present_kind time_ns = {
    .unit = PRESENT_TIME, .scale = 1e-9, .format = "%.3e"};
static const struct present_kind time_us = {
    .unit = PRESENT_TIME, .scale = 1e-6, .format = "%.2e"};
static const struct present_kind time_s = {
    .unit = PRESENT_TIME, .scale = 1, .format = "%.4g"};
static const struct present_kind bytes = {
    .unit = PRESENT_BYTES, .scale = 1, .format = "%.0f"};

/* The kinds some cases change: a count in a column's chosen form, a scale
 * that is no scale (zero, negative, infinite: taken as 1), a format that
 * is not safe, and one whose output is longer than any buffer. */
static const struct present_kind count_digits = {
    .unit = PRESENT_COUNT,
    .scale = 1,
    .format = "%.0f",
    .count_form = PRESENT_COUNT_DIGITS};
static const struct present_kind count_si = {.unit = PRESENT_COUNT,
					      .scale = 1,
					      .format = "%.0f",
					      .count_form = PRESENT_COUNT_SI};
static const struct present_kind time_zero = {
    .unit = PRESENT_TIME, .scale = 0, .format = NULL};
static const struct present_kind time_minus = {
    .unit = PRESENT_TIME, .scale = -1, .format = NULL};
static const struct present_kind time_inf = {
    .unit = PRESENT_TIME, .scale = INFINITY, .format = NULL};
static const struct present_kind plain_unsafe = {
    .unit = PRESENT_PLAIN, .scale = 1, .format = "%s%n"};
static const struct present_kind plain_long = {
    .unit = PRESENT_PLAIN, .scale = 1, .format = "%.60f"};

/* One row: in GROUP (what it checks, named when it fails), value V of
 * kind K in WIDTH columns is written WANT. */
struct fit_case {
	const char *group;
	const struct present_kind *k;
	double v;
	int width;
	const char *want;
};

static const struct fit_case cases[] = {
    /* ---- degenerate inputs ---- */
    {"not finite", &count, NAN, 9, "nan"},
    {"not finite", &time_ns, INFINITY, 9, "inf"},
    {"not finite", &bytes, -INFINITY, 9, "-inf"},
    {"not finite", &bytes, -INFINITY, 3, "#"},
    {"not finite", &plain_2e, NAN, 2, "#"},
    {"not finite", &plain_2e, NAN, 1, "#"},
    {"zero", &count, 0, 1, "0"},
    {"zero", &time_ns, 0, 9, "0"},
    {"zero", &bytes, -0.0, 9, "0"},
    {"zero", &plain_2e, 0, 9, "0"},
    /* 7.3e11 cannot be written in 1 or 2 columns: "#", not "7" */
    {"nothing fits", &count, 732833917381.0, 1, "#"},
    {"nothing fits", &count, 732833917381.0, 2, "#"},
    /* 7e11 is "700G", "7e11": four columns */
    {"nothing fits", &count, 732833917381.0, 3, "#"},
    {"nothing fits", &time_ns, 373300000, 2, "#"},
    /* a zero, negative or infinite scale is taken as 1 */
    {"bad scale", &time_zero, 2, 9, "2.000 s"},
    {"bad scale", &time_minus, 2, 9, "2.000 s"},
    {"bad scale", &time_inf, 2, 9, "2.000 s"},
    /* scaled out of a double's range: the general form, own unit */
    {"bad scale", &time_ns, 1e-320, 12, "1e-320"},
    /* subnormal once scaled is still a number */
    {"bad scale", &time_ns, 1e-310, 12, "1e-310 ns"},
    /* ---- the forms ---- */
    /* 373,300,000 ns = 0.3733 s */
    {"time", &time_ns, 373300000, 9, "373.3 ms"},
    {"time", &time_ns, 373300000, 8, "373.3 ms"},
    {"time", &time_ns, 373300000, 7, "373 ms"},
    {"time", &time_ns, 373300000, 6, "373 ms"},
    {"time", &time_ns, 373300000, 5, "373ms"},
    /* below 5 columns the unit cannot be written: the value in the
     * column's own unit (ns), 3.7e8 */
    {"time", &time_ns, 373300000, 4, "4e8"},
    {"time", &time_ns, -373300000, 9, "-373.3 ms"},
    {"time", &time_ns, 1500, 9, "1.500 us"},
    {"time", &time_ns, 12, 9, "12.00 ns"},
    {"time", &time_ns, 0.5, 9, "0.5000 ns"},
    /* rounding up crosses into the next unit: 999.96 ms -> 1.000 s */
    {"time", &time_ns, 999960000, 9, "1.000 s"},
    {"time", &time_us, 328000000, 9, "328.0 s"},
    {"time", &time_s, 45.32, 9, "45.32 s"},
    {"time", &time_s, 2869, 9, "2869 s"},
    {"time", &time_s, 12345.6, 9, "12346 s"},
    {"time", &time_s, 99999.7, 9, "1e5 s"},
    /* beyond 1e5 of the largest unit: scientific mantissa */
    {"time", &time_s, 3.2e7, 9, "3.2e7 s"},
    /* 3,932,160,000 bytes: 3.93216 GB (critique a1 read it as 39 MB) */
    {"bytes", &bytes, 3932160000.0, 9, "3.932 GB"},
    {"bytes", &bytes, 3932160000.0, 7, "3.93 GB"},
    {"bytes", &bytes, 3932160000.0, 5, "4 GB"},
    {"bytes", &bytes, 512, 9, "512 B"},
    {"bytes", &bytes, 512.5, 9, "512.5 B"},
    {"bytes", &bytes, 1000, 9, "1.000 KB"},
    {"bytes", &bytes, 2.5e6, 9, "2.500 MB"},
    {"bytes", &bytes, 7e19, 9, "70.00 EB"},
    /* critique a1: 732,833,917,381 shown as "73283391…" */
    {"count", &count, 732833917381.0, 20, "732,833,917,381"},
    {"count", &count, 732833917381.0, 15, "732,833,917,381"},
    {"count", &count, 732833917381.0, 14, "732833917381"},
    {"count", &count, 732833917381.0, 12, "732833917381"},
    {"count", &count, 732833917381.0, 11, "732.8 G"},
    {"count", &count, 732833917381.0, 7, "732.8 G"},
    {"count", &count, 732833917381.0, 6, "733 G"},
    {"count", &count, 732833917381.0, 4, "733G"},
    {"count", &count, -6278914, 10, "-6,278,914"},
    {"count", &count, 999, 3, "999"},
    {"count", &count, 6278914, 5, "6.3 M"},
    {"count", &count, 6278914, 3, "6 M"},
    {"count", &count, 6278914, 2, "6M"},
    /* a column's chosen form */
    {"count", &count_digits, 687642879, 20, "687642879"},
    {"count", &count_digits, 732833917381.0, 9, "732.8 G"},
    {"count", &count_si, 687642879, 20, "687.6 M"},
    {"count", &count_si, 999, 20, "999"},
    {"count", &count_si, 2.5, 20, "2.5"},
    /* a count that is not whole (a mean) takes the general form */
    {"count", &count, 2.5, 9, "2.5"},
    /* the database's format when it fits */
    {"plain", &plain_2e, 3.28e8, 9, "3.28e+08"},
    {"plain", &plain_g, 62.34, 9, "62.34"},
    /* else the general forms, exponent made short */
    {"plain", &plain_2e, 3.28e8, 7, "3.28e8"},
    {"plain", &plain_2e, 3.28e8, 3, "3e8"},
    {"plain", &plain_2e, -1.5e-7, 8, "-1.5e-7"},
    {"plain", &plain_none, 1234.5, 9, "1234.5"},
    /* a format that is not safe is not used */
    {"plain", &plain_unsafe, 1.25, 9, "1.25"},
    /* a format whose output is longer than any buffer is not cut */
    {"plain", &plain_long, 1.0, 30, "1"},
};

/* Every row; each row that fails names itself (its group and index), and
 * the test fails when any did. */
static void test_cases(void **state)
{
	(void)state;
	size_t failed = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fit_case *c = &cases[i];
		char buf[64];
		size_t n = present_number_fit(*c->k, c->v, c->width,
					      PRESENT_DIGITS, buf, sizeof(buf));
		if (strcmp(buf, c->want) == 0 && n == strlen(c->want))
			continue;
		print_error("%s row %zu: %.17g in %d columns gave \"%s\" "
			    "(%zu), want \"%s\"\n",
			    c->group, i, c->v, c->width, buf, n, c->want);
		failed++;
	}
	assert_int_equal(failed, 0);
}

/* ---- degenerate inputs ---- */

static void test_no_room(void **state)
{
	(void)state;
	char buf[8] = "xxxxxxx";
	assert_int_equal(present_number_fit(count, 5, 0, 4, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "");
	assert_int_equal(present_number_fit(count, 5, -3, 4, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "");
	/* a one-byte buffer holds only the terminator */
	assert_int_equal(present_number_fit(count, 5, 10, 4, buf, 1), 0);
	assert_string_equal(buf, "");
	assert_int_equal(present_number_fit(count, 5, 10, 4, NULL, 0), 0);
	/* a buffer smaller than the width bounds the output too (to a
	 * shorter form, not a cut "123") */
	assert_int_equal(present_number_fit(count, 123456, 20, 4, buf, 4), 3);
	assert_string_equal(buf, "1e5");
}

/* ---- through a model's columns ---- */

static char c_time[] = "CPUTIME (sec)", c_us[] = "WALLCLOCK (us)",
	    c_gpu[] = "GPU time (ns)", c_bytes[] = "Bytes", c_calls[] = "Calls",
	    c_cyc[] = "cycles", c_ins[] = "PAPI_TOT_INS", c_t[] = "time",
	    c_sq[] = "Duration squared (ns^2)", v_sum[] = "Sum",
	    v_cfv[] = "CfVar", v_mean[] = "Mean", f_2e[] = "%.2e",
	    f_0f[] = "%.0f", f_4g[] = "%.4g";

static struct model_column cols[] = {
    {.name = c_time, .variant = v_sum, .format = f_2e},
    {.name = c_us, .variant = v_mean, .format = f_2e},
    {.name = c_us, .variant = v_cfv, .format = f_2e},
    {.name = c_gpu, .variant = v_sum, .format = f_2e},
    {.name = c_bytes, .variant = v_sum, .format = f_0f},
    {.name = c_calls, .variant = v_sum, .format = f_0f},
    {.name = c_cyc, .variant = v_sum, .format = f_2e},
    {.name = c_ins, .format = f_0f, .unit = UNIT_COUNT},
    {.name = c_t, .format = f_4g, .unit = UNIT_SECONDS},
    {.name = c_sq, .variant = v_sum, .format = f_2e},
    {.name = c_t, .format = NULL, .unit = UNIT_NUMBER},
};
static const struct model model = {
    .columns = cols,
    .n_columns = sizeof(cols) / sizeof(cols[0]),
};

static void expect_col(uint32_t c, double v, int width, const char *want)
{
	char buf[64];
	present_value_fit(&model, c, v, width, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_column_kinds(void **state)
{
	(void)state;
	struct present_kind k = present_column_kind(&model, 0);
	assert_int_equal(k.unit, PRESENT_TIME);
	assert_true(k.scale == 1);
	k = present_column_kind(&model, 1);
	assert_int_equal(k.unit, PRESENT_TIME);
	assert_true(k.scale == 1e-6);
	assert_int_equal(present_column_kind(&model, 2).unit, PRESENT_PLAIN);
	assert_int_equal(present_column_kind(&model, 3).unit, PRESENT_TIME);
	assert_int_equal(present_column_kind(&model, 4).unit, PRESENT_BYTES);
	assert_int_equal(present_column_kind(&model, 5).unit, PRESENT_COUNT);
	assert_int_equal(present_column_kind(&model, 6).unit, PRESENT_PLAIN);
	assert_int_equal(present_column_kind(&model, 7).unit, PRESENT_COUNT);
	assert_int_equal(present_column_kind(&model, 8).unit, PRESENT_TIME);
	/* ns^2 is no time */
	assert_int_equal(present_column_kind(&model, 9).unit, PRESENT_PLAIN);
	k = present_column_kind(&model, 10);
	assert_int_equal(k.unit, PRESENT_PLAIN);
	assert_string_equal(k.format, "%.2e");
	/* a derived column (past the model's) */
	assert_int_equal(present_column_kind(&model, 99).unit, PRESENT_PLAIN);
	assert_int_equal(present_column_kind(NULL, 0).unit, PRESENT_PLAIN);

	expect_col(0, 96.2957, 9, "96.30 s");
	expect_col(1, 1.02e7, 9, "10.20 s");
	expect_col(2, 1310, 9, "1.31e+03");
	expect_col(3, 373300000, 9, "373.3 ms");
	expect_col(4, 3932160000.0, 9, "3.932 GB");
	expect_col(5, 1234567, 9, "1,234,567");
	expect_col(6, 2.87e10, 9, "2.87e+10");
	expect_col(7, 732833917381.0, 9, "732.8 G");
	expect_col(8, 2869, 9, "2869 s");
}

/* ---- read back ---- */

/* The value TEXT shows, in the kind's own unit, and half a unit of its
 * last digit (the precision shown).  false for "#". */
static bool parse_back(struct present_kind k, const char *text, long double *v,
		       long double *half)
{
	if (strcmp(text, "#") == 0)
		return false;
	char num[64];
	size_t n = 0;
	const char *p = text;
	for (; *p && (isdigit((unsigned char)*p) || strchr("+-.,e", *p) ||
		      (*p == 'n' && p[1] == 'a') || strncmp(p, "inf", 3) == 0);
	     p++) {
		if (strncmp(p, "inf", 3) == 0 || strncmp(p, "nan", 3) == 0) {
			memcpy(num + n, p, 3);
			n += 3;
			p += 2;
			continue;
		}
		if (*p != ',')
			num[n++] = *p;
		assert_true(n < sizeof(num) - 4);
	}
	num[n] = '\0';
	char *end;
	long double x = strtold(num, &end);
	assert_true(end == num + n && n > 0);
	/* half of the last digit */
	const char *e = strchr(num, 'e');
	size_t mant = e ? (size_t)(e - num) : n;
	const char *dot = memchr(num, '.', mant);
	int decimals = dot ? (int)(mant - (size_t)(dot - num) - 1) : 0;
	int expo = e ? atoi(e + 1) : 0;
	long double h = 0.5L * powl(10, expo - decimals);
	while (*p == ' ')
		p++;
	long double factor = 1;
	static const struct {
		const char *s;
		double f;
		enum present_unit u;
	} sfx[] = {
	    {"ns", 1e-9, PRESENT_TIME},	 {"us", 1e-6, PRESENT_TIME},
	    {"ms", 1e-3, PRESENT_TIME},	 {"s", 1, PRESENT_TIME},
	    {"B", 1, PRESENT_BYTES},	 {"KB", 1e3, PRESENT_BYTES},
	    {"MB", 1e6, PRESENT_BYTES},	 {"GB", 1e9, PRESENT_BYTES},
	    {"TB", 1e12, PRESENT_BYTES}, {"PB", 1e15, PRESENT_BYTES},
	    {"EB", 1e18, PRESENT_BYTES}, {"k", 1e3, PRESENT_COUNT},
	    {"M", 1e6, PRESENT_COUNT},	 {"G", 1e9, PRESENT_COUNT},
	    {"T", 1e12, PRESENT_COUNT},	 {"P", 1e15, PRESENT_COUNT},
	    {"E", 1e18, PRESENT_COUNT},
	};
	if (*p) {
		size_t i = 0;
		while (i < sizeof(sfx) / sizeof(sfx[0]) &&
		       strcmp(p, sfx[i].s) != 0)
			i++;
		assert_true(i < sizeof(sfx) / sizeof(sfx[0]));
		assert_int_equal(sfx[i].u, k.unit);
		double scale = k.scale > 0 ? k.scale : 1;
		factor = (long double)sfx[i].f /
			 (k.unit == PRESENT_COUNT ? 1 : scale);
	}
	*v = x * factor;
	*half = h * factor;
	return true;
}

static void check_one(struct present_kind k, double v, int width)
{
	char buf[64];
	memset(buf, 'x', sizeof(buf));
	size_t n =
	    present_number_fit(k, v, width, PRESENT_DIGITS, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	assert_true((int)n <= width);
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++)
		assert_true(buf[i] >= 0x20 && buf[i] < 0x7f && buf[i] != '~');
	long double back, half;
	if (!parse_back(k, buf, &back, &half)) {
		/* "#" only where no form can fit: "-1e-300" is 7 columns */
		if (width >= 7)
			fail_msg("%g in %d columns gave #", v, width);
		return;
	}
	if (isnan(v)) {
		assert_true(isnan(back));
		return;
	}
	if (isinf(v)) {
		assert_true(back == v);
		return;
	}
	/* within the precision shown, give or take binary rounding */
	long double tol = half * (1 + 1e-9L) + fabsl(v) * 1e-15L;
	if (!(fabsl(back - v) <= tol))
		fail_msg("%.17g in %d columns shows \"%s\" = %.17Lg (+-%Lg)", v,
			 width, buf, back, half);
}

static void test_sweep(void **state)
{
	(void)state;
	const struct present_kind kinds[] = {plain_2e, plain_g, plain_none,
					     count,    time_ns, time_us,
					     time_s,   bytes,	count_si};
	double values[] = {0,
			   -0.0,
			   NAN,
			   INFINITY,
			   -INFINITY,
			   1,
			   -1,
			   0.5,
			   9.9999,
			   999.96,
			   1000,
			   62.34,
			   45.32,
			   2869,
			   6278914,
			   373300000,
			   3932160000.0,
			   732833917381.0,
			   -732833917381.0,
			   1e15,
			   123456789012345678.0,
			   1e18,
			   9.999999e17,
			   1e300,
			   -1e300,
			   1e-300,
			   -1e-300,
			   1e-12,
			   4.9e-324,
			   1.7976931348623157e308,
			   0.000123456,
			   3.14159265358979};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
			for (int w = 1; w <= 20; w++)
				check_one(kinds[k], values[i], w);
	/* and a spread of magnitudes and mantissas */
	for (int e = -30; e <= 30; e++)
		for (int m = 1; m < 100; m += 7) {
			double v = m * pow(10, e) * 1.23456789;
			for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]);
			     k++)
				for (int w = 1; w <= 20; w++) {
					check_one(kinds[k], v, w);
					check_one(kinds[k], -v, w);
					check_one(kinds[k], floor(v), w);
				}
		}
}

/* more digits on request (the threads pane tells a sum from a summary) */
static void test_more_digits(void **state)
{
	(void)state;
	char a[64], b[64];
	present_number_fit(plain_2e, 2.6012345e8, 30, 9, a, sizeof(a));
	present_number_fit(plain_2e, 2.6012346e8, 30, 9, b, sizeof(b));
	/* the format fits, so it wins: digits apply to unit forms */
	assert_string_equal(a, "2.60e+08");
	present_number_fit(time_us, 2.6012345e8, 30, 9, a, sizeof(a));
	present_number_fit(time_us, 2.6012346e8, 30, 9, b, sizeof(b));
	assert_string_equal(a, "260.123450 s");
	assert_string_equal(b, "260.123460 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_room),
	    cmocka_unit_test(test_cases),
	    cmocka_unit_test(test_column_kinds),
	    cmocka_unit_test(test_sweep),
	    cmocka_unit_test(test_more_digits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
