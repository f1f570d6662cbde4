/* Tests for lazylib (the libraries opened on first use): the SONAME and
 * its override; a missing library as an error value (NULL err first; the
 * line, remembered); a library that is there, each function of its table
 * checked against what the dynamic loader itself finds in that library
 * (dlopen RTLD_NOLOAD + dlsym, not through lazylib); and the trampoline
 * reached before any require when the library is missing: one line on
 * stderr and exit status 2.  A missing library is remembered for the
 * process, so those cases run in a child process each. */
#include "config.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "core/lazylib.h"

#define MISSING "libcallscope-missing.so.0"

/* The exit status of a child that ran `fn`, its stderr (kept in a
 * temporary file) in `out`. */
static int in_child(int (*fn)(void), char *out, size_t cap)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(f), 2);
		_exit(fn());
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	rewind(f);
	out[fread(out, 1, cap - 1, f)] = '\0';
	fclose(f);
	return WEXITSTATUS(status);
}

static void test_soname(void **state)
{
	(void)state;
	unsetenv("CALLSCOPE_SONAME_SQLITE");
	assert_string_equal(lazylib_soname(LAZYLIB_SQLITE),
			    LAZYLIB_SQLITE_SONAME);
	setenv("CALLSCOPE_SONAME_SQLITE", "", 1);
	assert_string_equal(lazylib_soname(LAZYLIB_SQLITE),
			    LAZYLIB_SQLITE_SONAME);
	setenv("CALLSCOPE_SONAME_SQLITE", MISSING, 1);
	assert_string_equal(lazylib_soname(LAZYLIB_SQLITE), MISSING);
	/* the name after CALLSCOPE_SONAME_ is the enum's */
	setenv("CALLSCOPE_SONAME_PROTOBUF_C", MISSING, 1);
	assert_string_equal(lazylib_soname(LAZYLIB_PROTOBUF_C), MISSING);
	unsetenv("CALLSCOPE_SONAME_SQLITE");
	unsetenv("CALLSCOPE_SONAME_PROTOBUF_C");
}

/* In a child: Capstone missing, asked for without an error record. */
static int missing_null_err(void)
{
	setenv("CALLSCOPE_SONAME_CAPSTONE", MISSING, 1);
	return lazylib_require(LAZYLIB_CAPSTONE, NULL) == STATUS_NO_LIBRARY
		       ? 0
		       : 1;
}

/* In a child: Capstone missing; the line, and the same line again after
 * the override is gone (the outcome is kept). */
static int missing_line(void)
{
	setenv("CALLSCOPE_SONAME_CAPSTONE", MISSING, 1);
	struct error err = {0};
	if (lazylib_require(LAZYLIB_CAPSTONE, &err) != STATUS_NO_LIBRARY ||
	    err.status != STATUS_NO_LIBRARY || err.file || !err.message)
		return 1;
	const char *want = "this needs " MISSING ": " MISSING ": ";
	if (strncmp(err.message, want, strlen(want)) != 0 ||
	    strchr(err.message, '\n'))
		return 2;
	char *first = strdup(err.message);
	error_clear(&err);
	unsetenv("CALLSCOPE_SONAME_CAPSTONE");
	if (lazylib_require(LAZYLIB_CAPSTONE, &err) != STATUS_NO_LIBRARY ||
	    !first || strcmp(err.message, first) != 0)
		return 3;
	free(first);
	error_clear(&err);
	/* another library is not affected */
	return lazylib_require(LAZYLIB_SQLITE, &err) == STATUS_OK ? 0 : 4;
}

static void test_missing(void **state)
{
	(void)state;
	char out[1024];
	assert_int_equal(in_child(missing_null_err, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(in_child(missing_line, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

/* Each function of `t` is the one the dynamic loader finds in `soname`. */
static void check_table(const struct lazylib_table *t, const char *soname)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);
	assert_true(t->n > 0);
	for (size_t i = 0; i < t->n; i++) {
		void *want = dlsym(h, t->names[i]);
		assert_non_null(want);
		assert_ptr_equal(t->fns[i], want);
	}
	dlclose(h);
}

static void test_loaded(void **state)
{
	(void)state;
	struct error err = {0};
	/* not loaded at start: nothing has required it */
	assert_null(dlopen(LAZYLIB_SQLITE_SONAME, RTLD_NOW | RTLD_NOLOAD));
	assert_int_equal(lazylib_require(LAZYLIB_SQLITE, &err), STATUS_OK);
	assert_int_equal(lazylib_require(LAZYLIB_SQLITE, &err), STATUS_OK);
	assert_int_equal(err.status, STATUS_OK);
	check_table(&lazylib_table_sqlite, LAZYLIB_SQLITE_SONAME);
	/* a call through the trampoline reaches the library: the version
	 * number it reports is the one it exports as sqlite3_version */
	void *h = dlopen(LAZYLIB_SQLITE_SONAME, RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(h);
	const char *version = dlsym(h, "sqlite3_version");
	assert_non_null(version);
	assert_int_equal(sqlite3_threadsafe(),
			 ((int (*)(void))dlsym(h, "sqlite3_threadsafe"))());
	dlclose(h);
	assert_non_null(strchr(version, '.'));
	/* every library of the list is there in the test environment */
	assert_int_equal(lazylib_require(LAZYLIB_CURL, &err), STATUS_OK);
	check_table(&lazylib_table_curl, LAZYLIB_CURL_SONAME);
	assert_int_equal(lazylib_require(LAZYLIB_OTF2, &err), STATUS_OK);
	check_table(&lazylib_table_otf2, LAZYLIB_OTF2_SONAME);
	for (int lib = 0; lib < LAZYLIB_COUNT; lib++)
		assert_int_equal(lazylib_require((enum lazylib)lib, &err),
				 STATUS_OK);
}

/* In a child: SQLite missing and a function called with no require. */
static int trampoline_first(void)
{
	setenv("CALLSCOPE_SONAME_SQLITE", MISSING, 1);
	(void)sqlite3_threadsafe();
	return 0; /* not reached */
}

static void test_trampoline_missing(void **state)
{
	(void)state;
	char out[1024];
	assert_int_equal(in_child(trampoline_first, out, sizeof(out)), 2);
	const char *want = "callscope: this needs " MISSING ": " MISSING ": ";
	assert_int_equal(strncmp(out, want, strlen(want)), 0);
	/* one line */
	char *nl = strchr(out, '\n');
	assert_non_null(nl);
	assert_string_equal(nl, "\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_soname),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_trampoline_missing),
		cmocka_unit_test(test_loaded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
