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
	enum status (*const parse[])(const char *, size_t, const char *,
				     struct model **, struct error *) = {
		extrap_json_parse,
		extrap_jsonl_parse,
		extrap_talpas_parse,
	};
	for (size_t i = 0; i < sizeof(parse) / sizeof(parse[0]); i++) {
		struct model *m = NULL;
		struct error err = {0};
		if (parse[i]((const char *)data, size, "fuzz", &m, &err) ==
		    STATUS_OK)
			fuzz_extrap_check(m);
		else if (err.status == STATUS_OK || !err.message)
			__builtin_trap();
		model_free(m);
		error_clear(&err);
	}
	return 0;
}
