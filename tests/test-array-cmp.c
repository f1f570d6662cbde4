/* Tests of array_cmp_u64 (core/array.h), qsort's comparator for uint64_t
 * values: the sign of each answer for equal, smaller and larger values,
 * those above INT64_MAX included (a subtraction or a signed compare would
 * get them wrong), and an array with duplicates and both extremes sorted
 * by qsort into the order written out by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "core/array.h"

static int cmp(uint64_t a, uint64_t b)
{
	return array_cmp_u64(&a, &b);
}

static void test_signs(void **state)
{
	(void)state;
	assert_int_equal(cmp(0, 0), 0);
	assert_int_equal(cmp(UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(cmp(1, 2), -1);
	assert_int_equal(cmp(2, 1), 1);
	assert_int_equal(cmp(0, UINT64_MAX), -1);
	assert_int_equal(cmp(UINT64_MAX, 0), 1);
	assert_int_equal(cmp((uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1), -1);
	assert_int_equal(cmp((uint64_t)INT64_MAX + 1, 1), 1);
}

static void test_sorted(void **state)
{
	(void)state;
	uint64_t v[] = {7,		  UINT64_MAX, 0, (uint64_t)1 << 63, 7,
			0xffffffff00000001ull, 3,	  0};
	const uint64_t want[] = {0, 0, 3, 7, 7, (uint64_t)1 << 63,
				 0xffffffff00000001ull, UINT64_MAX};
	qsort(v, 8, sizeof(*v), array_cmp_u64);
	for (size_t i = 0; i < 8; i++)
		assert_true(v[i] == want[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signs),
		cmocka_unit_test(test_sorted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
