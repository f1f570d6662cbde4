/* Tests of the inclusive values the engine derives for statistics stored
 * exclusive-only (model_inclusive.c): degenerate declarations first, then
 * random trees (bushy, with nodes added in random order, and a chain
 * 100,000 deep) whose derived sums, minima and maxima are compared with a
 * brute-force recomputation: a preorder numbering by an explicit-stack
 * walk of the child links, and for each node a scan of every node inside
 * its preorder interval.  Exclusive values are small integers so that sums are
 * exact in any order.  Also: the pass runs once (the provider is not asked
 * again), the dense and column readers agree, and a failing provider gives
 * absent values plus one error through model_take_value_error. */
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

struct fake {
	double *excl;    /* by ctx id (= node index) */
	uint8_t *has;
	uint32_t n;
	unsigned calls;  /* summary and summary_all calls */
	bool fail;
};

static bool fake_summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	struct fake *f = impl;
	f->calls++;
	if (stat != 7 || ctx >= f->n || !f->has[ctx] || f->fail)
		return false;
	*out = f->excl[ctx];
	return true;
}

static enum status fake_all(void *impl, uint32_t stat,
			    void (*emit)(void *ctx, uint32_t ctx_id,
					 double value),
			    void *ctx, struct error *err)
{
	struct fake *f = impl;
	f->calls++;
	if (f->fail)
		return error_set(err, STATUS_IO, "remote/dcpi", "gone");
	for (uint32_t c = 0; stat == 7 && c < f->n; c++)
		if (f->has[c])
			emit(ctx, c, f->excl[c]);
	return STATUS_OK;
}

static const struct value_ops fake_ops = {
	.summary = fake_summary,
	.summary_all = fake_all,
};

/* A model over `parent` (parent[i] < i), stats: 0 exclusive (sum), 1 its
 * inclusive, 2 exclusive (min), 3 its inclusive, 4 exclusive (max), 5 its
 * inclusive; one column per stat. */
static struct model *make_model(const uint32_t *parent, uint32_t n,
				struct fake *f)
{
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	for (uint32_t i = 1; i < n; i++) {
		struct model_node nd = {
			.ctx_id = i,
			.function = MODEL_NONE,
			.kind = NODE_ADDRESS,
		};
		assert_int_equal(model_builder_add_node(b, parent[i], &nd), i);
	}
	uint8_t how[3] = {COMBINE_SUM, COMBINE_MIN, COMBINE_MAX};
	for (uint32_t k = 0; k < 3; k++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, "cycles", 6),
			.combine = how[k],
			.stat_id = 7,
			.prop_id = MODEL_NONE,
			.flags = STAT_EXCLUSIVE_ONLY,
		};
		uint32_t e = model_builder_add_stat(b, &st);
		assert_int_equal(e, 2 * k);
		assert_int_equal(model_builder_add_inclusive_stat(b, e),
				 2 * k + 1);
	}
	for (uint32_t s = 0; s < 6; s++) {
		struct model_column c = {
			.name = strdup("cycles"),
			.variant = strdup(""),
			.format = strdup("%g"),
			.kind = s % 2 ? COLUMN_INCLUSIVE : COLUMN_EXCLUSIVE,
			.expr = formula_leaf(s),
		};
		assert_int_equal(model_builder_add_column(b, &c), s);
	}
	model_builder_set_values(b, &fake_ops, f);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

/* Brute force: preorder numbers by an explicit stack over the first-child
 * links, then each node's subtree is the nodes numbered inside
 * [pre[v], pre[v] + size[v]). */
static void check(const struct model *m, const struct fake *f,
		  uint32_t stride)
{
	uint32_t n = m->n_nodes;
	uint32_t *pre = malloc(n * sizeof(*pre));
	uint32_t *order = malloc(n * sizeof(*order));
	uint32_t *size = calloc(n, sizeof(*size));
	uint32_t *stack = malloc(n * sizeof(*stack));
	assert_true(pre && order && size && stack);
	uint32_t sp = 0, next = 0;
	stack[sp++] = 0;
	while (sp) {
		uint32_t v = stack[--sp];
		pre[v] = next;
		order[next++] = v;
		/* push children last-first so the first is visited first */
		uint32_t kids = 0;
		for (uint32_t c = m->nodes[v].first_child; c != MODEL_NONE;
		     c = m->nodes[c].next_sibling)
			stack[sp + kids++] = c;
		for (uint32_t a = 0, z = kids; a < z / 2; a++) {
			uint32_t t = stack[sp + a];
			stack[sp + a] = stack[sp + z - 1 - a];
			stack[sp + z - 1 - a] = t;
		}
		sp += kids;
	}
	assert_int_equal(next, n);
	/* subtree sizes, in reverse preorder */
	for (uint32_t i = n; i-- > 0;) {
		uint32_t v = order[i];
		size[v]++;
		if (v != 0)
			size[m->nodes[v].parent] += size[v];
	}
	for (uint32_t v = 0; v < n; v += stride) {
		double sum = 0, mn = 0, mx = 0;
		bool any = false;
		for (uint32_t i = pre[v]; i < pre[v] + size[v]; i++) {
			uint32_t u = order[i];
			if (!f->has[u])
				continue;
			double x = f->excl[u];
			mn = any && mn < x ? mn : x;
			mx = any && mx > x ? mx : x;
			sum += x;
			any = true;
		}
		double got;
		assert_int_equal(model_stat_value(m, v, 1, &got), any);
		if (any)
			assert_true(got == sum);
		assert_int_equal(model_stat_value(m, v, 3, &got), any);
		if (any)
			assert_true(got == mn);
		assert_int_equal(model_value(m, v, 5, &got), any);
		if (any)
			assert_true(got == mx);
		/* the exclusive statistic is the provider's */
		assert_int_equal(model_stat_value(m, v, 0, &got), f->has[v]);
	}
	free(pre);
	free(order);
	free(size);
	free(stack);
}

static void fill(struct fake *f, uint32_t n)
{
	f->n = n;
	f->excl = malloc(n * sizeof(*f->excl));
	f->has = malloc(n);
	assert_true(f->excl && f->has);
	for (uint32_t i = 0; i < n; i++) {
		f->has[i] = rand() % 3 != 0;
		f->excl[i] = (double)(rand() % 1000) - 100;
	}
	f->calls = 0;
	f->fail = false;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_stat st = {.stat_id = 1, .prop_id = MODEL_NONE};
	assert_int_equal(model_builder_add_inclusive_stat(b, 0), MODEL_NONE);
	assert_int_equal(model_builder_add_stat(b, &st), 0);
	/* not flagged exclusive-only */
	assert_int_equal(model_builder_add_inclusive_stat(b, 0), MODEL_NONE);
	st.flags = STAT_EXCLUSIVE_ONLY;
	assert_int_equal(model_builder_add_stat(b, &st), 1);
	assert_int_equal(model_builder_add_inclusive_stat(b, 1), 2);
	/* not from a derived one */
	assert_int_equal(model_builder_add_inclusive_stat(b, 2), MODEL_NONE);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	assert_int_equal(m->stats[2].flags, STAT_DERIVED_INCLUSIVE);
	assert_int_equal(m->stats[2].source, 1);
	assert_int_equal(m->stats[2].stat_id, MODEL_NONE);
	/* no provider: absent, no error */
	double v;
	assert_false(model_stat_value(m, 0, 2, &v));
	assert_false(model_take_value_error(m, NULL));
	model_free(m);
	/* a model without derived statistics has no cache */
	b = model_builder_new("test", "mem");
	m = model_builder_finish(b, NULL);
	assert_null(m->priv->inclusive);
	model_free(m);
}

static void test_random_trees(void **state)
{
	(void)state;
	srand(99);
	for (int round = 0; round < 40; round++) {
		uint32_t n = 1 + (uint32_t)(rand() % 2000);
		uint32_t *parent = malloc(n * sizeof(*parent));
		parent[0] = MODEL_NONE;
		for (uint32_t i = 1; i < n; i++)
			parent[i] = round % 4 == 0 ? i - 1
				    : rand() % 2  ? (uint32_t)rand() % i
						  : i - 1 - (uint32_t)rand() %
								    (i < 5 ? i : 5);
		struct fake f;
		fill(&f, n);
		struct model *m = make_model(parent, n, &f);
		check(m, &f, 1);
		model_free(m);
		free(parent);
		free(f.excl);
		free(f.has);
	}
}

static void test_deep_chain(void **state)
{
	(void)state;
	srand(4);
	uint32_t n = 100001;
	uint32_t *parent = malloc(n * sizeof(*parent));
	parent[0] = MODEL_NONE;
	for (uint32_t i = 1; i < n; i++)
		parent[i] = i - 1;
	struct fake f;
	fill(&f, n);
	struct model *m = make_model(parent, n, &f);
	assert_int_equal(m->max_depth, 100000);
	check(m, &f, 997);
	/* the bottom and the top */
	double v, sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum += f.has[i] ? f.excl[i] : 0;
	assert_true(model_stat_value(m, 0, 1, &v));
	assert_true(v == sum);
	assert_int_equal(model_stat_value(m, n - 1, 1, &v), f.has[n - 1]);
	model_free(m);
	free(parent);
	free(f.excl);
	free(f.has);
}

static void test_once_dense_and_failure(void **state)
{
	(void)state;
	srand(8);
	uint32_t n = 500;
	uint32_t parent[500];
	parent[0] = MODEL_NONE;
	for (uint32_t i = 1; i < n; i++)
		parent[i] = (uint32_t)rand() % i;
	struct fake f;
	fill(&f, n);
	struct model *m = make_model(parent, n, &f);
	double v;
	assert_int_equal(f.calls, 0); /* nothing read at open */
	(void)model_stat_value(m, 3, 1, &v);
	unsigned after = f.calls;
	assert_int_equal(after, 1); /* one summary_all pass */
	double *dv = malloc(n * sizeof(*dv)), *cv = malloc(n * sizeof(*cv));
	uint8_t *dp = malloc(n), *cp = malloc(n);
	assert_int_equal(model_stat_dense(m, 1, dv, dp, NULL), STATUS_OK);
	assert_int_equal(model_column_dense(m, 1, false, cv, cp, NULL),
			 STATUS_OK);
	assert_int_equal(f.calls, after);
	for (uint32_t i = 0; i < n; i++) {
		bool has = model_stat_value(m, i, 1, &v);
		assert_int_equal(dp[i], has);
		assert_int_equal(cp[i], has);
		assert_true(dv[i] == (has ? v : 0));
		assert_true(cv[i] == dv[i]);
	}
	assert_int_equal(f.calls, after);
	assert_false(model_take_value_error(m, NULL));
	model_free(m);
	/* a failing provider: absent, one error, no retry */
	f.calls = 0;
	f.fail = true;
	m = make_model(parent, n, &f);
	assert_false(model_stat_value(m, 0, 1, &v));
	after = f.calls;
	assert_false(model_stat_value(m, 1, 1, &v));
	assert_int_equal(model_stat_dense(m, 1, dv, dp, NULL), STATUS_OK);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(dp[i], 0);
	assert_int_equal(f.calls, after);
	struct error err = {0};
	assert_true(model_take_value_error(m, &err));
	assert_int_equal(err.status, STATUS_IO);
	assert_string_equal(err.message, "gone");
	error_clear(&err);
	assert_false(model_take_value_error(m, &err));
	model_free(m);
	free(dv);
	free(cv);
	free(dp);
	free(cp);
	free(f.excl);
	free(f.has);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_trees),
		cmocka_unit_test(test_deep_chain),
		cmocka_unit_test(test_once_dense_and_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
