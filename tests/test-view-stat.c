/* Tests of how an aggregated row (flat, bottom-up) gets a column that is
 * not a sum (views/view_stat.c): degenerate columns first (no formula, an
 * unknown statistic, no per-thread values), the rule of each formula shape,
 * then a hand-built model with three threads whose function f0 is entered
 * twice at the top and once recursively: the bottom-up and flat rows'
 * minimum, maximum, mean, standard deviation and count over threads are
 * worked out by hand from the per-thread values below, and must not be
 * the sums over contexts (which give Min > Mean).  Last, a reader that
 * folds a statistic over contexts its own way (value_ops
 * combine_contexts). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "views/view.h"
#include "views/view_internal.h"
#include "view_assert.h"

#define N_CTX 5
#define N_THR 3

/* Per context id and thread: the inclusive value of the metric (a
 * thread's values over contexts add up, as HPCToolkit's do).  Context 2
 * and 4 are two top-level instances of f0, 3 a recursive call inside 2. */
static const double thr[N_CTX][N_THR] = {
	{14, 20, 30}, /* 0 root */
	{14, 20, 30}, /* 1 entry */
	{10, 20, 0},  /* 2 f0 */
	{4, 5, 0},    /* 3 f0 inside 2 */
	{0, 0, 30},   /* 4 f0 again */
};

/* Statistics: formula and combine over threads, stat_id = index. */
enum { S_SUM, S_MIN, S_MAX, S_COUNT, S_SUMSQ, S_NOPROP, S_CONST, N_STATS };

static bool summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	(void)impl;
	if (ctx >= N_CTX || stat >= N_STATS)
		return false;
	double v = 0;
	bool any = false;
	for (int t = 0; t < N_THR; t++) {
		double x = thr[ctx][t];
		if (x == 0)
			continue;
		switch (stat) {
		case S_MIN:
		case S_NOPROP:
			v = !any || x < v ? x : v;
			break;
		case S_MAX:
			v = !any || x > v ? x : v;
			break;
		case S_COUNT:
			v += 1;
			break;
		case S_SUMSQ:
			v += x * x;
			break;
		case S_CONST:
			v = N_THR;
			break;
		default:
			v += x;
			break;
		}
		any = true;
	}
	*out = v;
	return any;
}

static int reads; /* per_profile calls */

static enum status per_profile(void *impl, uint32_t ctx, uint32_t prop,
			       struct profile_value **out, size_t *n,
			       struct error *err)
{
	(void)impl;
	(void)err;
	reads++;
	*out = NULL;
	*n = 0;
	if (ctx >= N_CTX || prop != 0)
		return STATUS_OK;
	*out = calloc(N_THR, sizeof(**out));
	assert_non_null(*out);
	for (int t = 0; t < N_THR; t++)
		if (thr[ctx][t] != 0)
			(*out)[(*n)++] = (struct profile_value){
				.profile = (uint32_t)t + 1, /* 0: summary */
				.value = thr[ctx][t]};
	return STATUS_OK;
}

static const struct value_ops ops = {
	.summary = summary,
	.per_profile = per_profile,
};

static const struct value_ops ops_no_threads = {
	.summary = summary,
};

/* A reader that combines statistic S_SUM over contexts its own way (as a
 * Cube metric's own aggr does): acc / 2 + x from 0, not commutative, so
 * both the order and the start at 0 show; the context ids it was given
 * are kept (a POSTDERIVED metric reads them). */
static uint32_t own_ctx[N_CTX + 1];
static size_t own_n;

static bool combine_contexts(void *impl, uint32_t stat, const uint32_t *ctx,
			     const double *vals, size_t n, double *out,
			     bool *present)
{
	(void)impl;
	if (stat != S_SUM)
		return false;
	double acc = 0;
	if (n) /* n = 0 asks whether */
		own_n = 0;
	for (size_t i = 0; i < n; i++) {
		acc = acc / 2 + vals[i];
		if (own_n <= N_CTX)
			own_ctx[own_n++] = ctx[i];
	}
	*out = acc;
	*present = n > 0;
	return true;
}

static const struct value_ops ops_own = {
	.summary = summary,
	.per_profile = per_profile,
	.combine_contexts = combine_contexts,
};

enum {
	C_SUM,    /* $sum */
	C_MIN,    /* $min */
	C_MAX,    /* $max */
	C_MEAN,   /* $sum / $count */
	C_SD,     /* sqrt($sumsq / $count - ($sum / $count)^2) */
	C_TWICE,  /* 2 * $sum - $sum / 2: linear */
	C_NOPROP, /* a min without per-thread values */
	C_MEAN_N, /* $sum / $const (N wherever there is a value) */
	C_PLUS1,  /* $sum + 1: a constant term */
	C_NONE,   /* no formula */
	N_COLS
};

static struct formula *leaf(uint32_t s)
{
	return formula_leaf(s);
}

static struct formula *op2(enum formula_op op, struct formula *a,
			   struct formula *b)
{
	struct formula **args = malloc(2 * sizeof(*args));
	assert_non_null(args);
	args[0] = a;
	args[1] = b;
	return formula_node(op, args, 2);
}

static struct formula *op1(enum formula_op op, struct formula *a)
{
	struct formula **args = malloc(sizeof(*args));
	assert_non_null(args);
	args[0] = a;
	return formula_node(op, args, 1);
}

static struct model *build(const struct value_ops *vo)
{
	struct model_builder *b = model_builder_new("fixture", "stat.db");
	struct error err = {0};
	static const char *const form[N_STATS] = {"$$", "$$", "$$", "1",
						   "($$^2)", "$$", "1"};
	static const uint8_t comb[N_STATS] = {COMBINE_SUM, COMBINE_MIN,
					      COMBINE_MAX, COMBINE_SUM,
					      COMBINE_SUM, COMBINE_MIN,
					      COMBINE_SUM};
	for (uint32_t s = 0; s < N_STATS; s++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, "T", 1),
			.scope = model_builder_intern(b, "execution", 9),
			.formula = model_builder_intern(b, form[s],
							strlen(form[s])),
			.combine = comb[s],
			.stat_id = s,
			.prop_id = s == S_NOPROP ? MODEL_NONE : 0,
			.flags = s == S_CONST ? STAT_CONSTANT : 0,
		};
		assert_int_equal(model_builder_add_stat(b, &st), s);
	}
	struct formula *f[N_COLS] = {
		[C_SUM] = leaf(S_SUM),
		[C_MIN] = leaf(S_MIN),
		[C_MAX] = leaf(S_MAX),
		[C_MEAN] = op2(FORMULA_DIV, leaf(S_SUM), leaf(S_COUNT)),
		[C_SD] = op1(FORMULA_SQRT,
			     op2(FORMULA_SUB,
				 op2(FORMULA_DIV, leaf(S_SUMSQ),
				     leaf(S_COUNT)),
				 op2(FORMULA_POW,
				     op2(FORMULA_DIV, leaf(S_SUM),
					 leaf(S_COUNT)),
				     formula_number(2)))),
		[C_TWICE] = op2(FORMULA_SUB,
				op2(FORMULA_MUL, formula_number(2),
				    leaf(S_SUM)),
				op2(FORMULA_DIV, leaf(S_SUM),
				    formula_number(2))),
		[C_NOPROP] = leaf(S_NOPROP),
		[C_MEAN_N] = op2(FORMULA_DIV, leaf(S_SUM), leaf(S_CONST)),
		[C_PLUS1] = op2(FORMULA_ADD, leaf(S_SUM), formula_number(1)),
		[C_NONE] = NULL,
	};
	for (uint32_t c = 0; c < N_COLS; c++) {
		struct model_column col = {
			.name = strdup("T"),
			.variant = strdup("x"),
			.format = strdup("%g"),
			.kind = COLUMN_INCLUSIVE,
			.render = RENDER_NUMBER,
			.visible = true,
			.pair = MODEL_NONE,
			.parent = MODEL_NONE,
			.expr = f[c],
		};
		assert_int_equal(model_builder_add_column(b, &col), c);
	}
	assert_int_equal(model_builder_add_profile(b, true, NULL, 0,
						   "summary"),
			 0);
	for (int t = 0; t < N_THR; t++)
		assert_int_equal(model_builder_add_profile(b, false, NULL, 0,
							   "thread"),
				 (uint32_t)t + 1);
	struct model_function fn = {
		.name = model_builder_intern(b, "f0", 2),
		.module = model_builder_intern(b, "/bin/app", 8),
		.file = model_builder_intern(b, "a.c", 3),
	};
	model_builder_add_function(b, &fn);
	struct model_node entry = {.ctx_id = 1, .kind = NODE_ENTRY,
				   .function = MODEL_NONE,
				   .name = model_builder_intern(b, "main", 4)};
	struct model_node f0 = {.kind = NODE_FUNCTION, .function = 0,
				.name = fn.name, .module = fn.module,
				.file = fn.file, .relation = RELATION_CALL};
	assert_int_equal(model_builder_add_node(b, 0, &entry), 1);
	f0.ctx_id = 2;
	assert_int_equal(model_builder_add_node(b, 1, &f0), 2);
	f0.ctx_id = 3;
	assert_int_equal(model_builder_add_node(b, 2, &f0), 3);
	f0.ctx_id = 4;
	assert_int_equal(model_builder_add_node(b, 1, &f0), 4);
	model_builder_set_values(b, vo, NULL);
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	return m;
}

static void test_rules(void **state)
{
	(void)state;
	struct model *m = build(&ops);
	assert_int_equal(view_column_rule(m, N_COLS), VIEW_RULE_BLANK);
	assert_int_equal(view_column_rule(m, C_NONE), VIEW_RULE_SUM);
	assert_int_equal(view_column_rule(m, C_SUM), VIEW_RULE_SUM);
	assert_int_equal(view_column_rule(m, C_TWICE), VIEW_RULE_SUM);
	assert_int_equal(view_column_rule(m, C_PLUS1), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_MIN), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_MEAN), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_SD), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_MEAN_N), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_NOPROP), VIEW_RULE_BLANK);
	model_free(m);
	/* without per-thread values: only what needs none */
	m = build(&ops_no_threads);
	assert_int_equal(view_column_rule(m, C_SUM), VIEW_RULE_SUM);
	assert_int_equal(view_column_rule(m, C_MIN), VIEW_RULE_BLANK);
	assert_int_equal(view_column_rule(m, C_SD), VIEW_RULE_BLANK);
	assert_int_equal(view_column_rule(m, C_MEAN_N), VIEW_RULE_LEAVES);
	model_free(m);
}

static uint32_t find_row(struct view *v, uint32_t parent, const char *label)
{
	uint32_t *kids = NULL;
	size_t n = 0;
	struct error err = {0};
	uint32_t found = MODEL_NONE;
	assert_int_equal(view_children(v, parent, C_SUM, false, &kids, &n,
				       &err),
			 STATUS_OK);
	for (size_t i = 0; i < n; i++) {
		char *l = view_node_label(v, kids[i]);
		if (strncmp(l, label, strlen(label)) == 0 &&
		    (l[strlen(label)] == '\0' || l[strlen(label)] == ' '))
			found = kids[i];
		free(l);
	}
	free(kids);
	assert_int_not_equal(found, MODEL_NONE);
	return found;
}

static void assert_cell(struct view *v, uint32_t row, uint32_t col,
			double want)
{
	double x = -1;
	if (isnan(want)) {
		assert_false(view_value(v, row, col, &x));
		return;
	}
	assert_true(view_value(v, row, col, &x));
	assert_true(fabs(x - want) <= 1e-12 * fabs(want));
}

/* The f0 row counts contexts 2 and 4 (3 is inside 2): per thread 10, 20,
 * 30.  Summing the contexts' statistics would give Min 10 + 30 = 40 >
 * Mean 60 / 3 = 20. */
static void check_f0(struct view *v, uint32_t row)
{
	assert_cell(v, row, C_SUM, 60);
	assert_cell(v, row, C_MIN, 10);
	assert_cell(v, row, C_MAX, 30);
	assert_cell(v, row, C_MEAN, 20);
	/* sqrt((100 + 400 + 900) / 3 - 20^2) */
	assert_cell(v, row, C_SD, sqrt(1400.0 / 3 - 400));
	assert_cell(v, row, C_TWICE, 2 * 60 - 60 / 2.0);
	assert_cell(v, row, C_PLUS1, 61);
	assert_cell(v, row, C_NOPROP, NAN);
	assert_cell(v, row, C_MEAN_N, 60.0 / N_THR);
	assert_cell(v, row, C_NONE, NAN);
}

static void test_bottom_up(void **state)
{
	(void)state;
	struct model *m = build(&ops);
	struct view *v = view_of(m, VIEW_BOTTOM_UP);
	uint32_t f0 = find_row(v, view_root(v), "f0");
	reads = 0;
	check_f0(v, f0);
	/* one read per counted context, kept for the columns after the
	 * first (Min, Max, Mean, StdDev, Mean over N share them) */
	assert_int_equal(reads, 2);
	/* the root shows the model's own values */
	assert_cell(v, view_root(v), C_MIN, 14);
	/* a caller row: the recursive instance [f0, f0] has no inclusive
	 * value (its instance has an ancestor of f0) */
	uint32_t rec = find_row(v, f0, "f0");
	assert_cell(v, rec, C_SUM, NAN);
	assert_cell(v, rec, C_MIN, NAN);
	uint32_t by_main = find_row(v, f0, "main");
	check_f0(v, by_main);
	view_free(v);
	model_free(m);
}

static void test_flat(void **state)
{
	(void)state;
	struct model *m = build(&ops);
	struct view *v = view_of(m, VIEW_FLAT);
	uint32_t mod = find_row(v, view_root(v), "/bin/app");
	check_f0(v, mod);
	uint32_t file = find_row(v, mod, "a.c");
	check_f0(v, file);
	check_f0(v, find_row(v, file, "f0"));
	view_free(v);
	model_free(m);
	/* without per-thread values: blank, not a sum */
	m = build(&ops_no_threads);
	v = view_of(m, VIEW_FLAT);
	mod = find_row(v, view_root(v), "/bin/app");
	assert_cell(v, mod, C_SUM, 60);
	assert_cell(v, mod, C_MIN, NAN);
	assert_cell(v, mod, C_SD, NAN);
	assert_cell(v, mod, C_MEAN_N, 60.0 / N_THR);
	view_free(v);
	model_free(m);
}

/* A statistic the reader combines its own way (model_combine_contexts):
 * no Sum any more, its rows are what the reader makes of the counted
 * contexts (here a fold of their values, f0: contexts 2 and 4, each 30:
 * 0 / 2 + 30, then 30 / 2 + 30 = 45, not 60); the other statistics keep
 * their rules and values. */
static void test_own(void **state)
{
	(void)state;
	struct model *m = build(&ops_own);
	struct view *v = NULL;
	struct error err = {0};
	own_n = 0;
	assert_int_equal(view_column_rule(m, C_SUM), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_TWICE), VIEW_RULE_LEAVES);
	assert_int_equal(view_column_rule(m, C_MIN), VIEW_RULE_LEAVES);
	assert_false(view_column_adds_up(m, C_SUM));
	for (int kind = 0; kind < 2; kind++) {
		assert_int_equal(view_new(m, kind ? VIEW_FLAT : VIEW_BOTTOM_UP,
					  &v, &err),
				 STATUS_OK);
		uint32_t f0 = kind ? find_row(v, find_row(v, find_row(
						v, view_root(v), "/bin/app"),
						"a.c"), "f0")
				   : find_row(v, view_root(v), "f0");
		assert_cell(v, f0, C_SUM, 45);
		/* handed the contexts 2 and 4 (3 is inside 2), when the row
		 * was sorted or now */
		assert_int_equal(own_n, 2);
		assert_int_equal(own_ctx[0], 2);
		assert_int_equal(own_ctx[1], 4);
		assert_cell(v, f0, C_TWICE, 2 * 45 - 45 / 2.0);
		assert_cell(v, f0, C_MIN, 10);
		assert_cell(v, f0, C_MAX, 30);
		/* f0 called by main: contexts 2 and 4 again */
		if (!kind)
			assert_cell(v, find_row(v, f0, "main"), C_SUM, 45);
		view_free(v);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_bottom_up),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
