/* Tests of fd_write_all (core/fd.h), the write of a whole buffer to a
 * file descriptor: nothing to write, a buffer larger than one pipe's
 * capacity read back whole through a file, and the errno of a write
 * that fails (a closed and a read-only descriptor). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fd.h"

static void test_nothing(void **state)
{
	(void)state;
	assert_int_equal(fd_write_all(-1, NULL, 0), 0);
}

/* 300000 bytes of a pattern, read back equal. */
static void test_whole_buffer(void **state)
{
	(void)state;
	size_t len = 300000;
	unsigned char *buf = malloc(len), *back = malloc(len);
	assert_non_null(buf);
	assert_non_null(back);
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + i / 251);
	FILE *f = tmpfile();
	assert_non_null(f);
	int fd = fileno(f);
	assert_int_equal(fd_write_all(fd, buf, len), 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), (off_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, back + got, len - got);
		assert_true(n > 0);
		got += (size_t)n;
	}
	assert_memory_equal(buf, back, len);
	fclose(f);
	free(buf);
	free(back);
}

static void test_failing_write(void **state)
{
	(void)state;
	assert_int_equal(fd_write_all(-1, "x", 1), EBADF);
	int fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fd_write_all(fd, "x", 1), EBADF);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_whole_buffer),
		cmocka_unit_test(test_failing_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
