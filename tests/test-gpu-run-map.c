/* Tests of the GPU run's integer maps (src/formats/gpu_run/gpu_run_map.c): the
 * hash map and the row-id map, degenerate inputs first (empty maps, id 0,
 * the largest ids, a value of UINT32_MAX), then ids in order, a little out
 * of order, far apart and in patterns that would pile up in one window,
 * each checked against a plain list of what was put (the last value of a
 * key wins), and the row-id map's array bounded by four slots per id. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "formats/gpu_run/gpu_run.h"

static void empty_maps_find_nothing(void **state)
{
	(void)state;
	struct gpu_run_map m = {0};
	struct gpu_run_idmap im = {0};
	uint32_t v = 7;
	assert_false(gpu_run_map_get(&m, 0, &v));
	assert_false(gpu_run_idmap_get(&im, 0, &v));
	assert_false(gpu_run_idmap_get(&im, UINT64_MAX, &v));
	assert_int_equal(v, 7);
	gpu_run_map_free(&m);
	gpu_run_idmap_free(&im);
}

static void extreme_keys_and_values(void **state)
{
	(void)state;
	struct gpu_run_idmap im = {0};
	uint32_t v;
	assert_true(gpu_run_idmap_put(&im, 0, 0));
	assert_true(gpu_run_idmap_put(&im, UINT64_MAX, 5));
	assert_true(gpu_run_idmap_put(&im, 1, UINT32_MAX)); /* hashed */
	assert_true(gpu_run_idmap_put(&im, 2, UINT32_MAX - 1));
	assert_true(gpu_run_idmap_get(&im, 0, &v));
	assert_int_equal(v, 0);
	assert_true(gpu_run_idmap_get(&im, UINT64_MAX, &v));
	assert_int_equal(v, 5);
	assert_true(gpu_run_idmap_get(&im, 1, &v));
	assert_int_equal(v, UINT32_MAX);
	assert_true(gpu_run_idmap_get(&im, 2, &v));
	assert_int_equal(v, UINT32_MAX - 1);
	assert_false(gpu_run_idmap_get(&im, 3, &v));
	gpu_run_idmap_free(&im);
}

/* Put n keys made by `key(i)` with value i * 3 + 1, overwrite every
 * seventh, and check every key and some absent ones in both maps. */
static void check_keys(uint64_t (*key)(size_t), size_t n)
{
	struct gpu_run_map m = {0};
	struct gpu_run_idmap im = {0};
	uint32_t *want = malloc(n * sizeof(*want));
	assert_non_null(want);
	for (size_t i = 0; i < n; i++) {
		want[i] = (uint32_t)(i * 3 + 1);
		assert_true(gpu_run_map_put(&m, key(i), want[i]));
		assert_true(gpu_run_idmap_put(&im, key(i), want[i]));
	}
	for (size_t i = 0; i < n; i += 7) {
		want[i] = (uint32_t)i;
		assert_true(gpu_run_map_put(&m, key(i), want[i]));
		assert_true(gpu_run_idmap_put(&im, key(i), want[i]));
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t a = 0, b = 0;
		assert_true(gpu_run_map_get(&m, key(i), &a));
		assert_true(gpu_run_idmap_get(&im, key(i), &b));
		assert_int_equal(a, want[i]);
		assert_int_equal(b, want[i]);
	}
	assert_int_equal(m.n, n);
	assert_int_equal(im.n + im.rest.n, n);
	/* the array never holds more than max(2^20, 4 per id) slots */
	size_t bound = 4 * (im.n + 1) > (1u << 20) ? 4 * (im.n + 1)
						   : (1u << 20);
	assert_true(im.cap <= 2 * bound);
	gpu_run_map_free(&m);
	gpu_run_idmap_free(&im);
	free(want);
}

static uint64_t in_order(size_t i) { return 1000000 + i; }
/* pairs swapped, and every 100th key far away */
static uint64_t nearly(size_t i)
{
	uint64_t k = 5000 + (i ^ 1);
	return i % 100 == 50 ? k * 1000003 : k;
}
static uint64_t spread(size_t i) { return (uint64_t)i << 24; }
static uint64_t pid_tid(size_t i)
{
	return (uint64_t)(4000 + i % 5) << 32 | (uint64_t)(i / 5);
}
static uint64_t descending(size_t i) { return 10000000 - i; }

/* The key patterns, each a cmocka test of its own (named here). */
static struct key_pattern {
	const char *name;
	uint64_t (*key)(size_t);
	size_t n;
} patterns[] = {
    {"ids_in_order", in_order, 300000},
    {"ids_nearly_in_order", nearly, 200000},
    {"ids_far_apart", spread, 50000},
    {"ids_of_several_processes", pid_tid, 100000},
    {"ids_descending", descending, 100000},
};

static void test_pattern(void **state)
{
	const struct key_pattern *p = *state;
	check_keys(p->key, p->n);
}

int main(void)
{
	enum { N_PATTERNS = sizeof(patterns) / sizeof(patterns[0]) };
	struct CMUnitTest tests[2 + N_PATTERNS] = {
	    cmocka_unit_test(empty_maps_find_nothing),
	    cmocka_unit_test(extreme_keys_and_values),
	};
	for (size_t i = 0; i < N_PATTERNS; i++)
		tests[2 + i] = (struct CMUnitTest){
		    .name = patterns[i].name,
		    .test_func = test_pattern,
		    .initial_state = &patterns[i],
		};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
