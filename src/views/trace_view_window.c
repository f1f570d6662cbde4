/* trace_view_window: the trace view's window changes: time zoom and pan,
 * line zoom and scroll, depth, home, mark, undo and redo, and the cursor
 * kept inside the window.  Each change of window is one undo step.
 * Depends on the model only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"

#include <string.h>

/* Keep the cursor inside the window's time range and the line list. */
void tv_clamp_cursor(struct trace_view *v)
{
	if (v->cursor_time < v->win.from)
		v->cursor_time = v->win.from;
	if (v->cursor_time >= v->win.to)
		v->cursor_time = v->win.to - 1;
	if (v->n_lines && v->cursor_line >= v->n_lines)
		v->cursor_line = v->n_lines - 1;
}

static bool same_window(const struct trace_window *a,
			const struct trace_window *b)
{
	return a->from == b->from && a->to == b->to &&
	       a->line_lo == b->line_lo && a->line_hi == b->line_hi &&
	       a->depth == b->depth;
}

/* Make `w` the window, remembering the old one for undo. */
bool tv_change(struct trace_view *v, struct trace_window w)
{
	if (same_window(&w, &v->win))
		return false;
	if (v->n_undo == TRACE_VIEW_UNDO) {
		memmove(v->undo, v->undo + 1,
			(TRACE_VIEW_UNDO - 1) * sizeof(*v->undo));
		v->n_undo--;
	}
	v->undo[v->n_undo++] = v->win;
	v->n_redo = 0;
	v->win = w;
	tv_clamp_cursor(v);
	return true;
}

/* A time window of width `width` (at least MIN_WIDTH) placed so that
 * `anchor` keeps its relative position `rel` (of 2^32), inside the whole
 * range. */
void tv_place_time(const struct trace_view *v, struct trace_window *w,
		   uint64_t width, uint64_t anchor, uint64_t rel)
{
	uint64_t whole = v->t_end - v->t_min;
	if (width < MIN_WIDTH)
		width = MIN_WIDTH;
	if (width >= whole) {
		w->from = v->t_min;
		w->to = v->t_end;
		return;
	}
	uint64_t before = (uint64_t)((unsigned __int128)width * rel >> 32);
	uint64_t from = anchor - v->t_min >= before ? anchor - before
						    : v->t_min;
	if (from < v->t_min)
		from = v->t_min;
	if (from > v->t_end - width)
		from = v->t_end - width;
	w->from = from;
	w->to = from + width;
}

bool trace_view_zoom_time(struct trace_view *v, uint32_t num, uint32_t den)
{
	if (den == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t width = w.to - w.from;
	uint64_t rel = (uint64_t)(((unsigned __int128)(v->cursor_time - w.from)
				   << 32) /
				  width);
	unsigned __int128 nw = (unsigned __int128)width * num / den;
	if (nw == width && num != den)
		nw = num > den ? width + 1 : width - 1;
	tv_place_time(v, &w, nw > UINT64_MAX ? UINT64_MAX : (uint64_t)nw,
		   v->cursor_time, rel);
	return tv_change(v, w);
}

bool trace_view_pan_time(struct trace_view *v, int32_t num, uint32_t den)
{
	if (den == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t width = w.to - w.from;
	uint64_t step = (uint64_t)((unsigned __int128)width *
				   (uint32_t)(num < 0 ? -(int64_t)num : num) /
				   den);
	if (step == 0)
		step = 1;
	if (num < 0)
		w.from = w.from - v->t_min > step ? w.from - step : v->t_min;
	else
		w.from = v->t_end - w.to > step ? w.from + step
						: v->t_end - width;
	w.to = w.from + width;
	if (!tv_change(v, w))
		return false;
	/* the cursor keeps its place on the screen */
	if (num < 0)
		v->cursor_time = v->cursor_time - v->t_min > step
					 ? v->cursor_time - step
					 : v->t_min;
	else
		v->cursor_time += step;
	tv_clamp_cursor(v);
	return true;
}

bool trace_view_zoom_lines(struct trace_view *v, uint32_t num, uint32_t den)
{
	if (den == 0 || v->n_lines == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t n = w.line_hi - w.line_lo;
	uint64_t nn = n * num / den;
	if (nn == n)
		nn = num > den ? n + 1 : n > 1 ? n - 1 : 1;
	if (nn < 1)
		nn = 1;
	if (nn > v->n_lines)
		nn = v->n_lines;
	uint32_t c = v->cursor_line;
	uint64_t before = n ? (uint64_t)(c - w.line_lo) * nn / n : 0;
	uint64_t lo = c >= before ? c - before : 0;
	if (lo + nn > v->n_lines)
		lo = v->n_lines - nn;
	w.line_lo = (uint32_t)lo;
	w.line_hi = (uint32_t)(lo + nn);
	return tv_change(v, w);
}

bool trace_view_pan_lines(struct trace_view *v, int64_t delta)
{
	struct trace_window w = v->win;
	uint32_t n = w.line_hi - w.line_lo;
	int64_t lo = (int64_t)w.line_lo + delta;
	if (lo > (int64_t)(v->n_lines - n))
		lo = (int64_t)(v->n_lines - n);
	if (lo < 0)
		lo = 0;
	w.line_lo = (uint32_t)lo;
	w.line_hi = (uint32_t)lo + n;
	if (!tv_change(v, w))
		return false;
	if (v->cursor_line < w.line_lo)
		v->cursor_line = w.line_lo;
	if (v->cursor_line >= w.line_hi)
		v->cursor_line = w.line_hi - 1;
	return true;
}

bool trace_view_set_depth(struct trace_view *v, uint32_t depth)
{
	struct trace_window w = v->win;
	w.depth = depth;
	return tv_change(v, w);
}

bool trace_view_home(struct trace_view *v)
{
	struct trace_window w = {.from = v->t_min,
				 .to = v->t_end,
				 .line_lo = 0,
				 .line_hi = v->n_lines,
				 .depth = v->win.depth};
	return tv_change(v, w);
}

void trace_view_mark(struct trace_view *v)
{
	v->has_mark = true;
	v->mark = v->cursor_time;
}

bool trace_view_has_mark(const struct trace_view *v, uint64_t *time)
{
	if (v->has_mark && time)
		*time = v->mark;
	return v->has_mark;
}

bool trace_view_zoom_to_mark(struct trace_view *v)
{
	if (!v->has_mark)
		return false;
	uint64_t a = v->mark, b = v->cursor_time;
	if (a > b) {
		uint64_t t = a;
		a = b;
		b = t;
	}
	struct trace_window w = v->win;
	uint64_t width = b - a + 1;
	tv_place_time(v, &w, width, a, 0);
	v->has_mark = false;
	return tv_change(v, w);
}

/* Undo or redo: the window back from stack `from`, the one shown onto
 * stack `to`. */
static bool back_to(struct trace_view *v, struct trace_window *from,
		    uint32_t *n_from, struct trace_window *to, uint32_t *n_to)
{
	if (*n_from == 0)
		return false;
	to[(*n_to)++] = v->win;
	v->win = from[--*n_from];
	tv_clamp_cursor(v);
	return true;
}

bool trace_view_undo(struct trace_view *v)
{
	return back_to(v, v->undo, &v->n_undo, v->redo, &v->n_redo);
}

bool trace_view_redo(struct trace_view *v)
{
	return back_to(v, v->redo, &v->n_redo, v->undo, &v->n_undo);
}

void trace_view_set_cursor(struct trace_view *v, uint64_t time,
			   uint32_t line)
{
	v->cursor_time = time;
	v->cursor_line = line;
	tv_clamp_cursor(v);
	/* scroll the line range to show the cursor (not an undo step) */
	uint32_t n = v->win.line_hi - v->win.line_lo;
	if (v->cursor_line < v->win.line_lo) {
		v->win.line_lo = v->cursor_line;
		v->win.line_hi = v->cursor_line + n;
	} else if (v->cursor_line >= v->win.line_hi) {
		v->win.line_hi = v->cursor_line + 1;
		v->win.line_lo = v->win.line_hi - n;
	}
}
