/* fuzz-legacy-trace: libFuzzer target for legacy_trace.  The input is
 * opened twice from memory: as an experiment.mt and as one hpctrace file.
 * Lines that open have their first, middle and last samples read, and the
 * samples just past the end refused.  Links the engine only. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(struct legacy_trace *t)
{
	for (uint32_t line = 0; line < legacy_trace_n_lines(t) && line < 64;
	     line++) {
		const struct legacy_trace_line *l = legacy_trace_line(t, line);
		uint64_t n = l->n_samples;
		uint64_t probes[] = {0, n / 2, n ? n - 1 : 0, n, UINT64_MAX};
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			struct trace_sample s;
			bool ok = legacy_trace_sample(t, line, probes[i], &s);
			if (ok && probes[i] >= n)
				__builtin_trap();
			if (ok && probes[i] == 0 && s.time != l->t_min)
				__builtin_trap();
		}
	}
	struct error err = {0};
	(void)legacy_trace_set_time_unit(t, 1000000, &err);
	error_clear(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct blob *b = NULL;
	struct legacy_trace *t = NULL;
	if (blob_open_memory(data, size, "experiment.mt", &b, &err) ==
		    STATUS_OK &&
	    legacy_trace_open_mt_blob(b, &t, &err) == STATUS_OK)
		probe(t);
	legacy_trace_close(t);
	t = NULL;
	error_clear(&err);
	b = NULL;
	if (blob_open_memory(data, size, "app-000001-002-a8c070ca-1-0.hpctrace",
			     &b, &err) == STATUS_OK &&
	    legacy_trace_open_hpctrace_blobs(&b, 1, &t, &err) == STATUS_OK)
		probe(t);
	legacy_trace_close(t);
	error_clear(&err);
	return 0;
}
