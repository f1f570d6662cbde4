/* fuzz-v4-cct: libFuzzer target for the cct.db reader.  The input is one
 * cct.db file read from memory; profile.db is stood in for by a fixed
 * profile count (FUZZ_V4_PROFILES), so no other file is needed.  A cct.db
 * that opens has the per-profile values of the first contexts and metrics
 * read, as the thread view would.  Links the engine only. */
#include "config.h"

#include <stdlib.h>

#include "fuzz_v4.h"
#include "formats/hpctoolkit_v4/v4_cct.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct v4_file f;
	struct v4_cct *c = NULL;
	if (!fuzz_v4_open(data, size, V4_FORMAT_CCT, "cct.db", &f, &err))
		goto out;
	if (v4_cct_open(&f, FUZZ_V4_PROFILES, &c, &err) != STATUS_OK)
		goto out;
	for (uint32_t ctx = 0; ctx < 32; ctx++)
		for (uint32_t metric = 0; metric < 16; metric++) {
			struct profile_value *vals = NULL;
			size_t n = 0;
			error_clear(&err);
			if (v4_cct_values(c, ctx, metric, &vals, &n, &err) ==
			    STATUS_OK)
				for (size_t i = 0; i < n; i++)
					if (vals[i].profile >= FUZZ_V4_PROFILES)
						__builtin_trap();
			free(vals);
		}
out:
	v4_cct_close(c);
	v4_file_close(&f);
	error_clear(&err);
	return 0;
}
