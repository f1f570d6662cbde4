/* present_write_number: a double as printf's "%.*g" text at the fewest of
 * 15, 16 and 17 significant digits that reads back as the same double,
 * without printf or strtod (the JSON report spent most of its time in
 * them).  Exact integer arithmetic on 128 bits: the digits are v rounded
 * half-even to P digits as glibc's printf rounds, and "reads back" is
 * decided by whether the decimal lies inside v's rounding interval, as
 * strtod rounds (half-even).  Handles 0 and 2^-12 <= |v| < 2^63, which
 * holds every value of a profile's columns but the tiniest; the caller
 * uses printf for the rest.  tests/test-present-number.c compares it with
 * printf and strtod on millions of doubles.  libc only. */
#include "config.h"

#include "present/present_write_number.h"

#include "core/decimal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static u128 pow10_u128(int k)
{
	u128 r = 1;
	while (k-- > 0)
		r *= 10;
	return r;
}

/* round(num / den) half-even; den > 0 and 2 * den fits. */
static u128 div_round_even(u128 num, u128 den)
{
	u128 q = num / den, r = num % den;
	if (2 * r > den || (2 * r == den && (q & 1)))
		q++;
	return q;
}

/* av = m * 2^e rounded to P digits at decimal exponent E: the integer
 * nearest av * 10^(P-1-E). */
static u128 scaled(uint64_t m, int e, int P, int E)
{
	int s = P - 1 - E;
	u128 num = (u128)m * pow10_u128(s > 0 ? s : 0);
	u128 den = pow10_u128(s < 0 ? -s : 0);
	if (e >= 0)
		num <<= e;
	else
		den <<= -e;
	return div_round_even(num, den);
}

/* The P digits of av = m * 2^e (`*n`, 10^(P-1) <= *n < 10^P) and its
 * decimal exponent `*E`, as %.*e writes them (a carry to 10^P makes
 * 1000... with the next exponent). */
static void round_digits(uint64_t m, int e, int P, uint64_t *n, int *E)
{
	const u128 lo = pow10_u128(P - 1), hi = lo * 10;
	/* a guess of floor(log10 av) within one */
	int x = 53 + e - 1; /* 2^x <= av < 2^(x+1) */
	int guess = (int)floor(x * 0.30102999566398120);
	for (;;) {
		u128 q = scaled(m, e, P, guess);
		if (q < lo) {
			guess--;
		} else if (q > hi) {
			guess++;
		} else if (q == hi) {
			/* av rounds up to 10^(guess+1), or the guess was one
			 * low and av is at most half a unit above it: the same
			 * digits either way */
			*n = (uint64_t)lo;
			*E = guess + 1;
			return;
		} else {
			*n = (uint64_t)q;
			*E = guess;
			return;
		}
	}
}

/* Whether n * 10^(E-P+1) reads back (strtod, half-even) as av = m * 2^e. */
static bool reads_back(uint64_t m, int e, uint64_t n, int P, int E)
{
	int s = P - 1 - E;
	int b = (e < 0 ? -e : 0) + 2;
	u128 ten_a = pow10_u128(s > 0 ? s : 0);
	/* both sides times 10^max(s,0) * 2^b: integers */
	u128 d_scaled = ((u128)n * pow10_u128(s < 0 ? -s : 0)) << b;
	u128 v_scaled = ((u128)m * ten_a) << (e + b);
	u128 quarter = ten_a << (e + b - 2); /* a quarter of v's ulp */
	bool even = (m & 1) == 0;
	if (d_scaled >= v_scaled) {
		u128 d = d_scaled - v_scaled;
		return d < 2 * quarter || (d == 2 * quarter && even);
	}
	u128 d = v_scaled - d_scaled;
	if (m == (uint64_t)1 << 52) /* the gap below a power of 2 is half */
		return d <= quarter;
	return d < 2 * quarter || (d == 2 * quarter && even);
}

/* "%.*g" of the P digits `n` at exponent E, sign aside; returns the
 * length written at `out` (at most 24 bytes). */
static size_t g_text(uint64_t n, int P, int E, char *out)
{
	char dig[20];
	for (int i = P - 1; i >= 0; i--) {
		dig[i] = (char)('0' + n % 10);
		n /= 10;
	}
	int nd = P; /* significant digits once trailing zeros go */
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	size_t o = 0;
	if (E < -4 || E >= P) {
		out[o++] = dig[0];
		if (nd > 1) {
			out[o++] = '.';
			memcpy(out + o, dig + 1, (size_t)nd - 1);
			o += (size_t)nd - 1;
		}
		out[o++] = 'e';
		out[o++] = E < 0 ? '-' : '+';
		int ae = E < 0 ? -E : E;
		if (ae >= 100)
			out[o++] = (char)('0' + ae / 100);
		out[o++] = (char)('0' + ae / 10 % 10);
		out[o++] = (char)('0' + ae % 10);
	} else if (E >= 0) {
		memcpy(out + o, dig, (size_t)E + 1);
		o += (size_t)E + 1;
		if (nd > E + 1) {
			out[o++] = '.';
			memcpy(out + o, dig + E + 1, (size_t)(nd - E - 1));
			o += (size_t)(nd - E - 1);
		}
	} else {
		out[o++] = '0';
		out[o++] = '.';
		for (int i = 0; i < -E - 1; i++)
			out[o++] = '0';
		memcpy(out + o, dig, (size_t)nd);
		o += (size_t)nd;
	}
	return o;
}

bool present_number_fast(double v, int digits, char *buf, size_t *len)
{
	if (!isfinite(v))
		return false;
	double av = fabs(v);
	size_t o = 0;
	if (signbit(v))
		buf[o++] = '-';
	if (av == 0) {
		buf[o++] = '0';
	} else if (av < 1e15 && av == floor(av)) {
		o += decimal_u64((uint64_t)av, buf + o); /* counts, bytes */
	} else {
		int x;
		double f = frexp(av, &x); /* av = f * 2^x, 0.5 <= f < 1 */
		if (x < -11 || x > 63)
			return false;
		uint64_t m = (uint64_t)ldexp(f, 53);
		int e = x - 53;
		uint64_t n = 0;
		int P = digits < 15 ? 15 : digits > 17 ? 17 : digits, E = 0;
		for (; P < 17; P++) {
			round_digits(m, e, P, &n, &E);
			if (reads_back(m, e, n, P, E))
				break;
		}
		if (P == 17)
			round_digits(m, e, P, &n, &E);
		o += g_text(n, P, E, buf + o);
	}
	buf[o] = '\0';
	*len = o;
	return true;
}
