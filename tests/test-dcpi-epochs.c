/* Tests of dcpi_epochs, the per-epoch values of a multi-epoch DCPI
 * database: degenerate uses first (no values, out-of-order and
 * out-of-range adds, unknown contexts and properties), then random trees
 * built with the model builder whose leaves get random samples per event
 * and epoch; every node's per-profile values, exclusive and inclusive, are
 * compared with a brute-force recomputation (for each node, a walk up
 * from every leaf value).  Samples are small integers, so sums are exact
 * in any order. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/dcpi/dcpi_epochs.h"
#include "model/model.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct error err = {0};
	struct profile_value *pv = (void *)1;
	size_t n = 9;
	struct dcpi_epochs *e = dcpi_epochs_new(2, 1);
	assert_non_null(e);
	/* out of range event or epoch */
	assert_false(dcpi_epochs_add(e, 3, 1, 0, 1));
	assert_false(dcpi_epochs_add(e, 3, 0, 2, 1));
	assert_true(dcpi_epochs_add(e, 3, 0, 1, 1));
	assert_true(dcpi_epochs_add(e, 3, 0, 1, 2)); /* summed */
	assert_false(dcpi_epochs_add(e, 3, 0, 0, 1)); /* out of order */
	assert_false(dcpi_epochs_add(e, 2, 0, 1, 1));
	/* a root with one leaf */
	struct model_builder *b = model_builder_new("test", "t");
	struct model_node nd = {.kind = NODE_FUNCTION};
	for (int i = 0; i < 3; i++)
		assert_int_equal(model_builder_add_node(b, 0, &nd),
				 (uint32_t)i + 1);
	assert_true(dcpi_epochs_finish(e, model_builder_peek(b), 5));
	assert_true(dcpi_epochs_inner_kept(e));
	assert_int_equal(dcpi_epochs_per_profile(e, 3, 0, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_int_equal(pv[0].profile, 6);
	assert_true(pv[0].value == 3);
	free(pv);
	/* the root's inclusive value; its exclusive one is none */
	assert_int_equal(dcpi_epochs_per_profile(e, 0, 1, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_true(pv[0].value == 3);
	free(pv);
	assert_int_equal(dcpi_epochs_per_profile(e, 0, 0, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	assert_null(pv);
	/* no values at a leaf, an unknown node, an unknown property */
	assert_int_equal(dcpi_epochs_per_profile(e, 1, 0, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	assert_int_equal(dcpi_epochs_per_profile(e, 99, 0, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	assert_int_equal(dcpi_epochs_per_profile(e, 3, 7, &pv, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	model_builder_free(b);
	dcpi_epochs_free(e);
	dcpi_epochs_free(NULL);
}

/* More inclusive sums than kept (a chain of 8,200 inner nodes x 64
 * events x 64 epochs: 32.8 M doubles): inner nodes have no per-epoch
 * values, the leaf keeps its own. */
static void test_inner_cap(void **state)
{
	(void)state;
	struct error err = {0};
	struct model_builder *b = model_builder_new("test", "t");
	struct model_node nd = {.kind = NODE_FUNCTION};
	uint32_t n = 8201;
	for (uint32_t i = 1; i <= n; i++)
		assert_int_equal(model_builder_add_node(b, i - 1, &nd), i);
	struct dcpi_epochs *e = dcpi_epochs_new(64, 64);
	assert_non_null(e);
	assert_true(dcpi_epochs_add(e, n, 3, 5, 7));
	assert_true(dcpi_epochs_finish(e, model_builder_peek(b), 0));
	assert_false(dcpi_epochs_inner_kept(e));
	struct profile_value *pv = NULL;
	size_t k = 9;
	assert_int_equal(dcpi_epochs_per_profile(e, 0, 64 + 3, &pv, &k, &err),
			 STATUS_OK);
	assert_int_equal(k, 0);
	assert_int_equal(dcpi_epochs_per_profile(e, n, 64 + 3, &pv, &k, &err),
			 STATUS_OK);
	assert_int_equal(k, 1);
	assert_int_equal(pv[0].profile, 5);
	assert_true(pv[0].value == 7);
	free(pv);
	assert_int_equal(dcpi_epochs_per_profile(e, n, 3, &pv, &k, &err),
			 STATUS_OK);
	assert_int_equal(k, 1);
	free(pv);
	dcpi_epochs_free(e);
	model_builder_free(b);
}

static void check_random(uint64_t seed, uint32_t n_nodes, uint32_t n_events,
			 uint32_t n_epochs)
{
	struct error err = {0};
	struct model_builder *b = model_builder_new("test", "t");
	struct model_node nd = {.kind = NODE_FUNCTION};
	uint32_t *parent = malloc(n_nodes * sizeof(*parent));
	assert_non_null(parent);
	parent[0] = MODEL_NONE;
	for (uint32_t i = 1; i < n_nodes; i++) {
		parent[i] = (uint32_t)(next(&seed) % i);
		assert_int_equal(model_builder_add_node(b, parent[i], &nd), i);
	}
	const struct model *m = model_builder_peek(b);
	/* leaves get values; brute force: want[node][event][epoch] */
	size_t cell = (size_t)n_events * n_epochs;
	double *excl = calloc((size_t)n_nodes * cell, sizeof(double));
	double *incl = calloc((size_t)n_nodes * cell, sizeof(double));
	assert_true(excl && incl);
	struct dcpi_epochs *e = dcpi_epochs_new(n_epochs, n_events);
	assert_non_null(e);
	for (uint32_t i = 1; i < n_nodes; i++) {
		if (model_nodes(m)[i].first_child != MODEL_NONE)
			continue;
		for (uint32_t ev = 0; ev < n_events; ev++)
			for (uint32_t p = 0; p < n_epochs; p++) {
				if (next(&seed) % 3 == 0)
					continue;
				double v = (double)(next(&seed) % 1000 + 1);
				assert_true(dcpi_epochs_add(e, i, ev, p, v));
				size_t c = (size_t)ev * n_epochs + p;
				excl[(size_t)i * cell + c] += v;
				for (uint32_t u = i; u != MODEL_NONE;
				     u = parent[u])
					incl[(size_t)u * cell + c] += v;
			}
	}
	assert_true(dcpi_epochs_finish(e, m, 10));
	for (uint32_t i = 0; i < n_nodes; i++)
		for (uint32_t prop = 0; prop < 2 * n_events; prop++) {
			struct profile_value *pv = NULL;
			size_t n = 0;
			assert_int_equal(dcpi_epochs_per_profile(e, i, prop,
								 &pv, &n,
								 &err),
					 STATUS_OK);
			bool inc = prop >= n_events;
			uint32_t ev = inc ? prop - n_events : prop;
			const double *w = (inc ? incl : excl) +
					  (size_t)i * cell +
					  (size_t)ev * n_epochs;
			size_t k = 0;
			for (uint32_t p = 0; p < n_epochs; p++) {
				if (w[p] == 0)
					continue;
				assert_true(k < n);
				assert_int_equal(pv[k].profile, 10 + p);
				assert_true(pv[k].value == w[p]);
				k++;
			}
			assert_int_equal(k, n);
			free(pv);
		}
	dcpi_epochs_free(e);
	model_builder_free(b);
	free(parent);
	free(excl);
	free(incl);
}

static void test_random(void **state)
{
	(void)state;
	for (uint64_t s = 1; s <= 20; s++)
		check_random(s * 0x9e3779b97f4a7c15ull, 2 + (uint32_t)s * 37,
			     1 + (uint32_t)(s % 3), 2 + (uint32_t)(s % 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_inner_cap),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
