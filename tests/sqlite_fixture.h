/* sqlite_fixture: the SQLite file a reader test opens, made from SQL text
 * (tests/test-gpu-kinds.c, tests/test-nsight-detail.c; they link SQLite
 * themselves).  The caller's mkstemps template `path` becomes the file's
 * name; SQLITE_FIXTURE_GROUP makes the group setup that writes it and the
 * teardown that unlinks it. */
#ifndef CALLSCOPE_TESTS_SQLITE_FIXTURE_H
#define CALLSCOPE_TESTS_SQLITE_FIXTURE_H

#include <stdlib.h>
#include <unistd.h>

#include <sqlite3.h>

/* 0 when a fresh file named after `path` (its last `suffix` characters
 * kept) holds what `sql` makes, -1 otherwise. */
static inline int sqlite_fixture_write(char *path, int suffix,
				       const char *sql)
{
	int fd = mkstemps(path, suffix);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(path);
	sqlite3 *db = NULL;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/* The cmocka group hooks `setup` and `teardown` of a test file whose one
 * fixture is `path` (a char array template, `suffix` kept) made by `sql`. */
#define SQLITE_FIXTURE_GROUP(path, suffix, sql)                                \
	static int setup(void **state)                                         \
	{                                                                      \
		(void)state;                                                   \
		return sqlite_fixture_write(path, suffix, sql);                \
	}                                                                      \
	static int teardown(void **state)                                      \
	{                                                                      \
		(void)state;                                                   \
		unlink(path);                                                  \
		return 0;                                                      \
	}

#endif
