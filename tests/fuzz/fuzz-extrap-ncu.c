/* fuzz-extrap-ncu: libFuzzer target for the Nsight Compute report decoder
 * of the extrap-nsight reader (extrap_ncu_parse: protocol buffers without
 * a schema over checked spans).  Whatever the input, the decoder returns a
 * status with a message on failure; a report it decodes keeps its
 * promises: every kept metric names a string of the table and no kept
 * name starts with device__attribute or nvlink__; the run traps
 * otherwise.  Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/extrap/extrap_nsys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ncu_report r;
	struct error err = {0};
	if (extrap_ncu_parse(data, size, "fuzz", &r, &err) == STATUS_OK) {
		for (size_t i = 0; i < r.n_results; i++)
			for (size_t k = 0; k < r.results[i].n; k++) {
				uint32_t id = r.results[i].name[k];
				if (id >= r.n_strings ||
				    strncmp(r.strings[id], "nvlink__", 8) ==
					0 ||
				    strncmp(r.strings[id], "device__attribute",
					    17) == 0)
					__builtin_trap();
			}
		extrap_ncu_free(&r);
	} else if (err.status == STATUS_OK || !err.message || r.n_results ||
		   r.n_strings) {
		__builtin_trap();
	}
	error_clear(&err);
	return 0;
}
