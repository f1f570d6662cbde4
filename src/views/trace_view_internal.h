/* trace_view_internal: what the trace view's files share (trace_view.c,
 * trace_view_window.c, trace_view_cursor.c, trace_view_grid.c,
 * trace_view_shares.c, trace_line_filter.c, trace_share_list.c): the view's
 * struct and the few helpers one of them defines for the others.  Not for
 * use outside src/views/.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_TRACE_VIEW_INTERNAL_H
#define CALLSCOPE_TRACE_VIEW_INTERNAL_H

#include "views/trace_shares.h"
#include "views/trace_view.h"

#define MIN_WIDTH 10 /* narrowest window, ns */

/* What cached shares were computed for: the window's time and line
 * range, the line list (its stamp) and the number of columns (0: the
 * whole window only). */
struct tv_shares_key {
	uint64_t from, to, stamp;
	uint32_t lo, hi, columns;
};

struct tv_shares_cache {
	struct trace_shares sh;
	struct tv_shares_key key;
	bool valid;
};

enum bounds_state { BOUNDS_UNKNOWN, BOUNDS_OK, BOUNDS_EMPTY };

struct trace_view {
	const struct model *m;
	uint32_t *lines; /* filtered timeline indexes */
	/* every timeline in the order lines are shown (identifier tuple
	 * order, see line_order) and each timeline's place in it */
	uint32_t *order, *rank;
	uint32_t n_lines;
	uint32_t *counters; /* counters[i]: counter lines among lines[0, i) */
	struct trace_bounds *bounds; /* per timeline, read on first use */
	uint8_t *bounds_state;
	uint64_t t_min, t_end; /* the whole range [t_min, t_end) */
	struct trace_window win;
	struct trace_window undo[TRACE_VIEW_UNDO], redo[TRACE_VIEW_UNDO];
	uint32_t n_undo, n_redo;
	uint64_t cursor_time;
	uint32_t cursor_line;
	bool has_mark;
	uint64_t mark;
	uint32_t max_depth;
	uint64_t stamp; /* bumped when the line list changes */
	/* the line filter, kept to rebuild the list when the GPU lines'
	 * grouping changes; the grouping shown, the one shown first, and
	 * which the model has (bit 1 << group) */
	char *pattern;
	bool hide_empty;
	uint8_t group, first_group, groups;
	/* the window's shares over every line (trace_shares), and the same
	 * per time column (the summary view); elements read per window
	 * before lines are sampled */
	struct tv_shares_cache whole, by_column;
	uint64_t budget;
	/* the label prefix the lines share, for line list `prefix_stamp` */
	size_t prefix;
	uint64_t prefix_stamp;
	bool prefix_valid;
	/* the last link followed (trace_view_follow_link): from interval
	 * (from_line, from_index), its nth of count links, landing on
	 * (at_line, at_index); `A` there goes on to the (nth + 1)th */
	struct {
		bool set;
		uint32_t from_line, at_line, nth, count;
		uint64_t from_index, at_index;
	} trail;
};

/* trace_view.c */
/* Whether timeline `tl` is of no GPU grouping or of the one shown. */
bool tv_group_shown(const struct trace_view *v, uint32_t tl);
/* Line `tl`'s first and last times, read on first use; NULL for an
 * empty line or one that could not be read. */
const struct trace_bounds *tv_bounds_of(struct trace_view *v, uint32_t tl);
/* The running count of counter lines of lines[0..n) (n + 1 entries),
 * or NULL when out of memory. */
uint32_t *tv_count_counters(const struct model *m, const uint32_t *lines,
			    uint32_t n);
bool tv_is_counter(const struct model *m, uint32_t tl);
/* When a trace read failed since the last call (a remote file whose
 * server went away): its error into `err` (NULL: dropped), true. */
bool tv_take_read_error(const struct trace_view *v, struct error *err);

/* trace_view_window.c */
/* Keep the cursor inside the window's time range and the line list. */
void tv_clamp_cursor(struct trace_view *v);
/* Make `w` the window, remembering the old one for undo; false when it
 * is the window already. */
bool tv_change(struct trace_view *v, struct trace_window w);
/* A time window of width `width` (at least MIN_WIDTH) placed so that
 * `anchor` keeps its relative position `rel` (of 2^32), inside the whole
 * range. */
void tv_place_time(const struct trace_view *v, struct trace_window *w,
		   uint64_t width, uint64_t anchor, uint64_t rel);

/* trace_view_shares.c */
/* The window's shares over every line (v->whole), computed again only
 * when the window's time, line range or line list changed; sets the
 * maximum depth. */
enum status tv_window_shares(struct trace_view *v, struct error *err);

/* trace_share_list.c */
/* qsort order of share lists: most cells first, ties by context id. */
int tv_by_cells(const void *a, const void *b);

#endif
