/* Tests of sqlite_ro_has_table and sqlite_ro_has_column (io/sqlite_ro.h):
 * on a file holding one table (with two columns) and one view, made here
 * with SQLite itself, the table is found with and without views, the view
 * only with them, a missing name never, an empty name never; the table's
 * and the view's columns are found, a missing column and a column asked
 * of a missing table are not. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/sqlite_ro.h"
#include "sqlite_fixture.h"

static char path[] = "/tmp/test-sqlite-ro-XXXXXX.sqlite";

SQLITE_FIXTURE_GROUP(path, 7,
		     "CREATE TABLE runs(id INTEGER, name TEXT);"
		     "CREATE VIEW named AS SELECT name FROM runs;")

static sqlite3 *open_fixture(void)
{
	sqlite3 *db = NULL;
	struct error err = {0};
	assert_int_equal(sqlite_ro_open(path, true, &db, &err), STATUS_OK);
	assert_non_null(db);
	return db;
}

static void test_has_table(void **state)
{
	(void)state;
	sqlite3 *db = open_fixture();
	assert_true(sqlite_ro_has_table(db, "runs", false));
	assert_true(sqlite_ro_has_table(db, "runs", true));
	assert_false(sqlite_ro_has_table(db, "named", false));
	assert_true(sqlite_ro_has_table(db, "named", true));
	assert_false(sqlite_ro_has_table(db, "missing", true));
	assert_false(sqlite_ro_has_table(db, "", true));
	sqlite3_close(db);
}

static void test_has_column(void **state)
{
	(void)state;
	sqlite3 *db = open_fixture();
	assert_true(sqlite_ro_has_column(db, "runs", "id"));
	assert_true(sqlite_ro_has_column(db, "runs", "name"));
	assert_true(sqlite_ro_has_column(db, "named", "name"));
	assert_false(sqlite_ro_has_column(db, "named", "id"));
	assert_false(sqlite_ro_has_column(db, "runs", "missing"));
	assert_false(sqlite_ro_has_column(db, "missing", "id"));
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_has_table),
		cmocka_unit_test(test_has_column),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
