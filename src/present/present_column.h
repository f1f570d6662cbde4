/* present_column: the names a column, a statistic and a node kind are
 * shown with: a column's title ("CPUTIME (sec):Mean (I)"), fitted to a
 * header's width; a statistic as JSON; "sum"/"min"/"max"; a node kind
 * ("function", "loop", ...); the metric name of a measured metric of a
 * parametric set.  No curses here. */
#ifndef CALLSCOPE_PRESENT_COLUMN_H
#define CALLSCOPE_PRESENT_COLUMN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model;

/* "CPUTIME (sec) (I)" or "CPUTIME (sec):Mean (E)"; heap string, NULL when
 * out of memory. */
char *present_column_title(const struct model *m, uint32_t column);

/* The metric's name as a screen heads its values: without the unit the
 * name carries ("WALLCLOCK (us)" -> "WALLCLOCK", "GPU time (ns)" -> "GPU
 * time") when the values are written with their own units (times and
 * bytes, present_value_fit); else the name as it is.  NULL when out of
 * memory (the caller frees). */
char *present_metric_name_shown(const struct model *m, uint32_t column);

/* The title of `column` for a text header `width` characters wide: the full
 * title when it fits, else "NAME~:VARIANT (I)" with the name cut, else
 * "VARIANT (I)"; a title without a variant is returned whole (the caller
 * cuts its end).  Malloc'd; NULL when out of memory. */
char *present_column_title_fit(const struct model *m, uint32_t column,
			       size_t width);

/* Cube's metric tree (model_column.own): the column that shows metric
 * column `column` when the tree has the metric expanded (its values less
 * its sub-metrics', as the Cube GUI shows an open metric) or collapsed
 * (the stored, metric-inclusive values: `column` itself).  `column` when it
 * has no such form or is out of range. */
uint32_t present_metric_form(const struct model *m, uint32_t column,
			     bool expanded);

/* "sum", "min" or "max". */
const char *present_combine_name(uint8_t combine);

/* {"metric", "scope", "formula", "combine"} of statistic `stat`; null when
 * there is no such statistic (MODEL_NONE: a formula column's) or out of
 * memory: never NULL. */
json_t *present_stat_json(const struct model *m, uint32_t stat);

/* Name of a node kind or view row kind: "root", "entry", "function", ...,
 * "module", "file"; "unknown" otherwise. */
const char *present_kind_name(uint8_t kind);

/* The metric name of measured metric `measured` of a parametric set ("" when
 * it has no column). */
const char *present_measured_name(const struct model *m, uint32_t measured);

#endif
