/* trace_shares: how the time of a trace window divides among contexts,
 * over every line of the window -- the trace pane's legend, statistics
 * view and maximum depth, and `callscope trace --stats`.
 *
 * The definition (the same for the pane and the batch command):
 *   share(f) = sum over lines L of the time in [from, to) during which
 *              L's context at the chosen depth is f
 *            / (number of lines x (to - from)),
 * counter lines left out, idle (context 0) included.  A line's context
 * at time t is the one trace_index gives (so the grid's cells are point
 * samples of it): on a sample line (HPCToolkit) the last sample at or
 * before t, each sample holding until the next one (the last until the
 * window's end) and idle before the first and on a line without samples;
 * on a GPU line the context is the interval's own (the kernel or copy,
 * trace_line_own_context) at every depth, elsewhere the frame at the depth;
 * on an interval track (rocpd, Nsight) the latest-begun interval running
 * at t (nested regions: the innermost), idle where none runs.  So every
 * sample weighs its duration, as hpctraceviewer's statistics weigh each
 * sample by the time it stands for, and `trace --columns W` cells
 * converge to these shares as W grows (each cell is the context at its
 * start).  Instants (marks) take no time and are not counted.
 *
 * Cost: per line two bisections (the elements at `from` and `to`) and
 * one read per element inside the window, never a whole line outside
 * it.  Past the budget (the window's elements over all lines more than
 * `budget`), a line holding more than its even part of the budget is
 * not walked: its context is taken at evenly spaced times, each the
 * middle of an equal slice of the window (or a time of the slice the
 * reader knows without reading: trace_ops.near) and weighing that slice
 * (stratified sampling: `points` says how many), about budget /
 * TRACE_SHARES_POINT_READS bisections in all; when the long lines are
 * too many for TRACE_SHARES_POINTS times each, an even spread of them
 * is taken, and past TRACE_SHARES_LINES lines an even spread of lines:
 * the result says "sampled from N of M lines".  So a window costs about
 * `budget` reads whatever the file's size (budget 0: every element).
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_TRACE_SHARES_H
#define CALLSCOPE_TRACE_SHARES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

/* Elements read for one window at most before lines are sampled. */
#define TRACE_SHARES_BUDGET 200000u
/* A long line (past the budget, more elements than its even part of it)
 * is taken at this many times at least and at most (one bisection each,
 * counted as TRACE_SHARES_POINT_READS reads of the budget). */
#define TRACE_SHARES_POINTS 64u
#define TRACE_SHARES_POINTS_MAX 4096u
#define TRACE_SHARES_POINT_READS 100u
/* Lines looked at at most (each costs two bisections before any element
 * is read): more are sampled evenly to this many. */
#define TRACE_SHARES_LINES 1024u

/* Time per raw context (the elements' own contexts) of a window: an
 * open-addressing table, ctx 0 (idle) kept apart. */
struct trace_ctx_time {
	uint32_t ctx;  /* raw context id, 0 = empty slot */
	uint64_t time; /* nanoseconds over the lines counted */
};

struct trace_ctx_table {
	struct trace_ctx_time *slots;
	size_t cap, used;
};

struct trace_shares {
	struct trace_ctx_table depth; /* contexts taken at the depth */
	struct trace_ctx_table own;   /* trace_line_own_context lines' */
	uint64_t idle;        /* nanoseconds idle over the lines counted */
	uint64_t total;       /* lines counted x window width */
	uint32_t lines;       /* non-counter lines of the window */
	uint32_t counted;     /* of which counted (== lines unless sampled) */
	uint32_t max_frames;  /* the most frames of a context seen on a
				 line the depth applies to */
	uint64_t elements;    /* elements read */
	uint32_t points;      /* > 0: some lines counted were sampled at
				 this many times instead of walked */
	/* trace_shares_compute_columns: col[k] is column k's own shares
	 * (its depth, own, idle, total, counted and lines; the rest 0) */
	uint32_t columns;
	struct trace_shares *col;
	uint64_t from, to; /* the window, with columns */
	bool walk_own;     /* private: the walked line's contexts are own */
};

/* Compute `s` (zero-initialise it once; release with trace_shares_free)
 * for timelines lines[0..n) over [from, to): the shares as defined
 * above, reading at most about `budget` elements (0: no limit).
 * STATUS_NOMEM on allocation failure. */
enum status trace_shares_compute(const struct model *m, const uint32_t *lines,
				 uint32_t n, uint64_t from, uint64_t to,
				 uint64_t budget, struct trace_shares *s,
				 struct error *err);

/* As trace_shares_compute, and besides per time column (the summary
 * view): the window cut into `columns` spans as the grid's cells are
 * (column k is [trace_cell_time(k), trace_cell_time(k + 1)), the last
 * ending at `to`), s->col[k] the shares of column k's span over the same
 * lines counted, each line's time split at the column edges: column k's
 * share(f) is the time in its span during which the lines' context is f
 * over (lines counted x the span's width), never a point sample.  Cost:
 * the elements inside the window once, plus lines x columns.  A column
 * of no time (the window narrower in nanoseconds than `columns`) has
 * total 0. */
enum status trace_shares_compute_columns(const struct model *m,
					 const uint32_t *lines, uint32_t n,
					 uint64_t from, uint64_t to,
					 uint32_t columns, uint64_t budget,
					 struct trace_shares *s,
					 struct error *err);

void trace_shares_free(struct trace_shares *s);

/* The time of the raw contexts in `s` taken at call-stack `depth`
 * (trace_ctx_at_depth; GPU lines' contexts as they are,
 * trace_line_own_context): *out malloc'd, (ctx at depth, time) pairs, idle
 * first when there is any, the rest in no particular order. */
enum status trace_shares_at_depth(const struct model *m,
				  const struct trace_shares *s, uint32_t depth,
				  struct trace_ctx_time **out, size_t *n,
				  struct error *err);

#endif
