/* Tests of core/strbuf's appends, strbuf_addf above all (the string
 * buffer that replaces sprintf into computed buffers): nothing appended
 * gives "", an empty format appends nothing, a text longer than the first
 * allocation, the length kept beside the text, and a failed buffer that
 * stays failed. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static void test_empty(void **state)
{
	(void)state;
	struct strbuf b = {0};
	char *s = strbuf_take(&b);
	assert_string_equal(s, "");
	free(s);
	strbuf_addf(&b, "%s", "");
	assert_int_equal(b.len, 0);
	s = strbuf_take(&b);
	assert_string_equal(s, "");
	free(s);
	assert_null(b.s); /* taken: the buffer is empty again */
}

static void test_addf(void **state)
{
	(void)state;
	struct strbuf b = {0};
	strbuf_add(&b, "[");
	for (unsigned i = 0; i < 100; i++)
		strbuf_addf(&b, "%s%u", i ? "," : "", i);
	strbuf_addf(&b, "]%c%.2f", ' ', 0.125);
	/* 10 one-digit and 90 two-digit numbers, 99 commas, "[]", " 0.12" */
	size_t want = 10 + 180 + 99 + 2 + 5;
	assert_int_equal(b.len, want);
	char *s = strbuf_take(&b);
	assert_int_equal(strlen(s), want);
	assert_memory_equal(s, "[0,1,2,", 7);
	assert_string_equal(s + want - 11, "98,99] 0.12");
	free(s);
}

static void test_failed_stays(void **state)
{
	(void)state;
	struct strbuf b = {0};
	strbuf_add(&b, "x");
	b.failed = true;
	strbuf_addf(&b, "%d", 5);
	assert_int_equal(b.len, 1);
	assert_null(strbuf_take(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_addf),
		cmocka_unit_test(test_failed_stays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
