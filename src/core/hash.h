/* hash: FNV-1a, 64 bits, the one hash of the cache keys (downloads, the
 * extraction of archives, the OTF2 index): h = (h ^ byte) * prime from
 * FNV1A_SEED, chained over several pieces.  A key written to disk depends
 * on it: it must not change.  And hash_mix64, the one mixer of 64-bit keys
 * for the in-memory hash tables.  libc only. */
#ifndef CALLSCOPE_CORE_HASH_H
#define CALLSCOPE_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_SEED 0xcbf29ce484222325u

/* `h` carried over the `len` bytes at `data`. */
static inline uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;
	}
	return h;
}

/* murmur3's 64-bit finalizer: every bit of `x` moves every bit of the
 * result, so that the low bits index a table of a power of two.  The GPU
 * runs' interned texts are keyed by it: the same input, the same key. */
static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

#endif
