/* Tests of core/status's error_wrap_message and error_vset: a message
 * told around the error's own message and file (the arguments point into
 * the struct being rewritten, as open.c's "tried as READER: WHY" does), a
 * NULL error, a wrapped error that had an offset, and error_vset through a
 * caller's own variadic function; then error_copy (offset and a missing
 * message kept, a NULL destination) and error_take (moved, dropped,
 * nothing to take).  The expected lines are written out by
 * hand from the formats. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/status.h"

static void assert_line(const struct error *err, const char *want)
{
	char *line = error_format(err);
	assert_non_null(line);
	assert_string_equal(line, want);
	free(line);
}

static void test_wrap_own_message(void **state)
{
	(void)state;
	struct error err = {0};
	error_set(&err, STATUS_CORRUPT, "a/b.db", "bad magic %#x", 0x7fu);
	enum status st =
	    error_wrap_message(&err, STATUS_NOT_DATABASE, err.file,
			       "tried as %s: %s", "v4", err.message);
	assert_int_equal(st, STATUS_NOT_DATABASE);
	assert_int_equal(err.status, STATUS_NOT_DATABASE);
	assert_line(&err, "a/b.db: tried as v4: bad magic 0x7f");
	/* twice: the wrapped message wrapped again */
	error_wrap_message(&err, STATUS_IO, "c", "[%s]", err.message);
	assert_line(&err, "c: [tried as v4: bad magic 0x7f]");
	error_clear(&err);
}

static void test_wrap_drops_offset(void **state)
{
	(void)state;
	struct error err = {0};
	error_set_at(&err, STATUS_CORRUPT, "f", 0x40, "short read");
	assert_line(&err, "f: short read (at offset 0x40)");
	error_wrap_message(&err, STATUS_CORRUPT, "g", "%s (wrapped)",
			   err.message);
	assert_false(err.has_offset);
	assert_line(&err, "g: short read (wrapped)");
	error_clear(&err);
}

static void test_wrap_null(void **state)
{
	(void)state;
	assert_int_equal(error_wrap_message(NULL, STATUS_IO, "x", "%s", "y"),
			 STATUS_IO);
	struct error err = {0};
	error_wrap_message(&err, STATUS_LIMIT, NULL, "%u items", 3u);
	assert_line(&err, "3 items");
	error_clear(&err);
}

__attribute__((format(printf, 3, 4))) static enum status
my_fail(struct error *err, uint64_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum status st = error_vset(err, STATUS_CORRUPT, "mine", true, at,
				    fmt, ap);
	va_end(ap);
	return st;
}

static void test_vset(void **state)
{
	(void)state;
	struct error err = {0};
	assert_int_equal(my_fail(&err, 0x10, "line %d: %s", 4, "no tag"),
			 STATUS_CORRUPT);
	assert_line(&err, "mine: line 4: no tag (at offset 0x10)");
	error_clear(&err);
	assert_int_equal(my_fail(NULL, 0, "%s", "dropped"), STATUS_CORRUPT);
}

static void test_copy(void **state)
{
	(void)state;
	struct error src = {0}, dst = {0};
	error_set_at(&src, STATUS_IO, "f.db", 0x20, "short read");
	error_set(&dst, STATUS_USAGE, "old", "replaced");
	assert_int_equal(error_copy(&dst, &src), STATUS_IO);
	assert_line(&dst, "f.db: short read (at offset 0x20)");
	assert_line(&src, "f.db: short read (at offset 0x20)");
	assert_int_equal(error_copy(NULL, &src), STATUS_IO);
	error_clear(&src);
	src.status = STATUS_CORRUPT; /* no file, no message */
	error_copy(&dst, &src);
	assert_line(&dst, "corrupt file");
	error_clear(&dst);
}

static void test_take(void **state)
{
	(void)state;
	struct error kept = {0}, out = {0};
	assert_false(error_take(&kept, &out));
	assert_int_equal(out.status, STATUS_OK);
	error_set(&kept, STATUS_IO, "t.db", "gone");
	error_set(&out, STATUS_USAGE, NULL, "overwritten");
	assert_true(error_take(&kept, &out));
	assert_line(&out, "t.db: gone");
	assert_int_equal(kept.status, STATUS_OK);
	assert_null(kept.message);
	assert_false(error_take(&kept, &out)); /* once */
	error_set(&kept, STATUS_IO, "t.db", "dropped");
	assert_true(error_take(&kept, NULL));
	assert_int_equal(kept.status, STATUS_OK);
	assert_null(kept.file);
	error_clear(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wrap_own_message),
	    cmocka_unit_test(test_wrap_drops_offset),
	    cmocka_unit_test(test_wrap_null),
	    cmocka_unit_test(test_vset),
	    cmocka_unit_test(test_copy),
	    cmocka_unit_test(test_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
