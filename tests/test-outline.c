/* Tests of the outline: degenerate inputs first (no view, root only, bad
 * columns and patterns), a single chain (100,000 deep: nothing may
 * recurse), a hand-made tree with guides computed by hand, the expand-all
 * cap, then random sequences of operations on random models in all three
 * views, each compared after every step with a from-scratch simulation
 * (pre-order over an independently tracked expanded set, sorted children,
 * filter by direct regexec over labels and ancestors, guides and
 * last-sibling flags read off the list), and search steps compared with
 * the matches of a fully expanded copy in display order.  Flatten and
 * unflatten steps are among the random operations: the simulation puts a
 * flattened row's children in its place.  Last, a sort by a key from
 * outside the view (outline_set_sort_key) on a hand-made tree: ties, rows
 * without a key, a pending key that keeps the label order until
 * outline_sort_retry finds it known. */
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
#include "view_fixture.h"

/* ---- fixtures ----------------------------------------------------------- */

/* A model of named function nodes from a parent list; node i + 1 has parent
 * parent[i] and inclusive value incl[i]. */
static struct model *build(const uint32_t *parent, const char *const *name,
			   const double *incl, uint32_t n)
{
	struct model_builder *b = fx_builder("outline.db");
	struct fx_values *fv = fx_values_new(n + 2);
	fx_set(fv, 0, 0, 1000);
	for (uint32_t i = 0; i < n; i++) {
		char text[32];
		const char *nm = name ? name[i] : text;
		if (!name)
			snprintf(text, sizeof(text), "n%u", (unsigned)i + 1);
		struct model_node nd = {
			.ctx_id = i + 1,
			.kind = NODE_FUNCTION,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, nm, strlen(nm)),
		};
		assert_int_equal(model_builder_add_node(b, parent[i], &nd),
				 i + 1);
		fx_set(fv, i + 1, 0, incl ? incl[i] : (double)(n - i));
	}
	return fx_finish(b, fv, true);
}

static struct outline *make(struct view *v, uint32_t col)
{
	struct outline *o = NULL;
	struct error err = {0};
	assert_int_equal(outline_new(v, col, false, &o, &err), STATUS_OK);
	return o;
}

static struct outline_row row_at(struct outline *o, size_t i)
{
	struct outline_row r;
	assert_true(outline_row_get(o, i, &r));
	return r;
}

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
	struct view *v = NULL;
	assert_int_equal(view_new(m, VIEW_TOP_DOWN, &v, &err), STATUS_OK);
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
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, VIEW_TOP_DOWN, &v, &err), STATUS_OK);
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
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, VIEW_TOP_DOWN, &v, &err), STATUS_OK);
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
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, VIEW_TOP_DOWN, &v, &err), STATUS_OK);
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

/* ---- simulation ---------------------------------------------------------- */

struct sim {
	struct view *v;
	uint32_t n;     /* rows of the view (all built) */
	bool *exp;
	uint32_t root;
	uint32_t zstack[64];
	uint32_t zn;
	uint32_t col;
	bool asc;
	enum outline_filter mode;
	bool *fm, *fdesc; /* filter match; a strict descendant matches */
	bool *sm;         /* search match */
	bool *flat;       /* flattened rows */
	uint32_t fstack[256];
	uint32_t fn;
};

static uint32_t parent_row(struct view *v, uint32_t r)
{
	struct view_node vn;
	assert_true(view_node_get(v, r, &vn));
	return vn.parent;
}

static uint32_t *kids_of(struct sim *s, uint32_t r, size_t *n)
{
	uint32_t *k = NULL;
	struct error err = {0};
	assert_int_equal(view_children(s->v, r, s->col, s->asc, &k, n, &err),
			 STATUS_OK);
	return k;
}

static bool has_kids_sim(struct sim *s, uint32_t r)
{
	size_t n = 0;
	free(kids_of(s, r, &n));
	return n > 0;
}

static void match_all(struct sim *s, const char *pattern, bool *out)
{
	regex_t re;
	bool icase = true;
	for (const char *p = pattern; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			icase = false;
	assert_int_equal(regcomp(&re, pattern,
				 REG_EXTENDED | REG_NOSUB |
					 (icase ? REG_ICASE : 0)),
			 0);
	for (uint32_t r = 0; r < s->n; r++) {
		char *label = view_node_label(s->v, r);
		out[r] = regexec(&re, label, 0, NULL, 0) == 0;
		free(label);
	}
	regfree(&re);
}

/* Whether `r` is shown under zoom root `top` (r inside its subtree). */
static bool shown_sim(struct sim *s, uint32_t r, uint32_t top)
{
	if (r == top)
		return true;
	switch (s->mode) {
	case OUTLINE_FILTER_OFF:
		return true;
	case OUTLINE_FILTER_HIDE:
		for (uint32_t x = r; x != top; x = parent_row(s->v, x))
			if (s->fm[x])
				return false;
		return true;
	case OUTLINE_FILTER_ONLY:
		if (s->fdesc[r])
			return true;
		for (uint32_t x = r; x != MODEL_NONE; x = parent_row(s->v, x))
			if (s->fm[x])
				return true;
		return false;
	}
	return true;
}

static bool inside_sim(struct sim *s, uint32_t r, uint32_t top)
{
	for (uint32_t x = r; x != MODEL_NONE; x = parent_row(s->v, x))
		if (x == top)
			return true;
	return false;
}

struct srow {
	uint32_t node, depth;
};

/* Push the shown children of `r` at `depth` on `stack`, last first; a
 * flattened child's children in its place (recursively). */
static void push_kids(struct sim *s, struct srow *stack, size_t *sp,
		      uint32_t r, uint32_t depth)
{
	size_t nk = 0;
	uint32_t *k = kids_of(s, r, &nk);
	for (size_t i = nk; i-- > 0;) {
		if (!shown_sim(s, k[i], s->root))
			continue;
		if (s->flat && s->flat[k[i]])
			push_kids(s, stack, sp, k[i], depth);
		else
			stack[(*sp)++] = (struct srow){.node = k[i],
						       .depth = depth};
	}
	free(k);
}

/* Pre-order from the zoom root through expanded rows (all rows when
 * `full`), shown rows only; flattened rows are replaced by their
 * children. */
static struct srow *list_sim(struct sim *s, bool full, size_t *count)
{
	struct srow *out = malloc((s->n + 1) * sizeof(*out));
	struct srow *stack = malloc((s->n + 1) * sizeof(*stack));
	size_t n = 0, sp = 0;
	assert_true(out && stack);
	stack[sp++] = (struct srow){.node = s->root};
	while (sp) {
		struct srow r = stack[--sp];
		out[n++] = r;
		if (!full && !s->exp[r.node])
			continue;
		push_kids(s, stack, &sp, r.node, r.depth + 1);
	}
	free(stack);
	*count = n;
	return out;
}

static void compare(struct sim *s, struct outline *o)
{
	size_t n = 0;
	struct srow *want = list_sim(s, false, &n);
	assert_int_equal(outline_count(o), n);
	assert_int_equal(outline_zoom_root(o), s->root);
	for (size_t i = 0; i < n; i++) {
		struct outline_row r = row_at(o, i);
		assert_int_equal(r.node, want[i].node);
		assert_int_equal(r.depth, want[i].depth);
		assert_int_equal(outline_find(o, r.node), i);
		assert_int_equal(r.expanded, s->exp[r.node]);
		assert_int_equal(r.has_children, has_kids_sim(s, r.node));
		assert_int_equal(r.match, s->sm[r.node]);
		/* last sibling: the next row at or above its depth is not
		 * at its depth */
		size_t j = i + 1;
		while (j < n && want[j].depth > want[i].depth)
			j++;
		bool last = i == 0 || j == n || want[j].depth < want[i].depth;
		assert_int_equal(r.last_sibling, last);
		/* guides: for d + 1 < depth, the ancestor at depth d + 1 has
		 * a later sibling: the next row at depth <= d + 1 is at
		 * d + 1 */
		uint64_t g = 0;
		for (uint32_t d = 0; d + 1 < want[i].depth && d < 64; d++) {
			size_t k = i + 1;
			while (k < n && want[k].depth > d + 1)
				k++;
			if (k < n && want[k].depth == d + 1)
				g |= 1ull << d;
		}
		assert_int_equal(r.guides, g);
	}
	free(want);
}

static bool visible_sim(struct sim *s, uint32_t x)
{
	size_t n = 0;
	struct srow *l = list_sim(s, false, &n);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		found |= l[i].node == x;
	free(l);
	return found;
}

/* A flatten of `x` or an unflatten, on the outline and the simulation. */
static void flatten_step(struct sim *s, struct outline *o, uint32_t x,
			 bool undo)
{
	struct error err = {0};
	if (undo) {
		uint32_t back = outline_unflatten(o);
		if (s->fn == 0) {
			assert_int_equal(back, MODEL_NONE);
			return;
		}
		assert_int_equal(back, s->fstack[--s->fn]);
		s->flat[back] = false;
		return;
	}
	bool ok = x != s->root && s->fn < 256 && visible_sim(s, x) &&
		  has_kids_sim(s, x);
	enum status st = outline_flatten(o, x, &err);
	assert_int_equal(st, ok ? STATUS_OK : STATUS_USAGE);
	error_clear(&err);
	if (ok) {
		s->flat[x] = true;
		s->exp[x] = true;
		s->fstack[s->fn++] = x;
	}
	assert_int_equal(outline_flattened(o), s->fn);
}

static void set_exp_if_kids(struct sim *s, uint32_t r)
{
	if (has_kids_sim(s, r))
		s->exp[r] = true;
}

static void sim_expand_all(struct sim *s, uint32_t x)
{
	uint32_t *stack = malloc((s->n + 1) * sizeof(*stack));
	size_t sp = 0;
	assert_non_null(stack);
	stack[sp++] = x;
	while (sp) {
		uint32_t r = stack[--sp];
		size_t nk = 0;
		uint32_t *k = kids_of(s, r, &nk);
		if (nk)
			s->exp[r] = true;
		for (size_t i = 0; i < nk; i++)
			if (shown_sim(s, k[i], x))
				stack[sp++] = k[i];
		free(k);
	}
	free(stack);
}

static void sim_collapse_all(struct sim *s, uint32_t x)
{
	uint32_t *stack = malloc((s->n + 1) * sizeof(*stack));
	size_t sp = 0;
	assert_non_null(stack);
	stack[sp++] = x;
	while (sp) {
		uint32_t r = stack[--sp];
		if (!s->exp[r])
			continue;
		s->exp[r] = false;
		size_t nk = 0;
		uint32_t *k = kids_of(s, r, &nk);
		for (size_t i = 0; i < nk; i++)
			stack[sp++] = k[i];
		free(k);
	}
	free(stack);
}

/* Expected outcome of outline_reveal. */
static enum status sim_reveal(struct sim *s, uint32_t x)
{
	uint32_t zn = s->zn, root = s->root;
	while (zn && !inside_sim(s, x, root))
		root = s->zstack[--zn];
	if (!shown_sim(s, x, root))
		return STATUS_NOT_FOUND;
	s->zn = zn;
	s->root = root;
	if (x != root)
		for (uint32_t p = parent_row(s->v, x);; p = parent_row(s->v, p)) {
			s->exp[p] = true;
			if (p == root)
				break;
		}
	return STATUS_OK;
}

static void set_filter_sim(struct sim *s, const char *pat,
			   enum outline_filter mode)
{
	s->mode = mode;
	memset(s->fdesc, 0, s->n);
	if (mode == OUTLINE_FILTER_OFF) {
		memset(s->fm, 0, s->n);
		return;
	}
	match_all(s, pat, s->fm);
	for (uint32_t r = 0; r < s->n; r++)
		if (s->fm[r])
			for (uint32_t p = parent_row(s->v, r); p != MODEL_NONE;
			     p = parent_row(s->v, p))
				s->fdesc[p] = true;
}

/* Search steps: from nothing, both ways through every match and round
 * again; from random rows. */
static void check_search(struct sim *s, struct outline *o, uint64_t *seed)
{
	size_t n = 0, nm = 0;
	struct srow *full = list_sim(s, true, &n);
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	assert_non_null(order);
	for (size_t i = 0; i < n; i++)
		if (s->sm[full[i].node])
			order[nm++] = full[i].node;
	struct error err = {0};
	uint32_t hit = MODEL_NONE;
	for (int dir = 0; dir < 2; dir++) {
		bool fwd = dir == 0;
		uint32_t from = MODEL_NONE;
		for (size_t k = 0; k < nm + 2; k++) {
			enum status st =
				outline_search_next(o, from, fwd, &hit, &err);
			if (nm == 0) {
				assert_int_equal(st, STATUS_NOT_FOUND);
				error_clear(&err);
				break;
			}
			assert_int_equal(st, STATUS_OK);
			uint32_t want = fwd ? order[k % nm]
					    : order[nm - 1 - k % nm];
			assert_int_equal(hit, want);
			assert_int_equal(sim_reveal(s, hit), STATUS_OK);
			from = hit;
		}
	}
	/* from random rows of the full list */
	for (int t = 0; t < 5 && nm; t++) {
		size_t at = fx_below(seed, (uint32_t)n);
		bool fwd = fx_below(seed, 2);
		uint32_t want = MODEL_NONE;
		for (size_t k = 1; k <= n && want == MODEL_NONE; k++) {
			size_t j = fwd ? (at + k) % n : (at + n - k) % n;
			if (s->sm[full[j].node])
				want = full[j].node;
		}
		assert_int_equal(outline_search_next(o, full[at].node, fwd,
						     &hit, &err),
				 STATUS_OK);
		assert_int_equal(hit, want);
		assert_int_equal(sim_reveal(s, hit), STATUS_OK);
	}
	free(order);
	free(full);
}

/* Build every row of a view (bottom-up computes callers lazily). */
static uint32_t build_all(struct view *v)
{
	uint32_t n = 0;
	struct view_node vn;
	struct error err = {0};
	for (uint32_t r = 0; view_node_get(v, r, &vn) || r == 0; r++) {
		uint32_t *k = NULL;
		size_t nk = 0;
		assert_int_equal(view_children(v, r, MODEL_NONE, false, &k,
					       &nk, &err),
				 STATUS_OK);
		free(k);
		n = r + 1;
	}
	return n;
}

static const char *const patterns[] = {
	"f1", "a\\.c", "loop", "F2", "anon|main", "^f[0-9]$", "so@", "c\\.h:[12]",
};

static void run_random(enum view_kind kind, uint64_t seed, uint32_t nodes)
{
	struct model *m = fx_random_model(nodes, 12, seed, false);
	struct view *v = NULL;
	struct error err = {0};
	uint64_t rs = seed * 7919 + 3;
	assert_int_equal(view_new(m, kind, &v, &err), STATUS_OK);
	struct sim s = {.v = v, .col = 0};
	s.n = build_all(v);
	s.exp = calloc(s.n, 1);
	s.fm = calloc(s.n, 1);
	s.fdesc = calloc(s.n, 1);
	s.sm = calloc(s.n, 1);
	s.flat = calloc(s.n, 1);
	assert_true(s.exp && s.fm && s.fdesc && s.sm && s.flat);
	struct outline *o = make(v, 0);
	set_exp_if_kids(&s, 0);
	compare(&s, o);
	for (int step = 0; step < 120; step++) {
		uint32_t op = fx_below(&rs, 13);
		uint32_t x = fx_below(&rs, s.n);
		if (fx_below(&rs, 3) && outline_count(o) > 1)
			x = row_at(o, fx_below(&rs, (uint32_t)outline_count(o)))
				    .node;
		enum status st;
		if (fx_below(&rs, 5) == 0) {
			bool undo = fx_below(&rs, 3) == 0;
			flatten_step(&s, o, x, undo);
			if (getenv("OUTLINE_TRACE"))
				fprintf(stderr, "seed %llu step %d %s %u\n",
					(unsigned long long)seed, step,
					undo ? "unflatten" : "flatten", x);
			compare(&s, o);
			continue;
		}
		switch (op) {
		case 0:
		case 1:
			assert_int_equal(outline_expand(o, x, &err), STATUS_OK);
			set_exp_if_kids(&s, x);
			break;
		case 2:
			outline_collapse(o, x);
			s.exp[x] = false;
			break;
		case 3:
			assert_int_equal(outline_expand_all(o, x, &err),
					 STATUS_OK);
			sim_expand_all(&s, x);
			break;
		case 4:
			outline_collapse_all(o, x);
			sim_collapse_all(&s, x);
			break;
		case 5: {
			uint32_t col = fx_below(&rs, 4);
			s.col = col == 3 ? MODEL_NONE : col;
			s.asc = fx_below(&rs, 2);
			assert_int_equal(outline_set_sort(o, s.col, s.asc, &err),
					 STATUS_OK);
			break;
		}
		case 6:
			if (s.zn == 64)
				break;
			assert_int_equal(outline_zoom(o, x, &err), STATUS_OK);
			if (x != s.root) {
				s.zstack[s.zn++] = s.root;
				s.root = x;
				set_exp_if_kids(&s, x);
			}
			break;
		case 7:
			assert_int_equal(outline_zoom_out(o), s.zn > 0);
			if (s.zn)
				s.root = s.zstack[--s.zn];
			break;
		case 8:
			st = outline_reveal(o, x, &err);
			assert_int_equal(st, sim_reveal(&s, x));
			error_clear(&err);
			break;
		case 9: {
			uint32_t leaf = MODEL_NONE, col = fx_below(&rs, 3);
			double pct = fx_below(&rs, 2) ? 0 : 30;
			st = outline_hotpath(o, x, col, pct, &leaf, &err);
			enum status want = sim_reveal(&s, x);
			assert_int_equal(st, want);
			error_clear(&err);
			if (want != STATUS_OK)
				break;
			uint32_t *path = NULL;
			size_t np = 0;
			assert_int_equal(view_hotpath(v, x, col, pct, &path,
						      &np, &err),
					 STATUS_OK);
			size_t cut = 0;
			while (cut + 1 < np && shown_sim(&s, path[cut + 1],
							 s.root))
				cut++;
			assert_int_equal(leaf, path[cut]);
			assert_int_equal(sim_reveal(&s, leaf), STATUS_OK);
			/* the row where it stops is expanded too */
			set_exp_if_kids(&s, leaf);
			free(path);
			break;
		}
		case 10: {
			const char *p = patterns[fx_below(&rs, 8)];
			enum outline_filter mode =
				(enum outline_filter)fx_below(&rs, 3);
			assert_int_equal(outline_set_filter(o, p, mode, &err),
					 STATUS_OK);
			set_filter_sim(&s, p, mode);
			break;
		}
		case 11: {
			const char *p = patterns[fx_below(&rs, 8)];
			assert_int_equal(outline_search_set(o, p, &err),
					 STATUS_OK);
			match_all(&s, p, s.sm);
			size_t count = 0;
			for (uint32_t r = 0; r < s.n; r++)
				count += s.sm[r];
			assert_int_equal(outline_search_count(o), count);
			assert_string_equal(outline_search_pattern(o), p);
			break;
		}
		default:
			/* flattened rows are not shown, so never a hit:
			 * the order is the list's with them replaced */
			check_search(&s, o, &rs);
			break;
		}
		if (getenv("OUTLINE_TRACE"))
			fprintf(stderr, "seed %llu step %d op %u x %u rows %zu srch %zu\n",
				(unsigned long long)seed, step, op, x,
				outline_count(o), outline_search_count(o));
		compare(&s, o);
	}
	outline_free(o);
	free(s.exp);
	free(s.fm);
	free(s.fdesc);
	free(s.sm);
	free(s.flat);
	view_free(v);
	model_free(m);
}

/* OUTLINE_SEEDS=N runs N seeds per view instead of 6 (longer runs by
 * hand). */
static uint64_t n_seeds(void)
{
	const char *e = getenv("OUTLINE_SEEDS");
	long n = e ? atol(e) : 0;
	return n > 0 ? (uint64_t)n : 6;
}

static void test_random_top_down(void **state)
{
	(void)state;
	for (uint64_t k = 0; k < n_seeds(); k++)
		run_random(VIEW_TOP_DOWN, 1 + k, 60 + 40 * (uint32_t)(k % 8));
}

static void test_random_bottom_up(void **state)
{
	(void)state;
	for (uint64_t k = 0; k < n_seeds(); k++)
		run_random(VIEW_BOTTOM_UP, 1001 + k,
			   40 + 30 * (uint32_t)(k % 6));
}

static void test_random_flat(void **state)
{
	(void)state;
	for (uint64_t k = 0; k < n_seeds(); k++)
		run_random(VIEW_FLAT, 2001 + k, 80 + 30 * (uint32_t)(k % 6));
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
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, VIEW_BOTTOM_UP, &v, &err), STATUS_OK);
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
	struct view *v = NULL;
	struct error err = {0};
	assert_int_equal(view_new(m, VIEW_TOP_DOWN, &v, &err), STATUS_OK);
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
		cmocka_unit_test(test_random_top_down),
		cmocka_unit_test(test_random_bottom_up),
		cmocka_unit_test(test_random_flat),
		cmocka_unit_test(test_bottom_up_lazy),
		cmocka_unit_test(test_sort_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
