/* array: growing arrays by doubling, with every size computation checked;
 * the lower bound of a key in a sorted array and in sorted packed pairs;
 * a walk's stack pushed in reverse; freeing an array (or any heap
 * member) and forgetting it.
 * Used by the builder, the views and the outline.  Depends on libc only. */
#ifndef CALLSCOPE_ARRAY_H
#define CALLSCOPE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Make *array (of elements of `size` bytes, capacity *cap) hold at least
 * `need` elements, doubling.  False, with *array unchanged, when out of
 * memory or when the capacity would pass UINT32_MAX - 1. */
bool array_grow_u32(void **array, uint32_t *cap, uint64_t need, size_t size);

/* The part of array_grow that reallocates (*cap < need). */
bool array_grow_alloc(void **array, size_t *cap, size_t need, size_t size);

/* The same with a size_t capacity (bounded by SIZE_MAX / size).  Inline:
 * a push that fits (the common case, once per event or node in the
 * readers' loops) costs a comparison, not a call. */
static inline bool array_grow(void **array, size_t *cap, size_t need,
			      size_t size)
{
	return need <= *cap || array_grow_alloc(array, cap, need, size);
}

/* Parallel arrays sharing the capacity *cap (a structure of arrays): make
 * each of the `n` arrays *arrays[i], of elements of sizes[i] bytes, hold
 * at least `need` elements, doubling.  False when out of memory or past
 * SIZE_MAX: *cap is then unchanged, and every array still holds *cap
 * elements (those that grew keep their new room). */
bool array_grow_each(size_t *cap, size_t need, size_t n, void **const arrays[],
		     const size_t sizes[]);

/* Push the `n` values onto the stack *stack (*len values, capacity *cap,
 * grown by array_grow) last first, so that values[0] is on top: a
 * pre-order walk's children, visited in their order.  False when out of
 * memory (the stack unchanged). */
bool array_push_reversed_u32(uint32_t **stack, size_t *len, size_t *cap,
			     const uint32_t *values, size_t n);

/* The index of the first of the `n` elements of `size` bytes at `base`
 * for which below(element, key) is false (`n` when none): the elements
 * are sorted so that `below` holds for a prefix of them (a lower bound,
 * as in C++). */
size_t array_lower_bound(const void *base, size_t n, size_t size,
			 bool (*below)(const void *elem, const void *key),
			 const void *key);

/* qsort's comparator for uint64_t values, ascending (-1, 0, 1). */
int array_cmp_u64(const void *a, const void *b);

/* Packed pairs: uint64_t values holding a 32-bit key above a 32-bit
 * value, sorted (by key first) -- the id indexes of the readers and the
 * model's context index.  The first of pairs [lo, hi) whose key is not
 * below `key` (`hi` when none). */
size_t array_pairs_lower_bound(const uint64_t *pairs, size_t lo, size_t hi,
			       uint32_t key);
/* The value of the first of the `n` pairs with key `key`; `none` when
 * there is none. */
uint32_t array_pairs_find(const uint64_t *pairs, size_t n, uint32_t key,
			  uint32_t none);

/* Free the `n` heap pointers of `array` (char ** or any T **; NULL ones
 * too), then the array itself.  NULL with n 0 is nothing. */
void array_free_each(void *array, size_t n);

/* Free what the lvalue `p` points to and set it to NULL, for a member
 * that may be freed again or grown later (git's FREE_AND_NULL). */
#define FREE_AND_NULL(p)                                                     \
	do {                                                                 \
		free(p);                                                     \
		(p) = NULL;                                                  \
	} while (0)

#endif
