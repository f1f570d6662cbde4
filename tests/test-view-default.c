/* Tests of the column a view opens sorted by (view_default_column,
 * view_column_is_time): degenerate inputs first, then a Cube-like model
 * (visits before time, a min_time), HPCToolkit-like names (CPUTIME,
 * WALLCLOCK (us), a "(sec)" unit, a Mean variant), a taxonomy parent and
 * the bottom-up view's exclusive pick (critique b7: Cube opened on visits,
 * bottom-up on inclusive values). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "views/view.h"

struct col_spec {
	const char *name, *variant;
	uint8_t kind;
	uint8_t combine;
	uint32_t parent;
};

/* One statistic and one column per spec, paired inclusive <-> exclusive
 * with the spec next to it of the same name. */
static struct model *build(const struct col_spec *spec, uint32_t n)
{
	struct model_builder *b = model_builder_new("fixture", "d.db");
	struct error err = {0};
	for (uint32_t i = 0; i < n; i++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, spec[i].name,
						       strlen(spec[i].name)),
			.scope = model_builder_intern(b, "execution", 9),
			.formula = model_builder_intern(b, "$$", 2),
			.combine = spec[i].combine,
			.stat_id = i,
			.prop_id = MODEL_NONE,
		};
		assert_int_equal(model_builder_add_stat(b, &st), i);
		uint32_t pair = MODEL_NONE;
		for (uint32_t j = 0; j < n; j++)
			if (j != i && strcmp(spec[j].name, spec[i].name) == 0 &&
			    strcmp(spec[j].variant, spec[i].variant) == 0 &&
			    spec[j].kind != spec[i].kind)
				pair = j;
		struct model_column c = {
			.name = strdup(spec[i].name),
			.variant = strdup(spec[i].variant),
			.format = strdup("%g"),
			.kind = spec[i].kind,
			.render = RENDER_NUMBER,
			.visible = true,
			.pair = pair,
			.parent = spec[i].parent,
			.expr = formula_leaf(i),
		};
		assert_int_equal(model_builder_add_column(b, &c), i);
	}
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	return m;
}

#define I COLUMN_INCLUSIVE
#define E COLUMN_EXCLUSIVE
#define NONE MODEL_NONE

static void test_degenerate(void **state)
{
	(void)state;
	static const struct col_spec spec[] = {
		{"visits", "", I, COMBINE_SUM, NONE},
	};
	struct model *m = build(spec, 1);
	uint32_t shown[] = {0};
	assert_int_equal(view_default_column(NULL, VIEW_TOP_DOWN, shown, 1),
			 MODEL_NONE);
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, NULL, 0),
			 MODEL_NONE);
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, shown, 0),
			 MODEL_NONE);
	assert_false(view_column_is_time(m, 1));
	assert_false(view_column_is_time(m, MODEL_NONE));
	/* no time column: the first shown */
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, shown, 1), 0);
	assert_int_equal(view_default_column(m, VIEW_BOTTOM_UP, shown, 1), 0);
	model_free(m);
}

static void test_cube(void **state)
{
	(void)state;
	static const struct col_spec spec[] = {
		{"visits", "", I, COMBINE_SUM, NONE},
		{"visits", "", E, COMBINE_SUM, NONE},
		{"min_time", "", I, COMBINE_MIN, NONE},
		{"time", "", I, COMBINE_SUM, NONE},
		{"time", "", E, COMBINE_SUM, NONE},
	};
	struct model *m = build(spec, 5);
	assert_false(view_column_is_time(m, 0));
	assert_false(view_column_is_time(m, 2)); /* a minimum, not a total */
	assert_true(view_column_is_time(m, 3));
	uint32_t all[] = {0, 1, 2, 3, 4};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, all, 5), 3);
	assert_int_equal(view_default_column(m, VIEW_FLAT, all, 5), 3);
	/* bottom-up: the time that functions spend themselves */
	assert_int_equal(view_default_column(m, VIEW_BOTTOM_UP, all, 5), 4);
	/* ... when that column is shown */
	uint32_t no_excl[] = {0, 1, 3};
	assert_int_equal(view_default_column(m, VIEW_BOTTOM_UP, no_excl, 3),
			 3);
	/* only the exclusive time shown */
	uint32_t excl_only[] = {0, 4};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, excl_only, 2),
			 4);
	model_free(m);
}

static void test_hpctoolkit(void **state)
{
	(void)state;
	static const struct col_spec spec[] = {
		/* 0 */ {"GINS", "Sum", I, COMBINE_SUM, NONE},
		/* 1 */ {"WALLCLOCK (us)", "Mean", I, COMBINE_SUM, NONE},
		/* 2 */ {"GPU", "Sum", I, COMBINE_SUM, NONE},
		/* 3 */ {"Synchronization", "Sum", I, COMBINE_SUM, 2},
		/* 4 */ {"GSYNC:STR (sec)", "Sum", I, COMBINE_SUM, 3},
		/* 5 */ {"CPUTIME (sec)", "Sum", I, COMBINE_SUM, NONE},
	};
	struct model *m = build(spec, 6);
	assert_false(view_column_is_time(m, 0));
	assert_false(view_column_is_time(m, 1)); /* a Mean variant */
	assert_true(view_column_is_time(m, 4));
	assert_true(view_column_is_time(m, 5));
	/* the first time column, climbed to its shown taxonomy top */
	uint32_t all[] = {0, 1, 2, 3, 4, 5};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, all, 6), 2);
	uint32_t no_top[] = {0, 1, 3, 4, 5};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, no_top, 5), 3);
	uint32_t leaf_only[] = {0, 4, 5};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, leaf_only, 3),
			 4);
	uint32_t cpu[] = {0, 1, 5};
	assert_int_equal(view_default_column(m, VIEW_TOP_DOWN, cpu, 3), 5);
	/* no exclusive pair: bottom-up keeps the inclusive column */
	assert_int_equal(view_default_column(m, VIEW_BOTTOM_UP, cpu, 3), 5);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_cube),
		cmocka_unit_test(test_hpctoolkit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
