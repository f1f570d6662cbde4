/* Tests of the outline: degenerate inputs first (no view, root only, bad
 * columns and patterns), a single chain (100,000 deep: nothing may
 * recurse), a hand-made tree with guides computed by hand, the expand-all
 * cap, the bottom-up view's lazy rows under a filter, and a sort by a key
 * from outside the view (outline_set_sort_key) on a hand-made tree: ties,
 * rows without a key, a pending key that keeps the label order until
 * outline_sort_retry finds it known.  Random sequences of operations are
 * in test-outline-random.c. */
#include "config.h"

#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/outline.h"
#include "views/view.h"
#include "outline_fixture.h"
#include "view_assert.h"

/* ---- degenerate --------------------------------------------------------- */

static void test_degenerate(void **state)
{
	(void)state;
	struct outline *o = NULL;
	struct error err = {0};
	assert_int_equal(outline_new(NULL, 0, false, &o, &err), STATUS_USAGE);
	assert_null(o);
	error_clear(&err);
	assert_int_equal(outline_count(NULL), 0);
	outline_free(NULL);

	struct model *m = build(NULL, NULL, NULL, 0);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	assert_int_equal(outline_new(v, 7, false, &o, &err), STATUS_USAGE);
	error_clear(&err);
	o = make(v, 0);
	assert_ptr_equal(outline_view(o), v);
	assert_int_equal(outline_count(o), 1);
	struct outline_row r = row_at(o, 0);
	assert_int_equal(r.node, 0);
	assert_int_equal(r.depth, 0);
	assert_false(r.has_children);
	assert_false(r.expanded);
	assert_true(r.last_sibling);
	assert_int_equal(r.guides, 0);
	assert_false(r.match);
	assert_false(outline_row_get(o, 1, &r));
	assert_int_equal(outline_find(o, 0), 0);
	assert_int_equal(outline_find(o, 5), OUTLINE_NONE);
	assert_int_equal(outline_expand(o, 0, &err), STATUS_OK);
	assert_int_equal(outline_count(o), 1);
	assert_int_equal(outline_expand(o, 1, &err), STATUS_USAGE);
	error_clear(&err);
	outline_collapse(o, 0);
	outline_collapse(o, 99);
	outline_collapse_all(o, 0);
	assert_int_equal(outline_expand_all(o, 0, &err), STATUS_OK);
	assert_int_equal(outline_count(o), 1);
	assert_false(outline_zoom_out(o));
	assert_int_equal(outline_zoom(o, 0, &err), STATUS_OK);
	assert_false(outline_zoom_out(o));
	assert_int_equal(outline_zoom(o, 3, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(outline_zoom_root(o), 0);
	assert_int_equal(outline_set_sort(o, 9, false, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(outline_set_sort(o, MODEL_NONE, true, &err),
			 STATUS_OK);
	assert_int_equal(outline_sort_column(o), MODEL_NONE);
	assert_true(outline_sort_ascending(o));

	/* search: empty clears, bad patterns refused, no match */
	uint32_t hit = 42;
	assert_int_equal(outline_search_set(o, "", &err), STATUS_OK);
	assert_int_equal(outline_search_set(o, NULL, &err), STATUS_OK);
	assert_null(outline_search_pattern(o));
	assert_int_equal(outline_search_count(o), 0);
	assert_int_equal(outline_search_next(o, MODEL_NONE, true, &hit, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(outline_search_set(o, "(", &err), STATUS_USAGE);
	assert_non_null(err.message);
	error_clear(&err);
	char *big = malloc(OUTLINE_MAX_PATTERN + 2);
	assert_non_null(big);
	memset(big, 'a', OUTLINE_MAX_PATTERN + 1);
	big[OUTLINE_MAX_PATTERN + 1] = '\0';
	assert_int_equal(outline_search_set(o, big, &err), STATUS_LIMIT);
	error_clear(&err);
	assert_int_equal(outline_set_filter(o, big, OUTLINE_FILTER_HIDE, &err),
			 STATUS_LIMIT);
	error_clear(&err);
	free(big);
	assert_int_equal(outline_search_set(o, "nothing", &err), STATUS_OK);
	assert_int_equal(outline_search_count(o), 0);
	assert_int_equal(outline_search_next(o, 0, false, &hit, &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(hit, 42);
	/* the root's label is "<program root>" */
	assert_int_equal(outline_search_set(o, "program", &err), STATUS_OK);
	assert_int_equal(outline_search_count(o), 1);
	assert_int_equal(outline_search_next(o, 0, true, &hit, &err),
			 STATUS_OK);
	assert_int_equal(hit, 0);
	assert_true(row_at(o, 0).match);
	/* filters never hide the zoom root; bad modes refused */
	assert_int_equal(outline_set_filter(o, "program", OUTLINE_FILTER_HIDE,
					    &err),
			 STATUS_OK);
	assert_int_equal(outline_count(o), 1);
	assert_int_equal(outline_set_filter(o, "x", (enum outline_filter)9,
					    &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(outline_set_filter(o, NULL, OUTLINE_FILTER_ONLY,
					    &err),
			 STATUS_OK);
	assert_int_equal(outline_filter_mode(o), OUTLINE_FILTER_OFF);
	uint32_t leaf = 9;
	assert_int_equal(outline_hotpath(o, 0, 0, 0, &leaf, &err), STATUS_OK);
	assert_int_equal(leaf, 0);
	assert_int_equal(outline_hotpath(o, 0, 5, 0, &leaf, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(outline_reveal(o, 0, &err), STATUS_OK);
	outline_free(o);
	view_free(v);
	model_free(m);
}

/* ---- the hot path expands the row where it stops ------------------------ */

static void test_hotpath_stop_expanded(void **state)
{
	(void)state;
	/* root 1000 -> 1: 900 -> {2: 400, 3: 500 -> 4: 10} */
	const uint32_t parent[] = {0, 1, 1, 3};
	const double incl[] = {900, 400, 500, 10};
	struct model *m = build(parent, NULL, incl, 4);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct outline *o = make(v, 0);
	uint32_t leaf = 0;
	/* 500 < 60% of 900: the path stops at 1, which shows its children */
	assert_int_equal(outline_hotpath(o, 0, 0, 60, &leaf, &err),
			 STATUS_OK);
	assert_int_equal(leaf, 1);
	assert_true(row_at(o, outline_find(o, 1)).expanded);
	assert_int_equal(outline_count(o), 4); /* root, 1, 3, 2 */
	assert_true(outline_find(o, 3) != OUTLINE_NONE);
	assert_true(outline_find(o, 2) != OUTLINE_NONE);
	/* again from 1 at 50%: down to 3, expanded; 4 is 2% of 3 */
	assert_int_equal(outline_hotpath(o, 1, 0, 50, &leaf, &err),
			 STATUS_OK);
	assert_int_equal(leaf, 3);
	assert_true(row_at(o, outline_find(o, 3)).expanded);
	assert_true(outline_find(o, 4) != OUTLINE_NONE);
	/* a leaf stays a leaf */
	assert_int_equal(outline_hotpath(o, 4, 0, 0, &leaf, &err), STATUS_OK);
	assert_int_equal(leaf, 4);
	assert_false(row_at(o, outline_find(o, 4)).expanded);
	outline_free(o);
	view_free(v);
	model_free(m);
}

/* ---- a chain ------------------------------------------------------------ */

static void test_chain(void **state)
{
	(void)state;
	enum { N = 100000 };
	uint32_t *parent = malloc(N * sizeof(*parent));
	assert_non_null(parent);
	for (uint32_t i = 0; i < N; i++)
		parent[i] = i;
	struct model *m = build(parent, NULL, NULL, N);
	free(parent);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct outline *o = make(v, 0);
	assert_int_equal(outline_count(o), 2); /* the root starts expanded */
	assert_true(row_at(o, 0).expanded);
	assert_true(row_at(o, 1).has_children);
	assert_false(row_at(o, 1).expanded);
	assert_int_equal(outline_expand_all(o, 0, &err), STATUS_OK);
	assert_int_equal(outline_count(o), N + 1);
	for (uint32_t i = 0; i <= N; i += 997) {
		struct outline_row r = row_at(o, i);
		assert_int_equal(r.node, i);
		assert_int_equal(r.depth, i);
		assert_true(r.last_sibling);
		assert_int_equal(r.guides, 0);
		assert_int_equal(r.expanded, i < N);
		assert_int_equal(r.has_children, i < N);
		assert_int_equal(outline_find(o, i), i);
	}
	/* search across the chain, both ways, wrapping */
	uint32_t hit = 0;
	assert_int_equal(outline_search_set(o, "^n9999[0-9]$", &err),
			 STATUS_OK);
	assert_int_equal(outline_search_count(o), 10);
	outline_collapse_all(o, 0);
	assert_int_equal(outline_count(o), 1);
	assert_int_equal(outline_search_next(o, MODEL_NONE, true, &hit, &err),
			 STATUS_OK);
	assert_int_equal(hit, 99990);
	assert_int_equal(outline_count(o), 99991);
	assert_int_equal(outline_search_next(o, N, true, &hit, &err),
			 STATUS_OK);
	assert_int_equal(hit, 99990);
	assert_int_equal(outline_search_next(o, 99990, false, &hit, &err),
			 STATUS_OK);
	assert_int_equal(hit, 99999);
	assert_int_equal(outline_count(o), N);
	/* zoom in the middle, hot path below, zoom out */
	assert_int_equal(outline_zoom(o, 50000, &err), STATUS_OK);
	assert_int_equal(outline_zoom_root(o), 50000);
	assert_int_equal(outline_count(o), N - 50000);
	assert_int_equal(row_at(o, 1).depth, 1);
	outline_collapse(o, 50001);
	assert_int_equal(outline_count(o), 2);
	uint32_t leaf = 0;
	assert_int_equal(outline_hotpath(o, 50000, 0, 0, &leaf, &err),
			 STATUS_OK);
	assert_int_equal(leaf, N);
	assert_int_equal(outline_find(o, N), N - 50000);
	/* revealing a row outside the zoom zooms out */
	outline_collapse_all(o, 50000);
	assert_int_equal(outline_reveal(o, 10, &err), STATUS_OK);
	assert_int_equal(outline_zoom_root(o), 0);
	assert_false(outline_zoom_out(o));
	assert_int_equal(outline_find(o, 10), 10);
	/* the cap: refused, nothing changed */
	outline_collapse_all(o, 0);
	outline_set_max_rows(o, 1000);
	assert_int_equal(outline_expand_all(o, 0, &err), STATUS_LIMIT);
	assert_non_null(err.message);
	error_clear(&err);
	assert_int_equal(outline_count(o), 1);
	assert_int_equal(outline_expand(o, 0, &err), STATUS_OK);
	assert_int_equal(outline_count(o), 2);
	assert_false(row_at(o, 1).expanded);
	outline_set_max_rows(o, 0);
	outline_free(o);
	view_free(v);
	model_free(m);
}

/* ---- a hand-made tree ---------------------------------------------------- */

/*   root
 *   +- a (30)        children by value: a, b
 *   |  +- a1 (20)
 *   |  |  +- x (5)
 *   |  +- a2 (10)
 *   +- b (25)
 *      +- b1 (1)
 *         +- x (1)                                                    */
static void test_guides(void **state)
{
	(void)state;
	static const uint32_t parent[] = {0, 1, 2, 1, 0, 5, 6};
	static const char *const name[] = {"a", "a1", "x", "a2",
					   "b", "b1", "X"};
	static const double incl[] = {30, 20, 5, 10, 25, 1, 1};
	struct model *m = build(parent, name, incl, 7);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct outline *o = make(v, 0);
	assert_int_equal(outline_expand_all(o, 0, &err), STATUS_OK);
	/* node, depth, last, guides (by hand) */
	static const uint32_t want[][4] = {
		{0, 0, 1, 0}, {1, 1, 0, 0}, {2, 2, 0, 1}, {3, 3, 1, 3},
		{4, 2, 1, 1}, {5, 1, 1, 0}, {6, 2, 1, 0}, {7, 3, 1, 0},
	};
	assert_int_equal(outline_count(o), 8);
	for (size_t i = 0; i < 8; i++) {
		struct outline_row r = row_at(o, i);
		assert_int_equal(r.node, want[i][0]);
		assert_int_equal(r.depth, want[i][1]);
		assert_int_equal(r.last_sibling, want[i][2]);
		assert_int_equal(r.guides, want[i][3]);
	}
	/* ascending: b first, then a; guides follow */
	assert_int_equal(outline_set_sort(o, 0, true, &err), STATUS_OK);
	static const uint32_t asc[] = {0, 5, 6, 7, 1, 4, 2, 3};
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(row_at(o, i).node, asc[i]);
	assert_int_equal(row_at(o, 3).guides, 1); /* b has a later sibling */
	assert_true(row_at(o, 2).last_sibling);
	assert_false(row_at(o, 1).last_sibling);
	assert_int_equal(outline_set_sort(o, 0, false, &err), STATUS_OK);
	/* smart case: "x" matches both x and X, "X" only X */
	uint32_t hit = 0;
	assert_int_equal(outline_search_set(o, "^x$", &err), STATUS_OK);
	assert_int_equal(outline_search_count(o), 2);
	assert_int_equal(outline_search_set(o, "^X$", &err), STATUS_OK);
	assert_int_equal(outline_search_count(o), 1);
	assert_int_equal(outline_search_next(o, 0, true, &hit, &err),
			 STATUS_OK);
	assert_int_equal(hit, 7);
	/* filters */
	assert_int_equal(outline_set_filter(o, "^a", OUTLINE_FILTER_HIDE,
					    &err),
			 STATUS_OK);
	assert_int_equal(outline_count(o), 4); /* root b b1 X */
	assert_int_equal(row_at(o, 1).node, 5);
	assert_true(row_at(o, 1).last_sibling);
	assert_int_equal(outline_reveal(o, 2, &err), STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(outline_set_filter(o, "^x$", OUTLINE_FILTER_ONLY,
					    &err),
			 STATUS_OK);
	/* root a a1 x b b1 X: a2 is gone, so a1 is a's last child */
	static const uint32_t only[] = {0, 1, 2, 3, 5, 6, 7};
	assert_int_equal(outline_count(o), 7);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(row_at(o, i).node, only[i]);
	assert_true(row_at(o, 2).last_sibling);
	assert_int_equal(row_at(o, 3).guides, 1);
	/* ONLY keeps the subtree of a match: filter on a1 shows x */
	assert_int_equal(outline_set_filter(o, "a1", OUTLINE_FILTER_ONLY,
					    &err),
			 STATUS_OK);
	assert_int_equal(outline_count(o), 4);
	assert_int_equal(row_at(o, 3).node, 3);
	assert_int_equal(outline_set_filter(o, "", OUTLINE_FILTER_OFF, &err),
			 STATUS_OK);
	assert_int_equal(outline_count(o), 8);
	outline_free(o);
	view_free(v);
	model_free(m);
}

/* Bottom-up caller rows computed after the pattern was set are matched
 * when they appear. */
static void test_bottom_up_lazy(void **state)
{
	(void)state;
	/* main -> f -> g; main -> g */
	static const uint32_t parent[] = {0, 1, 2, 1};
	static const char *const name[] = {"main", "f", "g", "g"};
	struct model *m = build(parent, name, NULL, 4);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_BOTTOM_UP);
	struct outline *o = make(v, MODEL_NONE);
	/* top level by label: f, g, main */
	assert_int_equal(outline_count(o), 4);
	assert_int_equal(outline_search_set(o, "^f$", &err), STATUS_OK);
	assert_int_equal(outline_search_count(o), 1);
	assert_int_equal(outline_set_filter(o, "^f$", OUTLINE_FILTER_ONLY,
					    &err),
			 STATUS_OK);
	assert_int_equal(outline_count(o), 2); /* root, f */
	/* g's callers (f and main) appear as g is searched into: the f
	 * caller row under g makes g shown */
	assert_int_equal(outline_set_filter(o, NULL, OUTLINE_FILTER_OFF, &err),
			 STATUS_OK);
	size_t gi = 2;
	uint32_t g = row_at(o, gi).node;
	char *glabel = view_node_label(v, g);
	assert_string_equal(glabel, "g");
	free(glabel);
	assert_int_equal(outline_expand(o, g, &err), STATUS_OK);
	assert_int_equal(outline_count(o), 6);
	assert_int_equal(outline_search_count(o), 2);
	bool seen = false;
	for (size_t i = 3; i < 5; i++) {
		struct outline_row r = row_at(o, i);
		char *label = view_node_label(v, r.node);
		assert_int_equal(r.match, strcmp(label, "f") == 0);
		seen |= r.match;
		free(label);
	}
	assert_true(seen);
	outline_free(o);
	view_free(v);
	model_free(m);
}

/* ---- sort by a key ------------------------------------------------------ */

/* the key of each node: [node] value, or NAN for none; `pending` node */
struct key_fx {
	double v[9];
	uint32_t pending;
	unsigned asked;
};

static enum outline_key_state key_of(void *ctx, uint32_t node, double *out)
{
	struct key_fx *k = ctx;
	k->asked++;
	if (node == k->pending)
		return OUTLINE_KEY_PENDING;
	if (node >= 9 || k->v[node] != k->v[node])
		return OUTLINE_KEY_NONE;
	*out = k->v[node];
	return OUTLINE_KEY_VALUE;
}

static void expect_kids(struct outline *o, const uint32_t *want, size_t n)
{
	size_t j = 0;
	for (size_t i = 1; i < outline_count(o); i++) {
		struct outline_row r = row_at(o, i);
		if (r.depth != 1)
			continue;
		assert_true(j < n);
		if (r.node != want[j])
			fail_msg("child %zu: node %u, want %u", j,
				 (unsigned)r.node, (unsigned)want[j]);
		j++;
	}
	assert_int_equal(j, n);
}

static void test_sort_key(void **state)
{
	(void)state;
	/* root -> n1..n6 named f e d c b a; n1 -> n7, n8 */
	static const uint32_t parent[] = {0, 0, 0, 0, 0, 0, 1, 1};
	static const char *const name[] = {"f", "e", "d", "c",
					   "b", "a", "y", "x"};
	struct model *m = build(parent, name, NULL, 8);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct outline *o = make(v, 0);
	struct key_fx k = {.v = {NAN, 3, NAN, 5, 3, 1, 7, 2, 9},
			   .pending = 5};
	struct outline_sort_key key = {key_of, &k};
	assert_false(outline_sort_keyed(o));
	assert_int_equal(outline_set_sort_key(o, NULL, false, &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* n5 pending: the root's children stay by label, and wait */
	assert_int_equal(outline_set_sort_key(o, &key, false, &err),
			 STATUS_OK);
	assert_true(outline_sort_keyed(o));
	assert_int_equal(outline_sort_column(o), MODEL_NONE);
	static const uint32_t by_label[] = {6, 5, 4, 3, 2, 1};
	expect_kids(o, by_label, 6);
	assert_int_equal(outline_sort_waiting(o), 1);
	bool resorted = true;
	assert_int_equal(outline_sort_retry(o, &resorted, &err), STATUS_OK);
	assert_false(resorted);
	expect_kids(o, by_label, 6);
	/* known now: descending, the tie 3 by label (c before f), none last */
	k.pending = MODEL_NONE;
	assert_int_equal(outline_sort_retry(o, &resorted, &err), STATUS_OK);
	assert_true(resorted);
	assert_int_equal(outline_sort_waiting(o), 0);
	static const uint32_t desc[] = {6, 3, 4, 1, 5, 2};
	expect_kids(o, desc, 6);
	/* a retry with nothing waiting asks no key */
	unsigned asked = k.asked;
	assert_int_equal(outline_sort_retry(o, &resorted, &err), STATUS_OK);
	assert_false(resorted);
	assert_int_equal(k.asked, asked);
	/* n1's children, expanded: 9 before 2 */
	assert_int_equal(outline_expand(o, 1, &err), STATUS_OK);
	size_t at = outline_find(o, 1);
	assert_int_equal(row_at(o, at + 1).node, 8);
	assert_int_equal(row_at(o, at + 2).node, 7);
	/* ascending: none still last */
	assert_int_equal(outline_set_sort_key(o, &key, true, &err), STATUS_OK);
	static const uint32_t asc[] = {5, 4, 1, 3, 6, 2};
	expect_kids(o, asc, 6);
	assert_true(outline_sort_ascending(o));
	/* back to a column */
	assert_int_equal(outline_set_sort(o, 0, false, &err), STATUS_OK);
	assert_false(outline_sort_keyed(o));
	assert_int_equal(outline_sort_waiting(o), 0);
	outline_free(o);
	view_free(v);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_hotpath_stop_expanded),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_guides),
		cmocka_unit_test(test_bottom_up_lazy),
		cmocka_unit_test(test_sort_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
