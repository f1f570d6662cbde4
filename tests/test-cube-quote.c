/* test-cube-quote: cube_quote.c, which quotes the attribute values
 * CubeLib writes without quotes in anchor.xml (`<cubepl rowwise=false>`,
 * `<cubeplaggr cubeplaggrtype=plus>`): empty and plain input first, then
 * each form, then the same text fed in windows of every size from one
 * byte, which must give the text fed whole (a form split across two
 * windows is quoted all the same). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_quote.h"

/* `in` fed in windows of `step` bytes (0: whole); the text handed out,
 * NUL-terminated (caller frees). */
static char *quote(const char *in, size_t step)
{
	struct cube_quote q = {0};
	size_t n = strlen(in), got = 0;
	char *all = malloc(2 * n + 64);
	assert_non_null(all);
	if (!step)
		step = n ? n : 1;
	size_t at = 0;
	do {
		size_t len = n - at < step ? n - at : step;
		const char *out;
		size_t on;
		assert_true(cube_quote_feed(&q, in + at, len, at + len == n,
					    &out, &on));
		memcpy(all + got, out, on);
		got += on;
		at += len;
	} while (at < n);
	all[got] = '\0';
	cube_quote_free(&q);
	return all;
}

static void expect(const char *in, const char *want)
{
	char *got = quote(in, 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_degenerate(void **state)
{
	(void)state;
	expect("", "");
	expect("<", "<");
	expect("<cubepl>x</cubepl>", "<cubepl>x</cubepl>");
	expect("<cubepl rowwise=\"false\">", "<cubepl rowwise=\"false\">");
	/* a near miss is left alone (expat says what is wrong) */
	expect("<cubeplaggr cubeplaggrtype=plu>",
	       "<cubeplaggr cubeplaggrtype=plu>");
	expect("<cubeplaggr cubeplaggrtype=plus", /* cut short */
	       "<cubeplaggr cubeplaggrtype=plus");
}

static void test_forms(void **state)
{
	(void)state;
	expect("<cubepl rowwise=false>1</cubepl>",
	       "<cubepl rowwise=\"false\">1</cubepl>");
	expect("<cubepl rowwise=true>", "<cubepl rowwise=\"true\">");
	expect("a<cubeplaggr cubeplaggrtype=plus>max(arg1, arg2)"
	       "</cubeplaggr><cubeplaggr cubeplaggrtype=minus>arg1"
	       "</cubeplaggr><cubeplaggr cubeplaggrtype=aggr>arg2"
	       "</cubeplaggr>z",
	       "a<cubeplaggr cubeplaggrtype=\"plus\">max(arg1, arg2)"
	       "</cubeplaggr><cubeplaggr cubeplaggrtype=\"minus\">arg1"
	       "</cubeplaggr><cubeplaggr cubeplaggrtype=\"aggr\">arg2"
	       "</cubeplaggr>z");
}

static void test_windows(void **state)
{
	(void)state;
	char in[4096] = "";
	for (int i = 0; i < 20; i++)
		strcat(in, i % 3 ? "<cubeplaggr cubeplaggrtype=minus>x-y"
				   "</cubeplaggr>\n"
				 : "<metric><cubepl rowwise=false>1</cubepl>");
	char *whole = quote(in, 0);
	assert_non_null(strstr(whole, "cubeplaggrtype=\"minus\""));
	assert_null(strstr(whole, "=minus>"));
	assert_null(strstr(whole, "=false>"));
	for (size_t step = 1; step < 100; step++) {
		char *got = quote(in, step);
		assert_string_equal(got, whole);
		free(got);
	}
	free(whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
