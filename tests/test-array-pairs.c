/* Tests of array_pairs_lower_bound and array_pairs_find over packed
 * (key << 32 | value) pairs, the readers' id indexes and the model's
 * context index: no pairs (NULL too), a key below, between and above
 * every key, equal keys (the first wins), keys and values at 0 and
 * UINT32_MAX, and a bounded range.  Then array_grow_each, the growth of
 * parallel arrays: each holds what was written before, the capacity
 * doubles and is shared, a need within the capacity moves nothing, and
 * FREE_AND_NULL forgets what it frees; array_free_each frees pointers,
 * NULL ones among them, and an empty array. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/array.h"

#define P(k, v) ((uint64_t)(k) << 32 | (uint32_t)(v))

static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(array_pairs_find(NULL, 0, 5, 77), 77);
	uint64_t one = P(5, 9);
	assert_int_equal(array_pairs_find(&one, 0, 5, 77), 77);
	assert_int_equal(array_pairs_lower_bound(&one, 0, 0, 5), 0);
	assert_int_equal(array_pairs_find(&one, 1, 5, 77), 9);
}

static void test_find(void **state)
{
	(void)state;
	const uint64_t p[] = {P(0, 4),	      P(3, 1),	    P(3, 2),
			      P(3, UINT32_MAX), P(10, 0),	    P(UINT32_MAX, 8)};
	size_t n = sizeof(p) / sizeof(p[0]);
	assert_int_equal(array_pairs_find(p, n, 0, 77), 4);
	assert_int_equal(array_pairs_find(p, n, 3, 77), 1); /* the first */
	assert_int_equal(array_pairs_find(p, n, 10, 77), 0);
	assert_int_equal(array_pairs_find(p, n, UINT32_MAX, 77), 8);
	assert_int_equal(array_pairs_find(p, n, 2, 77), 77);
	assert_int_equal(array_pairs_find(p, n, 11, 77), 77);
	/* lower bounds: below, at, between, above every key */
	assert_int_equal(array_pairs_lower_bound(p, 0, n, 0), 0);
	assert_int_equal(array_pairs_lower_bound(p, 0, n, 1), 1);
	assert_int_equal(array_pairs_lower_bound(p, 0, n, 3), 1);
	assert_int_equal(array_pairs_lower_bound(p, 0, n, 4), 4);
	assert_int_equal(array_pairs_lower_bound(p, 0, n, 11), 5);
	/* within [2, 4): the range bounds the answer */
	assert_int_equal(array_pairs_lower_bound(p, 2, 4, 0), 2);
	assert_int_equal(array_pairs_lower_bound(p, 2, 4, 10), 4);
}

static void test_grow_each(void **state)
{
	(void)state;
	uint32_t *a = NULL;
	double *b = NULL;
	size_t cap = 0;
	void **const arrays[] = {(void **)&a, (void **)&b};
	const size_t sizes[] = {sizeof(*a), sizeof(*b)};
	for (size_t n = 0; n < 100; n++) {
		assert_true(array_grow_each(&cap, n + 1, 2, arrays, sizes));
		assert_true(cap >= n + 1);
		a[n] = (uint32_t)n * 3;
		b[n] = (double)n / 2;
	}
	assert_int_equal(cap, 128); /* 16 doubled three times */
	for (size_t n = 0; n < 100; n++) {
		assert_int_equal(a[n], n * 3);
		assert_true(b[n] == (double)n / 2);
	}
	uint32_t *was = a;
	assert_true(array_grow_each(&cap, 128, 2, arrays, sizes));
	assert_ptr_equal(a, was);
	assert_int_equal(cap, 128);
	assert_false(array_grow_each(&cap, SIZE_MAX, 2, arrays, sizes));
	assert_int_equal(cap, 128);
	FREE_AND_NULL(a);
	FREE_AND_NULL(b);
	assert_null(a);
	assert_null(b);
}

static void test_free_each(void **state)
{
	(void)state;
	char **v = malloc(3 * sizeof(*v));
	assert_non_null(v);
	v[0] = strdup("a");
	v[1] = NULL;
	v[2] = strdup("c");
	array_free_each(v, 3); /* the leak checkers of the CI see the rest */
	array_free_each(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_grow_each),
		cmocka_unit_test(test_free_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
