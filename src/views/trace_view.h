/* trace_view: the trace pane's state and what it draws, without curses.
 *
 * A view over the model's timelines: a time window, a range of (filtered)
 * lines, a call-stack depth, a cursor (time, line), a mark, and an undo/redo
 * stack of windows.  trace_view_compute() fills a grid of rows x columns
 * cells for the visible window only: each row stands for a range of lines
 * and shows its first line (the representative, as hpcviewer does), each
 * cell is the context active at the start of its time slice, found by the
 * searches of trace_index.  From the grid come the legend and statistics
 * (share of cells per frame), the summary view (per column, the share of
 * rows in each frame) and, for the cursor's line, the depth view.  The view
 * keeps per line only the times of its first and last elements, read when
 * the line is first drawn: memory does not grow with the number of samples.
 *
 * Counter lines (TIMELINE_COUNTER) stay lines of the list at the place the
 * model gives them (a reader adds them after the lines of their file), so
 * that the filter, the line range and zoom, the rows' representatives, the
 * cursor and the mouse treat every line alike; a counter row's cells are
 * idle (0) and left out of the shares, and the grid carries its values
 * instead: per cell the value in force at the cell's start, one
 * O(log values) search per cell (trace_counter_cells).
 *
 * Instants (marks without duration) of an interval track are not in its
 * cells (the context active there is the interval's, as if they were
 * not there); the grid carries, per cell, the first instant in the
 * cell's span, one O(log instants) search per cell at most.
 * Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_TRACE_VIEW_H
#define CALLSCOPE_TRACE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "core/status.h"
#include "views/trace_index.h"

#define TRACE_VIEW_UNDO 64 /* view changes kept for undo */

/* What the screen shows: time window [from, to) and lines [line_lo,
 * line_hi) of the filtered list, at call-stack depth `depth`. */
struct trace_window {
	uint64_t from, to;
	uint32_t line_lo, line_hi;
	uint32_t depth;
};

/* One computed grid.  cells[r * columns + k] is the context at `depth`,
 * raw[...] the element's own context (for the call path and the tree
 * highlight).  row_line[r] is the representative timeline of row r. */
struct trace_grid {
	uint32_t rows, columns;
	uint32_t *cells;
	uint32_t *raw;
	uint32_t *row_line;
	/* values[r * columns + k]: on a row whose representative is a
	 * counter line, the value in force at the start of cell k (NaN
	 * before its first value); NaN on other rows */
	double *values;
	/* instants[r * columns + k]: on an interval track, the first
	 * instant of the row's representative line in cell k's time span
	 * (trace_instant_cells), UINT64_MAX for none */
	uint64_t *instants;
	/* what `raw` was read for: a change of depth alone re-derives
	 * `cells` without reading the trace again */
	bool raw_valid, raw_depth_view;
	uint64_t raw_from, raw_to, raw_stamp;
	uint32_t raw_lo, raw_hi, raw_line;
};

/* A legend, statistics or summary entry: a frame context and its weight:
 * cells of a grid (trace_grid_shares), or nanoseconds summed over the
 * window's lines (trace_view_shares, the legend and statistics;
 * trace_view_column_shares, the summary view's columns). */
struct trace_share {
	uint32_t ctx;   /* frame context id; 0 = idle */
	uint32_t color; /* trace_view_color() */
	uint64_t cells;
};

struct trace_view;

/* A view over all lines of `m` (samples, intervals, counters), showing
 * everything at depth 0.  STATUS_UNSUPPORTED when the model has no
 * timelines. */
enum status trace_view_new(const struct model *m, struct trace_view **out,
			   struct error *err);
void trace_view_free(struct trace_view *v);

const struct trace_window *trace_view_window(const struct trace_view *v);

/* The filtered lines: count and the timeline index of filtered line i. */
uint32_t trace_view_line_count(const struct trace_view *v);
uint32_t trace_view_line(const struct trace_view *v, uint32_t i);

/* Keep only lines whose identifier tuple matches `pattern` (NULL or "":
 * every line): space-separated KIND RANGES pairs, e.g. "RANK 0-7",
 * "RANK 0-3,8 THREAD 0"; a line matches when, for each pair, its tuple has
 * an element of that kind (case-insensitive) whose logical id is in the
 * ranges.  `hide_empty` also drops lines without elements.  Resets the line
 * range and clears the undo stack.  STATUS_USAGE for a malformed pattern;
 * STATUS_NOT_FOUND (filter unchanged) when no line matches. */
enum status trace_view_set_filter(struct trace_view *v, const char *pattern,
				  bool hide_empty, struct error *err);

/* GPU lines by queue or by stream (model_timeline.group): one grouping
 * is shown at a time, at first the grouping of the model's first grouped
 * line (rocpd: queues; Nsight: streams); lines of neither (host threads,
 * counters) always.  trace_view_gpu_lines is the grouping shown
 * (TIMELINE_GROUP_NONE when the model has no grouped lines);
 * trace_view_has_gpu_lines whether the model has lines of `g`;
 * trace_view_set_gpu_lines shows them instead (STATUS_NOT_FOUND when
 * there are none): the line filter is applied again (O(lines)), the line
 * range reset, the undo stack cleared, and a cursor on a GPU line goes to
 * the first line of the new grouping. */
enum timeline_group trace_view_gpu_lines(const struct trace_view *v);
bool trace_view_has_gpu_lines(const struct trace_view *v,
			      enum timeline_group g);
enum status trace_view_set_gpu_lines(struct trace_view *v,
				     enum timeline_group g, struct error *err);

/* The number of counter lines among filtered lines [lo, hi): O(1). */
uint32_t trace_view_counters_in(const struct trace_view *v, uint32_t lo,
				uint32_t hi);

/* The counter value in force at the cursor when the cursor's line is a
 * counter line: its line, index, time and value.  False on other lines
 * and before the line's first value. */
bool trace_view_cursor_counter(struct trace_view *v, uint32_t *line,
			       uint64_t *index, uint64_t *time,
			       double *value);

/* The bytes at the start of every filtered line's label that all of
 * them share ("NODE 0 " when every line is on node 0), cut at a word
 * boundary and never between a key and its value ("RANK 1" and "RANK 2"
 * share nothing); 0 for fewer than two lines.  O(lines) after the line
 * list changes, then cached.  The pane shows labels without it. */
size_t trace_view_label_prefix(struct trace_view *v);

/* Cursor: a time and a filtered line index. */
uint64_t trace_view_cursor_time(const struct trace_view *v);
uint32_t trace_view_cursor_line(const struct trace_view *v);
void trace_view_set_cursor(struct trace_view *v, uint64_t time,
			   uint32_t line);

/* View changes; each pushes the previous window on the undo stack and
 * clears redo.  Return false when nothing changed. */
/* Time zoom by num/den (< 1 zooms in) around the cursor time. */
bool trace_view_zoom_time(struct trace_view *v, uint32_t num, uint32_t den);
/* Pan by `num`/`den` of the window's width (negative: earlier). */
bool trace_view_pan_time(struct trace_view *v, int32_t num, uint32_t den);
/* Line zoom by num/den around the cursor line. */
bool trace_view_zoom_lines(struct trace_view *v, uint32_t num, uint32_t den);
/* Scroll the line range by `delta` lines. */
bool trace_view_pan_lines(struct trace_view *v, int64_t delta);
bool trace_view_set_depth(struct trace_view *v, uint32_t depth);
/* Everything: the whole time range and all filtered lines (depth kept). */
bool trace_view_home(struct trace_view *v);
/* Mark the cursor time; with a mark, zoom to [mark, cursor). */
void trace_view_mark(struct trace_view *v);
bool trace_view_has_mark(const struct trace_view *v, uint64_t *time);
bool trace_view_zoom_to_mark(struct trace_view *v);
bool trace_view_undo(struct trace_view *v);
bool trace_view_redo(struct trace_view *v);

/* Move the cursor to the next / previous change of context at the current
 * depth on the cursor's line (panning to show it); on a counter line, to
 * the next / previous change of value (the start of the run of equal
 * values holding the cursor, or of the run before when the cursor is at
 * its start).  False when none is found within a bounded number of
 * elements. */
bool trace_view_next_change(struct trace_view *v, bool forward);

/* The interval active at the cursor (trace_interval_active on the
 * cursor's line): its track, index and interval.  False when the cursor's
 * line is not an interval track or nothing runs there. */
bool trace_view_cursor_interval(struct trace_view *v, uint32_t *line,
				uint64_t *index, struct trace_interval *out);

/* The first instant of the cursor's line in the time span of the
 * cursor's cell of a window of `columns` cells (the cell the pane draws
 * its mark in), and how many lie in that span: its track, index and
 * instant.  False when there is none (or the line has no instants). */
bool trace_view_cursor_instant(struct trace_view *v, uint32_t columns,
			       uint32_t *line, uint64_t *index,
			       uint64_t *count, struct trace_instant *out);

enum trace_link_result {
	TRACE_LINK_MOVED,  /* the cursor is on the linked interval */
	TRACE_LINK_IDLE,   /* no interval at the cursor */
	TRACE_LINK_NONE,   /* the interval has no link */
	TRACE_LINK_HIDDEN, /* the linked interval's line is filtered out */
	TRACE_LINK_ONLY,   /* `sibling`: the only one its call launched */
};

/* Follow the link of the interval at the cursor (model_interval_linked):
 * from GPU work to the API call that launched it, from an API call to the
 * first kernel or copy it launched, from an MPI call to the call holding
 * the other end of its first message; with `sibling`, from GPU work to the
 * next one launched by the same call (after the last, the first), and
 * from an interval of several links (an MPI call of several messages) to
 * its next one: the one after the link last followed from it when the
 * cursor is where that link landed, else its first.  The
 * cursor moves to the linked interval's begin on its line; the window is
 * panned (an undo step) and the line range scrolled to show it.  Costs a
 * few interval reads plus O(n) for a call that launched n.  GPU work is
 * on a queue line and on a stream line: a link to a line of the grouping
 * not shown lands on the same work on the grouping shown (one interval
 * search per line). */
enum trace_link_result trace_view_follow_link(struct trace_view *v,
					      bool sibling);

/* After trace_view_follow_link moved the cursor: which of its origin's
 * links it followed (0-based `nth`) and how many the origin has
 * (`count`, at most 65,536 counted); false when no link was followed
 * since the view was made. */
bool trace_view_last_link(const struct trace_view *v, uint32_t *nth,
			  uint32_t *count);

/* The deepest call-stack depth of the window over every line counted by
 * trace_view_shares (as of the last trace_view_compute or _shares). */
uint32_t trace_view_max_depth(const struct trace_view *v);

/* After trace_view_shares: > 0 when lines too long to walk were taken
 * at this many times each (trace_shares.points), 0 when every line counted
 * was walked. */
uint32_t trace_view_share_points(const struct trace_view *v);

/* The window's time per frame context at the window's depth over every
 * non-counter line of the window (views/trace_shares.h gives the
 * definition): entries' `cells` are nanoseconds summed over lines, most
 * first (ties by context id), idle included; *out malloc'd.  *counted of
 * *lines were walked (fewer when the window holds more elements than the
 * view's budget: lines are then sampled evenly; the pane says "sampled
 * from N of M lines").  Cached per window: a depth change or a cursor move
 * reads nothing. */
enum status trace_view_shares(struct trace_view *v, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      uint32_t *counted, uint32_t *lines,
			      struct error *err);

/* As trace_view_shares for time column k of `columns` (the summary
 * view): column k's span of the window (the grid's cell k,
 * trace_shares_compute_columns) over every non-counter line of the
 * window, each line's time in the span weighed, the same lines counted
 * as trace_view_shares; `cells` are nanoseconds.  Nothing (n 0) for a
 * column of no time.  Cached per window and number of columns: a depth
 * change or a cursor move reads nothing; the rows drawn play no part. */
enum status trace_view_column_shares(struct trace_view *v, uint32_t columns,
				     uint32_t k, uint32_t n_colors,
				     struct trace_share **out, size_t *n,
				     uint32_t *counted, uint32_t *lines,
				     struct error *err);

/* Elements read per window before lines are sampled (default
 * TRACE_SHARES_BUDGET; 0: no limit). */
void trace_view_set_share_budget(struct trace_view *v, uint64_t budget);

/* Fill `g` (reallocated as needed; zero-initialise it once, release with
 * trace_grid_free) for `rows` x `columns` cells of the current window.
 * Cost: rows x columns searches, each O(log samples) probes. */
enum status trace_view_compute(struct trace_view *v, uint32_t rows,
			       uint32_t columns, struct trace_grid *g,
			       struct error *err);

/* The depth view of the cursor's line: rows are depths 0..rows-1, cell
 * (d, k) the frame at depth d at the start of slice k, 0 where the stack
 * is shallower. */
enum status trace_view_compute_depth(struct trace_view *v, uint32_t rows,
				     uint32_t columns, struct trace_grid *g,
				     struct error *err);

void trace_grid_free(struct trace_grid *g);

/* Timeline index shown on screen row `r` of `rows` for the current line
 * range, and the row that shows filtered line `line`. */
uint32_t trace_view_row_line(const struct trace_view *v, uint32_t rows,
			     uint32_t r);
uint32_t trace_view_line_row(const struct trace_view *v, uint32_t rows,
			     uint32_t line);

/* Column of the cursor in a window of `columns` cells. */
uint32_t trace_view_cursor_column(const struct trace_view *v,
				  uint32_t columns);

/* Colour index in [1, n_colors] of frame context `ctx`: a hash of its
 * function name, so a function keeps its colour across views, zooms and
 * runs; 0 for idle (ctx 0). */
uint32_t trace_view_color(const struct model *m, uint32_t ctx,
			  uint32_t n_colors);
/* The hash of the frame's name that trace_view_color reduces (its
 * context id's when unnamed): one per function, for a viewer that tells
 * the colours of a window's functions apart. */
uint32_t trace_view_name_hash(const struct model *m, uint32_t ctx);

/* Shares of the grid's cells per frame context, most cells first (ties by
 * context id), idle included, counter rows left out; *out malloc'd (the
 * rows drawn; the legend and the statistics view use trace_view_shares,
 * over every line). */
enum status trace_grid_shares(const struct model *m,
			      const struct trace_grid *g, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      struct error *err);

/* Shares of column `k` of the grid: as trace_grid_shares over the rows
 * of one column (the rows drawn; the summary view uses
 * trace_view_column_shares, over every line). */
enum status trace_grid_column_shares(const struct model *m,
				     const struct trace_grid *g, uint32_t k,
				     uint32_t n_colors,
				     struct trace_share **out, size_t *n,
				     struct error *err);

/* Merge the entries of share list `s` (*n entries, as trace_grid_shares
 * or trace_grid_column_shares return it) that stand for the same function
 * name -- what trace_view_color() hashes, so what a colour stands for --
 * summing their cells; then sort as those functions do.  The merged entry
 * keeps the context of its largest member (ties: lowest context id).
 * Idle and unnamed frames are never merged.  *n shrinks in place.  The
 * legend, statistics and summary views merge; per-context detail (the
 * cursor's call path) does not. */
enum status trace_shares_merge_names(const struct model *m,
				     struct trace_share *s, size_t *n,
				     struct error *err);

/* True when model node `node` is on the call path of context `ctx` (the
 * node or one of its ancestors): the tree selection's highlight. */
bool trace_ctx_under(const struct model *m, uint32_t ctx, uint32_t node);

/* What a selected tree row stands for, for the highlight: a context (the
 * top-down view), or, for the rows of the aggregated views, every context
 * of a function, of a source line or loop, of a file or of a module. */
enum trace_match_kind {
	TRACE_MATCH_NONE,
	TRACE_MATCH_NODE,     /* this model node */
	TRACE_MATCH_FUNCTION, /* contexts of the same function */
	TRACE_MATCH_LINE,     /* contexts of the same kind at file:line */
	TRACE_MATCH_FILE,     /* contexts in the source file */
	TRACE_MATCH_MODULE,   /* contexts in the load module */
};

struct trace_match {
	enum trace_match_kind kind;
	uint32_t node;     /* NODE */
	uint32_t function; /* FUNCTION: function index, or MODEL_NONE: name */
	uint32_t name;     /* FUNCTION without an index: the name string */
	uint8_t node_kind; /* LINE: NODE_LINE or NODE_LOOP */
	uint32_t file, line, module;
};

/* The match for a row whose representative model node is `node`: `how`
 * is the kind of match the row's view wants (TRACE_MATCH_NODE for
 * top-down; FUNCTION, LINE, FILE or MODULE for aggregated rows).  The
 * fields come from the node, falling back to its function's module and
 * file. */
struct trace_match trace_match_make(const struct model *m, uint32_t node,
				    enum trace_match_kind how);

/* True when a context on the call path of `ctx` (the context or one of
 * its ancestors) matches. */
bool trace_ctx_matches(const struct model *m, uint32_t ctx,
		       const struct trace_match *match);

/* Human time: "1.5 s", "250 ms", "12.3 µs" (ASCII "us" when !utf8),
 * "800 ns" into buf. */
void trace_format_duration(uint64_t ns, bool utf8, char *buf, size_t size);

#endif
