/* fuzz-extrap-prof: libFuzzer target for the Extra-Prof reader's file
 * half (extrap_prof_parse_one: msgpack-c's unpacker behind the checked
 * walk of extrap_msgpack.c, then the call tree merged and measured).
 * Whatever the input, it returns a status, with a message on failure;
 * the run traps otherwise.  Links the engine only. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "formats/extrap/extrap_prof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	enum status st =
	    extrap_prof_parse_one((const char *)data, size, "fuzz", &err);
	if (st != STATUS_OK && (err.status == STATUS_OK || !err.message))
		__builtin_trap();
	error_clear(&err);
	return 0;
}
