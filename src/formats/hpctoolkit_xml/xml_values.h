/* xml_values: the metric values written inline in an experiment.xml
 * (`<M n="metric id" v="value"/>` under a context), kept as one sorted
 * table of (context id, metric id) -> value for lookups and one-pass scans.
 * Must not depend on expat, on the model or on curses. */
#ifndef CALLSCOPE_XML_VALUES_H
#define CALLSCOPE_XML_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct xml_values;

/* An empty table, or NULL when out of memory. */
struct xml_values *xml_values_new(void);

/* Record `value` of metric `metric` at context `ctx`.  False when out of
 * memory.  A later value for the same pair replaces an earlier one once the
 * table is sealed. */
bool xml_values_add(struct xml_values *v, uint32_t ctx, uint32_t metric,
		    double value);

/* Sort the table for lookups; call once after the last xml_values_add.
 * False when out of memory (the table is then unusable). */
bool xml_values_seal(struct xml_values *v);

/* Number of values recorded. */
size_t xml_values_count(const struct xml_values *v);

/* The value of `metric` at `ctx`; false when the file has none. */
bool xml_values_get(const struct xml_values *v, uint32_t ctx, uint32_t metric,
		    double *out);

/* Every value of `metric`, in increasing context order. */
void xml_values_each(const struct xml_values *v, uint32_t metric,
		     void (*emit)(void *ctx, uint32_t ctx_id, double value),
		     void *arg);

/* True when some value of `metric` was recorded. */
bool xml_values_has_metric(const struct xml_values *v, uint32_t metric);

void xml_values_free(struct xml_values *v);

#endif
