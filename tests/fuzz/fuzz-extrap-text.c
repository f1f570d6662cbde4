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
	fuzz_extrap_parse(extrap_text_parse, data, size);
	return 0;
}
