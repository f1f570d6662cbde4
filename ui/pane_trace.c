/* pane_trace: the trace timeline pane (hpcviewer's trace view).  It only
 * draws what src/trace_view computes (the cell grid of the visible window,
 * the depth view of the cursor's line, the summary and statistics) and maps
 * keys to trace_view calls.  Rows are trace lines, columns time slices;
 * under UTF-8 with enough colour pairs each character cell draws two rows
 * with an upper half block (foreground the upper row, background the lower
 * one).  Colours: a palette of colour pairs after the theme's roles, one
 * colour per function name (a hash, so stable); 8-colour terminals get 6
 * colours, terminals without colour get letters.
 *
 * Counter lines are tracks among the lines, where trace_view keeps them
 * (so that filter, line zoom, cursor and mouse need nothing of their
 * own): a row whose line is a counter draws, per column, the value in
 * force at the column's start as a bar of block eighths (U+2581..U+2588;
 * an ASCII ramp "_.-~=+*#" when the terminal is not UTF-8) in the
 * histogram role, scaled to the least and greatest value drawn in the
 * visible window.  The window's values and not the whole line's: they
 * are the cells already computed (O(columns), no read beyond the
 * O(columns x log values) searches), a zoom on a small variation shows it
 * at full height, and the cursor line prints the value and the range, so
 * the scale is never a guess.  A bar needs a whole character cell, so
 * while a counter line is in the line range each screen row draws one
 * line (no half blocks).
 *
 * Instants (marks without duration: roctxMark, NVTX marks) draw one
 * character in the marker role in each cell whose time span holds one
 * (trace_grid.instants), over the interval's colour; the cursor's last
 * lines name the first instant in the cursor's cell. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "present/present_path.h"
#include "core/clock.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

#define LABEL_MAX 24

enum trace_mode {
	MODE_MAIN,
	MODE_DEPTH,
	MODE_SUMMARY,
	MODE_STATS,
	MODE_COUNT
};

static const char *const mode_names[] = {"Main", "Depth", "Summary",
					 "Statistics"};

/* 24 distinct colours of the 256-colour cube */
static const short palette256[] = {196, 46,  21,  226, 201, 51,  208, 93,
				   34,  130, 31,  167, 142, 61,  172, 72,
				   133, 203, 120, 67,  228, 177, 117, 215};
static const short palette8[] = {COLOR_RED,  COLOR_GREEN,   COLOR_YELLOW,
				 COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN};

struct trace_pane {
	struct trace_view *view;
	struct trace_grid grid;
	enum trace_mode mode;
	bool hide_empty;
	char *filter;
	/* what the grid was computed for: recomputed only when it changes */
	struct trace_window key;
	uint32_t key_rows, key_cols, key_line;
	enum trace_mode key_mode;
	bool valid;
	/* the last layout, for the keys and the mouse */
	uint32_t rows, cols; /* grid rows (lines, not screen rows) */
	int grid_y, grid_x, grid_h; /* grid origin in the pane, screen rows */
	/* the details of the interval at the cursor, kept for that one */
	uint32_t det_line;
	uint64_t det_index;
	char *det_text;
	/* colours */
	uint32_t n_colors; /* palette size; 0 = letters */
	bool half;         /* two grid rows per screen row possible */
	uint32_t per;      /* grid rows per screen row in this frame (1, 2) */
	short pair_base;
	/* a line has instants: the cursor's lines get one more, for the
	 * instant in its cell beside the interval's details */
	bool instants;
};

/* ---- colours -------------------------------------------------------- */

static void setup_colors(struct pane_env *env, struct trace_pane *t)
{
	t->n_colors = 0;
	t->half = false;
	/* headless dumps are text: letters show what colours would */
	if (!env->caps->colors || env->caps->headless)
		return;
	const short *pal = env->caps->n_colors >= 256 ? palette256 : palette8;
	uint32_t n = env->caps->n_colors >= 256
			     ? sizeof(palette256) / sizeof(palette256[0])
			     : sizeof(palette8) / sizeof(palette8[0]);
	short base = THEME_ROLE_COUNT + 2;
	long need_half = (long)(n + 1) * (n + 1);
	if (env->caps->utf8 && base + need_half < COLOR_PAIRS &&
	    base + need_half < 32767) {
		/* pair base + fg * (n+1) + bg; colour 0 is idle (default) */
		for (uint32_t f = 0; f <= n; f++)
			for (uint32_t b = 0; b <= n; b++)
				init_pair((short)(base + f * (n + 1) + b),
					  f ? pal[f - 1] : -1,
					  b ? pal[b - 1] : -1);
		t->half = true;
	} else if (base + (long)n + 1 < COLOR_PAIRS) {
		for (uint32_t c = 0; c <= n; c++)
			init_pair((short)(base + c), COLOR_BLACK,
				  c ? pal[c - 1] : -1);
	} else {
		return;
	}
	t->n_colors = n;
	t->pair_base = base;
}

/* Draw one screen cell of colours `up` and `down` (0 idle), dimmed when
 * `dim`, reversed when `cursor`. */
static void draw_cell(struct trace_pane *t, int y, int x, uint32_t up,
		      uint32_t down, bool dim, bool cursor)
{
	cchar_t cc;
	wchar_t text[2] = {L' ', 0};
	attr_t a = (dim ? A_DIM : A_NORMAL) | (cursor ? A_REVERSE : A_NORMAL);
	short pair = 0;
	if (t->n_colors == 0) {
		/* letters: a colour index is a letter, idle a dot */
		text[0] = up ? (wchar_t)('a' + (up - 1) % 26) : L'.';
		if (!up)
			a |= theme_attr(THEME_ROLE_TRACE_IDLE);
	} else if (t->half) {
		text[0] = 0x2580; /* upper half block */
		pair = (short)(t->pair_base + up * (t->n_colors + 1) + down);
	} else {
		pair = (short)(t->pair_base + up);
		if (!up)
			a |= theme_attr(THEME_ROLE_TRACE_IDLE);
	}
	setcchar(&cc, text, a, pair, NULL);
	mvadd_wch(y, x, &cc);
}

/* An instant (a mark without duration) in a cell: one character in the
 * marker role, a diamond under UTF-8, else '|' (letters and dots are the
 * contexts' colours without colour). */
static void draw_instant(struct pane_env *env, int y, int x, bool cursor)
{
	cchar_t cc;
	wchar_t text[2] = {env->caps->utf8 ? 0x25c6 : L'|', 0};
	attr_t a = theme_attr(THEME_ROLE_MARKER) | A_BOLD |
		   (cursor ? A_REVERSE : A_NORMAL);
	setcchar(&cc, text, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
	mvadd_wch(y, x, &cc);
}

/* ---- helpers -------------------------------------------------------- */

static char *ctx_label(const struct model *m, uint32_t ctx)
{
	if (ctx == 0)
		return strdup("(idle)");
	uint32_t node = model_node_of_ctx(m, ctx);
	if (node == MODEL_NONE)
		return strdup("(unknown context)");
	return model_node_label(m, node);
}

/* "outer > ... > ctx", as `callscope trace --at` prints it */
static char *ctx_path(const struct model *m, uint32_t ctx)
{
	uint32_t node = ctx ? model_node_of_ctx(m, ctx) : MODEL_NONE;
	if (node == MODEL_NONE)
		return strdup(ctx ? "(unknown context)" : "(idle)");
	return present_node_path(m, node, " > ", PRESENT_PATH_LABELS);
}

static void fmt_rel(const struct pane_env *env, uint64_t t, char *buf,
		    size_t size)
{
	uint64_t base = env->model->time_min;
	char d[32];
	trace_format_duration(t >= base ? t - base : 0, env->caps->utf8, d,
			      sizeof(d));
	snprintf(buf, size, "+%s", d);
}

static bool recompute(struct pane_env *env, struct trace_pane *t, uint32_t rows,
		      uint32_t cols)
{
	const struct trace_window *w = trace_view_window(t->view);
	uint32_t line = trace_view_cursor_line(t->view);
	if (t->valid && memcmp(&t->key, w, sizeof(*w)) == 0 &&
	    t->key_rows == rows && t->key_cols == cols &&
	    t->key_mode == t->mode &&
	    (t->mode != MODE_DEPTH || t->key_line == line))
		return true;
	struct error err = {0};
	enum status st =
		t->mode == MODE_DEPTH
			? trace_view_compute_depth(t->view, rows, cols, &t->grid,
						   &err)
			: trace_view_compute(t->view, rows, cols, &t->grid, &err);
	if (st != STATUS_OK) {
		pane_error(env, &err);
		t->valid = false;
		return false;
	}
	t->key = *w;
	t->key_rows = rows;
	t->key_cols = cols;
	t->key_mode = t->mode;
	t->key_line = line;
	t->valid = true;
	return true;
}

/* ---- drawing -------------------------------------------------------- */

/* What the GPU lines of grouping `g` are per: Nsight's queue-like
 * grouping is by CUDA context. */
static const char *group_name(const struct model *m, enum timeline_group g)
{
	if (g == TIMELINE_GROUP_STREAM)
		return "stream";
	return m->format && strcmp(m->format, "nsight") == 0 ? "context"
							     : "queue";
}

static void draw_header(struct pane_env *env, struct trace_pane *t, int y, int x,
			int w)
{
	const struct trace_window *win = trace_view_window(t->view);
	char from[40], width[32], *text = NULL;
	fmt_rel(env, win->from, from, sizeof(from));
	trace_format_duration(win->to - win->from, env->caps->utf8, width,
			      sizeof(width));
	uint64_t mark;
	bool has_mark = trace_view_has_mark(t->view, &mark);
	char marktext[48] = "";
	if (has_mark) {
		char mt[40];
		fmt_rel(env, mark, mt, sizeof(mt));
		snprintf(marktext, sizeof(marktext), "  mark %s", mt);
	}
	/* unfocused: the live key that gives it the keys */
	char focus[48] = "";
	char *keys = env->focused ? NULL
				  : keymap_keys_of(env->keymap,
						   ACTION_SPLIT_FOCUS);
	if (keys && *keys)
		snprintf(focus, sizeof(focus), ", %.*s: keys",
			 (int)strcspn(keys, " "), keys);
	free(keys);
	/* both groupings of GPU lines: which one shows */
	char gpu[40] = "";
	enum timeline_group g = trace_view_gpu_lines(t->view);
	if (trace_view_has_gpu_lines(t->view, TIMELINE_GROUP_QUEUE) &&
	    trace_view_has_gpu_lines(t->view, TIMELINE_GROUP_STREAM))
		snprintf(gpu, sizeof(gpu), "  GPU by %s",
			 group_name(env->model, g));
	if (asprintf(&text, " Trace [%s%s]  depth %u/%u  lines %u-%u of %u%s  "
			    "window %s from %s%s%s%s",
		     mode_names[t->mode], focus,
		     win->depth, trace_view_max_depth(t->view), win->line_lo,
		     win->line_hi ? win->line_hi - 1 : 0,
		     trace_view_line_count(t->view),
		     t->filter ? " (filtered)" : "", width, from, marktext,
		     t->hide_empty ? "  non-empty" : "", gpu) < 0)
		text = NULL;
	screen_text(y, x, w,
		    theme_attr(env->focused ? THEME_ROLE_TAB_ACTIVE
						: THEME_ROLE_COLUMN_HEADER),
		    text ? text : "Trace", true);
	free(text);
}

static void draw_labels(struct pane_env *env, struct trace_pane *t, int y, int x,
			int lw, int screen_rows)
{
	const struct model *m = env->model;
	uint32_t per = t->per;
	uint32_t cur_row = t->mode == MODE_DEPTH
				   ? UINT32_MAX
				   : trace_view_line_row(
					     t->view, t->rows,
					     trace_view_cursor_line(t->view));
	for (int s = 0; s < screen_rows; s++) {
		uint32_t r = (uint32_t)s * per;
		char *label = NULL;
		bool sel = cur_row != UINT32_MAX && cur_row / per == (uint32_t)s;
		if (t->mode == MODE_DEPTH) {
			if (asprintf(&label, per == 2 ? "depth %u-%u"
						      : "depth %u",
				     r, r + 1) < 0)
				label = NULL;
		} else if (t->mode == MODE_MAIN && r < t->rows &&
			   t->grid.row_line[r] != MODEL_NONE) {
			/* the upper row's line (the lower row's when the
			 * cursor is on it) */
			uint32_t rr = sel && cur_row % per ? r + 1 : r;
			uint32_t tl = t->grid.row_line[rr];
			if (tl == MODEL_NONE)
				tl = t->grid.row_line[r];
			label = strdup(model_str(m, m->timelines[tl].label));
		}
		screen_text(y + s, x, lw,
			    sel ? theme_attr(THEME_ROLE_SELECTED)
				: theme_attr(THEME_ROLE_DIM),
			    label ? label : "", true);
		free(label);
	}
}

/* Counter row r of the grid on screen row y: per column a block of
 * eighths for the value in force at its start, scaled to the row's least
 * and greatest value drawn; blank before the line's first value; the
 * cursor's column reversed. */
static void draw_counter_row(struct pane_env *env, struct trace_pane *t,
			     int y, int x, uint32_t r, uint32_t cur_col)
{
	static const char ascii[] = " _.-~=+*#";
	const double *values = t->grid.values + (size_t)r * t->cols;
	double lo = 0, hi = 0;
	trace_counter_range(values, t->cols, &lo, &hi);
	attr_t role = theme_attr(THEME_ROLE_HISTOGRAM);
	for (uint32_t k = 0; k < t->cols; k++) {
		unsigned level = trace_counter_level(values[k], lo, hi);
		wchar_t text[2] = {L' ', 0};
		if (level && env->caps->utf8)
			text[0] = (wchar_t)(0x2580 + level);
		else
			text[0] = (wchar_t)ascii[level];
		cchar_t cc;
		attr_t a = role | (k == cur_col ? A_REVERSE : A_NORMAL);
		setcchar(&cc, text, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
		mvadd_wch(y, x + (int)k, &cc);
	}
}

static void draw_grid(struct pane_env *env, struct trace_pane *t, int y, int x,
		      int screen_rows)
{
	const struct model *m = env->model;
	uint32_t per = t->per;
	uint32_t cur_col = trace_view_cursor_column(t->view, t->cols);
	uint32_t cur_row = t->mode == MODE_DEPTH
				   ? UINT32_MAX
				   : trace_view_line_row(
					     t->view, t->rows,
					     trace_view_cursor_line(t->view));
	/* the tree's selection: a context in top-down; in the aggregated
	 * views, all contexts of the row's function, line, file or module */
	struct trace_match match = {.kind = TRACE_MATCH_NONE};
	struct view_node vn;
	if (view_node_get(env->view, env->cursor->node, &vn)) {
		enum trace_match_kind how = TRACE_MATCH_NODE;
		if (env->view_kind != VIEW_TOP_DOWN)
			how = vn.kind == VIEW_ROW_MODULE ? TRACE_MATCH_MODULE
			      : vn.kind == VIEW_ROW_FILE ? TRACE_MATCH_FILE
			      : vn.kind == NODE_LINE || vn.kind == NODE_LOOP
				      ? TRACE_MATCH_LINE
			      : model_kind_is_frame(vn.kind)
				      ? TRACE_MATCH_FUNCTION
				      : TRACE_MATCH_NODE;
		match = trace_match_make(m, vn.model_node, how);
	}
	bool highlight = match.kind != TRACE_MATCH_NONE;
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	for (int s = 0; s < screen_rows; s++) {
		uint32_t r0 = (uint32_t)s * per, r1 = r0 + per - 1;
		bool has0 = r0 < t->rows && t->grid.row_line[r0] != MODEL_NONE;
		bool has1 = per == 2 && r1 < t->rows &&
			    t->grid.row_line[r1] != MODEL_NONE;
		if (t->mode == MODE_MAIN && !has0 && !has1)
			break; /* rows below the last line stay blank */
		if (t->mode == MODE_MAIN && has0 &&
		    m->timelines[t->grid.row_line[r0]].kind ==
			    TIMELINE_COUNTER) {
			draw_counter_row(env, t, y + s, x, r0,
					 cur_row / per == (uint32_t)s
						 ? cur_col
						 : UINT32_MAX);
			continue;
		}
		for (uint32_t k = 0; k < t->cols; k++) {
			uint32_t c0 = 0, c1 = 0;
			bool under = !highlight;
			if (r0 < t->rows) {
				size_t i = (size_t)r0 * t->cols + k;
				c0 = trace_view_color(m, t->grid.cells[i], nc);
				under |= trace_ctx_matches(m, t->grid.raw[i], &match);
			}
			if (per == 2 && r1 < t->rows) {
				size_t i = (size_t)r1 * t->cols + k;
				c1 = trace_view_color(m, t->grid.cells[i], nc);
				under |= trace_ctx_matches(m, t->grid.raw[i], &match);
			}
			if (per == 1)
				c1 = c0; /* a half block of one colour */
			bool cursor = k == cur_col &&
				      (t->mode == MODE_DEPTH ||
				       cur_row / per == (uint32_t)s);
			bool mark =
				t->mode == MODE_MAIN &&
				((r0 < t->rows &&
				  t->grid.instants[(size_t)r0 * t->cols + k] !=
					  UINT64_MAX) ||
				 (per == 2 && r1 < t->rows &&
				  t->grid.instants[(size_t)r1 * t->cols + k] !=
					  UINT64_MAX));
			if (mark)
				draw_instant(env, y + s, x + (int)k, cursor);
			else
				draw_cell(t, y + s, x + (int)k, c0, c1, !under,
					  cursor);
		}
	}
}

/* Summary: per column, the share of rows in each function, stacked from
 * the bottom, most common first. */
static void draw_summary(struct pane_env *env, struct trace_pane *t, int y, int x,
			 int screen_rows)
{
	uint32_t per = t->per;
	uint32_t h = (uint32_t)screen_rows * per;
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	uint32_t *col = calloc(h ? h : 1, sizeof(*col));
	if (!col)
		return;
	for (uint32_t k = 0; k < t->cols; k++) {
		struct trace_share *s = NULL;
		size_t n = 0;
		struct error err = {0};
		if (trace_grid_column_shares(env->model, &t->grid, k, nc, &s, &n,
					     &err) != STATUS_OK ||
		    trace_shares_merge_names(env->model, s, &n, &err) !=
			    STATUS_OK) {
			free(s);
			error_clear(&err);
			break;
		}
		uint64_t total = 0;
		for (size_t i = 0; i < n; i++)
			total += s[i].cells;
		uint32_t filled = 0;
		uint64_t acc = 0;
		memset(col, 0, h * sizeof(*col));
		for (size_t i = 0; i < n && total; i++) {
			acc += s[i].cells;
			uint32_t upto = (uint32_t)(acc * h / total);
			for (; filled < upto && filled < h; filled++)
				col[h - 1 - filled] = s[i].color;
		}
		free(s);
		for (int r = 0; r < screen_rows; r++)
			draw_cell(t, y + r, x + (int)k, col[r * per],
				  col[r * per + per - 1], false, false);
	}
	free(col);
}

static void draw_stats(struct pane_env *env, struct trace_pane *t, int y, int x,
		       int w, int screen_rows)
{
	struct trace_share *s = NULL;
	size_t n = 0;
	struct error err = {0};
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	if (trace_grid_shares(env->model, &t->grid, nc, &s, &n, &err) !=
		    STATUS_OK ||
	    trace_shares_merge_names(env->model, s, &n, &err) != STATUS_OK) {
		free(s);
		pane_error(env, &err);
		return;
	}
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].cells;
	screen_text(y, x, w, theme_attr(THEME_ROLE_COLUMN_HEADER),
		    "        share   cells  function (visible window, this "
		    "depth)",
		    true);
	for (int r = 1; r < screen_rows && (size_t)(r - 1) < n; r++) {
		const struct trace_share *e = &s[r - 1];
		draw_cell(t, y + r, x + 1, e->color, e->color, false, false);
		draw_cell(t, y + r, x + 2, e->color, e->color, false, false);
		char *label = ctx_label(env->model, e->ctx);
		char *line = NULL;
		if (asprintf(&line, "%6.2f%% %7llu  %s",
			     total ? 100.0 * (double)e->cells / (double)total
				   : 0.0,
			     (unsigned long long)e->cells,
			     label ? label : "?") < 0)
			line = NULL;
		screen_text(y + r, x + 5, w - 5, A_NORMAL, line ? line : "",
			    false);
		free(line);
		free(label);
	}
	free(s);
}

static void draw_axis(struct pane_env *env, struct trace_pane *t, int y, int x,
		      int w)
{
	const struct trace_window *win = trace_view_window(t->view);
	attr_t a = theme_attr(THEME_ROLE_DIM);
	char lo[40], mid[40], hi[40];
	fmt_rel(env, win->from, lo, sizeof(lo));
	fmt_rel(env, win->from + (win->to - win->from) / 2, mid, sizeof(mid));
	fmt_rel(env, win->to, hi, sizeof(hi));
	uint32_t k = trace_view_cursor_column(t->view, t->cols);
	screen_text(y, x, w, a, "", true);
	if ((int)k < w)
		screen_text(y, x + (int)k, 1, theme_attr(THEME_ROLE_MARKER),
			    env->caps->utf8 ? "\xe2\x96\xb2" : "^", false);
	if ((int)k > screen_text_width(lo))
		screen_text(y, x, w, a, lo, false);
	int mw = screen_text_width(mid);
	if (w > 3 * mw)
		screen_text(y, x + w / 2 - mw / 2, mw, a, mid, false);
	screen_text_right(y, x + w / 2 + mw, w - w / 2 - mw, a, hi);
}

#define LAUNCHES_COUNTED 1000 /* launches of one call counted for the details */

/* "Interval 1.23 ms; launched by NAME on LINE" (GPU work) or "; launched
 * NAME on LINE and 2 more" (an API call), then the event's attributes:
 * what the interval at the cursor is, made once per interval (the
 * attributes are one row lookup of the reader). */
static const char *interval_details(struct pane_env *env, struct trace_pane *t,
				    uint32_t line, uint64_t index,
				    const struct trace_interval *iv)
{
	const struct model *m = env->model;
	if (t->det_text && t->det_line == line && t->det_index == index)
		return t->det_text;
	free(t->det_text);
	t->det_text = NULL;
	char dur[40], *out = NULL;
	trace_format_duration(iv->end - iv->begin, env->caps->utf8, dur,
			      sizeof(dur));
	uint32_t tl, n = 0, xl;
	uint64_t ti, xi;
	struct trace_interval other;
	bool by_call = model_interval_linked(m, line, index, MODEL_LINK_CALL,
					     &tl, &ti);
	bool launched = !by_call &&
			model_interval_linked(m, line, index, 0, &tl, &ti);
	bool linked =
		(by_call || launched) && model_interval(m, tl, ti, &other);
	while (launched && n < LAUNCHES_COUNTED &&
	       model_interval_linked(m, line, index, n + 1, &xl, &xi))
		n++;
	char *label = linked ? ctx_label(m, other.ctx_id) : NULL;
	char extra[48] = "";
	if (n)
		snprintf(extra, sizeof(extra), " and %u%s more", n,
			 n == LAUNCHES_COUNTED ? "+" : "");
	if (asprintf(&out, "Interval %s%s%s%s%s%s", dur,
		     !linked ? "" : by_call ? "; launched by " : "; launched ",
		     linked ? (label ? label : "?") : "",
		     linked ? " on " : "",
		     linked ? model_str(m, m->timelines[tl].label) : "",
		     extra) < 0)
		out = NULL;
	free(label);
	struct model_kv *kv = NULL;
	size_t nkv = 0;
	struct error err = {0};
	if (out && model_event_detail(m, line, iv->event, &kv, &nkv, &err) ==
			   STATUS_OK)
		for (size_t i = 0; i < nkv && out; i++) {
			char *next = NULL;
			if (asprintf(&next, "%s  %s=%s", out, kv[i].key,
				     kv[i].text) < 0)
				next = NULL;
			free(out);
			out = next;
		}
	free(kv);
	error_clear(&err);
	t->det_text = out;
	t->det_line = line;
	t->det_index = index;
	return out;
}

/* The cursor on counter line `tl`: "Cursor +T (t=N)  line L LABEL
 * value=V UNIT", then since when that value is in force and the range of
 * the values drawn in the window. */
static void draw_counter_info(struct pane_env *env, struct trace_pane *t,
			      int y, int x, int w, int lines, uint32_t tl,
			      const char *rel)
{
	const struct model *m = env->model;
	uint32_t line;
	uint64_t index = 0, since = 0, time = trace_view_cursor_time(t->view);
	double v = NAN;
	bool found = trace_view_cursor_counter(t->view, &line, &index, &since,
					       &v);
	const char *unit = model_str(m, m->timelines[tl].unit);
	char val[40], *text = NULL;
	trace_format_value(v, val, sizeof(val));
	if (asprintf(&text, "Cursor %s (t=%llu)  line %u %s  value=%s%s%s", rel,
		     (unsigned long long)time, tl,
		     model_str(m, m->timelines[tl].label), val,
		     found && *unit ? " " : "", found ? unit : "") < 0)
		text = NULL;
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL_LABEL),
		    text ? text : "", true);
	free(text);
	text = NULL;
	for (int i = 1; i < lines; i++)
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL), "",
			    true);
	if (lines < 2)
		return;
	char at[40] = "", lo_s[40] = "", hi_s[40] = "";
	double lo = 0, hi = 0;
	uint32_t row = trace_view_line_row(t->view, t->rows,
					   trace_view_cursor_line(t->view));
	bool range = t->mode == MODE_MAIN && row < t->rows &&
		     t->grid.row_line[row] == tl &&
		     trace_counter_range(t->grid.values +
						 (size_t)row * t->cols,
					 t->cols, &lo, &hi);
	if (range) {
		trace_format_value(lo, lo_s, sizeof(lo_s));
		trace_format_value(hi, hi_s, sizeof(hi_s));
	}
	if (found)
		fmt_rel(env, since, at, sizeof(at));
	if (asprintf(&text, "Counter %s%s%s%s; window %s%s%s%s%s",
		     found ? "value " : "(no value at or before the cursor)",
		     found ? val : "", found ? " since " : "", at,
		     range ? "min " : "(nothing drawn)", lo_s,
		     range ? ", max " : "", hi_s,
		     range && *unit ? " " : "") < 0)
		text = NULL;
	char *full = NULL;
	if (text && asprintf(&full, "%s%s  (%llu values)", text,
			     range ? unit : "",
			     (unsigned long long)m->timelines[tl].count) < 0)
		full = NULL;
	screen_text(y + 1, x, w, theme_attr(THEME_ROLE_DETAIL),
		    full ? full : "", true);
	free(full);
	free(text);
}

static void draw_cursor_info(struct pane_env *env, struct trace_pane *t, int y,
			     int x, int w, int lines)
{
	const struct model *m = env->model;
	uint32_t line = trace_view_cursor_line(t->view);
	uint32_t tl = trace_view_line(t->view, line);
	uint64_t time = trace_view_cursor_time(t->view);
	char rel[40], *head = NULL;
	fmt_rel(env, time, rel, sizeof(rel));
	if (tl != MODEL_NONE && m->timelines[tl].kind == TIMELINE_COUNTER) {
		draw_counter_info(env, t, y, x, w, lines, tl, rel);
		return;
	}
	struct trace_sample s = {0};
	bool found = tl != MODEL_NONE &&
		     trace_sample_at(m, tl, time, &s, NULL);
	if (asprintf(&head, "Cursor %s (t=%llu)  line %u %s  ctx=%u", rel,
		     (unsigned long long)time, tl,
		     tl != MODEL_NONE ? model_str(m, m->timelines[tl].label)
				      : "",
		     found ? s.ctx_id : 0) < 0)
		head = NULL;
	screen_text(y, x, w, theme_attr(THEME_ROLE_DETAIL_LABEL),
		    head ? head : "", true);
	free(head);
	if (lines < 2)
		return;
	/* an interval track: idle where no interval runs; its last line
	 * tells what the interval at the cursor is */
	bool intervals = tl != MODEL_NONE &&
			 m->timelines[tl].kind == TIMELINE_INTERVALS;
	char *path;
	if (found && (s.ctx_id || !intervals))
		path = ctx_path(m, s.ctx_id);
	else if (intervals)
		path = strdup("(idle: no interval at the cursor)");
	else
		path = strdup("(no sample at or before the cursor)");
	uint32_t il;
	uint64_t ii;
	struct trace_interval iv;
	const char *details = NULL;
	if (intervals && lines >= 3 &&
	    trace_view_cursor_interval(t->view, &il, &ii, &iv))
		details = interval_details(env, t, il, ii, &iv);
	/* an instant in the cursor's cell: its name, time and how many */
	uint64_t in_count = 0, in_index;
	uint32_t in_line;
	struct trace_instant in;
	if (intervals && lines >= 3 &&
	    trace_view_cursor_instant(t->view, t->cols, &in_line, &in_index,
				      &in_count, &in)) {
		char at[40], more[48] = "", *text = NULL;
		fmt_rel(env, in.time, at, sizeof(at));
		if (in_count > 1)
			snprintf(more, sizeof(more), "  (%llu in the cell)",
				 (unsigned long long)in_count);
		if (asprintf(&text, "Instant %s at %s (t=%llu)%s",
			     model_str(m, in.name), at,
			     (unsigned long long)in.time, more) < 0)
			text = NULL;
		lines--;
		screen_text(y + lines, x, w, theme_attr(THEME_ROLE_DETAIL),
			    text ? text : "", true);
		free(text);
		if (lines < 3)
			details = NULL;
	}
	if (details) {
		lines--;
		screen_text(y + lines, x, w, theme_attr(THEME_ROLE_DETAIL),
			    details, true);
	}
	/* the call path in full, wrapped over the lines left */
	const char *p = path ? path : "";
	for (int i = 1; i < lines; i++) {
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL), "",
			    true);
		if (!*p)
			continue;
		screen_text(y + i, x, w, theme_attr(THEME_ROLE_DETAIL),
			    i == 1 ? "Path " : "     ", false);
		size_t len = strlen(p), take = 0;
		int cols = 0;
		while (take < len && cols < w - 5) {
			take++;
			while (take < len && (p[take] & 0xc0) == 0x80)
				take++;
			cols++;
		}
		char *piece = strndup(p, take);
		screen_text(y + i, x + 5, w - 5, theme_attr(THEME_ROLE_DETAIL),
			    piece ? piece : "", false);
		free(piece);
		p += take;
	}
	free(path);
}

static void draw_legend(struct pane_env *env, struct trace_pane *t, int y, int x,
			int w)
{
	struct trace_share *s = NULL;
	size_t n = 0;
	struct error err = {0};
	uint32_t nc = t->n_colors ? t->n_colors : 26;
	screen_text(y, x, w, A_NORMAL, "", true);
	if (t->mode == MODE_STATS ||
	    trace_grid_shares(env->model, &t->grid, nc, &s, &n, &err) !=
		    STATUS_OK ||
	    trace_shares_merge_names(env->model, s, &n, &err) != STATUS_OK) {
		free(s);
		error_clear(&err);
		return;
	}
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].cells;
	int cx = x;
	for (size_t i = 0; i < n && cx < x + w - 8; i++) {
		draw_cell(t, y, cx, s[i].color, s[i].color, false, false);
		char *label = ctx_label(env->model, s[i].ctx);
		char *text = NULL;
		if (asprintf(&text, " %s %.1f%%  ", label ? label : "?",
			     total ? 100.0 * (double)s[i].cells / (double)total
				   : 0.0) < 0)
			text = NULL;
		cx += 1 + screen_text(y, cx + 1, x + w - cx - 1, A_NORMAL,
				      text ? text : "", false);
		free(text);
		free(label);
	}
	free(s);
}

static void trace_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct trace_pane *t = pane->state;
	if (r.h < 3 || r.w < 20)
		return;
	int info = t->instants ? 4 : 3; /* the cursor's lines */
	int footer = r.h >= 11 + info ? 2 + info : r.h >= 8 ? 2 : 0;
	int gh = r.h - 1 - footer;
	int lw = r.w / 5 < LABEL_MAX ? r.w / 5 : LABEL_MAX;
	int gw = r.w - lw - 1;
	if (gh < 1 || gw < 1)
		return;
	const struct trace_window *win = trace_view_window(t->view);
	/* a counter track takes a whole character cell */
	t->per = t->half && trace_view_counters_in(t->view, win->line_lo,
						   win->line_hi) == 0
			 ? 2
			 : 1;
	uint32_t per = t->per;
	uint32_t rows = (uint32_t)gh * per;
	if (t->mode == MODE_DEPTH) {
		uint32_t d = trace_view_max_depth(t->view) + 1;
		rows = d < rows ? d : rows;
	}
	t->rows = rows;
	t->cols = (uint32_t)gw;
	t->grid_y = 1;
	t->grid_x = lw + 1;
	t->grid_h = gh;
	bool ok = recompute(env, t, rows, (uint32_t)gw);
	draw_header(env, t, r.y, r.x, r.w);
	if (!ok)
		return;
	for (int s = 0; s < gh; s++)
		screen_text(r.y + 1 + s, r.x, r.w, A_NORMAL, "", true);
	if (t->mode == MODE_STATS) {
		draw_stats(env, t, r.y + 1, r.x, r.w, gh);
	} else {
		draw_labels(env, t, r.y + 1, r.x, lw, gh);
		if (t->mode == MODE_SUMMARY)
			draw_summary(env, t, r.y + 1, r.x + lw + 1, gh);
		else
			draw_grid(env, t, r.y + 1, r.x + lw + 1,
				  (int)((rows + per - 1) / per));
	}
	int fy = r.y + 1 + gh;
	if (footer >= 1)
		draw_axis(env, t, fy, r.x + lw + 1, gw);
	if (footer >= 2)
		draw_legend(env, t, fy + 1, r.x, r.w);
	if (footer >= 5)
		draw_cursor_info(env, t, fy + 2, r.x, r.w, footer - 2);
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
	if (tl != MODEL_NONE && m->timelines[tl].kind == TIMELINE_COUNTER) {
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
	char *keys = keymap_keys_of(env->keymap, ACTION_SPLIT_FOCUS);
	if (keys && *keys)
		pane_message(env, false, "context %u selected in the tree "
					 "(%.*s: back to the trace)",
			     s.ctx_id, (int)strcspn(keys, " "), keys);
	else
		pane_message(env, false, "context %u selected in the tree",
			     s.ctx_id);
	free(keys);
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

static struct reaction trace_action(struct pane_env *env, struct pane *pane,
			     enum action a)
{
	struct trace_pane *t = pane->state;
	struct trace_view *v = t->view;
	const struct trace_window *w = trace_view_window(v);
	bool changed = true;
	switch (a) {
	case ACTION_MOVE_UP:
		move_rows(t, -1);
		break;
	case ACTION_MOVE_DOWN:
		move_rows(t, 1);
		break;
	case ACTION_PAGE_UP:
		move_rows(t, -(int)(t->rows > 1 ? t->rows - 1 : 1));
		break;
	case ACTION_PAGE_DOWN:
		move_rows(t, (int)(t->rows > 1 ? t->rows - 1 : 1));
		break;
	case ACTION_COLLAPSE: /* Left */
		move_columns(t, -1);
		break;
	case ACTION_EXPAND: /* Right */
		move_columns(t, 1);
		break;
	case ACTION_MOVE_FIRST:
		trace_view_set_cursor(v, w->from, trace_view_cursor_line(v));
		break;
	case ACTION_MOVE_LAST:
		trace_view_set_cursor(v, w->to - 1, trace_view_cursor_line(v));
		break;
	case ACTION_TRACE_ZOOM_IN:
		changed = trace_view_zoom_time(v, 1, 2);
		break;
	case ACTION_TRACE_ZOOM_OUT:
		changed = trace_view_zoom_time(v, 2, 1);
		break;
	case ACTION_TRACE_PAN_LEFT:
		changed = trace_view_pan_time(v, -1, 4);
		break;
	case ACTION_TRACE_PAN_RIGHT:
		changed = trace_view_pan_time(v, 1, 4);
		break;
	case ACTION_TRACE_LINES_IN:
		changed = trace_view_zoom_lines(v, 1, 2);
		break;
	case ACTION_TRACE_LINES_OUT:
		changed = trace_view_zoom_lines(v, 2, 1);
		break;
	case ACTION_TRACE_MARK: {
		char rel[40];
		trace_view_mark(v);
		fmt_rel(env, trace_view_cursor_time(v), rel, sizeof(rel));
		pane_message(env, false, "mark at %s; move and press M to zoom",
			    rel);
		break;
	}
	case ACTION_TRACE_ZOOM_MARK:
		changed = trace_view_zoom_to_mark(v);
		if (!changed)
			pane_message(env, true, "no mark (m marks the cursor)");
		break;
	case ACTION_TRACE_HOME:
		changed = trace_view_home(v);
		break;
	case ACTION_TRACE_UNDO:
		changed = trace_view_undo(v);
		if (!changed)
			pane_message(env, false, "nothing to undo");
		break;
	case ACTION_TRACE_REDO:
		changed = trace_view_redo(v);
		if (!changed)
			pane_message(env, false, "nothing to redo");
		break;
	case ACTION_TRACE_DEEPER:
		if (w->depth < trace_view_max_depth(v))
			changed = trace_view_set_depth(v, w->depth + 1);
		break;
	case ACTION_TRACE_SHALLOWER:
		if (w->depth > 0)
			changed = trace_view_set_depth(v, w->depth - 1);
		break;
	case ACTION_TRACE_NEXT:
	case ACTION_TRACE_PREV:
		if (!trace_view_next_change(v, a == ACTION_TRACE_NEXT))
			pane_message(env, false, "no %s change on this line",
				    a == ACTION_TRACE_NEXT ? "later" : "earlier");
		break;
	case ACTION_TRACE_VIEW:
		t->mode = (t->mode + 1) % MODE_COUNT;
		break;
	case ACTION_TRACE_EMPTY:
		t->hide_empty = !t->hide_empty;
		trace_filter(env, pane, t->filter);
		break;
	case ACTION_TRACE_GPU_LINES: {
		enum timeline_group g =
			trace_view_gpu_lines(v) == TIMELINE_GROUP_STREAM
				? TIMELINE_GROUP_QUEUE
				: TIMELINE_GROUP_STREAM;
		struct error err = {0};
		if (trace_view_set_gpu_lines(v, g, &err) != STATUS_OK) {
			char *msg = error_format(&err);
			pane_message(env, true, "%s%s",
				     msg ? msg : "no other GPU lines",
				     trace_view_gpu_lines(v) ==
						     TIMELINE_GROUP_NONE
					     ? ""
					     : " in this run");
			free(msg);
		} else {
			pane_message(env, false, "GPU lines by %s",
				     group_name(env->model, g));
		}
		error_clear(&err);
		break;
	}
	case ACTION_TOGGLE:
		return reveal_in_tree(env, t);
	case ACTION_BACK: /* the keys back to the tree */
		return (struct reaction){HANDLED_REDRAW, ACTION_SPLIT_FOCUS,
					 MODEL_NONE};
	case ACTION_TRACE_FILTER:
		return REACTION(HANDLED_PROMPT);
	case ACTION_TRACE_LINK:
	case ACTION_TRACE_LINK_NEXT:
		switch (trace_view_follow_link(v,
					       a == ACTION_TRACE_LINK_NEXT)) {
		case TRACE_LINK_MOVED:
			break;
		case TRACE_LINK_IDLE:
			pane_message(env, false, "no interval at the cursor");
			break;
		case TRACE_LINK_NONE:
			pane_message(env, false,
				     "no link: neither a launched kernel or "
				     "copy nor its launching API call");
			break;
		case TRACE_LINK_ONLY:
			pane_message(env, false,
				     "the only kernel or copy its call "
				     "launched");
			break;
		case TRACE_LINK_HIDDEN:
			pane_message(env, true,
				     "the linked interval's line is hidden "
				     "by the line filter");
			break;
		}
		break;
	default:
		return REACTION(HANDLED_NO);
	}
	(void)changed;
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
	char text[200];
	snprintf(text, sizeof(text),
		 "The timeline reads each file's intervals once: %u of %u "
		 "files, %.0f s   Esc stops",
		 (unsigned)done, (unsigned)total, s);
	screen_note(theme_attr(THEME_ROLE_STATUS), text);
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
	struct pane *p = calloc(1, sizeof(*p));
	struct trace_pane *t = calloc(1, sizeof(*t));
	if (!p || !t) {
		free(p);
		free(t);
		trace_view_free(v);
		return NULL;
	}
	t->view = v;
	for (uint32_t i = 0; i < env->model->n_timelines; i++)
		t->instants |= env->model->timelines[i].n_instants > 0;
	setup_colors(env, t);
	t->per = t->half ? 2 : 1;
	p->ops = &pane_trace_ops;
	p->state = t;
	return p;
}

const struct pane_ops pane_trace_ops = {
	.name = "trace",
	.title = "Trace",
	.open = ACTION_TRACE,
	.flags = PANE_SPLIT | PANE_TAB_OPEN,
	.prompt = "trace lines (e.g. RANK 0-7 THREAD 0): ",
	.new = trace_new,
	.draw = trace_draw,
	.click = trace_click,
	.action = trace_action,
	.input = trace_filter,
	.free = trace_free,
};
