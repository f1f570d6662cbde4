/* metrics: turning the summary statistics a database stores into the
 * metric columns callscope shows.
 *
 * For HPCToolkit v4 databases the columns come from the database's
 * metrics/default.yaml (METRICS.yaml format) when it is present and usable;
 * otherwise from the default mapping: for each metric, an inclusive column
 * reading the "execution" scope and an exclusive column reading the
 * "function" scope, both with the Sum statistic ($$, sum).  Must not depend
 * on curses, on ui/ or on a particular reader. */
#ifndef CALLSCOPE_METRICS_H
#define CALLSCOPE_METRICS_H

#include "model/model.h"
#include "core/status.h"

/* Add columns to a builder whose stats are all added.  `yaml_path` is the
 * METRICS.yaml file to use, or NULL.  When the file cannot be used (missing,
 * malformed, refers to statistics the database lacks for every variant) the
 * default mapping is applied and *warning receives a heap string naming the
 * file and the problem (the caller frees it); otherwise *warning is NULL.
 * Fails only when out of memory. */
enum status metrics_add_columns(struct model_builder *b, const char *yaml_path,
				char **warning, struct error *err);

/* The default mapping alone (used when there is no METRICS.yaml). */
enum status metrics_add_default_columns(struct model_builder *b,
					struct error *err);

#endif
