/* Tests of the call tree over part of the system (src/views/system_focus.c):
 * degenerate inputs first (an empty focus, summary and out-of-range
 * profiles left out, a database without per-profile values, a statistic
 * without them, a node out of range), then a generated model of 300
 * contexts and 5 threads whose per-thread values follow a formula: each
 * focus value recomputed here as the sum, min or max over the focus's
 * threads (0 for a thread without a value), and read once per node and
 * statistic (the table grows past its first size on the way); last, a
 * reader that combines a statistic's profiles its own way (a Cube
 * metric's own aggr), whose fold the focus takes. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/model_build.h"
#include "views/system_focus.h"
#include "build_fixture.h"

enum { N_THR = 5, N_NODES = 300, S_SUM = 0, S_MIN, S_MAX, S_NOPROP, N_STATS };

static int reads;

/* thread t's value at context ctx (0: none) */
static double thr(uint32_t ctx, uint32_t t)
{
	return (double)((ctx * 7 + t * 3) % 11);
}

static enum status per_profile(void *impl, uint32_t ctx, uint32_t prop,
			       struct profile_value **out, size_t *n,
			       struct error *err)
{
	(void)impl;
	(void)err;
	(void)prop;
	reads++;
	*n = 0;
	*out = calloc(N_THR, sizeof(**out));
	assert_non_null(*out);
	for (uint32_t t = 0; t < N_THR; t++)
		if (thr(ctx, t) != 0)
			(*out)[(*n)++] = (struct profile_value){t + 1,
								thr(ctx, t)};
	return STATUS_OK;
}

static bool summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	(void)impl;
	(void)ctx;
	(void)stat;
	*out = 0;
	return false;
}

static const struct value_ops ops = {
	.summary = summary,
	.per_profile = per_profile,
};

static const struct value_ops ops_none = {
	.summary = summary,
};

/* A reader that combines S_SUM's profiles its own way (as a Cube metric's
 * own aggr): acc / 2 + x from 0, in profile order. */
static bool combine_profiles(void *impl, uint32_t stat, const double *vals,
			     size_t n, double *out)
{
	(void)impl;
	if (stat != S_SUM)
		return false;
	double acc = 0;
	for (size_t i = 0; i < n; i++)
		acc = acc / 2 + vals[i];
	*out = acc;
	return true;
}

static const struct value_ops ops_own = {
	.summary = summary,
	.per_profile = per_profile,
	.combine_profiles = combine_profiles,
};

static struct model *build(const struct value_ops *vo)
{
	struct model_builder *b = model_builder_new("fixture", "focus.db");
	static const uint8_t comb[N_STATS] = {COMBINE_SUM, COMBINE_MIN,
					      COMBINE_MAX, COMBINE_SUM};
	for (uint32_t s = 0; s < N_STATS; s++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, "T", 1),
			.scope = model_builder_intern(b, "execution", 9),
			.formula = model_builder_intern(b, "$$", 2),
			.combine = comb[s],
			.stat_id = s,
			.prop_id = s == S_NOPROP ? MODEL_NONE : 0,
		};
		model_builder_add_stat(b, &st);
	}
	model_builder_add_profile(b, true, NULL, 0, "summary");
	for (uint32_t t = 0; t < N_THR; t++)
		model_builder_add_profile(b, false, NULL, 0, "thread");
	for (uint32_t i = 1; i < N_NODES; i++) {
		struct model_node nd = {
			.ctx_id = i,
			.kind = NODE_FUNCTION,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, "f", 1),
			.relation = RELATION_CALL,
		};
		assert_int_equal(model_builder_add_node(b, 0, &nd), i);
	}
	model_builder_set_values(b, vo, NULL);
	return fixture_finish(b);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct model *m = build(&ops);
	struct error err = {0};
	double v = -1;
	bool present = true;
	/* nothing in it: every value absent */
	struct system_focus *f = system_focus_new(m, NULL, 0, "none");
	assert_non_null(f);
	assert_int_equal(system_focus_count(f), 0);
	assert_string_equal(system_focus_label(f), "none");
	assert_int_equal(system_focus_value(f, 3, S_SUM, &v, &present, &err),
			 STATUS_OK);
	assert_false(present);
	assert_true(v == 0);
	/* a node or statistic out of range */
	assert_int_equal(system_focus_value(f, N_NODES, S_SUM, &v, &present,
					    &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(system_focus_value(f, 1, N_STATS, &v, &present,
					    &err),
			 STATUS_USAGE);
	error_clear(&err);
	/* a statistic without per-profile values */
	assert_int_equal(system_focus_value(f, 1, S_NOPROP, &v, &present,
					    &err),
			 STATUS_UNSUPPORTED);
	error_clear(&err);
	system_focus_free(f);
	/* the summary profile, one out of range and a repeat are left out */
	const uint32_t odd[] = {0, 99, 2, 2};
	f = system_focus_new(m, odd, 4, "t1");
	assert_int_equal(system_focus_count(f), 1);
	assert_true(system_focus_has(f, 2));
	assert_false(system_focus_has(f, 0));
	assert_false(system_focus_has(f, 99));
	system_focus_free(f);
	model_free(m);

	/* a database without per-profile values */
	m = build(&ops_none);
	const uint32_t one[] = {1};
	f = system_focus_new(m, one, 1, "t0");
	assert_int_equal(system_focus_value(f, 1, S_SUM, &v, &present, &err),
			 STATUS_UNSUPPORTED);
	error_clear(&err);
	system_focus_free(f);
	model_free(m);
}

static void test_values(void **state)
{
	(void)state;
	struct model *m = build(&ops);
	struct error err = {0};
	/* threads 0, 2 and 3 (profiles 1, 3, 4) */
	const uint32_t part[] = {1, 3, 4};
	const uint32_t threads[] = {0, 2, 3};
	struct system_focus *f = system_focus_new(m, part, 3, "RANK 0");
	reads = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t node = 0; node < N_NODES; node++)
			for (uint32_t s = S_SUM; s <= S_MAX; s++) {
				uint32_t ctx = model_nodes(m)[node].ctx_id;
				double sum = 0, mn = 0, mx = 0;
				bool any = false;
				for (int k = 0; k < 3; k++) {
					double x = thr(ctx, threads[k]);
					sum += x;
					mn = k == 0 || x < mn ? x : mn;
					mx = k == 0 || x > mx ? x : mx;
					any |= x != 0;
				}
				double want = s == S_SUM   ? sum
					      : s == S_MIN ? mn
							   : mx;
				double v = -1;
				bool present = false;
				assert_int_equal(system_focus_value(f, node, s,
								    &v,
								    &present,
								    &err),
						 STATUS_OK);
				assert_true(present == any);
				assert_true(v == want);
			}
	/* once per node and statistic: the second pass read nothing */
	assert_int_equal(reads, N_NODES * 3);
	system_focus_free(f);
	model_free(m);
}

/* The reader's own combination: every thread of the focus in profile
 * order, 0 for one without a value, folded by it; MIN keeps its rule. */
static void test_own(void **state)
{
	(void)state;
	struct model *m = build(&ops_own);
	struct error err = {0};
	const uint32_t part[] = {4, 1, 3}; /* threads 3, 0, 2: kept in order */
	const uint32_t threads[] = {0, 2, 3};
	struct system_focus *f = system_focus_new(m, part, 3, "RANK 0");
	for (uint32_t node = 0; node < N_NODES; node++) {
		uint32_t ctx = model_nodes(m)[node].ctx_id;
		double acc = 0, mn = 0;
		bool any = false;
		for (int k = 0; k < 3; k++) {
			double x = thr(ctx, threads[k]);
			acc = acc / 2 + x;
			mn = k == 0 || x < mn ? x : mn;
			any |= x != 0;
		}
		double v = -1;
		bool present = false;
		assert_int_equal(system_focus_value(f, node, S_SUM, &v,
						    &present, &err),
				 STATUS_OK);
		assert_true(present == any);
		if (any)
			assert_true(v == acc);
		assert_int_equal(system_focus_value(f, node, S_MIN, &v,
						    &present, &err),
				 STATUS_OK);
		assert_true(v == mn);
	}
	system_focus_free(f);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_own),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
