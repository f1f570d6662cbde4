/* check: the one place a failed invariant check (check.h) ends the
 * program; reached only in builds with CALLSCOPE_CHECKS.  Depends on libc
 * only. */
#include "config.h"

#include "core/check.h"

#include <stdio.h>
#include <stdlib.h>

void check_failed(const char *expr, const char *file, int line)
{
	fprintf(stderr, "callscope: check failed: %s (%s:%d)\n", expr, file,
		line);
	fflush(stderr);
	abort();
}
