/* metrics: chooses between the METRICS.yaml taxonomy (metrics_yaml.c) and
 * the default mapping (metrics_default.c): the taxonomy when the file reads
 * without error and yields at least one column with a formula, the default
 * mapping otherwise, with a one-line warning naming the file and the
 * problem.  Must not depend on curses or on a particular reader. */
#include "config.h"

#include "formats/hpctoolkit_v4/metrics.h"

#include <stdio.h>
#include <stdlib.h>

#include "formats/hpctoolkit_v4/metrics_yaml.h"

enum status metrics_add_columns(struct model_builder *b, const char *yaml_path,
				char **warning, struct error *err)
{
	*warning = NULL;
	if (!yaml_path)
		return metrics_add_default_columns(b, err);
	struct error yerr = {0};
	uint32_t n = 0;
	enum status st = metrics_yaml_add_columns(b, yaml_path, &n, &yerr);
	if (st == STATUS_NOMEM) {
		error_clear(&yerr);
		return error_set(err, STATUS_NOMEM, yaml_path,
				 "out of memory");
	}
	if (st == STATUS_OK && n > 0)
		return STATUS_OK;
	if (st == STATUS_OK) {
		if (asprintf(warning, "%s: no usable metric column (the "
			     "statistics it names are not in the database); "
			     "default columns shown", yaml_path) < 0)
			*warning = NULL;
	} else {
		*warning = error_format(&yerr);
	}
	error_clear(&yerr);
	return metrics_add_default_columns(b, err);
}
