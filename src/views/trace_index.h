/* trace_index: time lookups on the model's timelines (sample lines,
 * interval tracks and counter lines), shared by the batch `trace` command and the trace pane
 * (through trace_view).
 *
 * Samples are read lazily through the model's trace provider; every lookup
 * is a binary search on timestamps, so a lookup costs O(log samples)
 * whatever the size of the trace, and a window of W cells costs
 * O(W log samples).  Nothing here scans or caches a whole line.  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_TRACE_INDEX_H
#define CALLSCOPE_TRACE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* The first and last times of a line (its first and last elements), read
 * once and passed to the searches below so that each search starts from a
 * known bracket.  A line's elements are samples (TIMELINE_SAMPLES) or
 * intervals (TIMELINE_INTERVALS); everything here handles both through one
 * element reader: an interval counts from its begin, and is idle (context
 * 0) at or after its end. */
struct trace_bounds {
	uint64_t first, last; /* times of the first and last elements */
	uint64_t count;
};

/* Read the bounds of `line`.  False when the line is empty, missing or
 * cannot be read. */
bool trace_bounds_read(const struct model *m, uint32_t line,
		       struct trace_bounds *out);

/* The last element of `line` at or before time `t` (its time, and its
 * context at t: 0 after an interval's end), with bounds `b`.  False when
 * `t` is before the first element or the line cannot be read.  Probes: one
 * where interpolation puts t, then a gallop and bisection near it. */
bool trace_element_at(const struct model *m, uint32_t line,
		      const struct trace_bounds *b, uint64_t t,
		      struct trace_sample *out, uint64_t *index);

/* Element `i` of sample line or interval track `line`: its time (an
 * interval's begin) and context.  False for a counter line, an index out
 * of range or a failed read.  The walk of trace_shares. */
bool trace_element_read(const struct model *m, uint32_t line, uint64_t i,
			uint64_t *time, uint32_t *ctx);

/* The same, reading the bounds first (the batch command). */
bool trace_sample_at(const struct model *m, uint32_t line, uint64_t t,
		     struct trace_sample *out, uint64_t *index);

/* Interval tracks: the interval active at `t` (the latest-begun one
 * running at t, following trace_interval.up links from the last one that
 * begins at or before t) and its index.  False when none is, when `line`
 * is not an interval track, or when a read fails. */
bool trace_interval_active(const struct model *m, uint32_t line, uint64_t t,
			   struct trace_interval *out, uint64_t *index);

/* Number of call-stack frames of `ctx_id` (model_kind_is_frame: entry
 * points, functions, kernels, regions); 1 for a context without frames, 0 for idle or unknown. */
uint32_t trace_ctx_frames(const struct model *m, uint32_t ctx_id);

/* The frame of `ctx_id`'s call stack at `depth`: the call stack is the
 * chain of entry and function contexts from the outermost (depth 0) to the
 * innermost enclosing `ctx_id`.  A stack shallower than `depth` gives its
 * deepest frame.  Returns the frame's context id; 0 for 0 (idle) or an
 * unknown context. */
uint32_t trace_ctx_at_depth(const struct model *m, uint32_t ctx_id,
			    uint32_t depth);

/* True when `line` shows its elements' own contexts at every call-stack
 * depth: a GPU queue or stream line (model_timeline.group), whose
 * intervals are kernels and copies -- taken at a depth they would be
 * their launching process or API call, one colour per process, where
 * Nsight and Perfetto show the kernel on the GPU row.  The depth applies
 * to host lines. */
bool trace_line_own_context(const struct model *m, uint32_t line);

/* Start time of cell k of a window of `columns` cells over [from, to):
 * from + k * (to - from) / columns, computed without overflow. */
uint64_t trace_cell_time(uint64_t from, uint64_t to, uint32_t columns,
			 uint32_t k);

/* Fill cells[0..columns) with the context active at the start of each
 * cell (0 when idle or before the first sample; where the reader knows a
 * context at another time of the cell without reading, trace_ops.near:
 * that one), taken at call-stack
 * `depth` unless depth is UINT32_MAX or the line is a GPU line
 * (trace_line_own_context): then the element's own context. */
void trace_cells(const struct model *m, uint32_t line, uint64_t from,
		 uint64_t to, uint32_t columns, uint32_t depth,
		 uint32_t *cells);

/* The one cell computation (the pane and `trace` share it): cells of
 * `line` with bounds `b` (NULL: all idle), each the element's own context.
 * Each cell's search starts from the previous cell's answer. */
void trace_cells_raw(const struct model *m, uint32_t line,
		     const struct trace_bounds *b, uint64_t from, uint64_t to,
		     uint32_t columns, uint32_t *cells);

/* The time of the next (forward) or previous change of context at
 * `depth` (UINT32_MAX: the element's own context) on `line`, from time
 * `t`: forward, the first later element whose context differs; backward,
 * the start of the run holding t, or of the run before when t is its
 * start.  Reads at most about `limit` elements (never a whole line); false
 * when there is no change within them. */
bool trace_next_change(const struct model *m, uint32_t line,
		       const struct trace_bounds *b, uint64_t t,
		       uint32_t depth, bool forward, uint64_t limit,
		       uint64_t *out);

/* ---- instants ------------------------------------------------------ */

/* Instants of interval track `line` in [t0, t1): the first one's index
 * (*first, UINT64_MAX for none) and how many there are (two bisections,
 * O(log n_instants)); t1 <= t0 is taken as [t0, t0] (exactly t0). */
uint64_t trace_instants_in(const struct model *m, uint32_t line, uint64_t t0,
			   uint64_t t1, uint64_t *first);

/* Fill index[0..columns) with the first instant of `line` in each cell's
 * time span [start of cell k, start of cell k + 1) of the window [from,
 * to) (trace_cell_time; the last cell ends at `to`; a span of no time,
 * when the window has fewer nanoseconds than cells, is its start
 * exactly), or UINT64_MAX.  One bisection per cell at most, O(log
 * n_instants): a cell ending before the next instant found reuses it. */
void trace_instant_cells(const struct model *m, uint32_t line, uint64_t from,
			 uint64_t to, uint32_t columns, uint64_t *index);

/* ---- counter lines ------------------------------------------------- */

/* Fill values[0..columns) with the value of counter line `line` in force
 * at the start of each cell of [from, to) (trace_cell_time): the last
 * value whose time is at or before it (model_counter_at), NaN before the
 * line's first value, on a line that is not a counter line or on a failed
 * read (where the reader knows a value at another time of the cell
 * without reading, trace_ops.counter_near: that one).  With `index`
 * non-NULL, index[k] is that value's index
 * (UINT64_MAX for NaN cells).  One binary search per cell, each
 * O(log count); a cell whose start is still before the next value's time
 * reuses the previous answer (one read). */
void trace_counter_cells(const struct model *m, uint32_t line, uint64_t from,
			 uint64_t to, uint32_t columns, double *values,
			 uint64_t *index);

/* The level, 1..8 eighths of a cell, of `value` on a track scaled to
 * [lo, hi]: 1 + round(7 * (value - lo) / (hi - lo)), so the minimum still
 * shows (one eighth) and the maximum fills the cell; a flat track
 * (hi <= lo) is 8 where the value is not 0 and 1 where it is.  0 for a
 * NaN value (nothing to draw). */
unsigned trace_counter_level(double value, double lo, double hi);

/* The finite values of values[0..n) (NaN skipped): their minimum and
 * maximum; false when there is none. */
bool trace_counter_range(const double *values, size_t n, double *lo,
			 double *hi);

/* `value` into buf: an integer below 1e15 in full ("1595"), else the
 * shortest %g form that reads back as the same double ("0.1", "1.5e+20");
 * "-" for NaN. */
void trace_format_value(double value, char *buf, size_t size);

#endif
