/* lazylib_sqlite: libsqlite3, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_sqlite.def, for SQLite: the
 * GPU readers (rocpd, .rpd, Nsight exports) through io/sqlite_ro and the
 * probe of an SQLite file. Depends on core/lazylib and the library's
 * header only. */
#include "config.h"

#include <sqlite3.h>

#define LAZYLIB_LIB   LAZYLIB_SQLITE
#define LAZYLIB_DEF   "core/lazylib_sqlite.def"
#define LAZYLIB_TABLE lazylib_table_sqlite
#include "core/lazylib_tramp.h"
