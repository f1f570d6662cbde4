/* pane_trace: the trace timeline pane (hpcviewer's trace view): its keys,
 * mouse, life cycle and the helpers its files share.  It only draws what
 * src/views/trace_view computes and maps keys to trace_view calls; the
 * drawing is in trace_draw.c, the cursor's lines in trace_detail.c, the
 * legend and statistics in trace_legend.c (trace_pane.h). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "core/clock.h"
#include "trace_pane.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

const char *const trace_mode_names[] = {"Main", "Depth", "Summary",
					"Statistics"};

/* ---- helpers -------------------------------------------------------- */

char *trace_ctx_label(const struct model *m, uint32_t ctx)
{
	if (ctx == 0)
		return strdup("(idle)");
	uint32_t node = model_node_of_ctx(m, ctx);
	if (node == MODEL_NONE)
		return strdup("(unknown context)");
	return model_node_label(m, node);
}


void trace_fmt_rel(const struct pane_env *env, uint64_t t, char *buf,
		    size_t size)
{
	uint64_t base = model_time_min(env->model);
	char d[32];
	trace_format_duration(t >= base ? t - base : 0, env->caps->utf8, d,
			      sizeof(d));
	snprintf(buf, size, "+%s", d);
}

/* What the GPU lines of grouping `g` are per: Nsight's queue-like
 * grouping is by CUDA context. */
const char *trace_group_name(const struct model *m, enum timeline_group g)
{
	if (g == TIMELINE_GROUP_STREAM)
		return "stream";
	return model_format(m) && strcmp(model_format(m), "nsight") == 0 ? "context"
							     : "queue";
}

/* ---- mouse ----------------------------------------------------------- */

static struct reaction trace_action(struct pane_env *env, struct pane *pane,
				    enum action a);

/* A click on the grid puts the cursor on that cell's line and slice; a
 * double click shows its context in the tree, as Enter does. */
static struct reaction trace_click(struct pane_env *env, struct pane *pane, int y, int x,
			    bool twice)
{
	struct trace_pane *t = pane->state;
	if (t->mode != MODE_MAIN || y < t->grid_y || y >= t->grid_y + t->grid_h ||
	    x < t->grid_x || x >= t->grid_x + (int)t->cols || t->cols == 0)
		return REACTION(HANDLED_YES);
	uint32_t per = t->per;
	uint32_t row = (uint32_t)(y - t->grid_y) * per;
	if (row >= t->rows)
		return REACTION(HANDLED_YES);
	const struct trace_window *w = trace_view_window(t->view);
	uint32_t k = (uint32_t)(x - t->grid_x);
	uint32_t line = trace_view_row_line(t->view, t->rows, row);
	if (line == MODEL_NONE)
		return REACTION(HANDLED_YES);
	trace_view_set_cursor(t->view, trace_cell_time(w->from, w->to, t->cols, k),
			      line);
	if (twice)
		return trace_action(env, pane, ACTION_TOGGLE);
	return REACTION(HANDLED_REDRAW);
}

/* ---- keys ----------------------------------------------------------- */

static void move_rows(struct trace_pane *t, int delta)
{
	uint32_t line = trace_view_cursor_line(t->view);
	const struct trace_window *w = trace_view_window(t->view);
	uint32_t n = w->line_hi - w->line_lo;
	if (t->rows == 0 || n <= t->rows) {
		int64_t l = (int64_t)line + delta;
		if (l < 0)
			l = 0;
		if (l >= (int64_t)trace_view_line_count(t->view))
			l = (int64_t)trace_view_line_count(t->view) - 1;
		trace_view_set_cursor(t->view, trace_view_cursor_time(t->view),
				      (uint32_t)l);
		return;
	}
	/* several lines per row: move by rows, to their representatives */
	int64_t r = (int64_t)trace_view_line_row(t->view, t->rows, line) + delta;
	if (r < 0 || r >= (int64_t)t->rows) {
		trace_view_pan_lines(t->view, (int64_t)delta * n / t->rows);
		r = r < 0 ? 0 : (int64_t)t->rows - 1;
	}
	trace_view_set_cursor(t->view, trace_view_cursor_time(t->view),
			      trace_view_row_line(t->view, t->rows, (uint32_t)r));
}

static void move_columns(struct trace_pane *t, int delta)
{
	const struct trace_window *w = trace_view_window(t->view);
	uint32_t cols = t->cols ? t->cols : 1;
	int64_t k = (int64_t)trace_view_cursor_column(t->view, cols) + delta;
	if (k < 0 || k >= (int64_t)cols) {
		trace_view_pan_time(t->view, delta < 0 ? -1 : 1, 8);
		return;
	}
	uint64_t time = trace_cell_time(w->from, w->to, cols, (uint32_t)k);
	trace_view_set_cursor(t->view, time, trace_view_cursor_line(t->view));
}

/* "Show this context in the tree": a request for the core, the top-down
 * view with the context's node selected (top-down rows are model nodes). */
static struct reaction reveal_in_tree(struct pane_env *env,
				      struct trace_pane *t)
{
	const struct model *m = env->model;
	uint32_t tl = trace_view_line(t->view, trace_view_cursor_line(t->view));
	struct trace_sample s;
	if (tl != MODEL_NONE && model_timelines(m)[tl].kind == TIMELINE_COUNTER) {
		pane_message(env, false,
			     "a counter track: no context to show in the tree");
		return REACTION(HANDLED_REDRAW);
	}
	if (tl == MODEL_NONE ||
	    !trace_sample_at(m, tl, trace_view_cursor_time(t->view), &s, NULL) ||
	    s.ctx_id == 0) {
		pane_message(env, false, "idle: nothing to show in the tree");
		return REACTION(HANDLED_REDRAW);
	}
	uint32_t node = model_node_of_ctx(m, s.ctx_id);
	if (node == MODEL_NONE)
		return REACTION(HANDLED_REDRAW);
	/* named as the tree's row reads, not by its context id (which
	 * nothing on screen shows but the full readout's ctx=) */
	char *label = model_node_short_label(m, node);
	char key[24];
	if (keymap_first_key(env->keymap, ACTION_SPLIT_FOCUS, key, sizeof(key)))
		pane_message(env, false, "%s selected in the tree "
					 "(%s: back to the trace)",
			     label ? label : "?", key);
	else
		pane_message(env, false, "%s selected in the tree",
			     label ? label : "?");
	free(label);
	return (struct reaction){HANDLED_REDRAW, ACTION_VIEW_TOP_DOWN, node};
}

static void trace_filter(struct pane_env *env, struct pane *pane,
			 const char *text)
{
	struct trace_pane *t = pane->state;
	struct error err = {0};
	if (trace_view_set_filter(t->view, text, t->hide_empty, &err) !=
	    STATUS_OK) {
		pane_error(env, &err);
		return;
	}
	/* `text` may be t->filter itself (e toggles empty lines) */
	char *copy = text && *text ? strdup(text) : NULL;
	free(t->filter);
	t->filter = copy;
	t->valid = false;
	pane_message(env, false, "%u trace lines%s%s",
		    trace_view_line_count(t->view), t->filter ? " matching " : "",
		    t->filter ? t->filter : "");
}

/* The cursor's moves and the window's changes (each an undo step);
 * false for any other action. */
static bool window_action(struct pane_env *env, struct trace_pane *t,
			  enum action a)
{
	struct trace_view *v = t->view;
	const struct trace_window *w = trace_view_window(v);
	int page = (int)(t->rows > 1 ? t->rows - 1 : 1);
	switch (a) {
	case ACTION_MOVE_UP:
	case ACTION_MOVE_DOWN:
		move_rows(t, a == ACTION_MOVE_UP ? -1 : 1);
		return true;
	case ACTION_PAGE_UP:
	case ACTION_PAGE_DOWN:
		move_rows(t, a == ACTION_PAGE_UP ? -page : page);
		return true;
	case ACTION_COLLAPSE: /* Left */
	case ACTION_EXPAND:   /* Right */
		move_columns(t, a == ACTION_COLLAPSE ? -1 : 1);
		return true;
	case ACTION_MOVE_FIRST:
	case ACTION_MOVE_LAST:
		trace_view_set_cursor(v,
				      a == ACTION_MOVE_FIRST ? w->from
							     : w->to - 1,
				      trace_view_cursor_line(v));
		return true;
	case ACTION_TRACE_ZOOM_IN:
	case ACTION_TRACE_ZOOM_OUT:
		trace_view_zoom_time(v, a == ACTION_TRACE_ZOOM_IN ? 1 : 2,
				     a == ACTION_TRACE_ZOOM_IN ? 2 : 1);
		return true;
	case ACTION_TRACE_PAN_LEFT:
	case ACTION_TRACE_PAN_RIGHT:
		trace_view_pan_time(v, a == ACTION_TRACE_PAN_LEFT ? -1 : 1, 4);
		return true;
	case ACTION_TRACE_LINES_IN:
	case ACTION_TRACE_LINES_OUT:
		trace_view_zoom_lines(v, a == ACTION_TRACE_LINES_IN ? 1 : 2,
				      a == ACTION_TRACE_LINES_IN ? 2 : 1);
		return true;
	case ACTION_TRACE_HOME:
		trace_view_home(v);
		return true;
	case ACTION_TRACE_UNDO:
		if (!trace_view_undo(v))
			pane_message(env, false, "nothing to undo");
		return true;
	case ACTION_TRACE_REDO:
		if (!trace_view_redo(v))
			pane_message(env, false, "nothing to redo");
		return true;
	case ACTION_TRACE_DEEPER:
		if (w->depth < trace_view_max_depth(v))
			trace_view_set_depth(v, w->depth + 1);
		return true;
	case ACTION_TRACE_SHALLOWER:
		if (w->depth > 0)
			trace_view_set_depth(v, w->depth - 1);
		return true;
	default:
		return false;
	}
}

/* m marks the cursor's time, M zooms to [mark, cursor). */
static void mark_action(struct pane_env *env, struct trace_view *v,
			enum action a)
{
	if (a == ACTION_TRACE_ZOOM_MARK) {
		if (!trace_view_zoom_to_mark(v))
			pane_message(env, true, "no mark (m marks the cursor)");
		return;
	}
	char rel[40];
	trace_view_mark(v);
	trace_fmt_rel(env, trace_view_cursor_time(v), rel, sizeof(rel));
	pane_message(env, false, "mark at %s; move and press M to zoom", rel);
}

/* Show the GPU lines of the other grouping (by queue or by stream). */
static void switch_gpu_lines(struct pane_env *env, struct trace_pane *t)
{
	struct trace_view *v = t->view;
	enum timeline_group g = trace_view_gpu_lines(v) == TIMELINE_GROUP_STREAM
					? TIMELINE_GROUP_QUEUE
					: TIMELINE_GROUP_STREAM;
	struct error err = {0};
	if (trace_view_set_gpu_lines(v, g, &err) != STATUS_OK) {
		char *msg = error_format(&err);
		pane_message(env, true, "%s%s", msg ? msg : "no other GPU lines",
			     trace_view_gpu_lines(v) == TIMELINE_GROUP_NONE
				     ? ""
				     : " in this run");
		free(msg);
	} else {
		/* other lines under the same window: the grid is not the
		 * one drawn last (critique a4: the rows kept the stream
		 * lines' labels) */
		t->valid = false;
		pane_message(env, false, "GPU lines by %s",
			     trace_group_name(env->model, g));
	}
	error_clear(&err);
}

/* Follow the interval's link (`sibling`: to the next launch of its call)
 * and say why the cursor did not move. */
static void follow_link(struct pane_env *env, struct trace_view *v,
			bool sibling)
{
	uint32_t nth, count;
	switch (trace_view_follow_link(v, sibling)) {
	case TRACE_LINK_MOVED:
		/* an origin of several links: say which one, and how to go on */
		if (trace_view_last_link(v, &nth, &count) && count > 1) {
			const char *noun = model_trace_link_noun(env->model);
			pane_message(env, false, "%s %" PRIu32 " of %" PRIu32
				     "%s (A: the next)",
				     noun ? noun : "launch", nth + 1, count,
				     count >= (1u << 16) ? " or more" : "");
		}
		break;
	case TRACE_LINK_IDLE:
		pane_message(env, false, "no interval at the cursor");
		break;
	case TRACE_LINK_NONE:
		pane_message(env, false, "%s",
			     model_trace_link_noun(env->model)
				     ? "no link: the call sends or receives "
				       "no matched message"
				     : "no link: neither a launched kernel or "
				       "copy nor its launching API call");
		break;
	case TRACE_LINK_ONLY:
		pane_message(env, false,
			     "the only kernel or copy its call launched");
		break;
	case TRACE_LINK_HIDDEN:
		pane_message(env, true,
			     "the linked interval's line is hidden by the "
			     "line filter");
		break;
	}
}

static struct reaction trace_action(struct pane_env *env, struct pane *pane,
				    enum action a)
{
	struct trace_pane *t = pane->state;
	struct trace_view *v = t->view;
	if (window_action(env, t, a))
		return REACTION(HANDLED_REDRAW);
	switch (a) {
	case ACTION_TRACE_MARK:
	case ACTION_TRACE_ZOOM_MARK:
		mark_action(env, v, a);
		break;
	case ACTION_TRACE_NEXT:
	case ACTION_TRACE_PREV:
		if (!trace_view_next_change(v, a == ACTION_TRACE_NEXT))
			pane_message(env, false, "no %s change on this line",
				     a == ACTION_TRACE_NEXT ? "later"
							   : "earlier");
		break;
	case ACTION_TRACE_VIEW:
		t->mode = (t->mode + 1) % MODE_COUNT;
		break;
	case ACTION_TRACE_INSTANTS:
		t->hide_instants = !t->hide_instants;
		if (!t->instants)
			pane_message(env, false,
				     "no instants (marks) in this run");
		else
			pane_message(env, false, "instants (marks) %s",
				     t->hide_instants ? "hidden" : "shown");
		break;
	case ACTION_TRACE_EMPTY:
		t->hide_empty = !t->hide_empty;
		trace_filter(env, pane, t->filter);
		break;
	case ACTION_TRACE_GPU_LINES:
		switch_gpu_lines(env, t);
		break;
	case ACTION_TRACE_LINK:
	case ACTION_TRACE_LINK_NEXT:
		follow_link(env, v, a == ACTION_TRACE_LINK_NEXT);
		break;
	case ACTION_TOGGLE:
		return reveal_in_tree(env, t);
	case ACTION_BACK: /* the keys back to the tree */
		return (struct reaction){HANDLED_REDRAW, ACTION_SPLIT_FOCUS,
					 MODEL_NONE};
	case ACTION_TRACE_FILTER:
		return REACTION(HANDLED_PROMPT);
	default:
		return REACTION(HANDLED_NO);
	}
	return REACTION(HANDLED_REDRAW);
}

static void trace_free(struct pane *pane)
{
	struct trace_pane *t = pane->state;
	if (t) {
		trace_view_free(t->view);
		trace_grid_free(&t->grid);
		free(t->det_text);
		free(t->filter);
		free(t);
	}
	free(pane);
}

/* The note on the bottom line while the timeline's files are read the
 * first time (model_trace_prepare: a GPU run of millions of intervals
 * takes seconds per file): before the first file, then every 0.1 s from
 * 0.2 s on; Esc stops. */
struct read_note {
	double start, shown;
	bool stopped;
};

static bool on_read(void *ctx, uint32_t done, uint32_t total)
{
	struct read_note *rn = ctx;
	double s = clock_now() - rn->start;
	if (done > 0 && (s < 0.2 || s - rn->shown < 0.1))
		return true;
	rn->shown = s;
	screen_notef(theme_attr(THEME_ROLE_STATUS),
		     "The timeline reads each file's intervals once: %u of %u "
		     "files, %.0f s   Esc stops",
		     (unsigned)done, (unsigned)total, s);
	rn->stopped = screen_poll_escape();
	return !rn->stopped;
}

static struct pane *trace_new(struct pane_env *env)
{
	struct error err = {0};
	struct trace_view *v = NULL;
	struct read_note rn = {.start = clock_now(), .shown = -1};
	model_trace_prepare(env->model, on_read, &rn);
	screen_note(0, NULL);
	if (rn.stopped) {
		pane_message(env, false,
			     "Stopped: the timeline opens when its files are "
			     "read (t again)");
		return NULL;
	}
	if (trace_view_new(env->model, &v, &err) != STATUS_OK) {
		pane_error(env, &err);
		return NULL;
	}
	struct pane *p = pane_alloc(&pane_trace_ops, sizeof(struct trace_pane));
	if (!p) {
		trace_view_free(v);
		return NULL;
	}
	struct trace_pane *t = p->state;
	t->view = v;
	for (uint32_t i = 0; i < model_n_timelines(env->model); i++)
		t->instants |= model_timelines(env->model)[i].n_instants > 0;
	trace_setup_colors(env, t);
	t->per = t->half ? 2 : 1;
	return p;
}

const struct pane_ops pane_trace_ops = {
	.name = "trace",
	.title = "Trace",
	.open = ACTION_TRACE,
	.flags = PANE_SPLIT | PANE_TAB_OPEN,
	.prompt = "trace lines (e.g. RANK 0-7 THREAD 0): ",
	.new = trace_new,
	.draw = trace_pane_draw,
	.click = trace_click,
	.action = trace_action,
	.input = trace_filter,
	.free = trace_free,
};

