/* lazylib_archive: libarchive, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_archive.def, for archives
 * (archive/, the probe of a file, .extra-p experiments). Depends on
 * core/lazylib and the library's header only. */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>

#define LAZYLIB_LIB   LAZYLIB_ARCHIVE
#define LAZYLIB_DEF   "core/lazylib_archive.def"
#define LAZYLIB_TABLE lazylib_table_archive
#include "core/lazylib_tramp.h"
