/* Tests of reader_probe_dir_has_suffix and
 * reader_probe_subdirs_have_suffix, the directory bidders' guess from
 * names (nsight, rocpd, otf2): no probe and an empty directory first, a
 * name that is only the suffix, a suffix inside a name, and hidden names
 * one level down. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/reader.h"

static void test_degenerate(void **state)
{
	(void)state;
	struct reader_probe p = {.path = "d", .is_dir = true};
	assert_false(reader_probe_dir_has_suffix(NULL, ".db"));
	assert_false(reader_probe_subdirs_have_suffix(NULL, ".db"));
	assert_false(reader_probe_dir_has_suffix(&p, ".db"));
	assert_false(reader_probe_subdirs_have_suffix(&p, ".db"));
	assert_false(reader_probe_dir_has_suffix(&p, ""));
}

static void test_names(void **state)
{
	(void)state;
	static const char *const names[] = {".db", "a.dbx", "log.txt",
					    "run.sqlite"};
	struct reader_probe p = {.path = "d", .is_dir = true,
				 .names = names, .n_names = 4};
	assert_true(reader_probe_dir_has_suffix(&p, ".sqlite"));
	assert_true(reader_probe_dir_has_suffix(&p, ".db")); /* ".db" */
	assert_false(reader_probe_dir_has_suffix(&p, ".rpd"));
	assert_false(reader_probe_dir_has_suffix(&p, "x.sqlite"));
	assert_true(reader_probe_dir_has_suffix(&p, "")); /* any name */
	/* the subnames are another list */
	assert_false(reader_probe_subdirs_have_suffix(&p, ".sqlite"));
}

static void test_subnames(void **state)
{
	(void)state;
	static const char *const sub[] = {".hidden.db", "12_results.db"};
	struct reader_probe p = {.path = "d", .is_dir = true,
				 .subnames = sub, .n_subnames = 1};
	assert_false(reader_probe_subdirs_have_suffix(&p, ".db")); /* hidden */
	p.n_subnames = 2;
	assert_true(reader_probe_subdirs_have_suffix(&p, "_results.db"));
	assert_false(reader_probe_dir_has_suffix(&p, ".db"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_subnames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
