/* Tests of array_push_reversed_u32 (core/array.h), the push of a
 * pre-order walk's children: nothing pushed (NULL values too), the values
 * popped back in their order, pushes on top of what the stack holds
 * (growing it from a small capacity and from none), and a pre-order walk
 * of a small tree compared with the order written out by hand. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "core/array.h"

static void test_push_nothing(void **state)
{
	(void)state;
	uint32_t *stack = NULL;
	size_t len = 0, cap = 0;
	assert_true(array_push_reversed_u32(&stack, &len, &cap, NULL, 0));
	assert_int_equal(len, 0);
	free(stack);
}

/* Popped one by one, the values come back first to last. */
static void test_pop_order(void **state)
{
	(void)state;
	const uint32_t v[] = {7, 0, UINT32_MAX, 3};
	uint32_t *stack = NULL;
	size_t len = 0, cap = 0;
	assert_true(array_push_reversed_u32(&stack, &len, &cap, v, 4));
	assert_int_equal(len, 4);
	assert_true(cap >= 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(stack[--len], v[i]);
	free(stack);
}

/* A full stack of capacity 1 grows; what it held stays below. */
static void test_push_on_top(void **state)
{
	(void)state;
	uint32_t *stack = malloc(sizeof(*stack));
	assert_non_null(stack);
	size_t len = 0, cap = 1;
	stack[len++] = 42;
	uint32_t v[40];
	for (uint32_t i = 0; i < 40; i++)
		v[i] = 100 + i;
	assert_true(array_push_reversed_u32(&stack, &len, &cap, v, 40));
	assert_int_equal(len, 41);
	assert_true(cap >= 41);
	assert_int_equal(stack[0], 42);
	for (uint32_t i = 0; i < 40; i++)
		assert_int_equal(stack[--len], 100 + i);
	assert_int_equal(len, 1);
	free(stack);
}

/* The tree 0 -> {1, 4}, 1 -> {2, 3}, 4 -> {5}: pre-order 0 1 2 3 4 5. */
static void test_preorder_walk(void **state)
{
	(void)state;
	static const uint32_t kids[6][2] = {{1, 4}, {2, 3}, {0}, {0},
					    {5},    {0}};
	static const size_t n_kids[6] = {2, 2, 0, 0, 1, 0};
	static const uint32_t want[6] = {0, 1, 2, 3, 4, 5};
	uint32_t *stack = NULL, got[6];
	size_t len = 0, cap = 0, n_got = 0;
	const uint32_t root = 0;
	assert_true(array_push_reversed_u32(&stack, &len, &cap, &root, 1));
	while (len > 0) {
		uint32_t node = stack[--len];
		assert_true(n_got < 6);
		got[n_got++] = node;
		assert_true(array_push_reversed_u32(&stack, &len, &cap,
						    kids[node], n_kids[node]));
	}
	assert_int_equal(n_got, 6);
	assert_memory_equal(got, want, sizeof(want));
	free(stack);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_nothing),
		cmocka_unit_test(test_pop_order),
		cmocka_unit_test(test_push_on_top),
		cmocka_unit_test(test_preorder_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
