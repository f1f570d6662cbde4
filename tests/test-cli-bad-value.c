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

static void test_empty_value(void **state)
{
	(void)state;
	char got[256];
	bool rc = true;
	capture("report", "--depth", "a non-negative integer", "", got,
		sizeof(got), &rc);
	assert_false(rc);
	assert_string_equal(got, "callscope report: --depth expects a "
				 "non-negative integer, not ''\n");
}

static void test_plain_value(void **state)
{
	(void)state;
	char got[256];
	bool rc = true;
	capture("trace", "--span", "N[ns|us|ms|s]", "3parsecs", got,
		sizeof(got), &rc);
	assert_false(rc);
	assert_string_equal(got, "callscope trace: --span expects "
				 "N[ns|us|ms|s], not '3parsecs'\n");
}

/* An escape character in the value reaches the terminal as text. */
static void test_control_character_shown(void **state)
{
	(void)state;
	char got[256];
	bool rc = true;
	capture("trace", "--lines", "a list like 0-3,7", "0-\x1b[2J", got,
		sizeof(got), &rc);
	assert_false(rc);
	assert_null(strchr(got, '\x1b'));
	assert_string_equal(got, "callscope trace: --lines expects a list "
				 "like 0-3,7, not '0-\\x1b[2J'\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_value),
		cmocka_unit_test(test_plain_value),
		cmocka_unit_test(test_control_character_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
