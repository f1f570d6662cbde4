/* decimal_u64 (core/decimal.c): the edges (0, one digit, powers of ten and
 * their neighbours, UINT64_MAX) and 100,000 random values against
 * snprintf's %" PRIu64 "; nothing is written past the digits. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/decimal.h"

static void expect(uint64_t v)
{
	char want[32], got[32];
	memset(got, 'x', sizeof(got));
	int n = snprintf(want, sizeof(want), "%" PRIu64, v);
	size_t k = decimal_u64(v, got);
	assert_int_equal(k, (size_t)n);
	assert_memory_equal(got, want, k);
	assert_int_equal(got[k], 'x'); /* not terminated, nothing more */
}

static void test_edges(void **state)
{
	(void)state;
	expect(0);
	expect(1);
	expect(9);
	uint64_t p = 1;
	for (int i = 1; i < 20; i++) {
		p *= 10;
		expect(p - 1);
		expect(p);
		expect(p + 1);
	}
	expect(UINT32_MAX);
	expect(UINT64_MAX);
	expect(UINT64_MAX - 1);
}

static void test_random(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		expect(x >> (i % 64));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
