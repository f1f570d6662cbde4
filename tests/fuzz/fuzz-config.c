/* fuzz-config: libFuzzer target for the configuration parser.  Any bytes
 * go to config_parse_text as if they were a config file; `source` lines are
 * not followed, so the target reads no files.  Links the engine only. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "config/config_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	struct error err = {0};
	config_init(&c);
	c.source_disabled = true;
	config_parse_text(&c, (const char *)data, size, "fuzz", &err);
	for (size_t i = 0; i < c.n_colors; i++)
		if ((unsigned)c.colors[i].role >= THEME_ROLE_COUNT)
			__builtin_trap();
	config_free(&c);
	error_clear(&err);
	return 0;
}
