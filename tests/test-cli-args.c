/* Tests of the batch commands' option skeleton (cli_args_next, cli.h):
 * --format and --help handled for every command, the command's own
 * options handed back in order, the operands counted.  Degenerate inputs
 * first: no argument at all, --help, a bad --format, an unknown option,
 * too few and too many operands. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cli/cli.h"

static const struct option own[] = {
	{"metric", required_argument, NULL, 'm'},
	{"stats", no_argument, NULL, 'S'},
	{NULL, 0, NULL, 0},
};

/* The command's own options seen (letters, with the argument of -m
 * after a '='), and the last return of cli_args_next. */
struct run {
	char seen[64];
	int last;
};

static struct cli_args args(int min, int max)
{
	return (struct cli_args){.cmd = "test", .options = own,
				 .shortopts = "m:", .formats = CLI_TEXT_JSON,
				 .expected = "a database",
				 .min_operands = min, .max_operands = max};
}

/* A writable argv of `words` (NULL-ended), as main() gets it. */
struct argv_buf {
	char text[256];
	char *v[16];
	int n;
};

static char **make_argv(struct argv_buf *b, const char *const *words)
{
	size_t at = 0;
	for (b->n = 0; words[b->n]; b->n++) {
		size_t len = strlen(words[b->n]) + 1;
		assert_true(at + len <= sizeof(b->text) && b->n < 15);
		memcpy(b->text + at, words[b->n], len);
		b->v[b->n] = b->text + at;
		at += len;
	}
	b->v[b->n] = NULL;
	return b->v;
}

static struct run parse(struct cli_args *a, const char *const *words)
{
	static struct argv_buf b;
	char **argv = make_argv(&b, words);
	int argc = b.n;
	struct run r = {.seen = ""};
	int c;
	while ((c = cli_args_next(a, argc, argv)) > 0) {
		size_t n = strlen(r.seen);
		r.seen[n] = (char)c;
		r.seen[n + 1] = '\0';
		if (c == 'm') {
			strcat(r.seen, "=");
			strcat(r.seen, optarg);
		}
	}
	r.last = c;
	return r;
}

/* The command returns at once: after --help, or after a usage error. */
struct exit_case {
	const char *words[6];
	int min, max, usage_exit;
	int exit_code;
};

static const struct exit_case exits[] = {
	/* no argument at all */
	{{"test", NULL}, 1, 0, 0, CLI_EXIT_USAGE},
	{{"test", "--help", "db", NULL}, 1, 0, 0, CLI_EXIT_OK},
	/* csv is a format, but not one this command takes */
	{{"test", "--format", "csv", "db", NULL}, 1, 0, 0, CLI_EXIT_USAGE},
	/* `check` says a usage error with its own status */
	{{"test", "--bogus", "db", NULL}, 1, 0, CLI_EXIT_DATA, CLI_EXIT_DATA},
	{{"test", "db", "--metric", NULL}, 1, 0, 0, CLI_EXIT_USAGE},
	{{"test", "a", "b", "c", NULL}, 2, 2, 0, CLI_EXIT_USAGE},
};

static void exit_at_once(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(exits) / sizeof(exits[0]); i++) {
		struct cli_args a = args(exits[i].min, exits[i].max);
		a.usage_exit = exits[i].usage_exit;
		struct run r = parse(&a, exits[i].words);
		assert_int_equal(r.last, CLI_ARGS_EXIT);
		assert_int_equal(a.exit_code, exits[i].exit_code);
		assert_string_equal(r.seen, "");
	}
}

static void no_operand_needed(void **state)
{
	(void)state;
	const char *const argv[] = {"test", NULL};
	struct cli_args a = args(0, 0);
	struct run r = parse(&a, argv);
	assert_int_equal(r.last, CLI_ARGS_DONE);
	assert_int_equal(a.n_operands, 0);
	assert_int_equal(a.format, PRESENT_FORMAT_TEXT);
}

static void own_options_in_order(void **state)
{
	(void)state;
	const char *const argv[] = {"test", "-m", "x", "a", "--stats", "--format=json",
			"--metric=y", "b", NULL};
	struct cli_args a = args(2, 2);
	struct run r = parse(&a, argv);
	assert_int_equal(r.last, CLI_ARGS_DONE);
	assert_string_equal(r.seen, "m=xSm=y");
	assert_int_equal(a.format, PRESENT_FORMAT_JSON);
	assert_int_equal(a.n_operands, 2);
	assert_string_equal(a.operands[0], "a");
	assert_string_equal(a.operands[1], "b");
}

static void again_from_the_start(void **state)
{
	(void)state;
	/* a second command in the same process reads its argv from the
	 * start (optind reset) */
	const char *const first[] = {"test", "-m", "x", "a", NULL};
	const char *const second[] = {"test", "b", "c", NULL};
	struct cli_args a = args(1, 0), b = args(1, 0);
	assert_int_equal(parse(&a, first).last, CLI_ARGS_DONE);
	struct run r = parse(&b, second);
	assert_int_equal(r.last, CLI_ARGS_DONE);
	assert_int_equal(b.n_operands, 2);
	assert_string_equal(b.operands[0], "b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_at_once),
		cmocka_unit_test(no_operand_needed),
		cmocka_unit_test(own_options_in_order),
		cmocka_unit_test(again_from_the_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
