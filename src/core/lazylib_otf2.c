/* lazylib_otf2: the OTF2 library, loaded on first use (core/lazylib.h):
 * the trampolines of the functions of core/lazylib_otf2.def, for the OTF2
 * trace reader (formats/otf2/). Depends on core/lazylib and the library's
 * header only. */
#include "config.h"

#include <otf2/otf2.h>

#define LAZYLIB_LIB   LAZYLIB_OTF2
#define LAZYLIB_DEF   "core/lazylib_otf2.def"
#define LAZYLIB_TABLE lazylib_table_otf2
#include "core/lazylib_tramp.h"
