/* fuzz-dcpi: libFuzzer target for the DCPI profile decoder (header and
 * version-0 samples).  The input is one profile file; whatever it holds,
 * the decoder returns a status, and on success its samples must keep the
 * spec's promises (increasing offsets inside tsize, non-zero counts whose
 * number and 32-bit sum are the footer's); the run traps otherwise.  Links
 * the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "formats/dcpi/dcpi_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct span s = {.data = data, .len = size};
	struct dcpi_profile p;
	struct error err = {0};
	(void)dcpi_head_looks_like(data, size);
	if (dcpi_profile_parse(s, "fuzz", &p, &err) == STATUS_OK) {
		uint32_t sum = 0;
		for (size_t i = 0; i < p.n_samples; i++) {
			if (p.samples[i].count == 0 ||
			    p.samples[i].offset >= p.tsize ||
			    (i && p.samples[i].offset <=
					  p.samples[i - 1].offset))
				__builtin_trap();
			sum += p.samples[i].count;
		}
		if (p.n_samples != p.total_offsets || sum != p.total_samples ||
		    !p.image || !p.epoch || !p.event || !p.platform)
			__builtin_trap();
		dcpi_profile_clear(&p);
	} else if (err.status == STATUS_OK || !err.message) {
		__builtin_trap();
	}
	error_clear(&err);
	return 0;
}
