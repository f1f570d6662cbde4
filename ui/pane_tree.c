/* pane_tree: the calling-context tree with metric columns, drawn from the
 * current view's outline (only the visible rows are touched), and the
 * tree-navigation keys. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "core/sanitize.h"
#include "screen.h"
#include "theme.h"
#include "model_columns.h"
#include "present/present_column.h"
#include "present/present_derived.h"
#include "present/present_value.h"
#include "hotpath.h"
#include "tree_compare.h"
#include "tree_focus.h"
#include "tree_label.h"

#define VALUE_WIDTH 9      /* the least a value gets */
#define VALUE_MAX_WIDTH 20 /* the most: "-123,456,789,012,345" */
#define PERCENT_WIDTH 7
#define BAR_WIDTH 10
#define NAME_MIN_WIDTH 16
#define NAME_KEEP 18 /* columns kept for the name on deep rows */

struct column_layout {
	uint32_t column; /* model column, or n_columns + derived index */
	int x, width;
	int value_width; /* of the value, within width */
	int need;        /* the value width its longest form wants */
	int need_digits; /* the same, counts without digit groups */
	enum present_count_form form; /* one for the column's counts */
	bool percent, bar;
};

static size_t selected_index(struct pane_env *env)
{
	struct outline *o = env->outline;
	struct tree_cursor *cur = env->cursor;
	size_t idx = outline_find(o, cur->node);
	if (idx != OUTLINE_NONE)
		return idx;
	/* the selection disappeared (collapsed, filtered): its nearest
	 * visible ancestor takes over */
	struct view_node vn;
	uint32_t n = cur->node;
	while (view_node_get(env->view, n, &vn) && vn.parent != MODEL_NONE) {
		n = vn.parent;
		idx = outline_find(o, n);
		if (idx != OUTLINE_NONE) {
			cur->node = n;
			return idx;
		}
	}
	struct outline_row row;
	if (outline_row_get(o, 0, &row))
		cur->node = row.node;
	return 0;
}

/* The tree pane's state: its height at the last draw; compared runs:
 * the regressions the key walks. */
struct tree_pane {
	int rows;
	struct tree_regressions regressions;
};

static int rows_of(const struct pane *pane)
{
	return ((const struct tree_pane *)pane->state)->rows;
}

/* Keep the selection on screen (`height` rows, the header included). */
static void tree_ensure_visible(struct pane_env *env, int height)
{
	struct tree_cursor *cur = env->cursor;
	size_t idx = selected_index(env);
	size_t rows = height > 1 ? (size_t)height - 1 : 1;
	if (idx < cur->top)
		cur->top = idx;
	else if (idx >= cur->top + rows)
		cur->top = idx - rows + 1;
	size_t count = outline_count(env->outline);
	if (cur->top > 0 && cur->top + rows > count)
		cur->top = count > rows ? count - rows : 0;
}

static void tree_select(struct pane_env *env, int rows, uint32_t node)
{
	env->cursor->node = node;
	tree_ensure_visible(env, rows);
}

static void select_index(struct pane_env *env, int rows, size_t idx)
{
	struct outline_row row;
	size_t count = outline_count(env->outline);
	if (count == 0)
		return;
	if (idx >= count)
		idx = count - 1;
	if (outline_row_get(env->outline, idx, &row))
		tree_select(env, rows, row.node);
}

/* The value of column `col` (model or derived) at view row `node`. */
static bool column_value(struct pane_env *env, uint32_t col, uint32_t node,
			 double *out)
{
	if (env->sys_focus)
		return tree_focus_value(env, col, node, out);
	return present_column_value(env->view, env->cols->derived,
				    env->cols->n_derived, col, node, out);
}

static void format_value(struct pane_env *env, uint32_t c, double v,
			 enum present_count_form form, int width, char *buf,
			 size_t size);

static void widen(struct pane_env *env, struct column_layout *col, double v)
{
	char buf[64];
	format_value(env, col->column, v, PRESENT_COUNT_GROUPED,
		     VALUE_MAX_WIDTH, buf, sizeof(buf));
	if ((int)strlen(buf) > col->need)
		col->need = (int)strlen(buf);
	format_value(env, col->column, v, PRESENT_COUNT_DIGITS,
		     VALUE_MAX_WIDTH, buf, sizeof(buf));
	if ((int)strlen(buf) > col->need_digits)
		col->need_digits = (int)strlen(buf);
}

/* The widths the values of COL on rows TOP.. (COUNT of them) and its
 * total want in their longest forms, at least VALUE_WIDTH. */
static void column_need(struct pane_env *env, struct column_layout *col,
			size_t top, size_t count)
{
	col->need = col->need_digits = VALUE_WIDTH;
	double v;
	if (col->column < model_n_columns(env->model) &&
	    pane_column_total(env, col->column, &v))
		widen(env, col, v);
	for (size_t i = 0; i < count; i++) {
		struct outline_row row;
		if (!outline_row_get(env->outline, top + i, &row))
			break;
		if (column_value(env, col->column, row.node, &v))
			widen(env, col, v);
	}
}

/* The columns that fit beside the name, each value VALUE_WIDTH wide
 * (the name keeps a third of the width, up to 40 columns; columns that
 * do not fit are dropped from the right, but never the sort column; the
 * column chooser, c, picks which come first); then the room left widens the values that want it
 * (the rows TOP.. on screen and the totals), left to right, so that at
 * 200 columns a 12-digit count shows whole.  Returns the name's x. */
static int layout_columns(struct pane_env *env, int width,
			  struct column_layout *cols, size_t *n_out,
			  size_t top, size_t count)
{
	size_t n = 0;
	int x = 0;
	int name_min = width / 3 < 40 ? width / 3 : 40;
	if (name_min < NAME_MIN_WIDTH)
		name_min = NAME_MIN_WIDTH;
	size_t total = env->cols->n_columns + env->cols->n_derived;
	bool sort_in = false; /* the sort column is among those laid out */
	bool full = false;    /* no room left but for the sort column */
	for (size_t i = 0; i < total; i++) {
		uint32_t c = i < env->cols->n_columns
				     ? env->cols->columns[i]
				     : model_n_columns(env->model) +
					       (uint32_t)(i - env->cols->n_columns);
		bool sort = c == env->cols->sort_column;
		double t;
		bool pct = c < model_n_columns(env->model) &&
			   (model_columns(env->model)[c].render & RENDER_PERCENT) &&
			   pane_column_total(env, c, &t);
		bool bar = env->cols->show_bars && pct;
		int w = VALUE_WIDTH + (pct ? PERCENT_WIDTH : 0) +
			(bar ? BAR_WIDTH + 1 : 0) + 1;
		/* the rows' order must be readable: the sort column takes
		 * the place of those before it that leave it no room */
		if (full && !sort)
			continue;
		while (sort && n > 0 && x + w > width - name_min)
			x -= cols[--n].width;
		if (x + w > width - name_min && n > 0) {
			if (sort_in)
				break;
			full = true;
			continue;
		}
		cols[n++] = (struct column_layout){
			.column = c, .x = x, .width = w,
			.value_width = VALUE_WIDTH, .percent = pct, .bar = bar};
		x += w;
		sort_in = sort_in || sort;
	}
	int spare = width - name_min - x;
	for (size_t i = 0; i < n; i++) {
		struct column_layout *col = &cols[i];
		column_need(env, col, top, count);
		int grow = col->need - col->value_width;
		if (grow > spare)
			grow = spare;
		if (grow > 0) {
			col->value_width += grow;
			col->width += grow;
			spare -= grow;
		}
		/* counts too wide for the column: the same shorter form on
		 * every row */
		col->form = col->need <= col->value_width ? PRESENT_COUNT_GROUPED
			    : col->need_digits <= col->value_width
				    ? PRESENT_COUNT_DIGITS
				    : PRESENT_COUNT_SI;
	}
	x = 0;
	for (size_t i = 0; i < n; i++) {
		cols[i].x = x;
		x += cols[i].width;
	}
	*n_out = n;
	return x;
}

/* V of column C (a model column, or a derived one: a plain number) in
 * at most WIDTH columns, never a cut prefix; counts in FORM or shorter;
 * compared runs: a delta above 0 signed '+' */
static void format_value(struct pane_env *env, uint32_t c, double v,
			 enum present_count_form form, int width, char *buf,
			 size_t size)
{
	struct present_kind k = present_column_kind(env->model, c);
	k.count_form = form;
	size_t plus = tree_compare_plus(env, c, v) ? 1 : 0;
	present_number_fit(k, v, width - (int)plus, PRESENT_DIGITS, buf + plus,
			   size - plus);
	if (plus)
		buf[0] = '+';
}

static void draw_bar(int y, int x, double frac)
{
	const struct screen_glyphs *g = screen_glyphs();
	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	int halves = (int)lround(frac * BAR_WIDTH * 2);
	move(y, x);
	attr_t a = theme_attr(THEME_ROLE_BAR), e = theme_attr(THEME_ROLE_BAR_EMPTY);
	for (int i = 0; i < BAR_WIDTH; i++) {
		if (halves >= 2) {
			attrset(a);
			addstr(g->bar_full);
			halves -= 2;
		} else if (halves == 1) {
			attrset(a);
			addstr(g->bar_half);
			halves = 0;
		} else {
			attrset(e);
			addch(' ');
		}
	}
	attrset(A_NORMAL);
}

static void draw_header(struct pane_env *env, struct rect r,
			const struct column_layout *cols, size_t n,
			int name_x)
{
	attr_t h = theme_attr(THEME_ROLE_COLUMN_HEADER);
	move(r.y, r.x);
	attrset(h);
	for (int i = 0; i < r.w; i++)
		addch(' ');
	attrset(A_NORMAL);
	bool utf8 = strcmp(screen_glyphs()->bar_full, "#") != 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cols[i].column;
		const char *mark = "";
		/* sorted by the absolute values: "±delta I▼" ("|delta| Iv") */
		const char *bar = "";
		if (c == env->cols->sort_column) {
			mark = env->cols->sort_ascending ? (utf8 ? "\xe2\x96\xb2" : "^")
						   : (utf8 ? "\xe2\x96\xbc" : "v");
			bar = !env->sort_magnitude ? ""
			      : utf8		 ? "\xc2\xb1"
						 : "|";
		}
		char *text = NULL;
		int r_ = -1;
		if (c < model_n_columns(env->model)) {
			/* "NAME[:VARIANT] I" so that it fits over the values;
			 * the name is cut first (its end), then the variant,
			 * the kind and mark stay: "WALLCL…:Mean I" */
			const struct model_column *mc = &model_columns(env->model)[c];
			const char *variant = tree_compare_variant(env, c);
			if (!variant)
				variant = mc->variant ? mc->variant : "";
			bool sv = *variant && strcmp(variant, "Sum") != 0;
			char *name = present_metric_name_shown(env->model, c);
			char *tail = NULL;
			if (name && asprintf(&tail, "%s%s", sv ? ":" : "",
					     sv ? variant : "") >= 0) {
				int room = cols[i].width - 1 - 3 -
					   (utf8 ? 1 : 2) * (*bar != 0);
				int tail_w = screen_text_width(tail);
				char *set = tree_compare_set_title(env, c, room);
				if (set) {
					/* a run set: "p16 I", "median I" */
					free(name);
					name = set;
					tail[0] = '\0';
					tail_w = 0;
				} else if (sv && tail_w > room / 2) {
					/* too narrow for both: the variant
					 * alone tells the metric's columns
					 * apart (its Sum column names it) */
					free(name);
					name = strdup(variant);
					tail[0] = '\0';
					tail_w = 0;
					if (!name)
						goto no_text;
				}
				int name_room = room - tail_w;
				char *fit = metric_name_fit(name, name_room);
				r_ = fit ? asprintf(&text, "%s%s%s%s %s%s", bar,
						    fit, tail, utf8 ? "" : bar,
						    mc->kind == COLUMN_INCLUSIVE
							    ? "I" : "E",
						    mark)
					 : -1;
				free(fit);
			}
		no_text:
			free(name);
			free(tail);
		} else {
			char *title = pane_column_title(env, c);
			r_ = asprintf(&text, "%s%s", title ? title : "?", mark);
			free(title);
		}
		if (r_ < 0)
			text = NULL;
		screen_text_right(r.y, r.x + cols[i].x, cols[i].width - 1, h,
				  text ? text : "");
		free(text);
	}
	char *name = NULL;
	const char *view = view_kind_name(env->view_kind);
	uint32_t zoom = outline_zoom_root(env->outline);
	char *part = env->sys_focus ? tree_focus_words(env) : NULL;
	/* focused: the part of the system first (the tab bar names the
	 * view) */
	if (asprintf(&name, "Name (%s%s)", part ? part : view,
		     zoom != view_root(env->view) ? ", zoomed" : "") < 0)
		name = NULL;
	free(part);
	screen_text(r.y, r.x + name_x, r.w - name_x, h, name ? name : "Name",
		    false);
	free(name);
}

static void draw_row(struct pane_env *env, int y, struct rect r,
		     const struct outline_row *row, bool selected,
		     const struct column_layout *cols, size_t n, int name_x)
{
	const struct screen_glyphs *g = screen_glyphs();
	attr_t base = selected ? theme_attr(THEME_ROLE_SELECTED) : A_NORMAL;
	move(y, r.x);
	attrset(base);
	for (int i = 0; i < r.w; i++)
		addch(' ');
	for (size_t i = 0; i < n; i++) {
		const struct column_layout *c = &cols[i];
		double v;
		int x = r.x + c->x;
		if (!column_value(env, c->column, row->node, &v))
			continue;
		char buf[64];
		format_value(env, c->column, v, c->form, c->value_width, buf,
			     sizeof(buf));
		attr_t va = selected ? base
				     : tree_compare_attr(
					       env, c->column, v,
					       theme_attr(THEME_ROLE_VALUE));
		screen_text_right(y, x, c->value_width, va, buf);
		x += c->value_width;
		double total = 0, pct;
		if (c->percent &&
		    (env->sys_focus ? tree_focus_total(env, c->column, &total)
				    : pane_column_total(env, c->column,
							&total))) {
			if (!present_share(v, total, &pct))
				continue; /* an inf or NaN value: no share */
			snprintf(buf, sizeof(buf), "%5.1f%%", pct);
			screen_text_right(y, x, PERCENT_WIDTH,
					  selected ? base
						   : theme_attr(THEME_ROLE_PERCENT),
					  buf);
			x += PERCENT_WIDTH + 1;
			if (c->bar)
				draw_bar(y, x, pct / 100.0);
		}
	}
	/* guides, branch, marker, name */
	int x = r.x + name_x;
	int end = r.x + r.w;
	attr_t guide = selected ? base : theme_attr(THEME_ROLE_GUIDE);
	/* deep rows: keep at least NAME_KEEP columns for the name by dropping
	 * the outermost guide levels, marked with an ellipsis */
	uint32_t first = 1;
	int room = end - x - NAME_KEEP;
	uint32_t max_levels = room > 4 ? (uint32_t)(room / 2) - 1 : 1;
	if (row->depth > max_levels + 1) {
		first = row->depth - max_levels;
		x += screen_text(y, x, 2, guide, g->ellipsis, true);
	}
	for (uint32_t d = first; d < row->depth && x + 2 <= end; d++) {
		bool more = d - 1 < 64 && (row->guides >> (d - 1)) & 1;
		x += screen_text(y, x, 2, guide, more ? g->vertical : "  ", true);
	}
	if (row->depth > 0 && x + 2 <= end)
		x += screen_text(y, x, 2, guide,
				 row->last_sibling ? g->last : g->branch, true);
	if (x + 2 <= end) {
		const char *marker = !row->has_children ? g->leaf
				     : row->expanded    ? g->expanded
							: g->collapsed;
		x += screen_text(y, x, 2,
				 selected ? base : theme_attr(THEME_ROLE_MARKER),
				 marker, true);
	}
	/* flat view: the module's or file's base name, as hpcviewer and
	 * perf report show them (the detail line has the path) */
	char *label = view_node_short_label(env->view, row->node);
	struct view_node vn;
	if (view_node_get(env->view, row->node, &vn))
		label = tree_compare_label(env, vn.model_node, label);
	attr_t la = selected ? base
		    : row->match ? theme_attr(THEME_ROLE_SEARCH_MATCH)
				 : theme_attr(THEME_ROLE_TREE);
	if (x < end) {
		char *cut = middle_cut(label ? label : "?", end - x);
		screen_text(y, x, end - x, la, cut ? cut : "?", false);
		free(cut);
	}
	free(label);
	attrset(A_NORMAL);
}

static void tree_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	/* a parametric database: the model columns on the left, the
	 * evaluation point's status line at the bottom */
	int tree_w = r.w;
	int mw = r.h >= 3 ? model_columns_width(env, tree_w) : 0;
	struct rect mr = r;
	if (mw > 0) {
		r.h--;
		model_columns_status(env, r.y + r.h, r.x, r.w);
		mr.w = mw;
		r.x += mw;
		r.w -= mw;
	}
	int rows = r.h;
	((struct tree_pane *)pane->state)->rows = rows;
	if (r.h < 2 || r.w < 10)
		return;
	size_t total = env->cols->n_columns + env->cols->n_derived;
	struct column_layout *cols = calloc(total ? total : 1, sizeof(*cols));
	if (!cols)
		return;
	size_t n = 0;
	tree_ensure_visible(env, rows);
	int name_x = layout_columns(env, r.w, cols, &n, env->cursor->top,
				    (size_t)(r.h - 1));
	draw_header(env, r, cols, n, name_x);
	if (mw > 0)
		model_columns_header(env, mr.y, mr.x, tree_w);
	struct outline *o = env->outline;
	struct tree_cursor *cur = env->cursor;
	size_t sel = selected_index(env);
	for (int i = 1; i < r.h; i++) {
		struct outline_row row;
		size_t idx = cur->top + (size_t)(i - 1);
		if (!outline_row_get(o, idx, &row))
			break;
		draw_row(env, r.y + i, r, &row, idx == sel, cols, n, name_x);
		if (mw > 0)
			model_columns_row(env, r.y + i, mr.x, tree_w, row.node,
					  idx == sel);
	}
	free(cols);
}

static size_t sibling_index(struct pane_env *env, bool forward)
{
	struct outline *o = env->outline;
	size_t idx = selected_index(env);
	struct outline_row cur, row;
	if (!outline_row_get(o, idx, &cur))
		return idx;
	size_t count = outline_count(o);
	if (forward) {
		for (size_t i = idx + 1; i < count; i++) {
			if (!outline_row_get(o, i, &row) || row.depth < cur.depth)
				break;
			if (row.depth == cur.depth)
				return i;
		}
	} else {
		for (size_t i = idx; i-- > 0;) {
			if (!outline_row_get(o, i, &row) || row.depth < cur.depth)
				break;
			if (row.depth == cur.depth)
				return i;
		}
	}
	return idx;
}

/* Moving the selection: rows, pages, the ends, the parent, siblings. */
static struct reaction tree_move(struct pane_env *env, int rows, enum action a,
				 size_t idx, struct outline_row row,
				 bool have_row)
{
	struct tree_cursor *cur = env->cursor;
	size_t page = rows > 2 ? (size_t)rows - 2 : 1;
	switch (a) {
	case ACTION_MOVE_UP:
		select_index(env, rows, idx ? idx - 1 : 0);
		return REACTION(HANDLED_REDRAW);
	case ACTION_MOVE_DOWN:
		select_index(env, rows, idx + 1);
		return REACTION(HANDLED_REDRAW);
	case ACTION_PAGE_UP:
		select_index(env, rows, idx > page ? idx - page : 0);
		cur->top = cur->top > page ? cur->top - page : 0;
		tree_ensure_visible(env, rows);
		return REACTION(HANDLED_REDRAW);
	case ACTION_PAGE_DOWN:
		select_index(env, rows, idx + page);
		return REACTION(HANDLED_REDRAW);
	case ACTION_MOVE_FIRST:
		select_index(env, rows, 0);
		return REACTION(HANDLED_REDRAW);
	case ACTION_MOVE_LAST:
		select_index(env, rows, SIZE_MAX);
		return REACTION(HANDLED_REDRAW);
	case ACTION_PARENT: {
		struct view_node vn;
		if (have_row && row.depth > 0 &&
		    view_node_get(env->view, row.node, &vn))
			tree_select(env, rows, vn.parent);
		return REACTION(HANDLED_REDRAW);
	}
	case ACTION_PREV_SIBLING:
		select_index(env, rows, sibling_index(env, false));
		return REACTION(HANDLED_REDRAW);
	case ACTION_NEXT_SIBLING:
		select_index(env, rows, sibling_index(env, true));
		return REACTION(HANDLED_REDRAW);
	default:
		return REACTION(HANDLED_NO);
	}
}

/* Expanding and collapsing rows and subtrees. */
static struct reaction tree_fold(struct pane_env *env, int rows, enum action a,
				 size_t idx, struct outline_row row,
				 bool have_row)
{
	struct outline *o = env->outline;
	struct error err = {0};
	switch (a) {
	case ACTION_TOGGLE:
		if (!have_row || !row.has_children)
			return REACTION(HANDLED_YES);
		if (row.expanded)
			outline_collapse(o, row.node);
		else if (outline_expand(o, row.node, &err) != STATUS_OK)
			pane_error(env, &err);
		return REACTION(HANDLED_REDRAW);
	case ACTION_EXPAND:
		if (!have_row || !row.has_children)
			return REACTION(HANDLED_YES);
		if (row.expanded)
			select_index(env, rows, idx + 1);
		else if (outline_expand(o, row.node, &err) != STATUS_OK)
			pane_error(env, &err);
		return REACTION(HANDLED_REDRAW);
	case ACTION_COLLAPSE:
		if (have_row && row.expanded) {
			outline_collapse(o, row.node);
		} else if (have_row && row.depth > 0) {
			struct view_node vn;
			if (view_node_get(env->view, row.node, &vn))
				tree_select(env, rows, vn.parent);
		}
		return REACTION(HANDLED_REDRAW);
	case ACTION_EXPAND_ALL:
		if (have_row &&
		    outline_expand_all(o, row.node, &err) != STATUS_OK)
			pane_error(env, &err);
		return REACTION(HANDLED_REDRAW);
	case ACTION_COLLAPSE_ALL:
		if (have_row)
			outline_collapse_all(o, row.node);
		return REACTION(HANDLED_REDRAW);
	default:
		return REACTION(HANDLED_NO);
	}
}

/* What the tree shows: the hot path, zoom, flatten, search matches. */
static struct reaction tree_focus(struct pane_env *env, int rows,
				  enum action a, size_t idx,
				  struct outline_row row, bool have_row)
{
	struct outline *o = env->outline;
	struct tree_cursor *cur = env->cursor;
	struct error err = {0};
	switch (a) {
	case ACTION_HOT_PATH: {
		uint32_t leaf;
		if (!have_row || env->cols->sort_column >= model_n_columns(env->model)) {
			pane_message(env, true, "hot path: sort by a metric "
					       "column first (s)");
			return REACTION(HANDLED_REDRAW);
		}
		if (outline_hotpath(o, row.node, env->cols->sort_column,
				    env->cols->threshold, &leaf,
				    &err) != STATUS_OK) {
			pane_error(env, &err);
			return REACTION(HANDLED_REDRAW);
		}
		tree_select(env, rows, leaf);
		hotpath_say(env, row.node, leaf);
		return REACTION(HANDLED_REDRAW);
	}
	case ACTION_ZOOM:
		if (have_row && outline_zoom(o, row.node, &err) != STATUS_OK)
			pane_error(env, &err);
		cur->top = 0;
		return REACTION(HANDLED_REDRAW);
	case ACTION_FLATTEN:
		if (!have_row)
			return REACTION(HANDLED_YES);
		if (outline_flatten(o, row.node, &err) != STATUS_OK) {
			pane_error(env, &err);
			return REACTION(HANDLED_REDRAW);
		}
		/* the first child now holds the row's place */
		select_index(env, rows, idx);
		pane_message(env, false, "flattened (%zu); U undoes one",
			     outline_flattened(o));
		return REACTION(HANDLED_REDRAW);
	case ACTION_UNFLATTEN: {
		uint32_t back = outline_unflatten(o);
		if (back == MODEL_NONE) {
			pane_message(env, false, "nothing is flattened");
			return REACTION(HANDLED_REDRAW);
		}
		tree_select(env, rows, back);
		pane_message(env, false, "unflattened (%zu left)",
			     outline_flattened(o));
		return REACTION(HANDLED_REDRAW);
	}
	case ACTION_ZOOM_OUT:
		if (!outline_zoom_out(o))
			pane_message(env, false, "not zoomed");
		tree_ensure_visible(env, rows);
		return REACTION(HANDLED_REDRAW);
	case ACTION_SEARCH_NEXT:
	case ACTION_SEARCH_PREV: {
		uint32_t match;
		if (outline_search_count(o) == 0) {
			pane_message(env, false, "no search (press /)");
			return REACTION(HANDLED_REDRAW);
		}
		enum status st = outline_search_next(
			o, cur->node, a == ACTION_SEARCH_NEXT, &match, &err);
		if (st == STATUS_OK) {
			tree_select(env, rows, match);
			pane_message(env, false, "%zu matches",
				    outline_search_count(o));
		} else {
			pane_error(env, &err);
		}
		return REACTION(HANDLED_REDRAW);
	}
	default:
		return REACTION(HANDLED_NO);
	}
}

/* An action on the tree: each part above is handed the selected row
 * (its index, the row, whether there is one). */
static struct reaction tree_action(struct pane_env *env, struct pane *pane,
				   enum action a)
{
	int rows = rows_of(pane);
	if (a == ACTION_SYSTEM_ALL)
		return tree_focus_clear(env);
	if (a == ACTION_NEXT_REGRESSION)
		return tree_compare_next(
			env, &((struct tree_pane *)pane->state)->regressions);
	size_t idx = selected_index(env);
	struct outline_row row;
	bool have_row = outline_row_get(env->outline, idx, &row);
	struct reaction r = tree_move(env, rows, a, idx, row, have_row);
	if (r.flags == HANDLED_NO)
		r = tree_fold(env, rows, a, idx, row, have_row);
	if (r.flags == HANDLED_NO)
		r = tree_focus(env, rows, a, idx, row, have_row);
	if (r.flags == HANDLED_NO)
		r = model_columns_action(env, a);
	return r;
}

static struct reaction tree_click(struct pane_env *env, struct pane *pane,
				  int y, int x, bool twice)
{
	(void)x;
	int rows = rows_of(pane);
	if (y < 1 || y >= rows) /* the header; the models' status line */
		return REACTION(HANDLED_YES);
	size_t idx = env->cursor->top + (size_t)(y - 1);
	if (idx >= outline_count(env->outline))
		return REACTION(HANDLED_YES);
	select_index(env, rows, idx);
	if (twice)
		return tree_action(env, pane, ACTION_TOGGLE);
	return REACTION(HANDLED_REDRAW);
}

static void tree_free(struct pane *pane)
{
	tree_regressions_free(&((struct tree_pane *)pane->state)->regressions);
	free(pane->state);
	free(pane);
}

static struct pane *tree_new(struct pane_env *env)
{
	(void)env;
	return pane_alloc(&pane_tree_ops, sizeof(struct tree_pane));
}

const struct pane_ops pane_tree_ops = {
	.name = "tree",
	.title = "Tree",
	.flags = PANE_BASE,
	.new = tree_new,
	.draw = tree_draw,
	.action = tree_action,
	.click = tree_click,
	.free = tree_free,
};
