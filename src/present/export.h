/* export: a database written in the formats other tools read, from any
 * format the model holds (`callscope export`):
 *   folded       Brendan Gregg's collapsed stacks, "main;solve;dot 1234",
 *                callers first, one line per stack (flamegraph.pl,
 *                speedscope, inferno);
 *   speedscope   speedscope's JSON file format, one sampled profile per
 *                metric, then one evented profile per trace line
 *                (export_trace.c: nested open/close events);
 *   chrome-trace the Trace Event JSON that Perfetto and chrome://tracing
 *                load: every trace line a thread (export_chrome.c);
 *   pprof        pprof's gzipped profile.proto, one sample type per
 *                metric (export_pprof.c).
 * Stack values are export_stacks' self values as integers: times in
 * nanoseconds, bytes in bytes, counts as they are, other numbers times
 * the power of ten that gives their total nine digits (export_scale says
 * which).  No curses here. */
#ifndef CALLSCOPE_EXPORT_H
#define CALLSCOPE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"
#include "model/model.h"

enum export_kind {
	EXPORT_FOLDED,
	EXPORT_SPEEDSCOPE,
	EXPORT_CHROME_TRACE,
	EXPORT_PPROF,
};

/* "folded", "speedscope", "chrome-trace", "pprof". */
bool export_kind_parse(const char *name, enum export_kind *out);
const char *export_kind_name(enum export_kind kind);
/* "folded, speedscope, chrome-trace, pprof", for messages. */
const char *export_kind_list(void);

/* Whether `kind` writes stacks of metric values (then it needs columns
 * that pass export_stacks_column) rather than the trace lines. */
bool export_kind_is_stacks(enum export_kind kind);

/* How column `column`'s values become the integers of a stack export:
 * multiply by the returned factor; *unit is speedscope's unit name
 * ("nanoseconds", "bytes", "none"). */
double export_scale(const struct model *m, uint32_t column, const char **unit);

/* Write `m` as `kind` to `out`.  Stack kinds take the inclusive columns
 * `columns` (export_stacks_column; folded: the first only) and set
 * `negative` (n_columns) to the negative self values they left out, in
 * the columns' units (export_stacks_walk); the trace kind ignores both.  The model's tree must be loaded (model_load_all),
 * its traces prepared.  STATUS_IO when writing fails, STATUS_NOT_FOUND
 * for a trace export of a database without trace lines. */
enum status export_write(const struct model *m, enum export_kind kind,
			 const uint32_t *columns, size_t n_columns, FILE *out,
			 double *negative, struct error *err);

/* export_pprof.c: the stacks of `columns` as a gzipped pprof profile. */
enum status export_pprof(const struct model *m, const uint32_t *columns,
			 size_t n_columns, FILE *out, double *negative,
			 struct error *err);

/* export_chrome.c */
enum status export_chrome_trace(const struct model *m, FILE *out,
				struct error *err);

#endif
