/* lazylib_dw: libdw, loaded on first use (core/lazylib.h): the trampolines
 * of the functions of core/lazylib_dw.def, for the DWARF source lines of a
 * DCPI image (formats/dcpi/dcpi_elf.c). Depends on core/lazylib and the
 * library's header only. */
#include "config.h"

#include <elfutils/libdw.h>

#define LAZYLIB_LIB   LAZYLIB_DW
#define LAZYLIB_DEF   "core/lazylib_dw.def"
#define LAZYLIB_TABLE lazylib_table_dw
#include "core/lazylib_tramp.h"
