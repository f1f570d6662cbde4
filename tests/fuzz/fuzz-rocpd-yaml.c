/* fuzz-rocpd-yaml: libFuzzer target for a run's index YAML file
 * (rocpd_index_yaml_parse).  Any bytes are parsed; an accepted list is
 * checked against the parser's own promises (at most
 * ROCPD_YAML_MAX_FILES entries, each relative, without '..' or a NUL)
 * and freed.  Links the engine only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_index_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **v = NULL;
	size_t n = 0;
	char why[160];
	if (rocpd_index_yaml_parse((const char *)data, size, &v, &n, why,
				   sizeof(why)) == STATUS_OK) {
		if (n == 0 || n > ROCPD_YAML_MAX_FILES)
			abort();
		for (size_t i = 0; i < n; i++)
			if (v[i][0] == '\0' || v[i][0] == '/' ||
			    strcmp(v[i], "..") == 0 ||
			    strncmp(v[i], "../", 3) == 0 ||
			    strstr(v[i], "/../") || strstr(v[i], "/./"))
				abort();
	} else if (v || n || !why[0] || strchr(why, '\n')) {
		abort();
	}
	rocpd_index_yaml_free(v, n);
	return 0;
}
