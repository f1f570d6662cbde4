/* fuzz-v4-profile: libFuzzer target for the profile.db reader.  The input
 * is one profile.db file read from memory; the identifier kind names that
 * meta.db would supply are fixed (fuzz_v4.h), so no meta.db is needed.  A
 * profile.db that reads has its summary values looked up for the first
 * contexts and statistics.  Links the engine only. */
#include "config.h"

#include "fuzz_v4.h"
#include "formats/hpctoolkit_v4/v4_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct v4_file f;
	struct v4_meta meta = {.kind_names = NULL, .n_kinds = 0};
	uint32_t handles[FUZZ_V4_KINDS];
	struct v4_profile *p = NULL;
	struct model_builder *b = model_builder_new("hpctoolkit-v4", "fuzz");
	memset(&f, 0, sizeof(f));
	if (!b || !fuzz_v4_meta(b, &meta, handles))
		goto out;
	if (!fuzz_v4_open(data, size, V4_FORMAT_PROFILE, "profile.db", &f,
			  &err))
		goto out;
	if (v4_profile_open(&f, &meta, b, &p, &err) != STATUS_OK)
		goto out;
	if (v4_profile_count(p) != model_n_profiles(model_builder_peek(b)))
		__builtin_trap();
	for (uint32_t ctx = 0; ctx < 32; ctx++)
		for (uint32_t stat = 0; stat < 32; stat++) {
			double v;
			(void)v4_profile_summary(p, ctx, stat, &v);
		}
out:
	v4_profile_close(p);
	v4_file_close(&f);
	model_builder_free(b);
	error_clear(&err);
	return 0;
}
