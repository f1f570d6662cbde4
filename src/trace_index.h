/* trace_index: time lookups on the model's timelines, shared by the batch
 * `trace` command and the trace pane.
 *
 * Samples are read lazily through the model's trace provider; every lookup
 * is a binary search on timestamps, so a lookup costs O(log samples)
 * whatever the size of the trace, and a window of W cells costs
 * O(W log samples).  Nothing here scans or caches a whole line.  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_TRACE_INDEX_H
#define CALLSCOPE_TRACE_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* The last sample of sample line `line` at or before time `t`.  False when
 * `t` is before the first sample, the line is empty or cannot be read. */
bool trace_sample_at(const struct model *m, uint32_t line, uint64_t t,
		     struct trace_sample *out, uint64_t *index);

/* The frame of `ctx_id`'s call stack at `depth`: the call stack is the
 * chain of entry and function contexts from the outermost (depth 0) to the
 * innermost enclosing `ctx_id`.  A stack shallower than `depth` gives its
 * deepest frame.  Returns the frame's context id; 0 for 0 (idle) or an
 * unknown context. */
uint32_t trace_ctx_at_depth(const struct model *m, uint32_t ctx_id,
			    uint32_t depth);

/* Start time of cell k of a window of `columns` cells over [from, to):
 * from + k * (to - from) / columns, computed without overflow. */
uint64_t trace_cell_time(uint64_t from, uint64_t to, uint32_t columns,
			 uint32_t k);

/* Fill cells[0..columns) with the context active at the start of each
 * cell (0 when idle or before the first sample), taken at call-stack
 * `depth` unless depth is UINT32_MAX (then the sample's own context). */
void trace_cells(const struct model *m, uint32_t line, uint64_t from,
		 uint64_t to, uint32_t columns, uint32_t depth,
		 uint32_t *cells);

#endif
