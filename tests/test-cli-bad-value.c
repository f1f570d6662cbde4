/* Tests of cli_put_bad_value (cli.h), the usage error line of an option
 * value that does not parse: its exact text on stderr, the value
 * sanitized (a control character is shown, not sent), false returned.
 * Degenerate inputs first: an empty value. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

/* What cli_put_bad_value(cmd, opt, what, arg) writes on stderr, into
 * `out`; its return value into *rc. */
static void capture(const char *cmd, const char *opt, const char *what,
		    const char *arg, char *out, size_t len, bool *rc)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	*rc = cli_put_bad_value(cmd, opt, what, arg);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	size_t n = fread(out, 1, len - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

/* The cases, degenerate first: an empty value, a plain one, and an
 * escape character, which reaches the terminal as text. */
static const struct {
	const char *cmd, *opt, *what, *arg, *want;
} cases[] = {
	{"report", "--depth", "a non-negative integer", "",
	 "callscope report: --depth expects a non-negative integer, "
	 "not ''\n"},
	{"trace", "--span", "N[ns|us|ms|s]", "3parsecs",
	 "callscope trace: --span expects N[ns|us|ms|s], not '3parsecs'\n"},
	{"trace", "--lines", "a list like 0-3,7", "0-\x1b[2J",
	 "callscope trace: --lines expects a list like 0-3,7, "
	 "not '0-\\x1b[2J'\n"},
};

static void test_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[256];
		bool rc = true;
		capture(cases[i].cmd, cases[i].opt, cases[i].what,
			cases[i].arg, got, sizeof(got), &rc);
		assert_false(rc);
		assert_null(strchr(got, '\x1b'));
		assert_string_equal(got, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
