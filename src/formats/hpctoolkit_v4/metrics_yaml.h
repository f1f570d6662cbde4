/* metrics_yaml: reads an HPCToolkit METRICS.yaml taxonomy (the
 * metrics/default.yaml of a v4 database) into metric columns.  See
 * doc/metrics.md.  Must not depend on curses or on a particular reader. */
#ifndef CALLSCOPE_METRICS_YAML_H
#define CALLSCOPE_METRICS_YAML_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"

/* Add the columns the METRICS.yaml file at `path` describes to `b`, whose
 * stats are all added.  On success *n_columns receives the number of
 * columns added (possibly 0, when every variant refers to statistics the
 * database lacks).  On failure nothing is added and `err` names the file
 * and the problem with its line ("expected a mapping (line 12)"):
 * STATUS_NOT_FOUND / STATUS_IO when the file cannot be read,
 * STATUS_CORRUPT for malformed YAML or a wrong structure, STATUS_LIMIT when
 * a bound (size, nesting, alias expansion) is exceeded, STATUS_UNSUPPORTED
 * for an unknown `version`, STATUS_NOMEM when out of memory. */
enum status metrics_yaml_add_columns(struct model_builder *b,
				     const char *path, uint32_t *n_columns,
				     struct error *err);

/* The same over `len` bytes in memory; `name` is used in messages. */
enum status metrics_yaml_add_columns_mem(struct model_builder *b,
					 const char *name, const void *data,
					 size_t len, uint32_t *n_columns,
					 struct error *err);

#endif
