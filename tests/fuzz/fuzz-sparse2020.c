/* fuzz-sparse2020: libFuzzer target for sparse2020.  The input holds the
 * three files: u32 (big-endian) length of profile.db, u32 length of cct.db,
 * profile.db, cct.db, and the rest is trace.db (absent when empty).  A
 * database that opens has summary and per-profile values looked up for a
 * few contexts and metrics and its trace lines probed.  Links the engine
 * only. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/sparse2020.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void probe(struct sparse2020 *s)
{
	uint32_t np = sparse2020_n_profiles(s);
	for (uint32_t p = 0; p <= np && p < 64; p++) {
		const struct model_id *ids;
		uint32_t n;
		bool summary;
		sparse2020_profile_ids(s, p, &ids, &n, &summary);
		if (p >= np && (ids || n || summary))
			__builtin_trap();
	}
	static const uint32_t ctxs[] = {0, 1, 2, 3, 7, 45, 1000, UINT32_MAX};
	static const uint32_t mids[] = {0, 1, 2, 256, 512, 65535, 65536};
	for (size_t i = 0; i < sizeof(ctxs) / sizeof(ctxs[0]); i++) {
		for (size_t j = 0; j < sizeof(mids) / sizeof(mids[0]); j++) {
			double v;
			(void)sparse2020_summary_value(s, ctxs[i], mids[j], &v);
			struct profile_value *pv = NULL;
			size_t n = 0;
			struct error err = {0};
			if (sparse2020_profile_values(s, ctxs[i], mids[j], &pv,
						      &n, &err) == STATUS_OK) {
				for (size_t k = 0; k < n; k++)
					if (pv[k].profile == 0 ||
					    pv[k].profile >= np ||
					    (k && pv[k].profile <=
							  pv[k - 1].profile))
						__builtin_trap();
			}
			free(pv);
			error_clear(&err);
		}
	}
	for (uint32_t line = 0; line < sparse2020_n_trace_lines(s) && line < 64;
	     line++) {
		const struct legacy_trace_line *l = sparse2020_trace_line(s, line);
		if (sparse2020_trace_line_profile(s, line) >= np)
			__builtin_trap();
		uint64_t n = l->n_samples;
		uint64_t probes[] = {0, n / 2, n ? n - 1 : 0, n, UINT64_MAX};
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			struct trace_sample ts;
			bool ok = sparse2020_trace_sample(s, line, probes[i],
							  &ts);
			if (ok && probes[i] >= n)
				__builtin_trap();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct blob *prof = NULL, *cct = NULL, *trace = NULL;
	struct sparse2020 *s = NULL;
	if (size < 8)
		return 0;
	uint64_t lp = be32(data), lc = be32(data + 4);
	size -= 8;
	data += 8;
	if (lp > size || lc > size - lp)
		return 0;
	uint64_t lt = size - lp - lc;
	if (blob_open_memory(data, lp, "profile.db", &prof, &err) != STATUS_OK ||
	    blob_open_memory(data + lp, lc, "cct.db", &cct, &err) != STATUS_OK ||
	    (lt && blob_open_memory(data + lp + lc, lt, "trace.db", &trace,
				    &err) != STATUS_OK)) {
		blob_close(prof);
		blob_close(cct);
		error_clear(&err);
		return 0;
	}
	if (sparse2020_open_blobs(prof, cct, trace, &s, &err) == STATUS_OK)
		probe(s);
	sparse2020_close(s);
	error_clear(&err);
	return 0;
}
