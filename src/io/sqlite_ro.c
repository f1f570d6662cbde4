/* sqlite_ro: read-only SQLite connections and table listings (see
 * sqlite_ro.h).  The path goes into a `file:` URI, so the characters that
 * URIs reserve are percent-encoded; SQLite decodes them again.  Depends on
 * core/ and libsqlite3 only. */
#include "config.h"

#include "core/array.h"
#include "io/sqlite_ro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lazylib.h"

static const char sqlite_magic[16] = "SQLite format 3";

bool sqlite_ro_is_sqlite(const uint8_t *head, size_t len)
{
	return head && len >= sizeof(sqlite_magic) &&
	       memcmp(head, sqlite_magic, sizeof(sqlite_magic)) == 0;
}

/* "file:PATH?mode=ro[&immutable=1]" with PATH percent-encoded except for
 * unreserved characters and '/'. */
static char *ro_uri(const char *path, bool immutable)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(path);
	char *uri = malloc(len * 3 + 32);
	if (!uri)
		return NULL;
	char *w = uri;
	w += sprintf(w, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p)) {
			*w++ = (char)*p;
		} else {
			*w++ = '%';
			*w++ = hex[*p >> 4];
			*w++ = hex[*p & 15];
		}
	}
	sprintf(w, "?mode=ro%s", immutable ? "&immutable=1" : "");
	return uri;
}

enum status sqlite_ro_open(const char *path, bool immutable, sqlite3 **out,
			   struct error *err)
{
	*out = NULL;
	enum status need = lazylib_require(LAZYLIB_SQLITE, err);
	if (need != STATUS_OK)
		return need;
	char *uri = ro_uri(path, immutable);
	if (!uri)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(uri, &db,
				 SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
					 SQLITE_OPEN_NOMUTEX,
				 NULL);
	free(uri);
	enum status st = STATUS_OK;
	if (rc != SQLITE_OK) {
		st = error_set(err, rc == SQLITE_NOMEM ? STATUS_NOMEM : STATUS_IO,
			       path, "cannot open as SQLite: %s",
			       db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		goto out;
	}
	sqlite3_extended_result_codes(db, 1);
	/* opening is lazy: read the schema now, so that a file that is not
	 * a database fails here, with the file's name */
	rc = sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL,
			  NULL);
	if (rc != SQLITE_OK) {
		/* a damaged file is corrupt; a file SQLite could not read
		 * (locks, a WAL without its -shm in a read-only place) is
		 * an I/O error, which immutable=1 may get past */
		int primary = rc & 0xff;
		bool damaged = primary == SQLITE_CORRUPT ||
			       primary == SQLITE_NOTADB;
		st = error_set(err, damaged ? STATUS_CORRUPT : STATUS_IO, path,
			       "%s: %s",
			       damaged ? "not a readable SQLite database"
				       : "cannot read the SQLite database",
			       sqlite3_errmsg(db));
		goto out;
	}
	*out = db;
	db = NULL;
out:
	sqlite3_close(db);
	return st;
}

/* Whether `sql`, with ?1 = a and ?2 = b (when not NULL), returns a row. */
static bool query_has_row(sqlite3 *db, const char *sql, const char *a,
			  const char *b)
{
	sqlite3_stmt *st = NULL;
	bool found = false;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
		if (b)
			sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

bool sqlite_ro_has_table(sqlite3 *db, const char *name, bool views)
{
	return query_has_row(db,
			     views ? "SELECT 1 FROM sqlite_master WHERE name = "
				     "?1 AND type IN ('table', 'view')"
				   : "SELECT 1 FROM sqlite_master WHERE name = "
				     "?1 AND type = 'table'",
			     name, NULL);
}

bool sqlite_ro_has_column(sqlite3 *db, const char *table, const char *col)
{
	return query_has_row(db,
			     "SELECT 1 FROM pragma_table_info(?1) WHERE name = "
			     "?2",
			     table, col);
}

void sqlite_ro_free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

enum status sqlite_ro_tables(sqlite3 *db, const char *path, size_t max,
			     char ***names, size_t *n, struct error *err)
{
	*names = NULL;
	*n = 0;
	sqlite3_stmt *q = NULL;
	char **v = NULL;
	size_t count = 0, cap = 0;
	enum status st = STATUS_OK;
	if (sqlite3_prepare_v2(db,
			       "SELECT name FROM sqlite_master WHERE type IN "
			       "('table','view') ORDER BY name",
			       -1, &q, NULL) != SQLITE_OK) {
		st = error_set(err, STATUS_CORRUPT, path,
			       "cannot list the tables: %s", sqlite3_errmsg(db));
		goto out;
	}
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		if (!name)
			continue;
		if (count == max) {
			st = error_set(err, STATUS_LIMIT, path,
				       "more than %zu tables", max);
			goto out;
		}
		if (!array_grow((void **)&v, &cap, count + 1, sizeof(*v)) ||
		    !(v[count] = strdup(name)))
			goto nomem;
		count++;
	}
	if (rc != SQLITE_DONE) {
		st = error_set(err, STATUS_CORRUPT, path,
			       "cannot list the tables: %s", sqlite3_errmsg(db));
		goto out;
	}
	*names = v;
	*n = count;
	v = NULL;
	count = 0;
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, path, "out of memory");
out:
	sqlite3_finalize(q);
	sqlite_ro_free_names(v, count);
	return st;
}
