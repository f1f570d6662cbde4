/* Tests of core/path: path_join's "DIR/NAME" (one '/' always, as
 * printf("%s/%s") puts it), path_is_file on NULL, a missing path, a
 * directory and a file, and path_dir_has_file over the same; degenerate
 * inputs first.  Then file_read_all: an empty stream, a stream larger
 * than one read (its bytes and length, NUL-terminated), one byte past the
 * limit, and exactly the limit. */
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

/* A temporary stream holding n bytes i % 251. */
static FILE *stream_of(size_t n)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fputc((int)(i % 251), f);
	rewind(f);
	return f;
}

static void test_read_all(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 1;
	FILE *f = stream_of(0);
	assert_int_equal(file_read_all(f, 10, &buf, &len), STATUS_OK);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	free(buf);
	fclose(f);
	size_t big = 200000; /* more than one 64 KiB read */
	f = stream_of(big);
	assert_int_equal(file_read_all(f, big, &buf, &len), STATUS_OK);
	assert_int_equal(len, big);
	assert_int_equal(buf[big], '\0');
	for (size_t i = 0; i < big; i++)
		if ((unsigned char)buf[i] != i % 251)
			fail_msg("byte %zu is %u", i, (unsigned char)buf[i]);
	free(buf);
	fclose(f);
	f = stream_of(big);
	assert_int_equal(file_read_all(f, big - 1, &buf, &len), STATUS_LIMIT);
	assert_null(buf);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_is_file),
		cmocka_unit_test(test_read_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
