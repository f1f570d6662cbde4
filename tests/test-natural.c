/* natural_cmp (core/natural.c): degenerate strings first, orders written
 * out by hand ("RANK 2" before "RANK 10", leading zeros, digits against
 * letters), then 300,000 random pairs over a small alphabet of digits,
 * zeros and letters (long shared prefixes, runs cut at every place)
 * against a reference written apart (labels cut into tokens, then the
 * token lists compared), not a copy of the code under test. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <string.h>

#include "core/natural.h"

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

/* The reference, written apart from natural.c: both labels cut into
 * tokens first (a digit run, its leading zeros dropped, or one other
 * byte), then the token lists compared: two numbers by length, then
 * digits; two bytes by value; a number against a byte by the number's
 * first digit as written. */
struct token {
	const char *text; /* the digits without leading zeros, or the byte */
	size_t len;	  /* 0 for a number of zeros only */
	char first;	  /* the first byte as written */
	int is_number;
};

static size_t tokenize(const char *s, struct token *t)
{
	size_t n = 0;
	while (*s) {
		const char *start = s;
		if (isdigit((unsigned char)*s)) {
			size_t run = strspn(s, "0123456789");
			size_t zeros = strspn(s, "0");
			t[n] = (struct token){s + zeros, run - zeros, *start, 1};
			s += run;
		} else {
			t[n] = (struct token){s, 1, *s, 0};
			s++;
		}
		n++;
	}
	return n;
}

static int reference(const char *a, const char *b)
{
	struct token ta[32], tb[32];
	size_t na = tokenize(a, ta), nb = tokenize(b, tb);
	for (size_t i = 0; i < na && i < nb; i++) {
		const struct token *x = &ta[i], *y = &tb[i];
		int c;
		if (x->is_number && y->is_number)
			c = x->len != y->len ? (x->len < y->len ? -1 : 1)
					     : memcmp(x->text, y->text, x->len);
		else
			c = (unsigned char)x->first - (unsigned char)y->first;
		if (c)
			return c;
	}
	return (na > nb) - (na < nb);
}

static void test_degenerate(void **state)
{
	(void)state;
	assert_int_equal(natural_cmp("", ""), 0);
	assert_true(natural_cmp("", "a") < 0);
	assert_true(natural_cmp("1", "") > 0);
	assert_int_equal(natural_cmp("RANK 1", "RANK 1"), 0);
}

static void test_by_hand(void **state)
{
	(void)state;
	assert_true(natural_cmp("RANK 2", "RANK 10") < 0);
	assert_true(natural_cmp("RANK 10", "RANK 9") > 0);
	assert_true(natural_cmp("RANK 1 THREAD 10", "RANK 10 THREAD 1") < 0);
	assert_true(natural_cmp("NODE 7 RANK 14 THREAD 657",
				"NODE 7 RANK 14 THREAD 66") > 0);
	assert_true(natural_cmp("NODE 7 RANK 145", "NODE 7 RANK 14 ") > 0);
	/* leading zeros: 007 is 7, then the rest decides */
	assert_int_equal(natural_cmp("a007", "a7"), 0);
	assert_true(natural_cmp("a007b", "a7c") < 0);
	assert_true(natural_cmp("a0010", "a009") > 0);
	/* a digit against a letter: byte order */
	assert_true(natural_cmp("a1", "ab") < 0);
}

static void test_random(void **state)
{
	(void)state;
	static const char alphabet[] = "0019 aR";
	uint64_t x = 88172645463325252ull;
	char a[24], b[24];
	for (int i = 0; i < 300000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t na = x % 20, nb = (x >> 5) % 20;
		uint64_t y = x;
		for (size_t k = 0; k < na; k++, y = y * 6364136223846793005ull + 1)
			a[k] = alphabet[(y >> 33) % 7];
		a[na] = '\0';
		/* b: a's prefix, then its own bytes */
		size_t keep = nb ? (x >> 11) % (nb + 1) : 0;
		for (size_t k = 0; k < nb; k++, y = y * 6364136223846793005ull + 1)
			b[k] = k < keep && k < na ? a[k] : alphabet[(y >> 33) % 7];
		b[nb] = '\0';
		if (sign(natural_cmp(a, b)) != sign(reference(a, b)))
			fail_msg("\"%s\" vs \"%s\": %d, reference %d", a, b,
				 natural_cmp(a, b), reference(a, b));
		assert_int_equal(sign(natural_cmp(a, b)),
				 -sign(natural_cmp(b, a)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
