/* test-runset-label: the runs' short labels (compare/runset_label.h), the
 * viewer's run column titles.  Degenerate inputs first -- no run, one run,
 * empty paths, the same path twice, paths that differ only by a trailing
 * slash -- each "run N"; then labels worked out by hand: Extra-P's
 * directory names under one directory ("p16", "p32"; with repetitions
 * "p8.r1"), a suffix every run has (".d") dropped from its separator, a
 * prefix cut back to a separator (so "p" stays), one database name in
 * several directories (the directory tells them apart), runs at several
 * depths, and UTF-8 names cut only at ASCII separators. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "compare/runset_label.h"

static void expect(const char *const *paths, uint32_t n,
		   const char *const *want)
{
	char *out[8];
	assert_true(n <= 8);
	assert_true(runset_labels(paths, n, out));
	for (uint32_t r = 0; r < n; r++) {
		assert_non_null(out[r]);
		assert_string_equal(out[r], want[r]);
		free(out[r]);
	}
}

static void test_degenerate(void **state)
{
	(void)state;
	char buf[] = "untouched";
	char *none[1] = {buf};
	assert_true(runset_labels(NULL, 0, none));
	assert_ptr_equal(none[0], buf);
	expect((const char *[]){"/data/kripke.p16"}, 1,
	       (const char *[]){"run 1"});
	expect((const char *[]){"", ""}, 2, (const char *[]){"run 1", "run 2"});
	expect((const char *[]){"/data/a", "/data/a", "/data/b"}, 3,
	       (const char *[]){"run 1", "run 2", "run 3"});
	expect((const char *[]){"/data/a/", "/data/a"}, 2,
	       (const char *[]){"run 1", "run 2"});
	expect((const char *[]){"/", "/"}, 2, (const char *[]){"run 1", "run 2"});
	expect((const char *[]){"x", "xy"}, 2, (const char *[]){"x", "xy"});
}

static void test_extrap_names(void **state)
{
	(void)state;
	expect((const char *[]){"/data/kripke.p16", "/data/kripke.p32/",
				"/data/kripke.p64"},
	       3, (const char *[]){"p16", "p32", "p64"});
	expect((const char *[]){"runs/app.p8.r1", "runs/app.p8.r2",
				"runs/app.p16.r1"},
	       3, (const char *[]){"p8.r1", "p8.r2", "p16.r1"});
	expect((const char *[]){"runs/app.p8.r1", "runs/app.p16.r1"}, 2,
	       (const char *[]){"p8", "p16"});
}

static void test_prefix_suffix(void **state)
{
	(void)state;
	/* ".d" from its '.'; no common head ("l" and "s") */
	expect((const char *[]){"db/loops-cputime-t.d",
				"db/loops-cputime-t.nostruct.d", "db/small.d"},
	       3,
	       (const char *[]){"loops-cputime-t", "loops-cputime-t.nostruct",
				"small"});
	/* "run-" is a head up to its separator; "run" alone is not */
	expect((const char *[]){"run-a", "run-b"}, 2, (const char *[]){"a", "b"});
	expect((const char *[]){"runa", "runb"}, 2,
	       (const char *[]){"runa", "runb"});
	/* a common "x.d" tail keeps its letters before the separator */
	expect((const char *[]){"ax.d", "bx.d"}, 2, (const char *[]){"ax", "bx"});
}

static void test_directories(void **state)
{
	(void)state;
	/* one database name, the directory tells the runs apart */
	expect((const char *[]){"/scratch/n16/hpctoolkit-db",
				"/scratch/n32/hpctoolkit-db"},
	       2, (const char *[]){"n16", "n32"});
	/* depths differ: what remains of each after the shared ends */
	expect((const char *[]){"/w/a/b/db", "/w/c/db"}, 2,
	       (const char *[]){"a/b", "c"});
	/* UTF-8: the shared "é" is not a separator, nothing is cut */
	expect((const char *[]){"d/\xc3\xa9t\xc3\xa9-1", "d/\xc3\xa9t\xc3\xa9-2"},
	       2, (const char *[]){"1", "2"});
	expect((const char *[]){"d/\xc3\xa9" "1", "d/\xc3\xa9" "2"}, 2,
	       (const char *[]){"\xc3\xa9" "1", "\xc3\xa9" "2"});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_extrap_names),
	    cmocka_unit_test(test_prefix_suffix),
	    cmocka_unit_test(test_directories),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
