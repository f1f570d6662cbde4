/* Numbers in CSV and JSON (present_write, critique b11: `:export` CSV and
 * `report --format csv` wrote 638.01695800000005 for 638.016958): the
 * shortest text that reads back as the same double.  Degenerate buffers
 * first; then values written out by hand, 20,000 random doubles (every bit
 * pattern that is finite) read back exactly with as few significant digits
 * as an independent search over every precision from 1 to 17 finds, a locale with a decimal comma, and JSON through
 * jansson (which writes %.17g) against hand-written text, strings
 * untouched, read back exactly. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/present_write.h"

static void test_degenerate(void **state)
{
	(void)state;
	char buf[8] = "x";
	assert_int_equal(present_number_text(1.5, NULL, 8), 0);
	assert_int_equal(present_number_text(1.5, buf, 0), 0);
	assert_string_equal(buf, "x");
	/* too small for any form: cut, terminated, within the buffer */
	assert_int_equal(present_number_text(638.016958, buf, 4), 3);
	assert_int_equal(strlen(buf), 3);
	char one[1];
	assert_int_equal(present_number_text(2, one, 1), 0);
	assert_int_equal(one[0], '\0');
}

static void expect(double v, const char *want)
{
	char buf[32];
	size_t n = present_number_text(v, buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_by_hand(void **state)
{
	(void)state;
	expect(638.016958, "638.016958");
	expect(96.295717, "96.295717");
	expect(0.1, "0.1");
	expect(0.1 + 0.2, "0.30000000000000004"); /* needs 17 */
	expect(1.0 / 3.0, "0.3333333333333333");  /* needs 16 */
	expect(732833917381.0, "732833917381");
	expect(0, "0");
	expect(-0.0, "-0");
	expect(1e20, "1e+20");
	expect(5e-324, "4.94065645841247e-324"); /* reads back */
	expect(1.7976931348623157e308, "1.7976931348623157e+308");
	expect(INFINITY, "inf");
	expect(-INFINITY, "-inf");
	expect(NAN, "nan");
}

/* The significant digits of a %g text (mantissa without sign, point,
 * leading and trailing zeros). */
static int significant(const char *t)
{
	char d[40];
	size_t n = 0;
	for (; *t && *t != 'e' && n < sizeof(d); t++)
		if (*t >= '0' && *t <= '9' && (n > 0 || *t != '0'))
			d[n++] = *t;
	while (n > 0 && d[n - 1] == '0')
		n--;
	return (int)n;
}

/* The fewest significant digits (1 to 17) whose %g text reads back as v. */
static int fewest_digits(double v)
{
	char buf[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return significant(buf);
	}
	fail_msg("%.17g does not read back", v);
	return 0;
}

static void test_random(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull; /* xorshift64 */
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		double v;
		uint64_t bits = i % 2 ? x : (x >> 12) | 0x4000000000000000ull;
		memcpy(&v, &bits, sizeof(v));
		if (!isfinite(v))
			continue;
		char got[32];
		present_number_text(v, got, sizeof(got));
		assert_true(strtod(got, NULL) == v);
		assert_int_equal(significant(got), fewest_digits(v));
	}
}

static void test_locale(void **state)
{
	(void)state;
	const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
			       "C.UTF-8"};
	const char *set = NULL;
	for (size_t i = 0; i < 4 && !set; i++)
		set = setlocale(LC_NUMERIC, names[i]);
	/* whichever locale is installed (C at worst), a '.' */
	expect(638.016958, "638.016958");
	expect(0.5, "0.5");
	char buf[64];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	json_t *a = json_pack("[f]", 2.25);
	assert_true(present_put_json(f, a, JSON_COMPACT));
	fclose(f);
	json_decref(a);
	assert_string_equal(buf, "[2.25]");
	setlocale(LC_NUMERIC, "C");
}

static char *dump(const json_t *j)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_true(present_put_json(f, j, JSON_COMPACT));
	fclose(f);
	return text;
}

static void test_json(void **state)
{
	(void)state;
	const double reals[] = {638.016958, 5.0, 1e20, 1e-5, -0.0,
				0.1 + 0.2, 1.7976931348623157e308, 5e-324,
				-96.295717};
	json_t *a = json_array();
	for (size_t i = 0; i < sizeof(reals) / sizeof(*reals); i++)
		json_array_append_new(a, json_real(reals[i]));
	json_array_append_new(a, json_integer(3));
	json_array_append_new(a, json_integer(-12345678901234));
	/* numbers inside strings and keys stay as they are */
	json_array_append_new(
		a, json_pack("{s:s}", "0.10000000000000001",
			     "638.01695800000005 \"1.50\" \\ 2.0e+05"));
	char *out = dump(a);
	assert_string_equal(
		out, "[638.016958,5.0,1e20,1e-5,-0.0,0.30000000000000004,"
		     "1.7976931348623157e308,4.94065645841247e-324,"
		     "-96.295717,3,-12345678901234,"
		     "{\"0.10000000000000001\":\"638.01695800000005 "
		     "\\\"1.50\\\" \\\\ 2.0e+05\"}]");
	/* read back: every real the same double */
	json_error_t err;
	json_t *back = json_loads(out, 0, &err);
	assert_non_null(back);
	for (size_t i = 0; i < sizeof(reals) / sizeof(*reals); i++) {
		json_t *r = json_array_get(back, i);
		assert_true(json_is_real(r));
		assert_true(json_real_value(r) == reals[i]);
		assert_int_equal(signbit(json_real_value(r)),
				 signbit(reals[i]));
	}
	assert_true(json_equal(json_array_get(back, 11),
			       json_array_get(a, 11)));
	json_decref(back);
	free(out);
	json_decref(a);
	/* indented output too */
	a = json_pack("{s:f}", "v", 638.016958);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_true(present_put_json(f, a, JSON_INDENT(2)));
	fclose(f);
	assert_string_equal(text, "{\n  \"v\": 638.016958\n}");
	free(text);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_locale),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
