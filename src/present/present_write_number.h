/* present_write_number: printf's "%.*g" of a double at the fewest of 15,
 * 16 and 17 significant digits that reads back exactly, computed with
 * integer arithmetic instead of printf and strtod (present_write's
 * numbers, the JSON report's hot spot).  libc only. */
#ifndef CALLSCOPE_PRESENT_WRITE_NUMBER_H
#define CALLSCOPE_PRESENT_WRITE_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

/* Into `buf` (32 bytes): the text snprintf("%.*g", P, v) writes in the C
 * locale for the smallest P from `digits` (15 to 17) to 17 whose text
 * strtod reads back as exactly `v`, and its length in `*len`.  False
 * (nothing written) for values it does not handle: infinities, NaN and
 * nonzero |v| outside [2^-12, 2^63). */
bool present_number_fast(double v, int digits, char *buf, size_t *len);

#endif
