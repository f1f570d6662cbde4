/* span: checked, read-only views of binary input.
 *
 * Every byte a reader takes from a file goes through these functions.  Each
 * check has the form `len < off || n > len - off`, which cannot overflow.
 * Integers are decoded byte by byte for the declared byte order; doubles go
 * through memcpy.  A failed read returns false and leaves *out untouched.
 * A span may have no data (data NULL, a length only) for bounds checks
 * (span_has, span_count_fits); reading bytes from one is a bug (checked,
 * core/check.h).  Must not depend on anything but libc. */
#ifndef CALLSCOPE_SPAN_H
#define CALLSCOPE_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/check.h"

struct span {
	const uint8_t *data;
	uint64_t len;
};

/* True when [off, off+n) lies inside the span. */
static inline bool span_has(struct span s, uint64_t off, uint64_t n)
{
	return !(s.len < off || n > s.len - off);
}

/* The sub-span [off, off+n), or false when it does not fit. */
static inline bool span_sub(struct span s, uint64_t off, uint64_t n,
			    struct span *out)
{
	if (!span_has(s, off, n))
		return false;
	out->data = s.data + off;
	out->len = n;
	return true;
}

/* span_has for a read: the bytes must be there, not only the length. */
static inline bool span_readable(struct span s, uint64_t off, uint64_t n)
{
	if (!span_has(s, off, n))
		return false;
	CHECK(s.data != NULL);
	return true;
}

static inline bool span_u8(struct span s, uint64_t off, uint8_t *out)
{
	if (!span_readable(s, off, 1))
		return false;
	*out = s.data[off];
	return true;
}

static inline bool span_u16le(struct span s, uint64_t off, uint16_t *out)
{
	if (!span_readable(s, off, 2))
		return false;
	const uint8_t *p = s.data + off;
	*out = (uint16_t)(p[0] | (uint16_t)p[1] << 8);
	return true;
}

static inline bool span_u32le(struct span s, uint64_t off, uint32_t *out)
{
	if (!span_readable(s, off, 4))
		return false;
	const uint8_t *p = s.data + off;
	*out = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
	return true;
}

static inline bool span_u64le(struct span s, uint64_t off, uint64_t *out)
{
	if (!span_readable(s, off, 8))
		return false;
	const uint8_t *p = s.data + off;
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	*out = v;
	return true;
}

static inline bool span_f64le(struct span s, uint64_t off, double *out)
{
	uint64_t bits;
	if (!span_u64le(s, off, &bits))
		return false;
	memcpy(out, &bits, sizeof(*out));
	return true;
}

static inline bool span_u16be(struct span s, uint64_t off, uint16_t *out)
{
	if (!span_readable(s, off, 2))
		return false;
	const uint8_t *p = s.data + off;
	*out = (uint16_t)((uint16_t)p[0] << 8 | p[1]);
	return true;
}

static inline bool span_u32be(struct span s, uint64_t off, uint32_t *out)
{
	if (!span_readable(s, off, 4))
		return false;
	const uint8_t *p = s.data + off;
	*out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
	return true;
}

static inline bool span_u64be(struct span s, uint64_t off, uint64_t *out)
{
	if (!span_readable(s, off, 8))
		return false;
	const uint8_t *p = s.data + off;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	*out = v;
	return true;
}

static inline bool span_f64be(struct span s, uint64_t off, double *out)
{
	uint64_t bits;
	if (!span_u64be(s, off, &bits))
		return false;
	memcpy(out, &bits, sizeof(*out));
	return true;
}

/* For fields whose range a reader has already checked: the value, or 0
 * when the read would fall outside the span (never out of bounds). */
static inline uint8_t span_get_u8(struct span s, uint64_t off)
{
	uint8_t v = 0;
	(void)span_u8(s, off, &v);
	return v;
}

static inline uint16_t span_get_u16le(struct span s, uint64_t off)
{
	uint16_t v = 0;
	(void)span_u16le(s, off, &v);
	return v;
}

static inline uint32_t span_get_u32le(struct span s, uint64_t off)
{
	uint32_t v = 0;
	(void)span_u32le(s, off, &v);
	return v;
}

static inline uint64_t span_get_u64le(struct span s, uint64_t off)
{
	uint64_t v = 0;
	(void)span_u64le(s, off, &v);
	return v;
}

/* Records of `stride` bytes from the start of s, sorted by an unsigned
 * little-endian key of `width` bytes (2 or 4) at the start of each: the
 * first of records [lo, hi) whose key is not below `key`, `hi` when none
 * (a lower bound; a record past the span reads as key 0, as above). */
static inline uint64_t span_lower_bound_le(struct span s, uint64_t lo,
					   uint64_t hi, uint64_t stride,
					   unsigned width, uint32_t key)
{
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint32_t k = width == 2 ? span_get_u16le(s, mid * stride)
					: span_get_u32le(s, mid * stride);
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A NUL-terminated string starting at `off` whose terminator lies inside the
 * span.  On success *out points into the span and *len is its length. */
static inline bool span_cstr(struct span s, uint64_t off, const char **out,
			     size_t *len)
{
	if (!span_readable(s, off, 1))
		return false;
	const void *nul = memchr(s.data + off, '\0', (size_t)(s.len - off));
	if (!nul)
		return false;
	*out = (const char *)(s.data + off);
	*len = (size_t)((const uint8_t *)nul - (s.data + off));
	return true;
}

/* True when `n` items of `size` bytes each fit in `avail` bytes (the check to
 * make before allocating or looping by a count read from a file). */
static inline bool span_count_fits(uint64_t n, uint64_t size, uint64_t avail)
{
	return size == 0 ? true : n <= avail / size;
}

#endif
