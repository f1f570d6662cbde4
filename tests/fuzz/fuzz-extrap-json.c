/* fuzz-extrap-json: libFuzzer target for Extra-P's JSON-based parsers:
 * the JSON reader (new and legacy layouts, JSON Lines fallback), the JSON
 * Lines reader and the TaLPas reader, each given the same input.
 * Whatever the input, each returns a status with a message on failure; a
 * model one builds must keep the promises fuzz_extrap.h checks; the run
 * traps otherwise.  Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "formats/extrap/extrap.h"
#include "fuzz_extrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const fuzz_extrap_parser parse[] = {
		extrap_json_parse,
		extrap_jsonl_parse,
		extrap_talpas_parse,
	};
	for (size_t i = 0; i < sizeof(parse) / sizeof(parse[0]); i++)
		fuzz_extrap_parse(parse[i], data, size);
	return 0;
}
