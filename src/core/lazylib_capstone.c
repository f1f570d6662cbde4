/* lazylib_capstone: Capstone, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_capstone.def, for the
 * disassembler of DCPI listings (formats/dcpi/dcpi_listing.c). Depends on
 * core/lazylib and the library's header only. */
#include "config.h"

#include <capstone/capstone.h>

#define LAZYLIB_LIB   LAZYLIB_CAPSTONE
#define LAZYLIB_DEF   "core/lazylib_capstone.def"
#define LAZYLIB_TABLE lazylib_table_capstone
#include "core/lazylib_tramp.h"
