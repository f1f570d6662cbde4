/* array: doubling growth of arrays with checked sizes; the lower bound
 * of a key in a sorted array and in sorted packed pairs.  Depends on libc only. */
#include "config.h"

#include "core/array.h"
#include "core/check.h"

#include <stdlib.h>

bool array_grow_u32(void **array, uint32_t *cap, uint64_t need, size_t size)
{
	CHECK(size > 0 && (*array != NULL || *cap == 0));
	if (need <= *cap)
		return true;
	uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX - 1)
		ncap = UINT32_MAX - 1;
	if (ncap < need || ncap > SIZE_MAX / size)
		return false;
	void *p = realloc(*array, (size_t)ncap * size);
	if (!p)
		return false;
	*array = p;
	*cap = (uint32_t)ncap;
	CHECK(*cap >= need);
	return true;
}

bool array_grow_alloc(void **array, size_t *cap, size_t need, size_t size)
{
	CHECK(size > 0 && (*array != NULL || *cap == 0));
	if (need <= *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return false;
		ncap *= 2;
	}
	void *p = realloc(*array, ncap * size);
	if (!p)
		return false;
	*array = p;
	*cap = ncap;
	CHECK(*cap >= need);
	return true;
}

bool array_grow_each(size_t *cap, size_t need, size_t n, void **const arrays[],
		     const size_t sizes[])
{
	if (need <= *cap)
		return true;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return false;
		ncap *= 2;
	}
	for (size_t i = 0; i < n; i++) {
		CHECK(sizes[i] > 0 && (*arrays[i] != NULL || *cap == 0));
		if (ncap > SIZE_MAX / sizes[i])
			return false;
		void *p = realloc(*arrays[i], ncap * sizes[i]);
		if (!p)
			return false;
		*arrays[i] = p;
	}
	*cap = ncap;
	return true;
}

bool array_push_reversed_u32(uint32_t **stack, size_t *len, size_t *cap,
			     const uint32_t *values, size_t n)
{
	if (n > SIZE_MAX - *len ||
	    !array_grow((void **)stack, cap, *len + n, sizeof(**stack)))
		return false;
	for (size_t i = n; i-- > 0;)
		(*stack)[(*len)++] = values[i];
	return true;
}

void array_free_each(void *array, size_t n)
{
	void **v = array;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int array_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

size_t array_lower_bound(const void *base, size_t n, size_t size,
			 bool (*below)(const void *elem, const void *key),
			 const void *key)
{
	const unsigned char *b = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (below(b + mid * size, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool pair_below(const void *elem, const void *key)
{
	return (uint32_t)(*(const uint64_t *)elem >> 32) <
	       *(const uint32_t *)key;
}

size_t array_pairs_lower_bound(const uint64_t *pairs, size_t lo, size_t hi,
			       uint32_t key)
{
	if (lo >= hi)
		return lo;
	return lo + array_lower_bound(pairs + lo, hi - lo, sizeof(*pairs),
				      pair_below, &key);
}

uint32_t array_pairs_find(const uint64_t *pairs, size_t n, uint32_t key,
			  uint32_t none)
{
	size_t i = pairs ? array_pairs_lower_bound(pairs, 0, n, key) : n;
	return i < n && (uint32_t)(pairs[i] >> 32) == key ? (uint32_t)pairs[i]
							   : none;
}
