/* Tests for sanitize: control characters become visible escapes, invalid
 * UTF-8 becomes U+FFFD, valid text passes through unchanged. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sanitize.h"

static void check(const char *in, enum sanitize_mode mode, const char *want)
{
	char *out = sanitize_text(in, mode);
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void test_null_and_empty(void **state)
{
	(void)state;
	check(NULL, SANITIZE_TERMINAL, "");
	check("", SANITIZE_TERMINAL, "");
	check("", SANITIZE_UTF8, "");
}

static void test_plain_text_unchanged(void **state)
{
	(void)state;
	check("solver::step(int, double*)", SANITIZE_TERMINAL,
	      "solver::step(int, double*)");
	check("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5", SANITIZE_TERMINAL,
	      "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5");
}

static void test_c0_escape_del(void **state)
{
	(void)state;
	check("a\x1b]0;pwned\x07z", SANITIZE_TERMINAL, "a\\x1b]0;pwned\\x07z");
	check("tab\there\nnl\x7f", SANITIZE_TERMINAL,
	      "tab\\x09here\\x0anl\\x7f");
	/* UTF-8 mode keeps controls (JSON escapes them itself) */
	check("a\x1b" "b", SANITIZE_UTF8, "a\x1b" "b");
}

static void test_c1_controls(void **state)
{
	(void)state;
	/* U+009B is the single-character CSI */
	check("x\xc2\x9b" "31m", SANITIZE_TERMINAL, "x\\u{9b}31m");
	/* U+00A0 is not a control */
	check("\xc2\xa0", SANITIZE_TERMINAL, "\xc2\xa0");
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	check("a\xff" "b", SANITIZE_TERMINAL, "a\xef\xbf\xbd" "b");
	check("\xc0\xaf", SANITIZE_UTF8, "\xef\xbf\xbd\xef\xbf\xbd");
	/* surrogate half, truncated sequence */
	check("\xed\xa0\x80", SANITIZE_UTF8,
	      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	check("ab\xe2\x86", SANITIZE_TERMINAL,
	      "ab\xef\xbf\xbd\xef\xbf\xbd");
}

static void test_long_name(void **state)
{
	(void)state;
	size_t n = 10000;
	char *in = malloc(n + 1);
	assert_non_null(in);
	for (size_t i = 0; i < n; i++)
		in[i] = (char)(i % 3 == 0 ? 0x1b : 'x');
	in[n] = '\0';
	char *out = sanitize_text(in, SANITIZE_TERMINAL);
	assert_non_null(out);
	assert_null(strchr(out, 0x1b));
	/* 3334 escapes of 4 bytes + 6666 plain bytes */
	assert_int_equal(strlen(out), 3334 * 4 + 6666);
	free(out);
	free(in);
}

static void check_json(const char *in, const char *want)
{
	char *out = sanitize_json(in);
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

/* JSON text: DEL and C1 controls (raw in jansson's output) become \u
 * escapes; everything else, other non-ASCII text included, is unchanged. */
static void test_json(void **state)
{
	(void)state;
	check_json(NULL, "");
	check_json("", "");
	check_json("{\"a\":[1,2.5,null]}", "{\"a\":[1,2.5,null]}");
	check_json("\"x\x7fy\"", "\"x\\u007fy\"");
	check_json("\"\xc2\x80\xc2\x9b[2J\xc2\x9f\"",
		   "\"\\u0080\\u009b[2J\\u009f\"");
	/* U+00A0 and up are text, not controls */
	check_json("\"\xc2\xa0" "caf\xc3\xa9\xe2\x86\x92\"",
		   "\"\xc2\xa0" "caf\xc3\xa9\xe2\x86\x92\"");
	/* a lone 0xc2 at the end is copied (not valid jansson output) */
	check_json("\"\xc2", "\"\xc2");
}

static void test_utf8_len(void **state)
{
	(void)state;
	assert_int_equal(sanitize_utf8_len((const unsigned char *)"", 0), 0);
	assert_int_equal(sanitize_utf8_len((const unsigned char *)"a", 1), 1);
	assert_int_equal(
		sanitize_utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4),
		0); /* > U+10FFFF */
	assert_int_equal(
		sanitize_utf8_len((const unsigned char *)"\xe0\x80\x80", 3),
		0); /* overlong */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_empty),
		cmocka_unit_test(test_plain_text_unchanged),
		cmocka_unit_test(test_c0_escape_del),
		cmocka_unit_test(test_c1_controls),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_utf8_len),
		cmocka_unit_test(test_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
