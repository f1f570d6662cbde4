/* sqlite_ro: SQLite databases opened strictly read-only, through the real
 * library.  Profilers' SQLite outputs (rocpd, .rpd, Nsight Systems exports)
 * are the users' files, and other tools write tables into them: callscope
 * opens them with `mode=ro` (and `immutable=1` when the caller knows the
 * file cannot change), so that no journal, WAL or table is ever written.
 * Used by the reader registry's probe (table names) and by the SQLite
 * readers.  Depends on core/ and libsqlite3 only. */
#ifndef CALLSCOPE_SQLITE_RO_H
#define CALLSCOPE_SQLITE_RO_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* Whether `head` (a file's first bytes) is an SQLite database header. */
bool sqlite_ro_is_sqlite(const uint8_t *head, size_t len);

/* Open `path` read-only (a URI with mode=ro; immutable=1 when `immutable`:
 * SQLite then takes no locks and reads no WAL, right only for a file that
 * nothing writes while it is open).  The file must exist and be an SQLite
 * database: its first page is read before returning.  On failure *out is
 * NULL and `err` names the file and SQLite's message. */
enum status sqlite_ro_open(const char *path, bool immutable, sqlite3 **out,
			   struct error *err);

/* The names of the tables and views of `db` (sorted by name; at most
 * `max`, STATUS_LIMIT beyond).  A heap array of heap strings: free with
 * sqlite_ro_free_names().  `path` names the file in messages. */
enum status sqlite_ro_tables(sqlite3 *db, const char *path, size_t max,
			     char ***names, size_t *n, struct error *err);

void sqlite_ro_free_names(char **names, size_t n);

/* Whether `db` has a table named `name`; with `views`, a view of that name
 * too (a reader that never runs the SQL a tool stored as a view asks
 * without).  False when the query fails. */
bool sqlite_ro_has_table(sqlite3 *db, const char *name, bool views);

/* Whether table (or view) `table` of `db` has a column `col`.  False when
 * the query fails. */
bool sqlite_ro_has_column(sqlite3 *db, const char *table, const char *col);

#endif
