/* decimal: an unsigned integer's decimal digits without printf, for the
 * writers that print millions of them (profile labels, JSON report ids,
 * numbers); printf's format parsing was most of their time.  libc only. */
#ifndef CALLSCOPE_CORE_DECIMAL_H
#define CALLSCOPE_CORE_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* The digits of `v` at `out` (20 at most, not terminated); their count. */
size_t decimal_u64(uint64_t v, char *out);

#endif
