/* lazylib_elf: libelf, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_elf.def, for the ELF images
 * of a DCPI database (formats/dcpi/dcpi_elf.c). Depends on core/lazylib
 * and the library's header only. */
#include "config.h"

#include <gelf.h>
#include <libelf.h>

#define LAZYLIB_LIB   LAZYLIB_ELF
#define LAZYLIB_DEF   "core/lazylib_elf.def"
#define LAZYLIB_TABLE lazylib_table_elf
#include "core/lazylib_tramp.h"
