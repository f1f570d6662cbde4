/* fuzz-legacy-values: libFuzzer target for legacy_values.  The input is
 * opened twice from memory: as an experiment-1.mdb and as one metric-db
 * file.  A set that opens has values read at the edges of its shape and
 * just outside it (which must be refused).  Links the engine only. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(struct legacy_values *lv)
{
	uint32_t np = legacy_values_n_profiles(lv);
	uint32_t nc = legacy_values_n_contexts(lv);
	uint32_t nm = legacy_values_n_metrics(lv);
	uint32_t ps[] = {0, np / 2, np ? np - 1 : 0, np};
	uint32_t cs[] = {0, 1, nc / 2, nc ? nc - 1 : 0, nc, UINT32_MAX};
	uint32_t ms[] = {0, nm ? nm - 1 : 0, nm};
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint32_t r, t;
		legacy_values_profile_id(lv, ps[i], &r, &t);
		for (size_t j = 0; j < sizeof(cs) / sizeof(cs[0]); j++) {
			for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); k++) {
				double v;
				bool ok = legacy_values_get(lv, ps[i], cs[j],
							    ms[k], &v);
				if (ok && (ps[i] >= np || cs[j] == 0 ||
					   cs[j] >= nc || ms[k] >= nm))
					__builtin_trap();
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct blob *b = NULL;
	struct legacy_values *lv = NULL;
	if (blob_open_memory(data, size, "experiment-1.mdb", &b, &err) ==
		    STATUS_OK &&
	    legacy_values_open_mdb_blob(b, &lv, &err) == STATUS_OK)
		probe(lv);
	legacy_values_close(lv);
	lv = NULL;
	error_clear(&err);
	b = NULL;
	if (blob_open_memory(data, size,
			     "1.app-000001-002-a8c070ca-121009-0.metric-db", &b,
			     &err) == STATUS_OK &&
	    legacy_values_open_metricdb_blobs(&b, 1, &lv, &err) == STATUS_OK)
		probe(lv);
	legacy_values_close(lv);
	error_clear(&err);
	return 0;
}
