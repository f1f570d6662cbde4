/* decimal: see decimal.h.  libc only. */
#include "config.h"

#include "core/decimal.h"

size_t decimal_u64(uint64_t v, char *out)
{
	char tmp[20];
	size_t k = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < k; i++)
		out[i] = tmp[k - 1 - i];
	return k;
}
