/* fuzz-v4-trace: libFuzzer target for the trace.db reader.  The input is
 * one trace.db file read from memory; the profiles profile.db would have
 * added are fixed (FUZZ_V4_PROFILES, fuzz_v4.h), so no other file is
 * needed.  A trace.db that opens has the first, last and middle samples of
 * each line read.  Links the engine only. */
#include "config.h"

#include "fuzz_v4.h"
#include "formats/hpctoolkit_v4/v4_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct v4_file f;
	struct v4_trace *t = NULL;
	struct model_builder *b = model_builder_new("hpctoolkit-v4", "fuzz");
	memset(&f, 0, sizeof(f));
	if (!b || !fuzz_v4_profiles(b))
		goto out;
	if (!fuzz_v4_open(data, size, V4_FORMAT_TRACE, "trace.db", &f, &err))
		goto out;
	if (v4_trace_open(&f, FUZZ_V4_PROFILES, b, &t, &err) != STATUS_OK)
		goto out;
	const struct model *m = model_builder_peek(b);
	for (uint32_t line = 0; line < model_n_timelines(m) && line < 64; line++) {
		uint64_t n = model_timelines(m)[line].count;
		uint64_t probes[] = {0, n / 2, n ? n - 1 : 0, n, UINT64_MAX};
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			struct trace_sample s;
			bool ok = v4_trace_sample(t, line, probes[i], &s);
			if (ok != (probes[i] < n))
				__builtin_trap();
		}
	}
out:
	v4_trace_close(t);
	v4_file_close(&f);
	model_builder_free(b);
	error_clear(&err);
	return 0;
}
