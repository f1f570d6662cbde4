/* format_cases: a table of a number formatter's answers, checked in one
 * loop (tests/test-plot.c, test-trace-counters.c, test-gpu-kinds.c): each
 * row a value and the text it must be written as.  Include after
 * <cmocka.h>. */
#ifndef CALLSCOPE_TESTS_FORMAT_CASES_H
#define CALLSCOPE_TESTS_FORMAT_CASES_H

#include <stddef.h>
#include <string.h>

struct format_case {
	double value;
	const char *want;
};

/* fmt writes each row's value as its text; every row that does not is
 * named (NAME, its index and value), and then the test fails. */
static inline void assert_formats(const char *name,
				  void (*fmt)(double v, char *buf,
					      size_t size),
				  const struct format_case *rows, size_t n)
{
	size_t failed = 0;
	for (size_t i = 0; i < n; i++) {
		char buf[64];
		fmt(rows[i].value, buf, sizeof(buf));
		if (strcmp(buf, rows[i].want) == 0)
			continue;
		print_error("%s row %zu: %.17g written '%s', want '%s'\n",
			    name, i, rows[i].value, buf, rows[i].want);
		failed++;
	}
	assert_int_equal(failed, 0);
}

#endif
