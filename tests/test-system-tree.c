/* Tests of the system tree (src/views/system_tree.c): degenerate inputs
 * first (no profiles, only a summary profile, one profile without a
 * tuple), then tuples of mixed lengths whose tree, group sums, minima and
 * maxima and visible rows are written out by hand, then a generated
 * NODE > RANK > THREAD fixture (profiles added in scrambled order) whose
 * group values are recomputed here from the tuples directly; and groups
 * labelled by their elements' names. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/model_build.h"
#include "views/system_tree.h"
#include "build_fixture.h"

struct fx_profile {
	bool summary;
	uint32_t n;
	const char *kind[3];
	uint32_t id[3];
};

static struct model *build(const struct fx_profile *p, uint32_t n)
{
	struct model_builder *b = model_builder_new("test", "fixture");
	for (uint32_t i = 0; i < n; i++) {
		struct model_id ids[3];
		for (uint32_t k = 0; k < p[i].n; k++)
			ids[k] = (struct model_id){
				.kind_name = model_builder_intern(
					b, p[i].kind[k], strlen(p[i].kind[k])),
				.kind = (uint8_t)(k + 1),
				.logical_id = p[i].id[k],
				.physical_id = p[i].id[k],
			};
		char label[32];
		snprintf(label, sizeof(label), "P%u", i);
		model_builder_add_profile(b, p[i].summary, ids, p[i].n, label);
	}
	struct error err = {0};
	struct model *m = model_builder_finish(b, &err);
	if (!m)
		abort();
	return m;
}

static void test_empty(void **state)
{
	(void)state;
	struct model *m = build(NULL, 0);
	struct systree t;
	struct error err = {0};
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.n_leaves, 0);
	uint32_t rows[1];
	assert_int_equal(systree_visible(&t, NULL, NULL, false, rows), 0);
	systree_free(&t);
	model_free(m);

	/* a summary profile is no context */
	struct fx_profile only_summary = {.summary = true};
	m = build(&only_summary, 1);
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n, 0);
	systree_free(&t);
	model_free(m);
}

static void test_one_profile(void **state)
{
	(void)state;
	struct fx_profile one = {.n = 0};
	struct model *m = build(&one, 1);
	struct systree t;
	struct error err = {0};
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.n_groups, 0);
	assert_int_equal(t.nodes[0].profile, 0);
	assert_int_equal(t.nodes[0].parent, SYSTREE_NONE);
	assert_int_equal(t.nodes[0].n_leaves, 1);
	double v = 7.5, out = 0;
	systree_aggregate(&t, &v, 1, COMBINE_SUM, &out);
	assert_true(out == 7.5);
	/* a profile index past the values reads 0 */
	systree_aggregate(&t, &v, 0, COMBINE_SUM, &out);
	assert_true(out == 0);
	char *s = systree_label(m, &t, 0);
	assert_string_equal(s, "P0");
	free(s);
	assert_int_equal(systree_leaf_of(&t, 0), 0);
	assert_int_equal(systree_leaf_of(&t, 1), SYSTREE_NONE);
	systree_free(&t);
	model_free(m);
}

/* P0 no tuple; P1 (RANK 1, THREAD 0); P2 (RANK 0, THREAD 1);
 * P3 (RANK 0, THREAD 0); P4 (RANK 1); P5 summary.  Tuple order:
 * P0 | RANK 0 { P3, P2 } | P4 | RANK 1 { P1 }. */
static const struct fx_profile mixed[] = {
	{.n = 0},
	{.n = 2, .kind = {"RANK", "THREAD"}, .id = {1, 0}},
	{.n = 2, .kind = {"RANK", "THREAD"}, .id = {0, 1}},
	{.n = 2, .kind = {"RANK", "THREAD"}, .id = {0, 0}},
	{.n = 1, .kind = {"RANK"}, .id = {1}},
	{.summary = true},
};

static void test_mixed(void **state)
{
	(void)state;
	struct model *m = build(mixed, 6);
	struct systree t;
	struct error err = {0};
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n, 7);
	assert_int_equal(t.n_leaves, 5);
	assert_int_equal(t.n_groups, 2);
	static const uint32_t profile[7] = {0, SYSTREE_NONE, 3, 2, 4,
					    SYSTREE_NONE, 1};
	static const uint32_t parent[7] = {SYSTREE_NONE, SYSTREE_NONE, 1, 1,
					   SYSTREE_NONE, SYSTREE_NONE, 5};
	static const uint32_t level[7] = {0, 0, 1, 1, 0, 0, 1};
	static const uint32_t leaves[7] = {1, 2, 1, 1, 1, 1, 1};
	for (uint32_t i = 0; i < 7; i++) {
		assert_int_equal(t.nodes[i].profile, profile[i]);
		assert_int_equal(t.nodes[i].parent, parent[i]);
		assert_int_equal(t.nodes[i].level, level[i]);
		assert_int_equal(t.nodes[i].n_leaves, leaves[i]);
	}
	char *s = systree_label(m, &t, 1);
	assert_string_equal(s, "RANK 0");
	free(s);
	s = systree_label(m, &t, 5);
	assert_string_equal(s, "RANK 1");
	free(s);
	s = systree_label(m, &t, 3);
	assert_string_equal(s, "P2");
	free(s);

	double by_profile[6] = {1, 10, 20, 30, 40, 99};
	double v[7];
	systree_aggregate(&t, by_profile, 6, COMBINE_SUM, v);
	static const double sum[7] = {1, 50, 30, 20, 40, 10, 10};
	for (uint32_t i = 0; i < 7; i++)
		assert_true(v[i] == sum[i]);
	double mn[7], mx[7];
	systree_aggregate(&t, by_profile, 6, COMBINE_MIN, mn);
	systree_aggregate(&t, by_profile, 6, COMBINE_MAX, mx);
	assert_true(mn[1] == 20 && mx[1] == 30);
	assert_true(mn[5] == 10 && mx[5] == 10);

	uint32_t rows[7];
	/* collapsed, tuple order */
	size_t n = systree_visible(&t, NULL, v, false, rows);
	assert_int_equal(n, 4);
	static const uint32_t top[4] = {0, 1, 4, 5};
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i], top[i]);
	/* by value: 50, 40, 10, 1 */
	n = systree_visible(&t, NULL, v, true, rows);
	static const uint32_t top_v[4] = {1, 4, 5, 0};
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i], top_v[i]);
	/* RANK 0 expanded, by value: its threads 30, 20 below it */
	uint8_t exp[7] = {0, 1, 0, 0, 0, 0, 0};
	n = systree_visible(&t, exp, v, true, rows);
	static const uint32_t open_v[6] = {1, 2, 3, 4, 5, 0};
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i], open_v[i]);
	/* rows without a value (NaN: SCALE_FUNC codes of groups) after the
	 * others, in tuple order: 50, 10, then P0 and P4 */
	double nv[7];
	memcpy(nv, v, sizeof(nv));
	nv[0] = nv[4] = NAN;
	n = systree_visible(&t, NULL, nv, true, rows);
	static const uint32_t top_nan[4] = {1, 5, 0, 4};
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i], top_nan[i]);
	/* everything expanded, tuple order: preorder itself */
	memset(exp, 1, sizeof(exp));
	n = systree_visible(&t, exp, v, false, rows);
	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(rows[i], i);
	systree_free(&t);
	model_free(m);
}

/* 2 nodes x 3 ranks x 2 threads, added in a scrambled order, value of
 * profile p = (p + 1) * 1.25: each group's sum, min and max recomputed
 * from the tuples. */
static void test_three_levels(void **state)
{
	(void)state;
	enum { N = 12 };
	struct fx_profile p[N];
	for (uint32_t i = 0; i < N; i++) {
		uint32_t k = (i * 7) % N; /* scramble: 7 is prime to 12 */
		p[i] = (struct fx_profile){
			.n = 3,
			.kind = {"NODE", "RANK", "THREAD"},
			.id = {k / 6, k / 2, k % 2},
		};
	}
	struct model *m = build(p, N);
	struct systree t;
	struct error err = {0};
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n_leaves, N);
	assert_int_equal(t.n_groups, 2 + 6);
	assert_int_equal(t.n, N + 8);
	double by_profile[N];
	for (uint32_t i = 0; i < N; i++)
		by_profile[i] = (i + 1) * 1.25;
	double *v = malloc(t.n * sizeof(*v));
	double *mx = malloc(t.n * sizeof(*mx));
	assert_non_null(v);
	assert_non_null(mx);
	systree_aggregate(&t, by_profile, N, COMBINE_SUM, v);
	systree_aggregate(&t, by_profile, N, COMBINE_MAX, mx);
	uint32_t checked = 0;
	for (uint32_t i = 0; i < t.n; i++) {
		const struct systree_node *nd = &t.nodes[i];
		if (nd->profile != SYSTREE_NONE) {
			assert_true(v[i] == by_profile[nd->profile]);
			assert_int_equal(nd->level, 2);
			continue;
		}
		const struct model_id *id = &model_ids(m)[nd->id];
		/* the group's profiles: those whose tuple holds this id at
		 * this level and the group's ancestors' above it */
		double s = 0, x = 0;
		uint32_t count = 0;
		for (uint32_t q = 0; q < N; q++) {
			bool in = p[q].id[nd->level] == id->logical_id;
			if (nd->level == 1)
				in = in && p[q].id[0] ==
					   model_ids(m)[t.nodes[nd->parent].id]
						   .logical_id;
			if (!in)
				continue;
			s += by_profile[q];
			x = by_profile[q] > x ? by_profile[q] : x;
			count++;
		}
		assert_int_equal(count, nd->level == 0 ? 6 : 2);
		assert_int_equal(nd->n_leaves, count);
		assert_true(v[i] == s);
		assert_true(mx[i] == x);
		checked++;
	}
	assert_int_equal(checked, 8);
	/* the top holds the two nodes, NODE 0 first in tuple order */
	uint32_t rows[N + 8];
	size_t n = systree_visible(&t, NULL, v, false, rows);
	assert_int_equal(n, 2);
	char *s = systree_label(m, &t, rows[0]);
	assert_string_equal(s, "NODE 0");
	free(s);
	free(v);
	free(mx);
	systree_free(&t);
	model_free(m);
}

/* Named tuple elements: a group reads as its element's name (the first
 * context's, in tuple order), a blank name ("", spaces) as KIND id; the
 * name never splits a group (two names, one RANK 0). */
static void test_names(void **state)
{
	(void)state;
	static const char *const name[4][2] = {
		{"MPI Rank 0", "Master thread"}, /* RANK 0 */
		{"other name", "thread 1"},      /* RANK 0 again */
		{"  ", "t"},                     /* RANK 1: blank */
		{"", ""},                        /* RANK 2: none */
	};
	static const uint32_t rank[4] = {0, 0, 1, 2};
	struct model_builder *b = model_builder_new("test", "fixture");
	for (uint32_t i = 0; i < 4; i++) {
		struct model_id ids[2];
		for (uint32_t k = 0; k < 2; k++)
			ids[k] = (struct model_id){
				.kind_name = model_builder_intern(
					b, k ? "THREAD" : "RANK", k ? 6 : 4),
				.kind = (uint8_t)(k + 1),
				.logical_id = k ? i : rank[i],
				.name = model_builder_intern(
					b, name[i][k], strlen(name[i][k])),
			};
		model_builder_add_profile(b, false, ids, 2, NULL);
	}
	struct model *m = fixture_finish(b);
	struct error err = {0};
	struct systree t;
	assert_int_equal(systree_build(m, &t, &err), STATUS_OK);
	assert_int_equal(t.n_groups, 3);
	/* preorder: RANK 0 {P0, P1}, RANK 1 {P2}, RANK 2 {P3} */
	static const char *const want[7] = {
		"MPI Rank 0", "RANK 0 THREAD 0", "RANK 0 THREAD 1", "RANK 1",
		"RANK 1 THREAD 2", "RANK 2", "RANK 2 THREAD 3"};
	assert_int_equal(t.n, 7);
	for (uint32_t i = 0; i < 7; i++) {
		char *l = systree_label(m, &t, i);
		assert_string_equal(l, want[i]);
		free(l);
	}
	assert_int_equal(t.nodes[0].n_leaves, 2);
	systree_free(&t);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_one_profile),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_three_levels),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
