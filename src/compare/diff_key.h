/* diff_key: what makes two frames of two builds "the same" when runs are
 * compared.  A frame's name is normalised so that what a rebuild changes
 * does not split it: hexadecimal addresses ("0x4005d0" -> "0x?"),
 * template and lambda numbering ("{lambda()#3}" -> "{lambda()#N}",
 * clang's "$_2" -> "$_N" and "'lambda2'" -> "'lambdaN'"), compiler clone
 * and outlining numbers ("._omp_fn.7" -> "._omp_fn.N", ".constprop.0",
 * ".isra.1", ".part.2", ".cold.3", ".lto_priv.0" -> ".N"); a load module
 * or source file is kept by its last path component (the directory a
 * build was installed to differs).  Pure functions on strings, no model:
 * doc/compare.md lists the rules, tests/test-diff.c checks them. */
#ifndef CALLSCOPE_DIFF_KEY_H
#define CALLSCOPE_DIFF_KEY_H

#include <stddef.h>

/* `name` normalised as above (a heap string; NULL when out of memory). */
char *diff_key_name(const char *name);

/* An entry point's name normalised: diff_key_name, and the number after
 * "pid ", "tid ", "thread " or "process " becomes N (operating system ids
 * differ between runs: rocpd's "pid 1289127", "thread 1289127 (main)";
 * MPI ranks and GPU numbers stay).  Heap string; NULL when out of
 * memory. */
char *diff_key_entry(const char *name);

/* The last component of `path` ("" for NULL), a pointer into it. */
const char *diff_key_base(const char *path);

#endif
