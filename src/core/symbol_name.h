/* symbol_name: the short form of a C or C++ symbol as a person names it
 * ("saxpy" for "saxpy(double *, double *, double, int)", "reduce" for
 * "void reduce<float, 256>(float const*, float*)"), for readers that
 * offer it as a choice of names and for panes that have room for the
 * short form only.  Plain text in, plain text out; no allocation. */
#ifndef CALLSCOPE_CORE_SYMBOL_NAME_H
#define CALLSCOPE_CORE_SYMBOL_NAME_H

#include <stddef.h>

/* NAME without its parameter list, template arguments, return type and
 * scope, written into OUT (SIZE bytes, always terminated); a name that is
 * not a C++ name is copied as it is. */
void symbol_base_name(const char *name, char *out, size_t size);

#endif
