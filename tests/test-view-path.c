/* Tests of view_path (a row named by its path from the root, found again
 * in a view of another model: the carry-over of a partial GPU run's views
 * to its complete model).  Degenerate inputs first (no view, an unknown
 * row, the root, a path into a model that lacks it, the same label of
 * another kind), then two models whose node ids differ (the second has
 * more nodes, made in another order): every row of the first is found in
 * the second at the node whose chain of names and kinds -- read off the
 * builders' own parent lists here, not through view_path -- is its. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "views/view.h"
#include "views/view_path.h"
#include "view_fixture.h"
#include "view_assert.h"

struct spec {
	uint32_t parent; /* index into the spec + 1, 0 the root */
	const char *name;
	uint8_t kind;
};

static struct model *build(const struct spec *sp, uint32_t n)
{
	struct model_builder *b = model_builder_new("fixture", "path.db");
	struct error err = {0};
	fx_add_columns(b);
	struct fx_values *fv = fx_values_new(n + 2);
	fx_set(fv, 0, 0, 100);
	for (uint32_t i = 0; i < n; i++) {
		struct model_node nd = {
			.ctx_id = i + 1,
			.kind = sp[i].kind,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, sp[i].name,
						     strlen(sp[i].name)),
		};
		assert_int_equal(model_builder_add_node(b, sp[i].parent, &nd),
				 i + 1);
		fx_set(fv, i + 1, 0, (double)(n - i));
	}
	model_builder_set_values(b, &fx_value_ops, fv);
	struct model *m = fx_need(model_builder_finish(b, &err));
	error_clear(&err);
	return m;
}

/* The first model: root > a > {x, y > w}, root > b > x (kernel). */
static const struct spec first[] = {
	{0, "a", NODE_FUNCTION}, {1, "x", NODE_FUNCTION},
	{1, "y", NODE_FUNCTION}, {3, "w", NODE_FUNCTION},
	{0, "b", NODE_FUNCTION}, {5, "x", NODE_KERNEL},
};
/* The second, in another order with more nodes, without a > y > w, and
 * b's x a function, not a kernel: root > c, root > b > {x (function),
 * z}, root > a > {z, y, x}. */
static const struct spec second[] = {
	{0, "c", NODE_FUNCTION}, {0, "b", NODE_FUNCTION},
	{2, "x", NODE_FUNCTION}, {2, "z", NODE_FUNCTION},
	{0, "a", NODE_FUNCTION}, {5, "z", NODE_FUNCTION},
	{5, "y", NODE_FUNCTION}, {5, "x", NODE_FUNCTION},
};

/* Whether spec node i (1-based) of `a` and j of `b` have the same chain
 * of names and kinds. */
static bool same_chain(const struct spec *a, uint32_t i, const struct spec *b,
		       uint32_t j)
{
	while (i && j) {
		if (strcmp(a[i - 1].name, b[j - 1].name) != 0 ||
		    a[i - 1].kind != b[j - 1].kind)
			return false;
		i = a[i - 1].parent;
		j = b[j - 1].parent;
	}
	return i == 0 && j == 0;
}

/* The row of view `v` showing model node `node`. */
static uint32_t row_of(struct view *v, uint32_t node, uint32_t n_rows)
{
	struct view_node vn;
	for (uint32_t r = 0; r < n_rows; r++)
		if (view_node_get(v, r, &vn) && vn.model_node == node)
			return r;
	return MODEL_NONE;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model *m = build(first, 6);
	struct error err = {0};
	struct view_path p;
	assert_int_equal(view_path_of(NULL, 0, &p, &err), STATUS_USAGE);
	error_clear(&err);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(view_path_of(v, 999, &p, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(p.n, 0);
	/* the root: an empty path, found as the root */
	assert_int_equal(view_path_of(v, view_root(v), &p, &err), STATUS_OK);
	assert_int_equal(p.n, 0);
	assert_int_equal(view_path_find(v, &p), view_root(v));
	assert_int_equal(view_path_find(NULL, &p), MODEL_NONE);
	view_path_free(&p);
	view_path_free(&p); /* twice is fine */
	view_free(v);
	model_free(m);
}

static void test_across_models(void **state)
{
	(void)state;
	struct model *ma = build(first, 6), *mb = build(second, 8);
	struct view *va = NULL, *vb = NULL;
	struct error err = {0};
	va = view_of(ma, VIEW_TOP_DOWN);
	vb = view_of(mb, VIEW_TOP_DOWN);
	/* every row of the second view made (children asked for) */
	for (uint32_t r = 0; r <= 8; r++) {
		uint32_t *kids = NULL;
		size_t n = 0;
		view_children(vb, r, MODEL_NONE, false, &kids, &n, &err);
		error_clear(&err);
		free(kids);
		view_children(va, r, MODEL_NONE, false, &kids, &n, &err);
		error_clear(&err);
		free(kids);
	}
	uint32_t found = 0;
	for (uint32_t i = 1; i <= 6; i++) {
		uint32_t ra = row_of(va, i, 7);
		assert_int_not_equal(ra, MODEL_NONE);
		struct view_path p;
		assert_int_equal(view_path_of(va, ra, &p, &err), STATUS_OK);
		uint32_t depth = 0;
		for (uint32_t k = i; k; k = first[k - 1].parent)
			depth++;
		assert_int_equal(p.n, depth);
		uint32_t want = MODEL_NONE;
		for (uint32_t j = 1; j <= 8; j++)
			if (same_chain(first, i, second, j))
				want = row_of(vb, j, 9);
		assert_int_equal(view_path_find(vb, &p), want);
		/* and back: the path finds its own row */
		assert_int_equal(view_path_find(va, &p), ra);
		found += want != MODEL_NONE;
		view_path_free(&p);
	}
	/* a, a > x, a > y, b: w is gone, b's x is another kind */
	assert_int_equal(found, 4);
	view_free(va);
	view_free(vb);
	model_free(ma);
	model_free(mb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_across_models),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
