/* fuzz-extrap-text: libFuzzer target for the Extra-P text format parser
 * (extrap_text_parse).  Whatever the input, the parser returns a status
 * with a message on failure; a model it builds must keep the reader's
 * promises: parameters and points exist, points sorted by coordinates,
 * every (callpath, metric) with a measurement has one at every point
 * (Extra-P's validation) with minimum <= median <= maximum where no value
 * is NaN; the run traps otherwise.  Links the engine only. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/extrap/extrap.h"
#include "fuzz_extrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model *m = NULL;
	struct error err = {0};
	if (extrap_text_parse((const char *)data, size, "fuzz", &m, &err) ==
	    STATUS_OK)
		fuzz_extrap_check(m);
	else if (err.status == STATUS_OK || !err.message)
		__builtin_trap();
	model_free(m);
	error_clear(&err);
	return 0;
}
