/* Tests of Cube's metric-tree link (model_column.own): which column shows
 * a metric opened or closed (present_metric_form) and the builder's check
 * of the link (model_builder_set_column_own).  Degenerate inputs first: no
 * columns, an index out of range, a model made by hand (own 0 everywhere:
 * no link), a link to itself, to an earlier column or to another kind; a
 * reader's own value is not taken; then a parent with its open form (a
 * stored value less its sub-metric's, as cube_metric_tree.c writes it),
 * the only column linked.  The values are tests/test-cube-metric-tree.sh's. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "present/present_column.h"
#include "model/model.h"
#include "build_fixture.h"
#include "model/model_internal.h" /* a model made by hand: its struct */

static char name[] = "time", none[] = "";

static struct model_column by_hand[] = {
	{.name = name, .variant = none, .kind = COLUMN_INCLUSIVE},
	{.name = name, .variant = none, .kind = COLUMN_EXCLUSIVE},
};

static void test_degenerate(void **state)
{
	(void)state;
	static const struct model empty = {0};
	assert_int_equal(present_metric_form(&empty, 0, true), 0);
	assert_int_equal(present_metric_form(&empty, MODEL_NONE, true),
			 MODEL_NONE);
	static const struct model hand = {.columns = by_hand, .n_columns = 2};
	/* own 0 (the designated initializer's): before or at the column,
	 * so no link */
	for (uint32_t c = 0; c < 2; c++) {
		assert_int_equal(present_metric_form(&hand, c, true), c);
		assert_int_equal(present_metric_form(&hand, c, false), c);
	}
	assert_int_equal(present_metric_form(&hand, 7, true), 7);
	assert_false(model_builder_set_column_own(NULL, 0, 1));
}

/* Columns: 0 time (I), 1 mpi (I), 2 time (E), 3 time/own (I) = $1 - $2
 * over statistics 0 (time) and 1 (mpi); the reader gave column 0 an own
 * of 1, which the builder does not take. */
static struct model *build(void)
{
	struct model_builder *b = model_builder_new("fixture", "d.db");
	const char *names[] = {"time", "mpi"};
	for (uint32_t i = 0; i < 2; i++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, names[i],
						       strlen(names[i])),
			.scope = model_builder_intern(b, "inclusive", 9),
			.formula = model_builder_intern(b, "$$", 2),
			.stat_id = i,
			.prop_id = MODEL_NONE,
		};
		assert_int_equal(model_builder_add_stat(b, &st), i);
	}
	const struct {
		const char *name;
		uint8_t kind;
	} spec[] = {{"time", COLUMN_INCLUSIVE},
		    {"mpi", COLUMN_INCLUSIVE},
		    {"time", COLUMN_EXCLUSIVE},
		    {"time/own", COLUMN_INCLUSIVE}};
	for (uint32_t i = 0; i < 4; i++) {
		struct formula *e = formula_leaf(i == 1);
		if (i == 3) {
			struct formula **a = malloc(2 * sizeof(*a));
			assert_non_null(a);
			a[0] = formula_leaf(0);
			a[1] = formula_leaf(1);
			formula_free(e);
			e = formula_node(FORMULA_SUB, a, 2);
		}
		struct model_column c = {
			.name = strdup(spec[i].name),
			.variant = strdup(""),
			.format = strdup("%g"),
			.kind = spec[i].kind,
			.render = RENDER_NUMBER,
			.pair = MODEL_NONE,
			.parent = i == 1 ? 0 : MODEL_NONE,
			.own = i == 0 ? 1 : 0,
			.expr = e,
		};
		assert_int_equal(model_builder_add_column(b, &c), i);
	}
	assert_false(model_builder_set_column_own(b, 0, 0));	/* itself */
	assert_false(model_builder_set_column_own(b, 3, 0));	/* earlier */
	assert_false(model_builder_set_column_own(b, 2, 3));	/* E to I */
	assert_false(model_builder_set_column_own(b, 0, 4));	/* no column */
	assert_false(model_builder_set_column_own(b, 9, 3));
	assert_true(model_builder_set_column_own(b, 0, 3));
	return fixture_finish(b);
}

static void test_open_form(void **state)
{
	(void)state;
	struct model *m = build();
	assert_int_equal(model_columns(m)[0].own, 3);
	for (uint32_t c = 1; c < 4; c++)
		assert_int_equal(model_columns(m)[c].own, MODEL_NONE);
	assert_int_equal(present_metric_form(m, 0, true), 3);
	assert_int_equal(present_metric_form(m, 0, false), 0);
	for (uint32_t c = 1; c < 4; c++)
		assert_int_equal(present_metric_form(m, c, true), c);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_open_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
