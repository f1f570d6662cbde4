/* Tests of the measurements of parametric sets (model_measures.c):
 * measure_stats_of on degenerate inputs first (no values, one value, NaN,
 * equal values, even and odd medians), then means of random vectors of
 * every length up to 1000 compared with a pairwise-summation reference
 * written here from numpy's description; then the builder: measured
 * metrics, measurements replaced by a second call, lookups of absent
 * triples, stored model sets (ownership of the terms). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/measure_stats.h"
#include "model/model.h"
#include "model/scaling.h"
#include "measure_fixture.h"

static void test_degenerate(void **state)
{
	(void)state;
	struct model_measure m;
	struct error err = {0};
	double v1 = 3.5;
	assert_int_equal(measure_stats_of(&v1, 0, &m, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(measure_stats_of(&v1, 1, &m, NULL), STATUS_OK);
	assert_true(m.mean == 3.5 && m.median == 3.5 && m.minimum == 3.5 &&
		    m.maximum == 3.5 && m.std == 0 && m.repetitions == 1);
	double nan3[3] = {1, (double)NAN, 2};
	assert_int_equal(measure_stats_of(nan3, 3, &m, NULL), STATUS_OK);
	assert_true(isnan(m.mean) && isnan(m.median) && isnan(m.std) &&
		    isnan(m.minimum) && isnan(m.maximum));
	assert_int_equal(m.repetitions, 3);
	double eq[5] = {0.1, 0.1, 0.1, 0.1, 0.1};
	assert_int_equal(measure_stats_of(eq, 5, &m, NULL), STATUS_OK);
	assert_true(m.median == 0.1 && m.minimum == 0.1 && m.maximum == 0.1);
	assert_true(m.mean == ref_sum(eq, 5) / 5);
	double odd[5] = {5, 1, 4, 2, 3};
	assert_int_equal(measure_stats_of(odd, 5, &m, NULL), STATUS_OK);
	assert_true(m.median == 3 && m.minimum == 1 && m.maximum == 5);
	assert_true(m.mean == 3 && m.std == sqrt(2.0));
	double even[4] = {4, 1, 3, 2};
	assert_int_equal(measure_stats_of(even, 4, &m, NULL), STATUS_OK);
	assert_true(m.median == 2.5 && m.mean == 2.5);
	assert_true(model_measure_get(&m, MEASURE_MEDIAN) == 2.5);
	assert_true(model_measure_get(&m, MEASURE_MINIMUM) == 1);
	assert_true(model_measure_get(&m, MEASURE_MAXIMUM) == 4);
	assert_true(isnan(model_measure_get(NULL, MEASURE_MEAN)));
	/* the statistics' names, both ways (min and max accepted) */
	enum measure_kind k = MEASURE_MEAN;
	for (int i = MEASURE_MEAN; i <= MEASURE_MAXIMUM; i++) {
		assert_true(model_measure_parse(
		    model_measure_name((enum measure_kind)i), &k));
		assert_int_equal(k, i);
	}
	assert_string_equal(model_measure_name(MEASURE_MEDIAN), "median");
	assert_string_equal(model_measure_name((enum measure_kind)9), "");
	assert_true(model_measure_parse("min", &k) && k == MEASURE_MINIMUM);
	assert_true(model_measure_parse("max", &k) && k == MEASURE_MAXIMUM);
	assert_false(model_measure_parse("", &k));
	assert_false(model_measure_parse("Mean", &k));
	assert_false(model_measure_parse("mode", &k));
	assert_int_equal(k, MEASURE_MAXIMUM); /* unchanged */
}

static void test_pairwise(void **state)
{
	(void)state;
	srand(17);
	double *v = malloc(1000 * sizeof(*v)), *d = malloc(1000 * sizeof(*d));
	assert_non_null(v);
	assert_non_null(d);
	for (size_t n = 1; n <= 1000; n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = (double)rand() / RAND_MAX * 1e3 +
			       (double)rand() / RAND_MAX * 1e-9;
		struct model_measure m;
		assert_int_equal(measure_stats_of(v, n, &m, NULL), STATUS_OK);
		double mean = ref_sum(v, n) / (double)n;
		assert_true(m.mean == mean);
		for (size_t i = 0; i < n; i++)
			d[i] = (v[i] - mean) * (v[i] - mean);
		assert_true(m.std == sqrt(ref_sum(d, n) / (double)n));
	}
	free(v);
	free(d);
}

static void test_builder(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	assert_int_equal(model_builder_add_measured(b, 0), MODEL_NONE);
	add_time_measured(b);
	assert_int_equal(model_builder_add_param(b, "p"), 0);
	double c0 = 1, c1 = 2;
	assert_int_equal(model_builder_add_point(b, &c0, 1), 0);
	assert_int_equal(model_builder_add_point(b, &c1, 1), 1);
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_REGION};
	assert_int_equal(model_builder_add_node(b, 0, &n), 1);
	struct model_measure a = {.mean = 1, .repetitions = 1};
	struct model_measure a2 = {.mean = 2, .repetitions = 2};
	assert_false(model_builder_set_measure(b, 2, 0, 0, &a));
	assert_false(model_builder_set_measure(b, 1, 1, 0, &a));
	assert_false(model_builder_set_measure(b, 1, 0, 2, &a));
	assert_true(model_builder_set_measure(b, 1, 0, 1, &a));
	assert_true(model_builder_set_measure(b, 1, 0, 0, &a));
	assert_true(model_builder_set_measure(b, 1, 0, 1, &a2));
	uint32_t set = model_builder_add_stored_set(b, "mean");
	assert_int_equal(set, 0);
	struct scaling_model sm = {.kind = SCALING_SINGLE, .constant = 1,
				   .n_terms = 1};
	sm.terms = calloc(1, sizeof(*sm.terms));
	sm.terms[0].coefficient = 2;
	assert_true(model_builder_set_stored_model(b, 0, 1, 0, &sm));
	assert_null(sm.terms);
	sm.terms = calloc(1, sizeof(*sm.terms));
	sm.n_terms = 1;
	assert_false(model_builder_set_stored_model(b, 1, 1, 0, &sm));
	assert_null(sm.terms);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	assert_int_equal(model_n_measured(m), 1);
	assert_int_equal(model_measured_column(m, 0), 0);
	assert_int_equal(model_measured_column(m, 1), MODEL_NONE);
	const struct model_measure *got = model_measure_at(m, 1, 0, 1);
	assert_non_null(got);
	assert_true(got->mean == 2 && got->repetitions == 2);
	assert_non_null(model_measure_at(m, 1, 0, 0));
	assert_null(model_measure_at(m, 0, 0, 0));
	assert_null(model_measure_at(m, 1, 1, 0));
	assert_int_equal(model_n_stored_sets(m), 1);
	assert_string_equal(model_stored_set_name(m, 0), "mean");
	assert_null(model_stored_set_name(m, 1));
	assert_int_equal(model_stored_set_find(m, "mean"), 0);
	assert_int_equal(model_stored_set_find(m, "0"), 0);
	assert_int_equal(model_stored_set_find(m, "1"), MODEL_NONE);
	assert_int_equal(model_stored_set_find(m, "-0"), MODEL_NONE);
	assert_int_equal(model_stored_set_find(m, " 0"), MODEL_NONE);
	assert_int_equal(model_stored_set_find(m, "0x"), MODEL_NONE);
	assert_int_equal(model_stored_set_find(m, ""), MODEL_NONE);
	const struct scaling_model *st = model_stored_model(m, 0, 1, 0);
	assert_non_null(st);
	assert_true(st->terms[0].coefficient == 2);
	assert_null(model_stored_model(m, 0, 0, 0));
	model_free(m);
	/* a model without measurements */
	b = model_builder_new("test", "mem");
	m = model_builder_finish(b, NULL);
	assert_int_equal(model_n_measured(m), 0);
	assert_null(model_measure_at(m, 0, 0, 0));
	assert_int_equal(model_n_stored_sets(m), 0);
	assert_int_equal(model_stored_set_find(m, "0"), MODEL_NONE);
	model_free(m);
}

/* model_measure_by_index / model_stored_model_by_index against the
 * searches: every (node, measured, point) once, in that order, the last
 * of repeated calls kept; model_measure_series and, with the call order
 * kept, model_measure_in_order against the calls (a measurement's mean is
 * its call's number, so a series in call order has increasing means, each
 * point once); and the columns' pairs against the definition
 * (the first other column, by index, with the same name and variant and
 * another kind). */
static void test_walk(void **state)
{
	(void)state;
	assert_int_equal(model_n_measures(NULL), 0);
	assert_null(model_measure_by_index(NULL, 0, NULL, NULL, NULL));
	assert_int_equal(model_n_stored_models(NULL), 0);
	assert_null(model_stored_model_by_index(NULL, 0, NULL, NULL, NULL));
	enum { NODES = 40, MEASURED = 3, POINTS = 5, COLS = 9 };
	struct model_builder *b = model_builder_new("test", "mem");
	assert_non_null(b);
	static const char *const names[COLS] = {"a", "b", "a", "c", "a",
						"b", "c", "c", "d"};
	static const uint8_t kinds[COLS] = {0, 0, 0, 1, 1, 1, 1, 0, 1};
	for (uint32_t i = 0; i < COLS; i++) {
		struct model_column col = {.name = strdup(names[i]),
					   .variant = strdup(""),
					   .format = strdup("%g"),
					   .kind = kinds[i],
					   .pair = MODEL_NONE,
					   .parent = MODEL_NONE};
		assert_int_equal(model_builder_add_column(b, &col), i);
	}
	for (uint32_t k = 0; k < MEASURED; k++)
		assert_int_equal(model_builder_add_measured(b, k), k);
	assert_int_equal(model_builder_add_param(b, "p"), 0);
	for (uint32_t p = 0; p < POINTS; p++) {
		double c = p + 1;
		assert_int_equal(model_builder_add_point(b, &c, 1), p);
	}
	for (uint32_t i = 1; i < NODES; i++) {
		struct model_node n = {.function = MODEL_NONE,
				       .kind = NODE_REGION};
		assert_int_equal(model_builder_add_node(b, 0, &n), i);
	}
	model_builder_keep_measure_order(b);
	/* a scrambled order, about two in three present, some twice */
	uint32_t x = 12345;
	for (uint32_t r = 0; r < 2 * NODES * MEASURED * POINTS; r++) {
		x = x * 1103515245u + 12345u;
		uint32_t v = (x >> 8) % (NODES * MEASURED * POINTS);
		struct model_measure ms = {.mean = r, .repetitions = 1};
		assert_true(model_builder_set_measure(
			b, v / (MEASURED * POINTS), (v / POINTS) % MEASURED,
			v % POINTS, &ms));
		if (r % 7 == 0) {
			struct scaling_model sm = {.kind = SCALING_CONSTANT,
						   .constant = r};
			if (r % 14 == 0)
				assert_int_equal(
					model_builder_add_stored_set(b, "s"),
					r / 14);
			assert_true(model_builder_set_stored_model(
				b, (r / 14) % 3, v / (MEASURED * POINTS),
				(v / POINTS) % MEASURED, &sm));
		}
	}
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	size_t i = 0;
	for (uint32_t n = 0; n < NODES; n++)
		for (uint32_t k = 0; k < MEASURED; k++)
			for (uint32_t p = 0; p < POINTS; p++) {
				const struct model_measure *at =
					model_measure_at(m, n, k, p);
				if (!at)
					continue;
				uint32_t gn, gk, gp;
				const struct model_measure *w =
					model_measure_by_index(m, i++, &gn, &gk,
							       &gp);
				assert_ptr_equal(w, at);
				assert_true(gn == n && gk == k && gp == p);
			}
	assert_int_equal(model_n_measures(m), i);
	assert_null(model_measure_by_index(m, i, NULL, NULL, NULL));
	bool permuted = false;
	for (uint32_t n = 0; n < NODES; n++)
		for (uint32_t k = 0; k < MEASURED; k++) {
			size_t first, count = 0, got;
			for (uint32_t p = 0; p < POINTS; p++)
				count += model_measure_at(m, n, k, p) != NULL;
			got = model_measure_series(m, n, k, &first);
			assert_int_equal(got, count);
			bool seen[POINTS] = {false};
			double last = -1;
			for (size_t j = 0; j < count; j++) {
				size_t at = model_measure_in_order(m, first, j);
				uint32_t gn, gk, gp;
				const struct model_measure *w =
					model_measure_by_index(m, at, &gn, &gk,
							       &gp);
				assert_non_null(w);
				assert_true(gn == n && gk == k && !seen[gp]);
				seen[gp] = true;
				assert_true(w->mean > last);
				last = w->mean;
				permuted |= at != first + j;
			}
		}
	assert_true(permuted);
	i = 0;
	for (uint32_t set = 0; set < model_n_stored_sets(m); set++)
		for (uint32_t n = 0; n < NODES; n++)
			for (uint32_t k = 0; k < MEASURED; k++) {
				const struct scaling_model *at =
					model_stored_model(m, set, n, k);
				if (!at)
					continue;
				uint32_t gs, gn, gk;
				assert_ptr_equal(model_stored_model_by_index(
							 m, i++, &gs, &gn, &gk),
						 at);
				assert_true(gs == set && gn == n && gk == k);
			}
	assert_true(i > 0);
	assert_int_equal(model_n_stored_models(m), i);
	assert_null(model_stored_model_by_index(m, i, NULL, NULL, NULL));
	for (uint32_t c = 0; c < COLS; c++) {
		uint32_t want = MODEL_NONE;
		for (uint32_t j = 0; j < COLS && want == MODEL_NONE; j++)
			if (j != c && kinds[j] != kinds[c] &&
			    strcmp(names[j], names[c]) == 0)
				want = j;
		assert_int_equal(model_columns(m)[c].pair, want);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_pairwise),
		cmocka_unit_test(test_builder),
		cmocka_unit_test(test_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
