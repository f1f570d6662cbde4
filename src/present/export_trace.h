/* export_trace: a trace line as properly nested open and close events of
 * frames, the shape speedscope's evented profiles and Trace Event
 * begin/end pairs want.  An interval track's intervals open at their
 * begin and close at their end; where a track's intervals overlap
 * without nesting (GPU queues with timestamp errors), an interval is cut
 * at the end of the one it began in, so that the events nest.  A sample
 * line's call paths open each frame at the sample that enters it and
 * close it at the first sample that leaves it, the last ones at the end
 * of the trace.  Streamed: element by element, keeping only the open
 * frames.  Also which lines an export writes (GPU work once).  No curses
 * here. */
#ifndef CALLSCOPE_EXPORT_TRACE_H
#define CALLSCOPE_EXPORT_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

struct export_trace_ops {
	/* frame `ctx_id` (a context id) opens at time `t` (ns as stored) */
	bool (*open)(void *ctx, uint64_t t, uint32_t ctx_id);
	/* the innermost open frame closes at time `t` */
	bool (*close)(void *ctx, uint64_t t);
};

/* Walk line `line` (TIMELINE_SAMPLES or TIMELINE_INTERVALS; others have
 * no events).  False when a read fails or a callback returns false. */
bool export_trace_line(const struct model *m, uint32_t line,
		       const struct export_trace_ops *ops, void *ctx);

/* The GPU grouping an export writes: the one the trace pane shows first
 * (by queue or by stream: the same work twice); lines of the other are
 * left out (export_trace_shown). */
uint8_t export_trace_group(const struct model *m);
bool export_trace_shown(const struct model *m, uint32_t line, uint8_t group);

#endif
