/* fuzz_tmp: the private temporary folder of a fuzz target that writes its
 * input to files (cube, archive, otf2-defs, gpu-rows): /tmp/fuzz-NAME-XXXXXX,
 * made at the first input and removed with what is in it at exit. */
#ifndef CALLSCOPE_TESTS_FUZZ_TMP_H
#define CALLSCOPE_TESTS_FUZZ_TMP_H

#include <stdio.h>
#include <stdlib.h>

#include "core/file_tree.h"

#define FUZZ_TMP_MAX 64

static char fuzz_tmp[FUZZ_TMP_MAX];

static void fuzz_tmp_remove(void)
{
	file_tree_remove(fuzz_tmp, NULL);
}

/* The folder (made on the first call; aborts when it cannot be). */
static inline const char *fuzz_tmp_dir(const char *name)
{
	if (!fuzz_tmp[0]) {
		snprintf(fuzz_tmp, sizeof(fuzz_tmp), "/tmp/fuzz-%s-XXXXXX", name);
		if (!mkdtemp(fuzz_tmp))
			abort();
		atexit(fuzz_tmp_remove);
	}
	return fuzz_tmp;
}

#endif
