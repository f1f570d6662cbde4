/* present_value: how one metric value is written, for every screen and
 * every text output.  present_value_raw() is the column's own format (the
 * database's printf format when it is safe, else %.2e), which the batch
 * text and CSV reports keep byte for byte; the viewer's fitted forms
 * build on it.  No curses here. */
#ifndef CALLSCOPE_PRESENT_VALUE_H
#define CALLSCOPE_PRESENT_VALUE_H

#include <stdbool.h>
#include <stdint.h>

struct model;

/* true when FMT is a printf format with exactly one floating-point
 * conversion and nothing else that printf would read */
bool present_format_is_safe(const char *fmt);

/* the value V of COLUMN in the column's own format; NULL when out of
 * memory (the caller frees) */
char *present_value_raw(const struct model *m, uint32_t column, double v);

#endif
