/* case_tables: tables of cases checked in one loop, each row a case
 * whose failure names it (its function, index and input), the test
 * failing after all rows have run.  A number formatter's texts
 * (tests/test-plot.c, test-trace-counters.c, test-gpu-kinds.c) and the
 * answers of functions from a string to a heap string
 * (tests/test-http.c, test-url-cache.c).  Include after <cmocka.h>. */
#ifndef CALLSCOPE_TESTS_CASE_TABLES_H
#define CALLSCOPE_TESTS_CASE_TABLES_H

#include <stddef.h>
#include <stdlib.h>
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

/* a string's answer: a heap string, or NULL for none */
struct string_case {
	const char *in, *out;
};

/* fn (named NAME) gives each row's answer; every row that it does not is
 * named (NAME, its index and input), and then the test fails. */
static inline void assert_strings(const char *name,
				  char *(*fn)(const char *s),
				  const struct string_case *rows, size_t n)
{
	size_t failed = 0;
	for (size_t i = 0; i < n; i++) {
		char *got = fn(rows[i].in);
		const char *want = rows[i].out;
		if (got && want ? strcmp(got, want) != 0 : got != want) {
			print_error("%s row %zu: '%s' gave '%s', want '%s'\n",
				    name, i, rows[i].in ? rows[i].in : "(null)",
				    got ? got : "(null)",
				    want ? want : "(null)");
			failed++;
		}
		free(got);
	}
	assert_int_equal(failed, 0);
}

#endif
