/* hash: FNV-1a, 64 bits, the one hash of the cache keys (downloads, the
 * extraction of archives, the OTF2 index): h = (h ^ byte) * prime from
 * FNV1A_SEED, chained over several pieces.  A key written to disk depends
 * on it: it must not change.  libc only. */
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

#endif
