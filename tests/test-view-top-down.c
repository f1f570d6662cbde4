/* Tests of the top-down view and of what view.c does for every kind:
 * construction, kind names, sorting (values, absent last, ties by label
 * then id), checked against the model built by the builder and the
 * fixture's value array. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/view.h"
#include "view_assert.h"
#include "view_fixture.h"

static struct model *root_only(bool with_values)
{
	struct model_builder *b = fx_builder("empty.db");
	struct fx_values *fv = fx_values_new(1);
	fx_set(fv, 0, 0, 42);
	return fx_finish(b, fv, with_values);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct view *v = NULL;
	struct error err = {0};
	enum view_kind k;
	assert_int_equal(view_new(NULL, VIEW_TOP_DOWN, &v, &err), STATUS_USAGE);
	assert_null(v);
	error_clear(&err);
	view_free(NULL);
	assert_string_equal(view_kind_name(VIEW_TOP_DOWN), "top-down");
	assert_string_equal(view_kind_name(VIEW_BOTTOM_UP), "bottom-up");
	assert_string_equal(view_kind_name(VIEW_FLAT), "flat");
	assert_string_equal(view_kind_name((enum view_kind)7), "");
	assert_true(view_kind_parse("bottom-up", &k));
	assert_int_equal(k, VIEW_BOTTOM_UP);
	assert_true(view_kind_parse("FLAT", &k));
	assert_int_equal(k, VIEW_FLAT);
	assert_true(view_kind_parse("top-down", &k));
	assert_int_equal(k, VIEW_TOP_DOWN);
	assert_false(view_kind_parse("sideways", &k));
	assert_false(view_kind_parse(NULL, &k));

	struct model *m = root_only(false);
	assert_int_equal(view_new(m, (enum view_kind)9, &v, &err),
			 STATUS_USAGE);
	error_clear(&err);
	for (int kind = VIEW_TOP_DOWN; kind <= VIEW_FLAT; kind++) {
		assert_int_equal(view_new(m, (enum view_kind)kind, &v, &err),
				 STATUS_OK);
		assert_int_equal(view_kind_of(v), kind);
		assert_ptr_equal(view_model(v), m);
		uint32_t root = view_root(v);
		uint32_t *kids = (uint32_t *)1;
		size_t n = 99;
		assert_int_equal(view_children(v, root, 0, false, &kids, &n,
					       &err),
				 STATUS_OK);
		assert_null(kids);
		assert_int_equal(n, 0);
		double x;
		assert_false(view_value(v, root, 0, &x));
		assert_false(view_value(v, root, 99, &x));
		struct view_node vn;
		assert_true(view_node_get(v, root, &vn));
		assert_int_equal(vn.parent, MODEL_NONE);
		assert_int_equal(vn.depth, 0);
		assert_int_equal(vn.kind, NODE_ROOT);
		assert_int_equal(vn.model_node, 0);
		assert_int_equal(vn.id, 0);
		assert_false(view_node_get(v, 1, &vn));
		char *label = view_node_label(v, root);
		assert_string_equal(label, "<program root>");
		free(label);
		assert_int_equal(view_children(v, 5, 0, false, &kids, &n,
					       &err),
				 STATUS_USAGE);
		error_clear(&err);
		assert_int_equal(view_children(v, root, 3, false, &kids, &n,
					       &err),
				 STATUS_USAGE);
		error_clear(&err);
		view_free(v);
	}
	model_free(m);

	m = root_only(true);
	v = view_of(m, VIEW_TOP_DOWN);
	double x = 0;
	assert_true(view_value(v, 0, 0, &x));
	assert_true(x == 42);
	assert_false(view_value(v, 0, 1, &x));
	view_free(v);
	model_free(m);
}

/* root -> main thread -> main -> {c=5, b=absent, d=7, a=5, a'=5} */
static void test_sorting(void **state)
{
	(void)state;
	struct model_builder *b = fx_builder("sort.db");
	struct error err = {0};
	struct fx_values *fv = fx_values_new(100);
	const char *names[] = {"main thread", "main", "c", "b", "d", "a", "a"};
	uint32_t ctx[] = {1, 2, 30, 40, 50, 61, 60};
	double val[] = {100, 100, 5, -1, 7, 5, 5};
	for (uint32_t i = 0; i < 7; i++) {
		struct model_node nd = {
			.ctx_id = ctx[i],
			.kind = i == 0 ? NODE_ENTRY : NODE_FUNCTION,
			.name = model_builder_intern(b, names[i],
						     strlen(names[i])),
			.function = MODEL_NONE,
		};
		assert_int_equal(model_builder_add_node(b, i < 2 ? i : 2, &nd),
				 i + 1);
		if (val[i] >= 0)
			fx_set(fv, ctx[i], 0, val[i]);
		fx_set(fv, ctx[i], 1, (double)(10 - i));
	}
	struct model *m = fx_finish(b, fv, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	uint32_t *kids = NULL;
	size_t n = 0;
	/* descending: d 7; a(60) a(61) c tie at 5 by label then id; b last */
	assert_int_equal(view_children(v, 2, 0, false, &kids, &n, &err),
			 STATUS_OK);
	uint32_t want_desc[] = {5, 7, 6, 3, 4};
	assert_int_equal(n, 5);
	assert_memory_equal(kids, want_desc, sizeof(want_desc));
	free(kids);
	/* ascending: the 5s, then 7, absent still last */
	assert_int_equal(view_children(v, 2, 0, true, &kids, &n, &err),
			 STATUS_OK);
	uint32_t want_asc[] = {7, 6, 3, 5, 4};
	assert_memory_equal(kids, want_asc, sizeof(want_asc));
	free(kids);
	/* exclusive values 10 - i: c 8, b 7, d 6, a(61) 5, a(60) 4 */
	assert_int_equal(view_children(v, 2, 1, false, &kids, &n, &err),
			 STATUS_OK);
	uint32_t want_excl[] = {3, 4, 5, 6, 7};
	assert_memory_equal(kids, want_excl, sizeof(want_excl));
	free(kids);
	/* by label only: a(60) a(61) b c d */
	assert_int_equal(view_children(v, 2, MODEL_NONE, false, &kids, &n,
				       &err),
			 STATUS_OK);
	uint32_t want_label[] = {7, 6, 4, 3, 5};
	assert_memory_equal(kids, want_label, sizeof(want_label));
	free(kids);
	struct view_node vn;
	assert_true(view_node_get(v, 6, &vn));
	assert_int_equal(vn.parent, 2);
	assert_int_equal(vn.depth, 3);
	assert_int_equal(vn.id, 61);
	assert_int_equal(vn.model_node, 6);
	view_free(v);
	model_free(m);
}

/* Independent order check: value descending/ascending with absent last,
 * then label, then context id. */
static int expected_cmp(const struct model *m, uint32_t x, uint32_t y,
			uint32_t stat, bool ascending)
{
	const double *vx = fx_value_ptr(m, x, stat);
	const double *vy = fx_value_ptr(m, y, stat);
	if (!vx != !vy)
		return vx ? -1 : 1;
	if (vx && *vx != *vy)
		return (*vx < *vy) == ascending ? -1 : 1;
	char *lx = model_node_label(m, x), *ly = model_node_label(m, y);
	int c = strcmp(lx, ly);
	free(lx);
	free(ly);
	if (c)
		return c;
	uint32_t cx = m->nodes[x].ctx_id, cy = m->nodes[y].ctx_id;
	return cx < cy ? -1 : cx > cy;
}

static void test_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct model *m = fx_need(fx_random_model(400, 10, seed, false));
		assert_non_null(m);
		struct error err = {0};
		struct view *v = view_of(m, VIEW_TOP_DOWN);
		for (uint32_t node = 0; node < m->n_nodes; node++) {
			for (uint32_t col = 0; col < 3; col++) {
				bool asc = (node + col) & 1;
				uint32_t *kids = NULL;
				size_t n = 0;
				assert_int_equal(view_children(v, node, col,
							       asc, &kids, &n,
							       &err),
						 STATUS_OK);
				/* the children are exactly the nodes whose
				 * parent is `node` */
				size_t want = 0;
				for (uint32_t i = 1; i < m->n_nodes; i++)
					want += m->nodes[i].parent == node;
				assert_int_equal(n, want);
				for (size_t i = 0; i < n; i++) {
					assert_int_equal(
						m->nodes[kids[i]].parent, node);
					for (size_t j = 0; j < i; j++)
						assert_int_not_equal(kids[i],
								     kids[j]);
					if (i)
						assert_true(expected_cmp(
								    m, kids[i - 1],
								    kids[i], col,
								    asc) < 0);
					double x = 0;
					const double *w =
						fx_value_ptr(m, kids[i], col);
					assert_int_equal(
						view_value(v, kids[i], col, &x),
						w != NULL);
					if (w)
						assert_true(x == *w);
					struct view_node vn;
					assert_true(
						view_node_get(v, kids[i], &vn));
					assert_int_equal(vn.id,
							 fx_ctx_of(kids[i]));
					assert_int_equal(
						vn.depth,
						m->nodes[node].depth + 1);
				}
				free(kids);
			}
		}
		view_free(v);
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_sorting),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
