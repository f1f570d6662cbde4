/* Tests of core/path: path_join's "DIR/NAME" (one '/' always, as
 * printf("%s/%s") puts it), path_is_file on NULL, a missing path, a
 * directory and a file, and path_dir_has_file over the same; degenerate
 * inputs first. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"

static void test_join(void **state)
{
	(void)state;
	const char *cases[][3] = {
		{"", "", "/"},
		{"", "a", "/a"},
		{"a", "", "a/"},
		{"/", "x", "//x"},
		{"/tmp/db", "meta.db", "/tmp/db/meta.db"},
		{"rel", "sub/f", "rel/sub/f"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = path_join(cases[i][0], cases[i][1]);
		assert_non_null(p);
		assert_string_equal(p, cases[i][2]);
		free(p);
	}
}

static void test_is_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/test-path-XXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_false(path_is_file(NULL));
	assert_false(path_is_file(""));
	assert_false(path_is_file(dir)); /* a directory */
	assert_false(path_dir_has_file(dir, "f"));
	char f[64];
	snprintf(f, sizeof(f), "%s/f", dir);
	FILE *fp = fopen(f, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_true(path_is_file(f)); /* empty, but a regular file */
	assert_true(path_dir_has_file(dir, "f"));
	assert_false(path_dir_has_file(dir, "g"));
	char sub[64];
	snprintf(sub, sizeof(sub), "%s/d", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_false(path_dir_has_file(dir, "d"));
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(unlink(f), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_is_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
