/* trace_draw: the trace pane's header, labels, grid and time axis
 * (hpcviewer's trace view).  It only draws what src/views/trace_view
 * computes (the cell grid of the visible window, the depth view of the
 * cursor's line).  Rows are trace lines, columns time slices: one line
 * per text row while the window's lines fit the rows; when they outnumber
 * the rows, under UTF-8 with enough colour pairs, each character cell
 * draws two lines with an upper half block (foreground the upper line,
 * background the lower one) and the row's label names both.  Labels drop
 * the prefix all lines share (trace_view_label_prefix) and shorten keys
 * when they do not fit.  A run of cells of one frame wide enough for its
 * name has the name written inside it.  Colours: a palette of colour
 * pairs after the theme's roles, one colour per function name (a hash, so
 * stable); 8-colour terminals get 6 colours, terminals without colour get
 * letters.
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
#include "trace_pane.h"
#include "core/symbol_name.h"
#include "views/trace_index.h"
#include "views/trace_view.h"

/* 24 distinct colours of the 256-colour cube */
static const short palette256[] = {196, 46,  21,  226, 201, 51,  208, 93,
				   34,  130, 31,  167, 142, 61,  172, 72,
				   133, 203, 120, 67,  228, 177, 117, 215};
static const short palette8[] = {COLOR_RED,  COLOR_GREEN,   COLOR_YELLOW,
				 COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN};

/* ---- colours -------------------------------------------------------- */

void trace_setup_colors(struct pane_env *env, struct trace_pane *t)
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
void trace_draw_cell(struct trace_pane *t, int y, int x, uint32_t up,
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

static bool recompute(struct pane_env *env, struct trace_pane *t, uint32_t rows,
		      uint32_t cols)
{
	const struct trace_window *w = trace_view_window(t->view);
	uint32_t line = trace_view_cursor_line(t->view);
	/* field by field: the struct's padding is not initialised */
	if (t->valid && t->key.from == w->from && t->key.to == w->to &&
	    t->key.line_lo == w->line_lo && t->key.line_hi == w->line_hi &&
	    t->key.depth == w->depth &&
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

static void draw_header(struct pane_env *env, struct trace_pane *t, int y, int x,
			int w)
{
	const struct trace_window *win = trace_view_window(t->view);
	char from[40], width[32], *text = NULL;
	trace_fmt_rel(env, win->from, from, sizeof(from));
	trace_format_duration(win->to - win->from, env->caps->utf8, width,
			      sizeof(width));
	uint64_t mark;
	bool has_mark = trace_view_has_mark(t->view, &mark);
	char marktext[48] = "";
	if (has_mark) {
		char mt[40];
		trace_fmt_rel(env, mark, mt, sizeof(mt));
		snprintf(marktext, sizeof(marktext), "  mark %s", mt);
	}
	/* unfocused: the live key that gives it the keys */
	char focus[48] = "", key[24];
	if (!env->focused && keymap_first_key(env->keymap, ACTION_SPLIT_FOCUS,
					      key, sizeof(key)))
		snprintf(focus, sizeof(focus), ", %s: keys", key);
	/* both groupings of GPU lines: which one shows */
	char gpu[40] = "";
	enum timeline_group g = trace_view_gpu_lines(t->view);
	if (trace_view_has_gpu_lines(t->view, TIMELINE_GROUP_QUEUE) &&
	    trace_view_has_gpu_lines(t->view, TIMELINE_GROUP_STREAM))
		snprintf(gpu, sizeof(gpu), "  GPU by %s",
			 trace_group_name(env->model, g));
	if (asprintf(&text, " Trace [%s%s]  depth %u/%u  lines %u-%u of %u%s  "
			    "window %s from %s%s%s%s",
		     trace_mode_names[t->mode], focus,
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

/* The label of timeline `tl` without the prefix all lines share
 * (trace_view_label_prefix), in `w` columns at most: whole when it fits;
 * else with each key shortened to its first letter ("RANK 10 THREAD 3"
 * -> "R10 T3", as hpctraceviewer's rank.thread names are short); else its
 * last w - 1 characters after "…" (the part that tells lines apart is
 * at the end).  Malloc'd. */
static char *line_label(struct pane_env *env, struct trace_pane *t,
			uint32_t tl, int w)
{
	const struct model *m = env->model;
	const char *full = model_str(m, model_timelines(m)[tl].label);
	size_t skip = trace_view_label_prefix(t->view);
	const char *l = strlen(full) > skip ? full + skip : full;
	if (screen_text_width(l) <= w)
		return strdup(l);
	/* "KEY value" pairs: K + value */
	char *shortened = malloc(strlen(l) + 1);
	if (!shortened)
		return NULL;
	size_t o = 0;
	for (const char *p = l; *p;) {
		size_t n = strcspn(p, " ");
		const char *next = p + n + (p[n] == ' ');
		size_t n2 = strcspn(next, " ");
		bool key = n > 1 && !(p[0] >= '0' && p[0] <= '9') && n2 &&
			   next[0] >= '0' && next[0] <= '9';
		if (o)
			shortened[o++] = ' ';
		if (key) {
			shortened[o++] = p[0];
			memcpy(shortened + o, next, n2);
			o += n2;
			p = next + n2 + (next[n2] == ' ');
		} else {
			memcpy(shortened + o, p, n);
			o += n;
			p = next;
		}
	}
	shortened[o] = 0;
	if (screen_text_width(shortened) <= w || w < 2)
		return shortened;
	/* the tail, whole UTF-8 characters */
	size_t len = strlen(shortened), from = len;
	int cols = 0;
	while (from > 0 && cols < w - 1) {
		from--;
		while (from > 0 && (shortened[from] & 0xc0) == 0x80)
			from--;
		cols++;
	}
	char *out = NULL;
	if (asprintf(&out, "%s%s", env->caps->utf8 ? "\xe2\x80\xa6" : "~",
		     shortened + from) < 0)
		out = NULL;
	free(shortened);
	return out;
}

/* Each screen row's label: its line's, or with two lines per row both
 * ("upper/lower"), so that no drawn line goes unnamed. */
static void draw_labels(struct pane_env *env, struct trace_pane *t, int y,
			int x, int lw, int screen_rows)
{
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
			uint32_t lo = per == 2 && r + 1 < t->rows
					      ? t->grid.row_line[r + 1]
					      : MODEL_NONE;
			if (lo == MODEL_NONE) {
				label = line_label(env, t, t->grid.row_line[r],
						   lw);
			} else {
				int half = (lw - 1) / 2;
				char *a = line_label(env, t,
						     t->grid.row_line[r], half);
				char *b = line_label(env, t, lo, lw - 1 - half);
				if (asprintf(&label, "%s/%s", a ? a : "",
					     b ? b : "") < 0)
					label = NULL;
				free(a);
				free(b);
			}
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

/* One character of a name over a cell of colour `color`: the name in the
 * default colour on the cell's colour (letters: the character alone). */
static void draw_name_cell(struct trace_pane *t, int y, int x, char ch,
			   uint32_t color, bool dim)
{
	cchar_t cc;
	wchar_t text[2] = {(wchar_t)(unsigned char)ch, 0};
	attr_t a = dim ? A_DIM : A_NORMAL;
	short pair = 0;
	/* colour pairs: half blocks' pair (default, color) is base + color,
	 * whole cells' pair (black, color) too */
	if (t->n_colors)
		pair = (short)(t->pair_base + color);
	else
		a |= A_BOLD;
	setcchar(&cc, text, a, pair, NULL);
	mvadd_wch(y, x, &cc);
}

/* The names of the frames (kernels, functions) whose runs of cells on
 * grid row r are wide enough to hold them with a cell to spare on each
 * side, written inside the run (Perfetto's and Nsight's named slices);
 * not over the cursor's cell, an instant, or a name that is not plain
 * printable ASCII. */
static void draw_names(struct pane_env *env, struct trace_pane *t, int y,
		       int x, uint32_t r, uint32_t cur_col, const bool *dims)
{
	const struct model *m = env->model;
	uint32_t tl = t->grid.row_line[r];
	if (tl == MODEL_NONE || model_timelines(m)[tl].kind == TIMELINE_COUNTER)
		return;
	const uint32_t *cells = t->grid.cells + (size_t)r * t->cols;
	const uint64_t *inst = t->grid.instants + (size_t)r * t->cols;
	for (uint32_t a = 0, b; a < t->cols; a = b) {
		for (b = a + 1; b < t->cols && cells[b] == cells[a]; b++)
			;
		if (!cells[a] || b - a < 5)
			continue;
		char *name = trace_ctx_label(m, cells[a]);
		size_t len = name ? strlen(name) : 0;
		if (len + 2 > b - a && name) {
			/* too long: its short form ("saxpy" for "saxpy(double
			 * *, int)"), as Nsight names a slice that is narrow */
			char base[256];
			symbol_base_name(name, base, sizeof(base));
			snprintf(name, len + 1, "%s", base);
			len = strlen(name);
		}
		bool plain = len > 0;
		for (size_t i = 0; i < len && plain; i++)
			plain = name[i] >= 0x20 && name[i] < 0x7f;
		if (plain && len + 2 <= b - a) {
			uint32_t color = trace_pane_color(t, m, cells[a]);
			for (size_t i = 0; i < len; i++) {
				uint32_t k = a + 1 + (uint32_t)i;
				if (k == cur_col ||
				    (!t->hide_instants && inst[k] != UINT64_MAX))
					continue;
				draw_name_cell(t, y, x + (int)k, name[i], color,
					       dims[k]);
			}
		}
		free(name);
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
	bool *dims = calloc(t->cols ? t->cols : 1, sizeof(*dims));
	for (int s = 0; s < screen_rows; s++) {
		uint32_t r0 = (uint32_t)s * per, r1 = r0 + per - 1;
		bool has0 = r0 < t->rows && t->grid.row_line[r0] != MODEL_NONE;
		bool has1 = per == 2 && r1 < t->rows &&
			    t->grid.row_line[r1] != MODEL_NONE;
		if (t->mode == MODE_MAIN && !has0 && !has1)
			break; /* rows below the last line stay blank */
		if (t->mode == MODE_MAIN && has0 &&
		    model_timelines(m)[t->grid.row_line[r0]].kind ==
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
				c0 = trace_pane_color(t, m, t->grid.cells[i]);
				under |= trace_ctx_matches(m, t->grid.raw[i], &match);
			}
			if (per == 2 && r1 < t->rows) {
				size_t i = (size_t)r1 * t->cols + k;
				c1 = trace_pane_color(t, m, t->grid.cells[i]);
				under |= trace_ctx_matches(m, t->grid.raw[i], &match);
			}
			if (per == 1)
				c1 = c0; /* a half block of one colour */
			bool cursor = k == cur_col &&
				      (t->mode == MODE_DEPTH ||
				       cur_row / per == (uint32_t)s);
			bool mark =
				t->mode == MODE_MAIN && !t->hide_instants &&
				((r0 < t->rows &&
				  t->grid.instants[(size_t)r0 * t->cols + k] !=
					  UINT64_MAX) ||
				 (per == 2 && r1 < t->rows &&
				  t->grid.instants[(size_t)r1 * t->cols + k] !=
					  UINT64_MAX));
			if (mark)
				draw_instant(env, y + s, x + (int)k, cursor);
			else
				trace_draw_cell(t, y + s, x + (int)k, c0, c1, !under,
					  cursor);
			if (dims)
				dims[k] = !under;
		}
		if (t->mode == MODE_MAIN && per == 1 && r0 < t->rows && dims)
			draw_names(env, t, y + s, x, r0,
				   cur_row == r0 ? cur_col : UINT32_MAX, dims);
	}
	free(dims);
}

/* Summary: per column, the share of rows in each function, stacked from
 * the bottom, most common first. */
static void draw_axis(struct pane_env *env, struct trace_pane *t, int y, int x,
		      int w)
{
	const struct trace_window *win = trace_view_window(t->view);
	attr_t a = theme_attr(THEME_ROLE_DIM);
	char lo[40], mid[40], hi[40];
	trace_fmt_rel(env, win->from, lo, sizeof(lo));
	trace_fmt_rel(env, win->from + (win->to - win->from) / 2, mid, sizeof(mid));
	trace_fmt_rel(env, win->to, hi, sizeof(hi));
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

/* The label column: as wide as the widest label of the window's lines
 * needs (without the shared prefix), at most a quarter of the pane and
 * LABEL_MAX; at least a fifth of the pane up to 16 columns. */
static int label_width(struct pane_env *env, struct trace_pane *t, int w)
{
	const struct model *m = env->model;
	const struct trace_window *win = trace_view_window(t->view);
	size_t skip = trace_view_label_prefix(t->view);
	int widest = 0, most = w / 4 < LABEL_MAX ? w / 4 : LABEL_MAX;
	int least = w / 5 < 16 ? w / 5 : 16;
	for (uint32_t i = win->line_lo;
	     i < win->line_hi && i - win->line_lo < 4096 && widest < most;
	     i++) {
		const char *l = model_str(
			m, model_timelines(m)[trace_view_line(t->view, i)].label);
		int lw = screen_text_width(strlen(l) > skip ? l + skip : l);
		widest = lw > widest ? lw : widest;
	}
	widest = widest < most ? widest : most;
	return widest > least ? widest : least;
}

void trace_pane_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct trace_pane *t = pane->state;
	if (r.h < 3 || r.w < 20)
		return;
	int info = t->instants ? 4 : 3; /* the cursor's lines */
	/* axis, legend, the cursor's lines; a short pane (the split at 24
	 * rows, made smaller with J) keeps one readout line of the cursor
	 * (critique b6) as long as 3 rows of grid are left */
	int footer = r.h >= 11 + info ? 2 + info
		     : r.h >= 7       ? 3
		     : r.h >= 6       ? 2
				      : 0;
	int gh = r.h - 1 - footer;
	int lw = label_width(env, t, r.w);
	int gw = r.w - lw - 1;
	if (gh < 1 || gw < 1)
		return;
	const struct trace_window *win = trace_view_window(t->view);
	/* one line per text row while rows are free; two (half blocks) only
	 * when the window's lines outnumber the rows, and never with a
	 * counter track (a bar takes a whole character cell) */
	t->per = t->half && win->line_hi - win->line_lo > (uint32_t)gh &&
			 trace_view_counters_in(t->view, win->line_lo,
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
	trace_map_colors(env, t); /* the legend's colours told apart */
	if (t->mode == MODE_STATS) {
		trace_draw_stats(env, t, r.y + 1, r.x, r.w, gh);
	} else {
		draw_labels(env, t, r.y + 1, r.x, lw, gh);
		if (t->mode == MODE_SUMMARY)
			trace_draw_summary(env, t, r.y + 1, r.x + lw + 1, gh);
		else
			draw_grid(env, t, r.y + 1, r.x + lw + 1,
				  (int)((rows + per - 1) / per));
	}
	int fy = r.y + 1 + gh;
	if (footer >= 1)
		draw_axis(env, t, fy, r.x + lw + 1, gw);
	if (footer >= 2)
		trace_draw_legend(env, t, fy + 1, r.x, r.w);
	if (footer >= 3)
		trace_draw_cursor_info(env, t, fy + 2, r.x, r.w, footer - 2);
}

