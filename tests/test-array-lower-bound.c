/* Tests of array_lower_bound (src/core/array.c): degenerate inputs first
 * (no elements, one element, a key below or above all), then sorted
 * arrays with runs of equal keys, each answer checked against a linear
 * scan for the first element not below the key. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/array.h"

struct elem {
	uint32_t key;
	uint32_t payload;
};

static bool below(const void *elem, const void *key)
{
	return ((const struct elem *)elem)->key < *(const uint32_t *)key;
}

static size_t linear(const struct elem *v, size_t n, uint32_t key)
{
	size_t i = 0;
	while (i < n && v[i].key < key)
		i++;
	return i;
}

static void degenerate(void **state)
{
	(void)state;
	uint32_t key = 5;
	assert_int_equal(array_lower_bound(NULL, 0, sizeof(struct elem), below,
					   &key),
			 0);
	struct elem one = {5, 0};
	assert_int_equal(array_lower_bound(&one, 1, sizeof(one), below, &key), 0);
	key = 6;
	assert_int_equal(array_lower_bound(&one, 1, sizeof(one), below, &key), 1);
	key = 0;
	assert_int_equal(array_lower_bound(&one, 1, sizeof(one), below, &key), 0);
}

static void against_a_scan(void **state)
{
	(void)state;
	struct elem v[200];
	uint32_t k = 3;
	srand(7);
	for (size_t n = 0; n <= 200; n += 7) {
		k = 3;
		for (size_t i = 0; i < n; i++) {
			k += (uint32_t)(rand() % 3); /* runs of equal keys */
			v[i] = (struct elem){k, (uint32_t)i};
		}
		for (uint32_t key = 0; key <= k + 2; key++)
			assert_int_equal(array_lower_bound(v, n, sizeof(*v),
							   below, &key),
					 linear(v, n, key));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(degenerate),
		cmocka_unit_test(against_a_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
