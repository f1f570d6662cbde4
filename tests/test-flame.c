/* Tests of flame_layout: degenerate input first (bad sizes, a root
 * without value, a leaf), a small tree whose boxes are computed by hand
 * (shares of the parent, free room for the self part, rounding that
 * never overlaps, children narrower than a cell dropped with their
 * subtree, the row limit), flame_box_at, then random models against an
 * independent layout written here from the model's values and the view's
 * order; the merged layout of a sandwich's callees (flame_layout_merged). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/flame.h"
#include "views/view.h"
#include "view_fixture.h"
#include "view_assert.h"

/* A model from a parent list and inclusive values (view_fixture.h). */
static struct model *build(const uint32_t *parent, const double *incl,
			   uint32_t n, double root)
{
	return fx_parent_model(parent, incl, NULL, n, root, true);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model *m = build(NULL, NULL, 0, 5);
	struct error err = {0};
	struct flame_box *boxes = NULL;
	size_t n = 0;
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(flame_layout(v, 0, 0, 0, 5, &boxes, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(flame_layout(v, 0, 0, 10, 0, &boxes, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* root only: one box, the whole width */
	assert_int_equal(flame_layout(v, 0, 0, 10, 5, &boxes, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_int_equal(boxes[0].x0, 0);
	assert_int_equal(boxes[0].x1, 10);
	assert_int_equal(boxes[0].parent, UINT32_MAX);
	assert_true(boxes[0].value == 5);
	assert_int_equal(flame_box_at(boxes, n, 0, 99), 0);
	assert_int_equal(flame_box_at(boxes, n, 1, 0), SIZE_MAX);
	free(boxes);
	view_free(v);
	model_free(m);
	/* a root without a value has no children laid out */
	const uint32_t parent[] = {0};
	const double incl[] = {4};
	m = build(parent, incl, 1, -1);
	v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(flame_layout(v, 0, 0, 10, 5, &boxes, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	free(boxes);
	view_free(v);
	model_free(m);
}

/*        root 100
 *       /    |     \
 *   n0 50  n1 30  n2 0.5        (n2 narrower than a cell at width 40)
 *    |       |       |
 *  n3 25   n4 30   n5 0.5
 *    |
 *  n6 5 */
static void test_by_hand(void **state)
{
	(void)state;
	const uint32_t parent[] = {0, 0, 0, 1, 2, 3, 4};
	const double incl[] = {50, 30, 0.5, 25, 30, 0.5, 5};
	struct model *m = build(parent, incl, 7, 100);
	struct error err = {0};
	struct flame_box *b = NULL;
	size_t n = 0;
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(flame_layout(v, 0, 0, 40, 10, &b, &n, &err),
			 STATUS_OK);
	/* root; n0 [0,20) n1 [20,32); n3 [0,10) n4 [20,32); n6 [0,2) */
	assert_int_equal(n, 6);
	const struct {
		uint32_t node, depth;
		int x0, x1;
		uint32_t parent;
	} want[] = {{0, 0, 0, 40, UINT32_MAX}, {1, 1, 0, 20, 0},
		    {2, 1, 20, 32, 0},	       {4, 2, 0, 10, 1},
		    {5, 2, 20, 32, 2},	       {7, 3, 0, 2, 3}};
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(b[i].node, want[i].node);
		assert_int_equal(b[i].depth, want[i].depth);
		assert_int_equal(b[i].x0, want[i].x0);
		assert_int_equal(b[i].x1, want[i].x1);
		assert_int_equal(b[i].parent, want[i].parent);
	}
	assert_int_equal(flame_box_at(b, n, 1, 25), 2);
	assert_int_equal(flame_box_at(b, n, 1, 35), 2); /* nearest */
	assert_int_equal(flame_box_at(b, n, 2, 15), 4); /* n4 nearer */
	free(b);
	/* two rows at most */
	assert_int_equal(flame_layout(v, 0, 0, 40, 2, &b, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 3);
	free(b);
	/* a subtree as the root: n1 spans the width */
	assert_int_equal(flame_layout(v, 2, 0, 30, 10, &b, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 2);
	assert_int_equal(b[1].node, 5);
	assert_int_equal(b[1].x1 - b[1].x0, 30);
	free(b);
	view_free(v);
	model_free(m);
}

/* Random trees (whose values need not add up: a child may hold more than
 * its parent) against a layout computed here: each laid-out box's
 * children with a positive value, in the view's order, placed at the
 * running sum of their values scaled to the parent's span and clamped to
 * it, rounded to whole cells, and kept when at least one cell wide. */
static void check_children(struct view *v, const struct flame_box *b,
			   size_t n, size_t i, double left, double right,
			   int rows)
{
	uint32_t *kids = NULL;
	size_t nk = 0;
	struct error err = {0};
	size_t next = 0; /* the next box of parent i, in order */
	while (next < n && b[next].parent != i)
		next++;
	if (b[i].depth + 1 >= (uint32_t)rows || !(b[i].value > 0)) {
		assert_int_equal(next, n);
		return;
	}
	assert_int_equal(view_children(v, b[i].node, 0, false, &kids, &nk,
				       &err),
			 STATUS_OK);
	double at = left, scale = (right - left) / b[i].value;
	for (size_t k = 0; k < nk; k++) {
		double value;
		if (!view_value(v, kids[k], 0, &value) || !(value > 0))
			continue;
		double s0 = at, s1 = fmin(at + value * scale, right);
		at = s1;
		int x0 = (int)lround(s0), x1 = (int)lround(s1);
		if (x1 - x0 < 1)
			continue;
		assert_true(next < n);
		assert_int_equal(b[next].node, kids[k]);
		assert_int_equal(b[next].x0, x0);
		assert_int_equal(b[next].x1, x1);
		assert_true(b[next].value == value);
		check_children(v, b, n, next, s0, s1, rows);
		do
			next++;
		while (next < n && b[next].parent != i);
	}
	assert_int_equal(next, n); /* no box more */
	free(kids);
}

static void test_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct model *m = fx_random_model(300, 40, seed, false);
		struct error err = {0};
		struct flame_box *b = NULL;
		size_t n = 0;
		struct view *v = view_of(m, VIEW_TOP_DOWN);
		int width = 50 + (int)(seed * 7), rows = 3 + (int)seed;
		assert_int_equal(flame_layout(v, 0, 0, width, rows, &b, &n,
					      &err),
				 STATUS_OK);
		assert_int_equal(b[0].x1, width);
		check_children(v, b, n, 0, 0, width, rows);
		for (size_t i = 1; i < n; i++) {
			const struct flame_box *p = &b[b[i].parent];
			assert_int_equal(b[i].depth, p->depth + 1);
			assert_true(b[i].x0 >= p->x0 && b[i].x1 <= p->x1);
			if (i + 1 < n && b[i + 1].depth == b[i].depth)
				assert_true(b[i + 1].x0 >= b[i].x1);
		}
		free(b);
		view_free(v);
		model_free(m);
	}
}

/* Two instances (nodes 1 and 2, 40 and 20) as one box of 60: their
 * children, named "n2" (30, under 1), "n3" (20, under 2) and "n4" (10,
 * under 1), all different, give three boxes of 30, 20 and 10 cells,
 * largest first.  Then instances whose children share a name ("x": 30
 * under one, 10 under the other): one box of 40 with both as members. */
static void test_merged(void **state)
{
	(void)state;
	const uint32_t parent[] = {0, 0, 1, 2, 1};
	const double incl[] = {40, 20, 30, 20, 10};
	struct model *m = build(parent, incl, 5, 60);
	struct error err = {0};
	struct flame_merge fm;
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	const uint32_t roots[] = {1, 2};
	assert_int_equal(flame_layout_merged(v, roots, 0, "f", 0, 60, 5, &fm,
					     &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(flame_layout_merged(v, roots, 2, "f", 0, 60, 5, &fm,
					     &err),
			 STATUS_OK);
	/* the top: both instances, 60 wide for 60; then 30, 20, 10 */
	assert_int_equal(fm.n_boxes, 4);
	assert_string_equal(fm.boxes[0].label, "f");
	assert_true(fm.boxes[0].value == 60);
	assert_int_equal(fm.boxes[0].n, 2);
	const struct {
		const char *label;
		int x0, x1;
	} want[] = {{"n2", 0, 30}, {"n3", 30, 50}, {"n4", 50, 60}};
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(fm.boxes[i + 1].label, want[i].label);
		assert_int_equal(fm.boxes[i + 1].x0, want[i].x0);
		assert_int_equal(fm.boxes[i + 1].x1, want[i].x1);
		assert_int_equal(fm.boxes[i + 1].depth, 1);
		assert_int_equal(fm.boxes[i + 1].n, 1);
	}
	flame_merge_free(&fm);
	view_free(v);
	model_free(m);
	/* the same name under both instances: one box of both */
	struct model_builder *b = fx_builder("merge.db");
	struct fx_values *fv = fx_values_new(16);
	const char *names[] = {"f", "f", "x", "x"};
	const uint32_t par[] = {0, 0, 1, 2};
	const double val[] = {40, 20, 30, 10};
	fx_set(fv, 0, 0, 60);
	for (uint32_t i = 0; i < 4; i++) {
		struct model_node nd = {
			.ctx_id = i + 1,
			.kind = NODE_FUNCTION,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, names[i], 1),
		};
		assert_int_equal(model_builder_add_node(b, par[i], &nd), i + 1);
		fx_set(fv, i + 1, 0, val[i]);
	}
	m = fx_finish(b, fv, true);
	v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(flame_layout_merged(v, roots, 2, "f", 0, 60, 5, &fm,
					     &err),
			 STATUS_OK);
	assert_int_equal(fm.n_boxes, 2);
	assert_string_equal(fm.boxes[1].label, "x");
	assert_true(fm.boxes[1].value == 40);
	assert_int_equal(fm.boxes[1].x1 - fm.boxes[1].x0, 40);
	assert_int_equal(fm.boxes[1].n, 2);
	flame_merge_free(&fm);
	view_free(v);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
