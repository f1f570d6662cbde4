/* Tests of view_hotpath: degenerate models first (root only, no values),
 * a single chain at thresholds 0, 50 and 100, ties, absent values, bad
 * arguments, then random models against an independent walk of the
 * model's values, and the hot path of the aggregated views. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/view.h"
#include "view_fixture.h"
#include "view_assert.h"

/* A model from a parent list and inclusive values (view_fixture.h). */
#define build fx_parent_model

static void expect_path(struct view *v, uint32_t start, uint32_t col,
			double pct, const uint32_t *want, size_t n_want)
{
	uint32_t *path = NULL;
	size_t n = 0;
	struct error err = {0};
	assert_int_equal(view_hotpath(v, start, col, pct, &path, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, n_want);
	assert_memory_equal(path, want, n_want * sizeof(*want));
	free(path);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *path = NULL;
	size_t n = 0;
	assert_int_equal(view_hotpath(NULL, 0, 0, 0, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* root only */
	struct model *m = build(NULL, NULL, NULL, 0, 5, true);
	for (int k = VIEW_TOP_DOWN; k <= VIEW_FLAT; k++) {
		assert_int_equal(view_new(m, (enum view_kind)k, &v, &err),
				 STATUS_OK);
		const uint32_t want[] = {0};
		expect_path(v, 0, 0, 0, want, 1);
		expect_path(v, 0, 0, 100, want, 1);
		view_free(v);
	}
	model_free(m);
	/* root with children but no values at all */
	const uint32_t parent[] = {0, 0, 1};
	const double incl[] = {3, 4, 2};
	m = build(parent, incl, NULL, 3, -1, false);
	v = view_of(m, VIEW_TOP_DOWN);
	const uint32_t want0[] = {0};
	expect_path(v, 0, 0, 0, want0, 1);
	/* bad arguments */
	assert_int_equal(view_hotpath(v, 0, 0, -1, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(view_hotpath(v, 0, 0, 100.5, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(view_hotpath(v, 0, 0, (double)NAN, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(view_hotpath(v, 0, 7, 0, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(view_hotpath(v, 99, 0, 0, &path, &n, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_null(path);
	view_free(v);
	model_free(m);
}

static void test_chain(void **state)
{
	(void)state;
	/* root 100 -> 1: 100 -> 2: 90 -> 3: 50 -> 4: 10 */
	const uint32_t parent[] = {0, 1, 2, 3};
	const double incl[] = {100, 90, 50, 10};
	struct model *m = build(parent, incl, NULL, 4, 100, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	const uint32_t all[] = {0, 1, 2, 3, 4};
	expect_path(v, 0, 0, 0, all, 5);
	expect_path(v, 0, 0, 100, all, 2);    /* 90 < 100% of 100 */
	expect_path(v, 0, 0, 50, all, 4);     /* 10 < 50% of 50 */
	expect_path(v, 2, 0, 0, all + 2, 3);  /* from the middle */
	expect_path(v, 4, 0, 100, all + 4, 1); /* from the leaf */
	/* the exclusive column has no values: no step */
	expect_path(v, 0, 1, 0, all, 1);
	view_free(v);
	model_free(m);
}

static void test_ties(void **state)
{
	(void)state;
	/* root 10 -> 1 (ctx 9): 5, 2 (ctx 8): 5, 3 (ctx 7): absent;
	 * 1 -> 4: 5; 2 -> 5: 1 */
	const uint32_t parent[] = {0, 0, 0, 1, 2};
	const double incl[] = {5, 5, -1, 5, 1};
	const uint32_t ctx[] = {9, 8, 7, 6, 5};
	struct model *m = build(parent, incl, ctx, 5, 10, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	/* the tie goes to the lower context id: node 2 (ctx 8) */
	const uint32_t want[] = {0, 2, 5};
	expect_path(v, 0, 0, 0, want, 3);
	expect_path(v, 0, 0, 50, want, 2); /* 1 < 50% of 5 */
	expect_path(v, 0, 0, 60, want, 1); /* 5 < 60% of 10 */
	view_free(v);
	model_free(m);
}

/* view_hotpath_stop: why the path stops where it does (the message of
 * the H key), on the chain and the ties of the tests above. */
static void test_stop(void **state)
{
	(void)state;
	struct view_hot_stop hs;
	struct error err = {0};
	assert_int_equal(view_hotpath_stop(NULL, 0, 0, &hs, &err),
			 STATUS_USAGE);
	error_clear(&err);
	const uint32_t parent[] = {0, 1, 2, 3};
	const double incl[] = {100, 90, 50, 10};
	struct model *m = build(parent, incl, NULL, 4, 100, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(view_hotpath_stop(v, 99, 0, &hs, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(view_hotpath_stop(v, 0, 7, &hs, &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* the leaf */
	assert_int_equal(view_hotpath_stop(v, 4, 0, &hs, &err), STATUS_OK);
	assert_true(hs.leaf);
	assert_int_equal(hs.best, MODEL_NONE);
	assert_true(hs.node_v == 10);
	/* node 3 (50) stops at 50%: its child has 10, 20% of it */
	assert_int_equal(view_hotpath_stop(v, 3, 0, &hs, &err), STATUS_OK);
	assert_false(hs.leaf);
	assert_int_equal(hs.best, 4);
	assert_true(hs.best_v == 10 && hs.node_v == 50);
	/* the exclusive column has no values: children, but no best */
	assert_int_equal(view_hotpath_stop(v, 0, 1, &hs, &err), STATUS_OK);
	assert_false(hs.leaf);
	assert_int_equal(hs.best, MODEL_NONE);
	assert_true(hs.node_v == 0);
	view_free(v);
	model_free(m);
	/* ties: the child view_hotpath takes (lower context id) */
	const uint32_t tparent[] = {0, 0, 0, 1, 2};
	const double tincl[] = {5, 5, -1, 5, 1};
	const uint32_t tctx[] = {9, 8, 7, 6, 5};
	m = build(tparent, tincl, tctx, 5, 10, true);
	v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(view_hotpath_stop(v, 0, 0, &hs, &err), STATUS_OK);
	assert_int_equal(hs.best, 2);
	assert_true(hs.best_v == 5 && hs.node_v == 10);
	view_free(v);
	model_free(m);
}

static bool fx_get(const struct model *m, uint32_t node, uint32_t stat,
		   double *out)
{
	const double *p = fx_value_ptr(m, node, stat);
	if (p)
		*out = *p;
	return p != NULL;
}

/* Independent hot path over the top-down model values. */
static size_t brute_hotpath(const struct model *m, uint32_t start,
			    uint32_t stat, double pct, uint32_t *out)
{
	size_t n = 0;
	uint32_t cur = start;
	for (;;) {
		out[n++] = cur;
		uint32_t best = MODEL_NONE;
		double vb = 0, vc, vcur = 0;
		for (uint32_t c = 1; c < m->n_nodes; c++) {
			if (m->nodes[c].parent != cur || !fx_get(m, c, stat, &vc))
				continue;
			if (best == MODEL_NONE || vc > vb ||
			    (vc == vb &&
			     m->nodes[c].ctx_id < m->nodes[best].ctx_id)) {
				best = c;
				vb = vc;
			}
		}
		if (best == MODEL_NONE)
			return n;
		if (!fx_get(m, cur, stat, &vcur))
			vcur = 0;
		if (vb < pct / 100 * vcur)
			return n;
		cur = best;
	}
}

static void test_random(void **state)
{
	(void)state;
	const double pcts[] = {0, 1, 30, 50, 80, 100};
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct model *m = fx_need(fx_random_model(300, 8, seed, false));
		assert_non_null(m);
		struct error err = {0};
		uint32_t *want = malloc((m->max_depth + 2) * sizeof(uint32_t));
		struct view *v = view_of(m, VIEW_TOP_DOWN);
		for (uint32_t start = 0; start < m->n_nodes; start += 7)
			for (size_t p = 0; p < 6; p++)
				for (uint32_t col = 0; col < 3; col++) {
					size_t n = brute_hotpath(m, start, col,
								 pcts[p], want);
					expect_path(v, start, col, pcts[p],
						    want, n);
				}
		view_free(v);
		free(want);

		/* aggregated views: each step is the best child meeting the
		 * threshold, and the last row has no such child */
		for (int k = VIEW_BOTTOM_UP; k <= VIEW_FLAT; k++) {
			assert_int_equal(view_new(m, (enum view_kind)k, &v,
						  &err),
					 STATUS_OK);
			uint32_t *path = NULL;
			size_t n = 0;
			assert_int_equal(view_hotpath(v, 0, 1, 0, &path, &n,
						      &err),
					 STATUS_OK);
			assert_true(n >= 2);
			for (size_t i = 0; i < n; i++) {
				uint32_t *kids = NULL;
				size_t nk = 0;
				assert_int_equal(view_children(v, path[i], 1,
							       false, &kids,
							       &nk, &err),
						 STATUS_OK);
				double best = 0, x;
				bool any = nk && view_value(v, kids[0], 1, &best);
				for (size_t j = 0; j < nk; j++)
					if (view_value(v, kids[j], 1, &x))
						assert_true(x <= best);
				if (i + 1 < n) {
					assert_true(any);
					assert_true(
						view_value(v, path[i + 1], 1, &x));
					assert_true(x == best);
					struct view_node vn;
					assert_true(view_node_get(v, path[i + 1],
								  &vn));
					assert_int_equal(vn.parent, path[i]);
				} else {
					assert_false(any);
				}
				free(kids);
			}
			free(path);
			view_free(v);
		}
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
