/* Tests for config_file's limits and garbage: long lines, binary input,
 * the warning cap, the entry limit and the file size limit.  Expected
 * values are written out here by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "config_fixture.h"

/* ---- limits and garbage ----------------------------------------------- */

static void test_long_lines(void **state)
{
	(void)state;
	struct config c;
	size_t n = 10000;
	/* line 1: 10,000 characters; line 2: exactly the limit; line 3 ok */
	char *text = malloc(n + CONFIG_LINE_MAX + 64);
	assert_non_null(text);
	size_t len = 0;
	len += (size_t)sprintf(text + len, "set long = ");
	while (len < n)
		text[len++] = 'x';
	text[len++] = '\n';
	size_t start = len;
	len += (size_t)sprintf(text + len, "set edge = ");
	while (len - start < CONFIG_LINE_MAX)
		text[len++] = 'y';
	text[len++] = '\n';
	len += (size_t)sprintf(text + len, "set after = 1\n");
	config_init(&c);
	struct error err = {0};
	assert_int_equal(config_parse_text(&c, text, len, "long", &err),
			 STATUS_OK);
	assert_false(has_option(&c, "long"));
	assert_int_equal(strlen(option_value(&c, "edge")),
			 CONFIG_LINE_MAX - strlen("set edge = "));
	assert_string_equal(option_value(&c, "after"), "1");
	assert_int_equal(option(&c, "after")->line, 3);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0],
			    "long:1: line longer than 4096 bytes; ignored");
	config_free(&c);
	free(text);
}

static void test_binary_garbage(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	size_t n = 64 * 1024;
	char *buf = malloc(n);
	assert_non_null(buf);
	uint32_t x = 12345;
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 16);
	}
	config_init(&c);
	c.source_disabled = true;
	assert_int_equal(config_parse_text(&c, buf, n, "garbage", &err),
			 STATUS_OK);
	assert_true(c.n_warnings <= CONFIG_WARNINGS_MAX);
	config_free(&c);

	/* a NUL byte costs only its own line */
	const char nul[] = "set a = 1\nset b\0 = 2\nset c = 3\n";
	config_init(&c);
	assert_int_equal(config_parse_text(&c, nul, sizeof(nul) - 1, "nul",
					   &err),
			 STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_false(has_option(&c, "b"));
	assert_string_equal(option_value(&c, "c"), "3");
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0], "nul:2: NUL byte in line; ignored");
	config_free(&c);
	free(buf);
}

static void test_warning_cap(void **state)
{
	(void)state;
	struct config c;
	size_t lines = 500;
	char *text = malloc(lines * 4 + 1);
	assert_non_null(text);
	for (size_t i = 0; i < lines; i++)
		memcpy(text + i * 4, "bad\n", 4);
	text[lines * 4] = '\0';
	config_init(&c);
	parse(&c, text, "w");
	assert_int_equal(c.n_warnings, CONFIG_WARNINGS_MAX);
	assert_string_equal(c.warnings[0], "w:1: unknown command 'bad'");
	assert_string_equal(c.warnings[CONFIG_WARNINGS_MAX - 1],
			    "w:100: too many warnings; further ones are not "
			    "shown");
	config_free(&c);
	free(text);
}

/* At most CONFIG_ENTRIES_MAX options, bindings and derived columns: one
 * more is a warning naming it, while a name already stored is still
 * replaced in place. */
static void test_entry_limit(void **state)
{
	(void)state;
	struct config c;
	size_t n = CONFIG_ENTRIES_MAX + 1;
	size_t cap = n * 64 + 64;
	char *text = malloc(cap);
	assert_non_null(text);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"set o%zu = %zu\n", i, i);
	len += (size_t)snprintf(text + len, cap - len, "set o7 = again\n");
	config_init(&c);
	parse(&c, text, "lim");
	assert_int_equal(c.n_options, CONFIG_ENTRIES_MAX);
	char want[96];
	snprintf(want, sizeof(want), "lim:%zu: more than %d options; 'o%d' "
		 "ignored", n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	assert_false(has_option(&c, "o1024"));
	assert_string_equal(option_value(&c, "o7"), "again");
	assert_int_equal(option(&c, "o7")->line, n + 1);
	config_free(&c);

	len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"bind main k%zu quit\n", i);
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"derive d%zu = $%zu\n", i, i);
	config_init(&c);
	parse(&c, text, "lim");
	assert_int_equal(c.n_bindings, CONFIG_ENTRIES_MAX);
	assert_int_equal(c.n_derived, CONFIG_ENTRIES_MAX);
	snprintf(want, sizeof(want), "lim:%zu: more than %d bindings; "
		 "'main k%d' ignored", n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	snprintf(want, sizeof(want), "lim:%zu: more than %d derived columns; "
		 "'d%d' ignored", 2 * n, CONFIG_ENTRIES_MAX, CONFIG_ENTRIES_MAX);
	assert_true(has_warning(&c, want));
	assert_string_equal(derived(&c, "d1023")->formula, "$1023");
	config_free(&c);
	free(text);
}

static void test_file_size_limit(void **state)
{
	(void)state;
	struct config c;
	struct error err = {0};
	size_t n = CONFIG_FILE_MAX + 1;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, '\n', n);
	memcpy(big, "set a = 1\n", 10);
	config_init(&c);
	assert_int_equal(config_parse_text(&c, big, n, "big", &err),
			 STATUS_OK);
	assert_int_equal(c.n_options, 0);
	assert_int_equal(c.n_warnings, 1);
	assert_string_equal(c.warnings[0],
			    "big: larger than 1048576 bytes; not read");
	config_free(&c);

	/* the same through a file, and exactly the limit is read */
	char *dir = make_tmpdir();
	char *path = path_join(dir, "big.conf");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(big, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_int_equal(c.n_options, 0);
	assert_int_equal(c.n_warnings, 1);
	assert_true(has_warning_like(&c, path, "larger than 1048576 bytes"));
	config_free(&c);
	assert_int_equal(truncate(path, (off_t)(n - 1)), 0);
	config_init(&c);
	assert_int_equal(config_load_file(&c, path, &err), STATUS_OK);
	assert_string_equal(option_value(&c, "a"), "1");
	assert_int_equal(c.n_warnings, 0);
	config_free(&c);
	free(path);
	remove_tree(dir);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_limit),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_binary_garbage),
		cmocka_unit_test(test_warning_cap),
		cmocka_unit_test(test_file_size_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
