/* lazylib_lapacke: LAPACKE, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_lapacke.def, for the least
 * squares of the Extra-P model fits (analysis/scaling_fit_num.c). Depends
 * on core/lazylib and the library's header only. */
#include "config.h"

#include <lapacke.h>

#define LAZYLIB_LIB   LAZYLIB_LAPACKE
#define LAZYLIB_DEF   "core/lazylib_lapacke.def"
#define LAZYLIB_TABLE lazylib_table_lapacke
#include "core/lazylib_tramp.h"
