/* lazylib_protobuf_c: libprotobuf-c, loaded on first use (core/lazylib.h):
 * the trampolines of the functions of core/lazylib_protobuf_c.def, for the
 * pprof export (present/export_pprof.c, present/profile.pb-c.c). Depends
 * on core/lazylib and the library's header only. */
#include "config.h"

#include <protobuf-c/protobuf-c.h>

#define LAZYLIB_LIB   LAZYLIB_PROTOBUF_C
#define LAZYLIB_DEF   "core/lazylib_protobuf_c.def"
#define LAZYLIB_TABLE lazylib_table_protobuf_c
#include "core/lazylib_tramp.h"

/* The one object of the library that the generated code names: the
 * default value of profile.proto's string fields (profile.pb-c.c takes its
 * address).  An object cannot go through a trampoline; this copy serves,
 * since protobuf-c compares a field's string with the default value that
 * the field's descriptor holds, which is this one. */
const char protobuf_c_empty_string[] = "";
