/* core/hash.h: fnv1a against the published FNV-1a test vectors (chained
 * over pieces as over the whole), hash_mix64 against murmur3's finalizer
 * computed apart (Python, 64-bit wrapping products). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/hash.h"

static void test_fnv1a(void **state)
{
	(void)state;
	assert_true(fnv1a(FNV1A_SEED, "", 0) == 0xcbf29ce484222325ull);
	assert_true(fnv1a(FNV1A_SEED, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(fnv1a(FNV1A_SEED, "foobar", 6) == 0x85944171f73967e8ull);
	assert_true(fnv1a(fnv1a(FNV1A_SEED, "foo", 3), "bar", 3) ==
		    0x85944171f73967e8ull);
}

static void test_mix64(void **state)
{
	(void)state;
	assert_true(hash_mix64(0) == 0);
	assert_true(hash_mix64(1) == 0xb456bcfc34c2cb2cull);
	assert_true(hash_mix64(UINT64_MAX) == 0x64b5720b4b825f21ull);
	assert_true(hash_mix64((uint64_t)7 << 32 | 42) == 0x02a8db5f9044a658ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a),
		cmocka_unit_test(test_mix64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
