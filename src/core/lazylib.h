/* lazylib: the shared libraries that only some formats or commands need,
 * loaded on first use with dlopen instead of by the dynamic loader at
 * start (issue 28: a start that relocated 59 libraries took 30 ms).
 *
 * Each library of LAZYLIB_LIST is found by its SONAME (configure reads it
 * from the library it links against; the environment variable
 * CALLSCOPE_SONAME_<ID> overrides it at run time).  Its functions keep
 * their real names: core/lazylib_<id>.c defines each function the engine
 * calls (listed in core/lazylib_<id>.def) as a trampoline that calls the
 * library's function, so call sites stay as they are.  A reader or command
 * calls lazylib_require() before its first use of a library (at the open of
 * a format that needs it, before the first HTTP request), so that a missing
 * library is an error value with one line naming it and its package; a
 * trampoline reached before any require loads the library itself, and when
 * that fails prints the same line on stderr and exits with status 2 (the
 * one exit in the engine: a function of the library has no error value to
 * give).  Thread-safe.  Depends on core/status and libc (dlopen) only. */
#ifndef CALLSCOPE_LAZYLIB_H
#define CALLSCOPE_LAZYLIB_H

#include <stddef.h>

#include "core/status.h"

/* X(ENUM, id): the libraries, with the suffix of their files
 * (core/lazylib_<id>.c and .def); config.h has ENUM_SONAME and
 * ENUM_PACKAGE from configure. */
#define LAZYLIB_LIST(X)                                                        \
	X(LAZYLIB_SQLITE, sqlite)	  /* rocpd, .rpd, Nsight */            \
	X(LAZYLIB_CURL, curl)		  /* URLs */                           \
	X(LAZYLIB_XML2, xml2)		  /* HTTP directory listings */        \
	X(LAZYLIB_ARCHIVE, archive)	  /* archives, .cubex, .extra-p */     \
	X(LAZYLIB_ELF, elf)		  /* DCPI images */                    \
	X(LAZYLIB_DW, dw)		  /* DCPI source lines */              \
	X(LAZYLIB_CAPSTONE, capstone)	  /* DCPI listings */                  \
	X(LAZYLIB_LAPACKE, lapacke)	  /* Extra-P model fits */             \
	X(LAZYLIB_PROTOBUF_C, protobuf_c) /* pprof export */                   \
	X(LAZYLIB_OTF2, otf2)		  /* OTF2 trace archives */

enum lazylib {
#define LAZYLIB_ENUM(e, id) e,
	LAZYLIB_LIST(LAZYLIB_ENUM)
#undef LAZYLIB_ENUM
	    LAZYLIB_COUNT
};

/* Load `lib` if it is not loaded yet and resolve every function callscope
 * calls in it.  STATUS_OK when it is there; otherwise STATUS_NO_LIBRARY and
 * `err` holds one line: "this needs libsqlite3.so.0 (Debian package
 * libsqlite3-0): <why>".  A failure is remembered: later calls give the
 * same error without trying again. */
enum status lazylib_require(enum lazylib lib, struct error *err);

/* The SONAME that lazylib_require() opens for `lib` (the environment's
 * override, else configure's). */
const char *lazylib_soname(enum lazylib lib);

/* For the trampolines (core/lazylib_tramp.h): a library's table of
 * function names and the cache of their addresses, filled by
 * lazylib_require(). */
struct lazylib_table {
	const char *const *names;
	void **fns;
	size_t n;
};
#define LAZYLIB_TABLE_DECL(e, id)                                              \
	extern const struct lazylib_table lazylib_table_##id;
LAZYLIB_LIST(LAZYLIB_TABLE_DECL)
#undef LAZYLIB_TABLE_DECL

/* The address of function `i` of `lib`'s table, loading the library when
 * it is not loaded yet; prints the error line and exits with status 2
 * when it cannot be loaded (see above). */
void *lazylib_resolve(enum lazylib lib, size_t i) __attribute__((cold));

#endif
