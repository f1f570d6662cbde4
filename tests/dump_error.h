/* dump_error: how the tests' dump programs (cube-dump, otf2-dump,
 * test-legacy-dump, remote-cli) say that something failed: the error's
 * one line on stderr, after "PROGRAM: " when `program` is not NULL, and 2,
 * their exit status for a failure, returned.  dump_error also clears the
 * error; dump_error_print leaves it (an error a reader keeps). */
#ifndef CALLSCOPE_TESTS_DUMP_ERROR_H
#define CALLSCOPE_TESTS_DUMP_ERROR_H

#include <stdio.h>
#include <stdlib.h>

#include "core/status.h"

static inline int dump_error_print(const char *program,
				   const struct error *err)
{
	char *line = error_format(err);
	fprintf(stderr, "%s%s%s\n", program ? program : "",
		program ? ": " : "", line ? line : "error");
	free(line);
	return 2;
}

static inline int dump_error(const char *program, struct error *err)
{
	dump_error_print(program, err);
	error_clear(err);
	return 2;
}

#endif
