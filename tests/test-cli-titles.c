/* Tests of the column titles of text headers (present_column_title_fit): the
 * full title when it fits; else the name is cut and the variant kept, so
 * the Mean, StdDev, Min, Max columns of one metric stay told apart in a
 * 10-character header. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "present/present_column.h"
#include "model/model.h"
#include "model/model_internal.h" /* a model made by hand: its struct */

static char wall[] = "WALLCLOCK (us)", cycles[] = "cycles",
	    longs[] = "\xc3\xa9v\xc3\xa9nements longs", sum[] = "Sum",
	    mean[] = "Mean", stddev[] = "StdDev", min[] = "Min";

static struct model_column columns[] = {
	{.name = wall, .variant = sum, .kind = COLUMN_INCLUSIVE},
	{.name = wall, .variant = mean, .kind = COLUMN_INCLUSIVE},
	{.name = wall, .variant = stddev, .kind = COLUMN_EXCLUSIVE},
	{.name = cycles, .variant = mean, .kind = COLUMN_INCLUSIVE},
	{.name = longs, .variant = min,
	 .kind = COLUMN_EXCLUSIVE},
	{.name = cycles, .variant = NULL, .kind = COLUMN_EXCLUSIVE},
};

static const struct model model = {
	.columns = columns,
	.n_columns = sizeof(columns) / sizeof(columns[0]),
};

static void expect(uint32_t column, size_t width, const char *want)
{
	char *t = present_column_title_fit(&model, column, width);
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

static void test_fits_whole(void **state)
{
	(void)state;
	expect(0, 40, "WALLCLOCK (us) (I)");
	expect(1, 40, "WALLCLOCK (us):Mean (I)");
	expect(3, 15, "cycles:Mean (I)");
	expect(5, 10, "cycles (E)");
}

static void test_name_cut_variant_kept(void **state)
{
	(void)state;
	/* width 16: tail ":Mean (I)" is 9, one for '~', 6 of the name */
	expect(1, 16, "WALLCL~:Mean (I)");
	/* UTF-8 names are cut between characters, never inside one */
	expect(4, 14, "\xc3\xa9v\xc3\xa9ne~:Min (E)");
}

static void test_variant_alone(void **state)
{
	(void)state;
	expect(1, 10, "Mean (I)");
	expect(2, 10, "StdDev (E)");
	/* no variant: returned whole, the caller cuts the end */
	expect(0, 10, "WALLCLOCK (us) (I)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits_whole),
		cmocka_unit_test(test_name_cut_variant_kept),
		cmocka_unit_test(test_variant_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
