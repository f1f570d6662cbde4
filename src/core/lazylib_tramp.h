/* lazylib_tramp: the trampolines of one lazily loaded library, written
 * out from its list.  Not an ordinary header: core/lazylib_<id>.c includes
 * the library's own header, defines LAZYLIB_LIB (its enum lazylib value),
 * LAZYLIB_DEF (its list, "core/lazylib_<id>.def") and LAZYLIB_TABLE
 * (lazylib_table_<id>), then includes this once.
 *
 * A list has one line per function callscope calls in the library, as
 * the library's header declares it, with names for the parameters and the
 * call's arguments:
 *     LAZY_FN(int, sqlite3_close, (sqlite3 *a), (a))
 *     LAZY_VOID(curl_free, (void *a), (a))
 * Each line becomes an index in the library's table (lazylib.c fills its
 * address when the library is loaded) and a function under the real name
 * that calls the library's function through that address: one load and
 * an indirect jump, the same as a call through the PLT, plus a test that
 * loads the library on the first call when no lazylib_require() came
 * first.  The real name is an alias of a static function of the list's
 * type, so that a library version whose header spells a parameter
 * differently (a const added) still builds.  A variadic function is
 * listed as LAZY_HAND(name): its library's file writes it by hand, with
 * lazy_address(LAZY_IX_name) for the address.  A function the engine
 * starts to call is added to the list (else the link fails with an
 * undefined reference). */
#include "core/lazylib.h"

enum {
#define LAZY_FN(ret, name, params, args) LAZY_IX_##name,
#define LAZY_VOID(name, params, args)	 LAZY_IX_##name,
#define LAZY_HAND(name)			 LAZY_IX_##name,
#include LAZYLIB_DEF
#undef LAZY_FN
#undef LAZY_VOID
#undef LAZY_HAND
	LAZY_N
};

static const char *const lazy_names[LAZY_N] = {
#define LAZY_FN(ret, name, params, args) #name,
#define LAZY_VOID(name, params, args)	 #name,
#define LAZY_HAND(name)			 #name,
#include LAZYLIB_DEF
#undef LAZY_FN
#undef LAZY_VOID
#undef LAZY_HAND
};

static void *lazy_fns[LAZY_N];

const struct lazylib_table LAZYLIB_TABLE = {lazy_names, lazy_fns, LAZY_N};

/* The address of function `i`, the library loaded on the first call. */
static inline void *lazy_address(size_t i)
{
	void *f = __atomic_load_n(&lazy_fns[i], __ATOMIC_ACQUIRE);
	return __builtin_expect(f != NULL, 1) ? f
					      : lazylib_resolve(LAZYLIB_LIB, i);
}

/* Each function is declared twice, by the library's header and as an
 * alias here, and the two types may differ in a const. */
#pragma GCC diagnostic ignored "-Wredundant-decls"
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#pragma GCC diagnostic ignored "-Wattribute-alias"
#endif

#define LAZY_FN(ret, name, params, args)                                       \
	static ret lazy_##name params                                          \
	{                                                                      \
		return ((ret(*) params)lazy_address(LAZY_IX_##name))args;      \
	}                                                                      \
	__typeof__(name) name __attribute__((alias("lazy_" #name)));
#define LAZY_VOID(name, params, args)                                          \
	static void lazy_##name params                                         \
	{                                                                      \
		((void(*) params)lazy_address(LAZY_IX_##name)) args;           \
	}                                                                      \
	__typeof__(name) name __attribute__((alias("lazy_" #name)));
#define LAZY_HAND(name)
#include LAZYLIB_DEF
#undef LAZY_FN
#undef LAZY_VOID
#undef LAZY_HAND
