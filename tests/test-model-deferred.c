/* Tests of deferred subtrees (model_deferred.c): degenerate cases first (no
 * deferred node, a deferred node without a loader, out-of-range nodes),
 * then a root with K deferred "images", each holding a random subtree that
 * the fake reader adds when asked, one level of them deferred again.  After
 * every load (in random order, through model_load_children, the top-down
 * view's children, and model_load_all) every node's derived inclusive sum
 * is compared with a brute-force sum over the logical tree the fake holds,
 * the nodes already there keep their index, links and values, and the
 * deferred count follows.  A loader that fails half-way leaves the model as
 * it was, and the next try succeeds.  Deferred nodes marked
 * NODE_TRAIT_DEFERRED_LEAVES stay deferred through model_load_all and the
 * flat view (their totals stand for them), and load when asked.  Exclusive values are small integers,
 * so sums are exact in any order. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_internal.h" /* white-box: the private part */
#include "views/view.h"
#include "build_fixture.h"
#include "view_assert.h"

#define MAXN 4096 /* logical nodes */

/* The logical tree: node k (0 = root) with its parent, its exclusive
 * value, and whether it starts deferred; `made[k]` is the model index it
 * got (MODEL_NONE until loaded); `of[i]` the logical node of model node i. */
struct fake {
	uint32_t n;
	uint32_t parent[MAXN];
	double excl[MAXN];
	bool deferred[MAXN];
	bool leaves[MAXN]; /* deferred with NODE_TRAIT_DEFERRED_LEAVES */
	uint32_t made[MAXN];
	uint32_t of[MAXN];
	unsigned fail_after; /* loads fail after adding this many (0: off) */
	unsigned loads;
};

static bool fake_summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	struct fake *f = impl;
	if (stat != 0 || ctx >= MAXN || f->of[ctx] == MODEL_NONE ||
	    f->excl[f->of[ctx]] == 0)
		return false;
	*out = f->excl[f->of[ctx]];
	return true;
}

static const struct value_ops fake_values = {
	.summary = fake_summary,
};

/* The logical subtree sum of k, brute force. */
static double subtree_sum(const struct fake *f, uint32_t k)
{
	double s = f->excl[k];
	for (uint32_t c = k + 1; c < f->n; c++) {
		uint32_t a = c;
		while (a != 0 && a != k && a > k)
			a = f->parent[a];
		if (a == k)
			s += f->excl[c];
	}
	return s;
}

static uint32_t add(struct fake *f, struct model_builder *b, uint32_t k,
		    uint32_t parent_index)
{
	uint32_t at = model_builder_peek(b)->n_nodes;
	struct model_node nd = {
		.ctx_id = at,
		.function = MODEL_NONE,
		.kind = NODE_ADDRESS,
		.traits = (uint8_t)((f->deferred[k] ? NODE_TRAIT_DEFERRED : 0) |
				    (f->deferred[k] && f->leaves[k]
					     ? NODE_TRAIT_DEFERRED_LEAVES
					     : 0)),
	};
	uint32_t i = model_builder_add_node(b, parent_index, &nd);
	if (i != MODEL_NONE) {
		f->made[k] = i;
		f->of[i] = k;
	}
	return i;
}

/* Add the logical subtree under k (k itself made): its descendants down to
 * deferred nodes, whose own children wait. */
static enum status add_below(struct fake *f, struct model_builder *b,
			     uint32_t k, unsigned *added)
{
	for (uint32_t c = k + 1; c < f->n; c++) {
		if (f->parent[c] != k)
			continue;
		if (f->fail_after && *added >= f->fail_after)
			return STATUS_IO;
		if (add(f, b, c, f->made[k]) == MODEL_NONE)
			return STATUS_NOMEM;
		(*added)++;
		if (!f->deferred[c]) {
			enum status st = add_below(f, b, c, added);
			if (st != STATUS_OK)
				return st;
		}
	}
	return STATUS_OK;
}

static enum status fake_load(void *impl, struct model_builder *b,
			     uint32_t node, struct error *err)
{
	struct fake *f = impl;
	f->loads++;
	unsigned added = 0;
	uint32_t k = f->of[node];
	enum status st = add_below(f, b, k, &added);
	if (st != STATUS_OK)
		return error_set(err, st, "fake", "load failed");
	return STATUS_OK;
}

static bool fake_total(void *impl, uint32_t node, uint32_t stat_id,
		       double *out)
{
	struct fake *f = impl;
	if (stat_id != 0)
		return false;
	uint32_t k = f->of[node];
	double s = subtree_sum(f, k) - f->excl[k];
	if (s == 0)
		return false;
	*out = s;
	return true;
}

static const struct deferred_ops fake_deferred = {
	.load = fake_load,
	.total = fake_total,
};

/* Root, K images (deferred), each a random subtree of `per` nodes; about a
 * tenth of the inner nodes deferred too. */
static void make_logical(struct fake *f, uint32_t k_images, uint32_t per,
			 unsigned seed)
{
	memset(f, 0, sizeof(*f));
	for (uint32_t i = 0; i < MAXN; i++)
		f->made[i] = f->of[i] = MODEL_NONE;
	srand(seed);
	f->n = 1;
	for (uint32_t im = 0; im < k_images; im++) {
		uint32_t top = f->n++;
		f->parent[top] = 0;
		f->deferred[top] = true;
		for (uint32_t j = 0; j < per; j++) {
			uint32_t c = f->n++;
			/* a parent among this image's nodes made so far */
			f->parent[c] = top + (uint32_t)rand() % (c - top);
			f->excl[c] = (double)(rand() % 5);
			if (rand() % 10 == 0)
				f->deferred[c] = true;
		}
	}
	assert_true(f->n <= MAXN);
}

static struct model *make_model(struct fake *f)
{
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	f->made[0] = 0;
	f->of[0] = 0;
	for (uint32_t k = 1; k < f->n; k++)
		if (f->parent[k] == 0)
			assert_int_not_equal(add(f, b, k, 0), MODEL_NONE);
	struct model_stat ex = {.combine = COMBINE_SUM,
				.stat_id = 0,
				.prop_id = MODEL_NONE,
				.flags = STAT_EXCLUSIVE_ONLY};
	uint32_t s0 = model_builder_add_stat(b, &ex);
	assert_int_equal(s0, 0);
	assert_int_equal(model_builder_add_inclusive_stat(b, s0), 1);
	model_builder_set_values(b, &fake_values, f);
	model_builder_set_deferred(b, &fake_deferred, f);
	return fixture_finish(b);
}

/* Every loaded node's inclusive sum equals the logical subtree's, and its
 * context id (its index when made) leads back to it. */
static void check_sums(const struct model *m, const struct fake *f)
{
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		assert_int_equal(model_node_of_ctx(m, m->nodes[i].ctx_id), i);
		double v = 0;
		double want = subtree_sum(f, f->of[i]);
		bool has = model_stat_value(m, i, 1, &v);
		assert_int_equal(has, want != 0);
		if (has)
			assert_true(v == want);
	}
}

static uint32_t count_deferred(const struct model *m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->n_nodes; i++)
		n += (m->nodes[i].traits & NODE_TRAIT_DEFERRED) != 0;
	return n;
}

static void test_no_deferred(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node nd = {.function = MODEL_NONE, .kind = NODE_ADDRESS};
	assert_int_equal(model_builder_add_node(b, 0, &nd), 1);
	struct model *m = fixture_finish(b);
	struct error err = {0};
	assert_int_equal(m->n_deferred, 0);
	assert_null(m->priv->growth);
	assert_true(model_node_has_children(m, 0));
	assert_false(model_node_has_children(m, 1));
	assert_false(model_node_has_children(m, 99));
	assert_int_equal(model_load_children(m, 1, &err), STATUS_OK);
	assert_int_equal(model_load_children(m, 99, &err), STATUS_OK);
	assert_int_equal(model_load_all(m, &err), STATUS_OK);
	assert_int_equal(m->n_nodes, 2);
	model_free(m);
}

static void test_deferred_without_loader(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node nd = {.function = MODEL_NONE,
				.kind = NODE_ADDRESS,
				.traits = NODE_TRAIT_DEFERRED};
	assert_int_equal(model_builder_add_node(b, 0, &nd), 1);
	struct error err = {0};
	assert_null(model_builder_finish(b, &err));
	assert_int_not_equal(err.status, STATUS_OK);
	error_clear(&err);
}

static void test_random_loads(void **state)
{
	(void)state;
	static struct fake f;
	for (unsigned seed = 1; seed <= 6; seed++) {
		make_logical(&f, 8, 300, seed);
		struct model *m = make_model(&f);
		assert_int_equal(m->n_nodes, 9);
		assert_int_equal(m->n_deferred, 8);
		check_sums(m, &f); /* from the totals alone */
		struct error err = {0};
		for (int round = 0; m->n_deferred && round < 200; round++) {
			/* a random deferred node */
			uint32_t pick = (uint32_t)rand() % m->n_nodes;
			while (!(m->nodes[pick].traits & NODE_TRAIT_DEFERRED))
				pick = (pick + 1) % m->n_nodes;
			uint32_t before = m->n_nodes;
			struct model_node *old = malloc(before * sizeof(*old));
			memcpy(old, m->nodes, before * sizeof(*old));
			assert_true(model_node_has_children(m, pick));
			assert_int_equal(model_load_children(m, pick, &err),
					 STATUS_OK);
			assert_false(m->nodes[pick].traits &
				     NODE_TRAIT_DEFERRED);
			/* the old nodes unchanged but the loaded one's child */
			for (uint32_t i = 0; i < before; i++) {
				struct model_node a = old[i], c = m->nodes[i];
				if (i == pick) {
					a.first_child = c.first_child;
					a.traits = c.traits;
				}
				assert_memory_equal(&a, &c, sizeof(a));
			}
			free(old);
			assert_int_equal(m->n_deferred, count_deferred(m));
			check_sums(m, &f);
		}
		assert_int_equal(model_load_all(m, &err), STATUS_OK);
		assert_int_equal(m->n_deferred, 0);
		/* the whole logical tree is there */
		assert_int_equal(m->n_nodes, f.n);
		check_sums(m, &f);
		model_free(m);
	}
}

/* The growth handle: none for a model without deferred nodes (loading
 * through a NULL handle is a usage error); one, the same on every call,
 * for a model with some, and loading through it is what
 * model_load_children does (a node that is not deferred: a no-op). */
static void test_growth_handle(void **state)
{
	(void)state;
	struct error err = {0};
	struct model_builder *b = model_builder_new("test", "mem");
	struct model *plain = model_builder_finish(b, &err);
	assert_non_null(plain);
	assert_null(model_growth(plain));
	assert_null(model_growth(NULL));
	assert_int_equal(model_growth_load(NULL, 0, &err), STATUS_USAGE);
	error_clear(&err);
	model_free(plain);

	static struct fake f;
	make_logical(&f, 4, 60, 3);
	struct model *m = make_model(&f);
	const struct model *cm = m;
	struct model_growth *g = model_growth(cm);
	assert_non_null(g);
	assert_ptr_equal(model_growth(cm), g);
	uint32_t before = m->n_nodes;
	assert_int_equal(model_growth_load(g, 0, &err), STATUS_OK);
	assert_int_equal(m->n_nodes, before); /* the root is not deferred */
	assert_true(m->nodes[1].traits & NODE_TRAIT_DEFERRED);
	assert_int_equal(model_growth_load(g, 1, &err), STATUS_OK);
	assert_false(m->nodes[1].traits & NODE_TRAIT_DEFERRED);
	assert_true(m->n_nodes > before);
	assert_int_equal(m->nodes[m->nodes[1].first_child].parent, 1);
	assert_int_equal(f.loads, 1);
	assert_int_equal(m->n_deferred, count_deferred(m));
	check_sums(m, &f);
	model_free(m);
}

static void test_view_loads(void **state)
{
	(void)state;
	static struct fake f;
	make_logical(&f, 3, 50, 42);
	struct model *m = make_model(&f);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	uint32_t *kids = NULL;
	size_t n = 0;
	assert_int_equal(view_children(v, 2, MODEL_NONE, false, &kids, &n,
				       &err),
			 STATUS_OK);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(m->nodes[kids[i]].parent, 2);
	free(kids);
	assert_int_equal(f.loads, 1);
	assert_true(m->n_deferred >= 2);
	view_free(v);
	/* the flat view groups every context: it loads them all */
	v = view_of(m, VIEW_FLAT);
	assert_int_equal(m->n_deferred, 0);
	assert_int_equal(m->n_nodes, f.n);
	check_sums(m, &f);
	view_free(v);
	model_free(m);
}

static void test_failed_load(void **state)
{
	(void)state;
	static struct fake f;
	make_logical(&f, 2, 100, 7);
	for (uint32_t k = 0; k < f.n; k++)
		if (f.parent[k] != 0)
			f.deferred[k] = false;
	struct model *m = make_model(&f);
	f.fail_after = 10;
	struct error err = {0};
	uint32_t before = m->n_nodes, fn = m->n_functions;
	uint32_t depth = m->max_depth;
	assert_int_not_equal(model_load_children(m, 1, &err), STATUS_OK);
	error_clear(&err);
	assert_int_equal(m->n_nodes, before);
	assert_int_equal(m->n_functions, fn);
	assert_int_equal(m->max_depth, depth);
	assert_int_equal(m->nodes[1].first_child, MODEL_NONE);
	assert_true(m->nodes[1].traits & NODE_TRAIT_DEFERRED);
	assert_int_equal(m->n_deferred, 2);
	check_sums(m, &f);
	/* the fake's record of what it made is stale: reset it */
	for (uint32_t i = before; i < MAXN; i++)
		f.of[i] = MODEL_NONE;
	f.fail_after = 0;
	assert_int_equal(model_load_children(m, 1, &err), STATUS_OK);
	assert_int_equal(m->n_deferred, 1);
	assert_int_equal(model_node_of_ctx(m, m->n_nodes - 1), m->n_nodes - 1);
	check_sums(m, &f);
	model_free(m);
}

/* Deferred nodes whose subtree is rows of their own (DCPI: an image's
 * addresses without a symbol) are left by model_load_all and the flat
 * view, counted apart, loaded when asked; a failed load of one keeps both
 * of its traits. */
static void test_deferred_leaves(void **state)
{
	(void)state;
	static struct fake f;
	make_logical(&f, 4, 200, 11);
	uint32_t n_leaves = 0;
	for (uint32_t k = 1; k < f.n; k++)
		if (f.deferred[k] && f.parent[k] != 0 && k % 2) {
			f.leaves[k] = true;
			n_leaves++;
		}
	assert_true(n_leaves > 0);
	struct model *m = make_model(&f);
	assert_int_equal(m->priv->n_deferred_leaves, 0); /* not made yet */
	assert_int_equal(model_deferred_pending(m), 4);
	struct error err = {0};
	struct view *v = view_of(m, VIEW_FLAT);
	view_free(v);
	assert_int_equal(model_deferred_pending(m), 0);
	assert_int_equal(m->n_deferred, m->priv->n_deferred_leaves);
	assert_int_equal(count_deferred(m), m->n_deferred);
	uint32_t made_leaves = 0;
	for (uint32_t k = 1; k < f.n; k++)
		made_leaves += f.leaves[k] && f.made[k] != MODEL_NONE &&
			       f.of[f.made[k]] == k;
	assert_true(made_leaves > 0);
	assert_int_equal(m->priv->n_deferred_leaves, made_leaves);
	for (uint32_t i = 0; i < m->n_nodes; i++)
		if (m->nodes[i].traits & NODE_TRAIT_DEFERRED)
			assert_true(f.leaves[f.of[i]]);
	check_sums(m, &f); /* the totals stand for the rows not read */
	assert_int_equal(model_load_all(m, &err), STATUS_OK);
	assert_int_equal(m->n_deferred, made_leaves);
	/* one of them, failing half-way then loaded */
	uint32_t pick = 0;
	while (!(m->nodes[pick].traits & NODE_TRAIT_DEFERRED))
		pick++;
	uint32_t before = m->n_nodes;
	f.fail_after = 1;
	if (model_load_children(m, pick, &err) != STATUS_OK) {
		error_clear(&err);
		assert_int_equal(m->n_nodes, before);
		assert_int_equal(m->nodes[pick].traits,
				 NODE_TRAIT_DEFERRED |
					 NODE_TRAIT_DEFERRED_LEAVES);
		assert_int_equal(m->priv->n_deferred_leaves, made_leaves);
		for (uint32_t i = before; i < MAXN; i++)
			f.of[i] = MODEL_NONE;
	}
	f.fail_after = 0;
	assert_int_equal(model_load_children(m, pick, &err), STATUS_OK);
	assert_int_equal(m->nodes[pick].traits &
				 (NODE_TRAIT_DEFERRED | NODE_TRAIT_DEFERRED_LEAVES),
			 0);
	assert_int_equal(count_deferred(m), m->n_deferred);
	uint32_t leaves_now = 0;
	for (uint32_t i = 0; i < m->n_nodes; i++)
		leaves_now += (m->nodes[i].traits & NODE_TRAIT_DEFERRED_LEAVES) &&
			      (m->nodes[i].traits & NODE_TRAIT_DEFERRED);
	assert_int_equal(m->priv->n_deferred_leaves, leaves_now);
	check_sums(m, &f);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_deferred),
		cmocka_unit_test(test_deferred_without_loader),
		cmocka_unit_test(test_random_loads),
		cmocka_unit_test(test_growth_handle),
		cmocka_unit_test(test_view_loads),
		cmocka_unit_test(test_failed_load),
		cmocka_unit_test(test_deferred_leaves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
