/* lazylib: the loader of the libraries that only some formats or commands
 * need (see lazylib.h).  One dlopen per library, under a mutex, with
 * RTLD_NOW so that a library that lacks one of its own dependencies fails
 * here and not at some later call; then every function of its table is
 * resolved, so that an older library without a function callscope calls
 * is an error value too.  The outcome (the addresses, or the error line) is
 * kept for the process: a library is never closed.  Depends on
 * core/status and libc only. */
#include "config.h"

#include "core/lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lib_desc {
	const char *enum_name; /* "LAZYLIB_SQLITE": the environment's name */
	const char *soname;    /* configure's */
	const char *package;   /* the package that has it, or "" */
	const struct lazylib_table *table;
};

static const struct lib_desc libs[LAZYLIB_COUNT] = {
#define LAZYLIB_DESC(e, id)                                                    \
	[e] = {#e, e##_SONAME, e##_PACKAGE, &lazylib_table_##id},
    LAZYLIB_LIST(LAZYLIB_DESC)
#undef LAZYLIB_DESC
};

enum lib_state { LIB_UNTRIED, LIB_LOADED, LIB_MISSING };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static enum lib_state state[LAZYLIB_COUNT];
static char *why[LAZYLIB_COUNT]; /* the error line of a missing one */

const char *lazylib_soname(enum lazylib lib)
{
	char var[64];
	/* "LAZYLIB_SQLITE" -> "CALLSCOPE_SONAME_SQLITE" */
	snprintf(var, sizeof(var), "CALLSCOPE_SONAME_%s",
		 libs[lib].enum_name + strlen("LAZYLIB_"));
	const char *env = secure_getenv(var);
	return env && *env ? env : libs[lib].soname;
}

/* The error line for `lib`, with `detail` (dlerror's text) at the end. */
static char *missing_line(enum lazylib lib, const char *soname,
			  const char *detail)
{
	/* the package is the configured library's, not an override's */
	const char *pkg =
		strcmp(soname, libs[lib].soname) == 0 ? libs[lib].package : "";
	char *line = NULL;
	int n;
	if (*pkg)
		n = asprintf(&line, "this needs %s (Debian package %s): %s",
			     soname, pkg, detail);
	else
		n = asprintf(&line, "this needs %s: %s", soname, detail);
	return n < 0 ? NULL : line;
}

/* Open `lib` and resolve its table; the caller holds the lock. */
static void load(enum lazylib lib)
{
	const char *soname = lazylib_soname(lib);
	const struct lazylib_table *t = libs[lib].table;
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		why[lib] = missing_line(lib, soname, e ? e : "cannot load it");
		state[lib] = LIB_MISSING;
		return;
	}
	for (size_t i = 0; i < t->n; i++) {
		dlerror();
		void *f = dlsym(h, t->names[i]);
		if (!f) {
			char detail[256];
			snprintf(detail, sizeof(detail),
				 "it has no function %s (an older version?)",
				 t->names[i]);
			why[lib] = missing_line(lib, soname, detail);
			state[lib] = LIB_MISSING;
			for (size_t k = 0; k < i; k++)
				__atomic_store_n(&t->fns[k], NULL,
						 __ATOMIC_RELEASE);
			return;
		}
		__atomic_store_n(&t->fns[i], f, __ATOMIC_RELEASE);
	}
	state[lib] = LIB_LOADED;
}

enum status lazylib_require(enum lazylib lib, struct error *err)
{
	pthread_mutex_lock(&lock);
	if (state[lib] == LIB_UNTRIED)
		load(lib);
	bool ok = state[lib] == LIB_LOADED;
	pthread_mutex_unlock(&lock);
	if (ok)
		return STATUS_OK;
	/* why[] is written once, before the state leaves LIB_UNTRIED */
	return error_set(err, STATUS_NO_LIBRARY, NULL, "%s",
			 why[lib] ? why[lib] : "a shared library is missing");
}

void *lazylib_resolve(enum lazylib lib, size_t i)
{
	struct error err = {0};
	if (lazylib_require(lib, &err) == STATUS_OK)
		return __atomic_load_n(&libs[lib].table->fns[i],
				       __ATOMIC_ACQUIRE);
	fprintf(stderr, "callscope: %s\n",
		err.message ? err.message : "a shared library is missing");
	error_clear(&err);
	exit(2);
}
