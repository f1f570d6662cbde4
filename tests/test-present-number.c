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

/* The old formatter, kept here as the reference: snprintf at 15, 16, 17
 * digits until strtod reads the text back (the C locale). */
static size_t ref_number(double v, char *buf, size_t size)
{
	int n = 0;
	for (int p = 15; p <= 17; p++) {
		n = snprintf(buf, size, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return (size_t)n;
}

/* The old JSON real: jansson's %.17g token, replaced by ref_number's text
 * in jansson's form (".0", exponent without '+' and zeros) when that is
 * not longer. */
static void ref_json(double v, char *out, size_t size)
{
	json_t *a = json_pack("[f]", v);
	char *t = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	assert_non_null(t);
	char tok[48];
	size_t len = strlen(t) - 2;
	assert_true(len < sizeof(tok));
	memcpy(tok, t + 1, len);
	tok[len] = '\0';
	free(t);
	char c[48];
	size_t n = ref_number(v, c, sizeof(c));
	if (!strpbrk(c, ".e"))
		memcpy(c + n, ".0", 3);
	char *e = strchr(c, 'e');
	if (e) {
		char *from = e + 1;
		if (*from == '+')
			memmove(from, from + 1, strlen(from));
		if (*from == '-')
			from++;
		while (*from == '0' && from[1])
			memmove(from, from + 1, strlen(from));
	}
	snprintf(out, size, "%s", strlen(c) <= len ? c : tok);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A double of kind `k`: the shapes of profile values and the edges of the
 * fast path (powers of 2 and 10, ties at 16 digits, 2^-12, 2^63). */
static double sample(unsigned k)
{
	uint64_t x = next();
	double v;
	switch (k % 8) {
	case 0: /* any bit pattern */
		memcpy(&v, &x, sizeof(v));
		return v;
	case 1: /* any mantissa, exponents of the fast path and around */
		return ldexp((double)(x >> 11) / 9007199254740992.0,
			     (int)(next() % 90) - 20);
	case 2: { /* short decimals: 1055.089, 0.019 */
		double d = (double)(x % 100000000);
		return d / pow(10, (double)(next() % 16));
	}
	case 3: { /* sums of short decimals (rounding at 16-17 digits) */
		double s = 0;
		for (int i = 0, n = (int)(x % 20); i <= n; i++)
			s += (double)(next() % 100000) / 1000.0;
		return s;
	}
	case 4: /* integers up to 2^63, halves near 10^15..10^16 */
		return x % 2 ? (double)(x >> (x % 64))
			     : (double)(x % 9000000000000000ull) + 0.5;
	case 5: { /* neighbours of powers of 10 */
		double p = pow(10, (double)((int)(x % 40) - 20));
		int steps = (int)(next() % 5) - 2;
		for (; steps > 0; steps--)
			p = nextafter(p, INFINITY);
		for (; steps < 0; steps++)
			p = nextafter(p, 0);
		return p;
	}
	case 6: { /* neighbours of powers of 2 */
		double p = ldexp(1.0, (int)(x % 90) - 20);
		return x & 64 ? nextafter(p, 0) : x & 128 ? nextafter(p, 1e300) : p;
	}
	default: /* negative values of the others */
		return -sample((unsigned)(x % 7));
	}
}

/* present_number_text and present_json_real_text against the reference
 * on CALLSCOPE_NUMBER_CHECKS doubles (default 1,000,000). */
static void test_against_printf(void **state)
{
	(void)state;
	const char *env = getenv("CALLSCOPE_NUMBER_CHECKS");
	long count = env ? atol(env) : 1000000;
	for (long i = 0; i < count; i++) {
		double v = sample((unsigned)i);
		if (!isfinite(v))
			continue;
		char want[48], got[48];
		ref_number(v, want, sizeof(want));
		present_number_text(v, got, sizeof(got));
		if (strcmp(want, got) != 0)
			fail_msg("%a: %s, printf %s", v, got, want);
		ref_json(v, want, sizeof(want));
		present_json_real_text(v, got, sizeof(got));
		if (strcmp(want, got) != 0)
			fail_msg("%a: JSON %s, jansson %s", v, got, want);
	}
}

/* Cases of the JSON form by hand: exponents, ".0", and 16-digit values
 * whose 15-digit form is longer than jansson's %.17g. */
static void test_json_real_text(void **state)
{
	(void)state;
	char buf[40];
	assert_int_equal(present_json_real_text(1.5, buf, 39), 0);
	assert_int_equal(present_json_real_text(NAN, buf, sizeof(buf)), 0);
	assert_int_equal(present_json_real_text(-INFINITY, buf, sizeof(buf)),
			 0);
	const struct {
		double v;
		const char *want;
	} cases[] = {
		{1055.089, "1055.089"},
		{2642557015722.0, "2642557015722.0"},
		{1e20, "1e20"},
		{1e-5, "1e-5"},
		{-0.0, "-0.0"},
		{0.0, "0.0"},
		{1234567890123450.0, "1234567890123450.0"},
		{1e16, "1e16"},
		{0.1 + 0.2, "0.30000000000000004"},
		{5e-324, "4.94065645841247e-324"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t n = present_json_real_text(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
		assert_int_equal(n, strlen(cases[i].want));
	}
}

/* present_put_json_string against jansson's string and sanitize_json
 * (present_put_json of present_json_text) on random bytes. */
static void test_json_string(void **state)
{
	(void)state;
	char s[64];
	for (int i = 0; i < 20000; i++) {
		size_t n = next() % sizeof(s);
		for (size_t k = 0; k < n; k++) {
			uint64_t x = next();
			/* mostly ASCII, some controls, C1 and UTF-8 leads */
			s[k] = (char)(x % 4 ? 0x20 + x % 0x60
					    : x % 3 ? x % 0x20 | 1
						    : 0x80 + x % 0x80);
			if (x % 17 == 0)
				s[k] = (char)0xc2;
		}
		s[n] = '\0';
		char *a = NULL, *b = NULL;
		size_t la = 0, lb = 0;
		FILE *fa = open_memstream(&a, &la);
		FILE *fb = open_memstream(&b, &lb);
		json_t *j = present_json_text(s);
		assert_true(present_put_json(fa, j, JSON_ENCODE_ANY));
		json_decref(j);
		present_put_json_string(fb, s);
		fclose(fa);
		fclose(fb);
		assert_string_equal(b, a);
		free(a);
		free(b);
	}
	char *t = NULL;
	size_t lt = 0;
	FILE *f = open_memstream(&t, &lt);
	present_put_json_string(f, NULL);
	present_put_json_string(f, "a\"b\\\x7f\n\x01\xc2\x85");
	fclose(f);
	assert_string_equal(t, "null\"a\\\"b\\\\\\u007f\\n\\u0001\\u0085\"");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_locale),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_real_text),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_against_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
