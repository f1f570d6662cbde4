/* Tests of the outline on random sequences of operations on random models
 * in all three views, each compared after every step with a from-scratch
 * simulation (pre-order over an independently tracked expanded set,
 * sorted children, filter by direct regexec over labels and ancestors,
 * guides and last-sibling flags read off the list), and search steps
 * compared with the matches of a fully expanded copy in display order.
 * Flatten and unflatten steps are among the random operations: the
 * simulation puts a flattened row's children in its place. */
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

/* Expected outcome of expand-all (`expand`) or collapse-all at x: expand
 * marks every row with children expanded, down through the rows shown
 * below x; collapse unmarks every expanded row, down through expanded
 * rows only. */
static void sim_set_all(struct sim *s, uint32_t x, bool expand)
{
	uint32_t *stack = malloc((s->n + 1) * sizeof(*stack));
	size_t sp = 0;
	assert_non_null(stack);
	stack[sp++] = x;
	while (sp) {
		uint32_t r = stack[--sp];
		if (!expand && !s->exp[r])
			continue;
		size_t nk = 0;
		uint32_t *k = kids_of(s, r, &nk);
		if (!expand)
			s->exp[r] = false;
		else if (nk)
			s->exp[r] = true;
		for (size_t i = 0; i < nk; i++)
			if (!expand || shown_sim(s, k[i], x))
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
	struct error err = {0};
	uint64_t rs = seed * 7919 + 3;
	struct view *v = view_of(m, kind);
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
			sim_set_all(&s, x, true);
			break;
		case 4:
			outline_collapse_all(o, x);
			sim_set_all(&s, x, false);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_top_down),
		cmocka_unit_test(test_random_bottom_up),
		cmocka_unit_test(test_random_flat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
