/* Tests of the builder's helpers for readers: model_builder_warnf, the
 * one warn formatter (a message printed from a format, after "WHERE: "
 * when a place is given, kept in order; degenerate inputs -- no builder,
 * an empty message, a message far longer than any fixed buffer --
 * first), model_column_release, a failure path's cleanup of a column
 * (an empty column, then a full one released twice), and
 * model_builder_add_leaf_column (texts copied, no description, the leaf
 * formula, no pair or parent). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "model/model.h"
#include "build_fixture.h"

static void test_no_builder(void **state)
{
	(void)state;
	model_builder_warnf(NULL, "f", "%d", 1); /* nothing, no crash */
}

static void test_empty_and_long(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "/tmp/db");
	assert_non_null(b);
	model_builder_warnf(b, NULL, "%s", "");
	char big[3001];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	model_builder_warnf(b, "p", "%s!", big);
	struct model *m = fixture_finish(b);
	assert_int_equal(model_n_warnings(m), 2);
	assert_string_equal(model_warnings(m)[0], "");
	const char *w = model_warnings(m)[1];
	assert_int_equal(strlen(w), 3 + 3000 + 1); /* "p: " x3000 "!" */
	assert_memory_equal(w, "p: xxx", 6);
	assert_int_equal(w[strlen(w) - 1], '!');
	model_free(m);
}

static void test_where_and_order(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "/tmp/db");
	assert_non_null(b);
	model_builder_warnf(b, "/a/b.cubex", "metric %s has %u values", "time",
			    7u);
	model_builder_warnf(b, NULL, "%d%%", 50);
	model_builder_add_warning(b, "plain");
	struct model *m = fixture_finish(b);
	assert_int_equal(model_n_warnings(m), 3);
	assert_string_equal(model_warnings(m)[0],
			    "/a/b.cubex: metric time has 7 values");
	assert_string_equal(model_warnings(m)[1], "50%");
	assert_string_equal(model_warnings(m)[2], "plain");
	model_free(m);
}

static void test_column_release(void **state)
{
	(void)state;
	struct model_column c = {0};
	model_column_release(&c); /* nothing owned */
	c.name = strdup("time");
	c.variant = strdup("I");
	c.description = strdup("wall clock");
	c.format = strdup("%.2f");
	c.expr = formula_leaf(0);
	c.expr_standard = formula_leaf(1);
	c.parent = 7;
	assert_non_null(c.expr);
	model_column_release(&c);
	assert_null(c.name);
	assert_null(c.variant);
	assert_null(c.description);
	assert_null(c.format);
	assert_null(c.expr);
	assert_null(c.expr_standard);
	assert_int_equal(c.parent, 0); /* zeroed whole */
	model_column_release(&c); /* twice: harmless */
}

static void test_leaf_column(void **state)
{
	(void)state;
	assert_int_equal(model_builder_add_leaf_column(
				 NULL, &(struct model_leaf_column){
					       .name = "a", .variant = "",
					       .format = "%g"}),
			 MODEL_NONE);
	struct model_builder *b = model_builder_new("test", "/tmp/db");
	assert_non_null(b);
	char name[] = "samples";
	struct model_leaf_column l = {
		.name = name, .variant = "Sum", .description = NULL,
		.format = "%.0f", .stat = 0, .kind = COLUMN_EXCLUSIVE,
		.render = RENDER_NUMBER, .unit = 0, .visible = true};
	struct model_stat st = {.combine = COMBINE_SUM};
	assert_int_equal(model_builder_add_stat(b, &st), 0);
	assert_int_equal(model_builder_add_leaf_column(b, &l), 0);
	l.description = "the second";
	l.kind = COLUMN_INCLUSIVE;
	l.visible = false;
	assert_int_equal(model_builder_add_leaf_column(b, &l), 1);
	name[0] = 'X'; /* copied: the model keeps "samples" */
	struct model *m = fixture_finish(b);
	assert_int_equal(model_n_columns(m), 2);
	const struct model_column *c = model_columns(m);
	assert_string_equal(c[0].name, "samples");
	assert_string_equal(c[0].variant, "Sum");
	assert_null(c[0].description);
	assert_string_equal(c[0].format, "%.0f");
	assert_int_equal(c[0].kind, COLUMN_EXCLUSIVE);
	assert_true(c[0].visible);
	assert_int_equal(c[0].parent, MODEL_NONE);
	assert_int_equal(model_column_stat(m, 0), 0);
	assert_string_equal(c[1].description, "the second");
	assert_int_equal(c[1].kind, COLUMN_INCLUSIVE);
	assert_false(c[1].visible);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_builder),
		cmocka_unit_test(test_empty_and_long),
		cmocka_unit_test(test_where_and_order),
		cmocka_unit_test(test_column_release),
		cmocka_unit_test(test_leaf_column),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
