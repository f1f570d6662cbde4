/* pane_flame: a flame graph (icicle) of the selected subtree (`x`): the
 * selection on top, spanning the width, its callees below it, each as wide
 * as its share of the column the tree is sorted by (its inclusive
 * counterpart; a column that does not add up, such as a mean, is refused
 * with a message).  Boxes carry their names where they fit; the free room
 * under a box is its own (self) part.  Keys: Up and Down move between
 * rows (to the caller, to the widest callee), Left and Right between the
 * boxes of a row, Enter (or z) zooms into the selected box, Backspace (or
 * Z) zooms back out, o shows the selection in the tree, Esc closes;
 * the tree's search (/, from here too) marks the boxes it matches, n and
 * N select the next and previous matching box; y shows the sandwich of
 * the selected box's function (its callers above it from a private
 * bottom-up view, its callees below from every outermost instance in a
 * private top-down view, merged by name: flame_layout_merged).  The
 * bottom line gives the selected box's name, value and share of the graph's
 * root and of the whole.  Colours: one per name (a hash, stable), with a
 * box's first cell left blank so that neighbours stand apart in monochrome
 * too.  Compared runs (--compare, :compare) give a differential flame
 * graph: widths from the new run, each box in the delta-worse or
 * delta-better role after a "+" or "-" (NO_COLOR keeps the sign), the
 * bottom line with the box's delta.  The layout (src/views/flame.c) is made for the pane's size and
 * kept until the size, the root or the column changes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "compare/diff_view.h"
#include "core/array.h"
#include "present/present_value.h"
#include "views/flame.h"
#include "views/outline.h"

#define ZOOM_MAX 64

struct flame_pane {
	uint32_t column;           /* inclusive, adds up */
	uint32_t delta;            /* compared runs: the delta column that
				      colours the boxes, else MODEL_NONE */
	uint32_t roots[ZOOM_MAX];  /* the zoom stack; roots[0] first */
	size_t n_roots;
	struct flame_box *boxes;   /* for the size below */
	size_t n_boxes;
	int width, rows;
	uint32_t laid_root;
	size_t selected;           /* box index */
	uint32_t selected_node;    /* kept across layouts */
	short pair_base;
	uint32_t n_colors;
	struct sandwich *sandwich; /* y: the selection's function, or NULL */
};

/* The sandwich of a function (speedscope's): its callers above it (the
 * bottom-up view's row of the function: each caller as wide as the
 * function's cost when called from it), its callees below (the subtrees
 * of every outermost instance of the function in the calling-context
 * tree, merged by name). */
struct sandwich {
	struct view *bu, *td;  /* private views of the model */
	char *name;
	uint32_t bu_row;       /* the function's bottom-up row */
	uint32_t *instances;   /* its outermost top-down rows */
	size_t n_instances, cap_instances;
	struct flame_box *callers;
	size_t n_callers;
	struct flame_merge callees;
	int width, rows;
};

static const short palette256[] = {209, 215, 221, 179, 173, 167,
				   203, 216, 222, 180, 174, 186};
static const short palette8[] = {COLOR_RED, COLOR_YELLOW, COLOR_MAGENTA};

static void setup_colors(struct pane_env *env, struct flame_pane *p)
{
	if (!env->caps->colors || env->caps->headless)
		return;
	bool wide = env->caps->n_colors >= 256;
	const short *pal = wide ? palette256 : palette8;
	uint32_t n = wide ? sizeof palette256 / sizeof *palette256
			  : sizeof palette8 / sizeof *palette8;
	/* after the theme's roles and the trace pane's pairs */
	long base = THEME_ROLE_COUNT + 2 + 700;
	if (base + (long)n >= COLOR_PAIRS || base + (long)n >= 32767)
		return;
	for (uint32_t c = 0; c < n; c++)
		init_pair((short)(base + c), COLOR_BLACK, pal[c]);
	p->pair_base = (short)base;
	p->n_colors = n;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static uint32_t root_of(const struct flame_pane *p)
{
	return p->roots[p->n_roots - 1];
}

/* Lay out again when the size or the root changed. */
static bool relayout(struct pane_env *env, struct flame_pane *p, int w,
		     int rows)
{
	if (p->boxes && p->width == w && p->rows == rows &&
	    p->laid_root == root_of(p))
		return true;
	struct error err = {0};
	free(p->boxes);
	p->boxes = NULL;
	p->n_boxes = 0;
	if (flame_layout(env->view, root_of(p), p->column, w, rows, &p->boxes,
			 &p->n_boxes, &err) != STATUS_OK) {
		pane_error(env, &err);
		return false;
	}
	p->width = w;
	p->rows = rows;
	p->laid_root = root_of(p);
	p->selected = 0;
	for (size_t i = 0; i < p->n_boxes; i++)
		if (p->boxes[i].node == p->selected_node)
			p->selected = i;
	p->selected_node = p->boxes[p->selected].node;
	return true;
}

/* Compared runs: a box is worse (the new run costs more in it) or better,
 * in the delta roles' colours reversed, its name after a "+" or "-" that
 * needs no colour. */
static enum diff_sense box_sense(struct pane_env *env, struct flame_pane *p,
				 uint32_t node)
{
	double dv;
	if (p->delta == MODEL_NONE ||
	    !view_value(env->view, node, p->delta, &dv))
		return DIFF_SENSE_NONE;
	return diff_view_sense(env->diff, p->delta, dv);
}

/* A box of `w` cells at (y, x): its first cell blank, so that neighbours
 * stand apart without colour, then its name. */
static void draw_cells(int y, int x, int w, attr_t a, short pair,
		       const char *label)
{
	screen_text(y, x, 1, A_NORMAL, "", true);
	if (w > 1)
		screen_text_pair(y, x + 1, w - 1, a, pair, label ? label : "?",
				 true);
}

/* The colour of a box named `label` (a pair of the palette, else
 * reverse video). */
static attr_t name_attr(const struct flame_pane *p, const char *label,
			short *pair)
{
	*pair = 0;
	if (!p->n_colors)
		return A_REVERSE;
	*pair = (short)(p->pair_base + name_hash(label ? label : "") %
					       p->n_colors);
	return A_NORMAL;
}

static void draw_box(struct pane_env *env, struct flame_pane *p,
		     const struct flame_box *b, int y, int x0, bool selected)
{
	char *label = view_node_short_label(env->view, b->node);
	attr_t a = A_REVERSE;
	short pair = 0;
	enum diff_sense sense = box_sense(env, p, b->node);
	if (sense != DIFF_SENSE_NONE) {
		char *marked = NULL;
		if (asprintf(&marked, "%s%s",
			     sense == DIFF_SENSE_WORSE ? "+" : "-",
			     label ? label : "?") >= 0) {
			free(label);
			label = marked;
		}
		a = theme_attr(sense == DIFF_SENSE_WORSE
				       ? THEME_ROLE_DELTA_WORSE
				       : THEME_ROLE_DELTA_BETTER) |
		    A_REVERSE;
	} else if (p->delta == MODEL_NONE) {
		a = name_attr(p, label, &pair);
	}
	/* the tree's search (/ here or in the tree): matching boxes in the
	 * search role, as the tree marks its rows */
	if (outline_search_matches(env->outline, b->node)) {
		a = theme_attr(THEME_ROLE_SEARCH_MATCH) | A_REVERSE | A_BOLD;
		pair = 0;
	}
	if (selected)
		a = theme_attr(THEME_ROLE_SELECTED) | A_BOLD, pair = 0;
	draw_cells(y, x0 + b->x0, b->x1 - b->x0, a, pair, label);
	free(label);
}

/* The bottom line: the selected box's name, value and shares. */
static void draw_status(struct pane_env *env, struct flame_pane *p, int y,
			struct rect r)
{
	const struct flame_box *b = &p->boxes[p->selected];
	char value[32], line[160];
	double total = 0;
	present_value_fit(env->model, p->column, b->value, 12, value,
			  sizeof value);
	double of_root = p->boxes[0].value > 0
				 ? 100 * b->value / p->boxes[0].value
				 : 0;
	double dv;
	char delta[48] = "";
	if (p->delta != MODEL_NONE &&
	    view_value(env->view, b->node, p->delta, &dv)) {
		char num[32];
		present_value_fit(env->model, p->delta, dv, 12, num,
				  sizeof num);
		snprintf(delta, sizeof delta, "  delta %s%s",
			 dv > 0 ? "+" : "", num);
	}
	if (pane_column_total(env, p->column, &total) && total > 0)
		snprintf(line, sizeof line, " %s  %.1f%% of the graph  %.1f%% "
					   "of all%s  ",
			 value, of_root, 100 * b->value / total, delta);
	else
		snprintf(line, sizeof line, " %s  %.1f%% of the graph%s  ",
			 value, of_root, delta);
	int used = screen_text(y, r.x, r.w, theme_attr(THEME_ROLE_STATUS),
			       line, false);
	char *label = view_node_label(env->view, b->node);
	screen_text(y, r.x + used, r.w - used, theme_attr(THEME_ROLE_STATUS),
		    label ? label : "?", true);
	free(label);
}

static void sandwich_draw(struct pane_env *env, struct flame_pane *p,
			  struct rect r);

static void flame_draw(struct pane_env *env, struct pane *pane,
		       struct rect r)
{
	struct flame_pane *p = pane->state;
	if (r.h < 3 || r.w < 8)
		return;
	char *title = pane_column_title(env, p->column);
	char head[200];
	snprintf(head, sizeof head,
		 " Flame graph of %s%s  Enter zoom  Bksp back  o tree  Esc",
		 title ? title : "?", p->n_roots > 1 ? ", zoomed" : "");
	free(title);
	if (p->sandwich)
		snprintf(head, sizeof head,
			 " Sandwich: callers above, callees below  y or Esc: "
			 "the flame graph");
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_TITLE), head, true);
	for (int y = r.y + 1; y < r.y + r.h; y++)
		screen_text(y, r.x, r.w, A_NORMAL, "", true);
	if (p->sandwich) {
		sandwich_draw(env, p, r);
		return;
	}
	if (!relayout(env, p, r.w, r.h - 2))
		return;
	for (size_t i = 0; i < p->n_boxes; i++)
		draw_box(env, p, &p->boxes[i],
			 r.y + 1 + (int)p->boxes[i].depth, r.x,
			 i == p->selected);
	draw_status(env, p, r.y + r.h - 1, r);
}

static void select_box(struct flame_pane *p, size_t i)
{
	if (i < p->n_boxes) {
		p->selected = i;
		p->selected_node = p->boxes[i].node;
	}
}

/* The widest box one row down under the selection. */
static size_t first_child(const struct flame_pane *p)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < p->n_boxes; i++)
		if (p->boxes[i].parent == p->selected &&
		    (best == SIZE_MAX ||
		     p->boxes[i].x1 - p->boxes[i].x0 >
			     p->boxes[best].x1 - p->boxes[best].x0))
			best = i;
	return best;
}

static struct reaction flame_move(struct flame_pane *p, enum action a)
{
	const struct flame_box *b = &p->boxes[p->selected];
	size_t to = SIZE_MAX;
	switch (a) {
	case ACTION_MOVE_UP:
	case ACTION_PARENT:
		to = b->parent;
		break;
	case ACTION_MOVE_DOWN:
		to = first_child(p);
		break;
	case ACTION_COLLAPSE:
	case ACTION_PREV_SIBLING:
		if (b->x0 > 0)
			to = flame_box_at(p->boxes, p->n_boxes, b->depth,
					  b->x0 - 1);
		break;
	case ACTION_EXPAND:
	case ACTION_NEXT_SIBLING:
		to = flame_box_at(p->boxes, p->n_boxes, b->depth, b->x1);
		break;
	case ACTION_MOVE_FIRST:
		to = 0;
		break;
	default:
		return REACTION(HANDLED_NO);
	}
	if (to != SIZE_MAX && to < p->n_boxes &&
	    p->boxes[to].depth + 1 >= b->depth && p->boxes[to].depth <= b->depth + 1)
		select_box(p, to);
	return REACTION(HANDLED_REDRAW);
}

/* ---- the sandwich (y) ------------------------------------------------ */

/* What names the function of model node `n`: its function record, else
 * its name; the nearest frame at or above `n`. */
static uint32_t frame_of(const struct model *m, uint32_t n)
{
	while (n != 0 && n != MODEL_NONE && n < model_n_nodes(m) &&
	       !model_kind_is_frame(model_nodes(m)[n].kind))
		n = model_nodes(m)[n].parent;
	return n;
}

static bool same_function(const struct model *m, uint32_t a, uint32_t b)
{
	const struct model_node *x = &model_nodes(m)[a], *y = &model_nodes(m)[b];
	if (x->function != MODEL_NONE || y->function != MODEL_NONE)
		return x->function == y->function;
	return x->name != 0 && x->name == y->name;
}

static void sandwich_free(struct sandwich *sw)
{
	if (!sw)
		return;
	free(sw->callers);
	flame_merge_free(&sw->callees);
	free(sw->instances);
	free(sw->name);
	view_free(sw->bu);
	view_free(sw->td);
	free(sw);
}

/* The outermost loaded instances of function node `f` (none of their
 * ancestors the same function): O(nodes x depth), once per sandwich. */
static bool find_instances(const struct model *m, uint32_t f,
			   struct sandwich *sw)
{
	for (uint32_t n = 1; n < model_n_nodes(m); n++) {
		if (!model_kind_is_frame(model_nodes(m)[n].kind) ||
		    !same_function(m, n, f))
			continue;
		bool outer = true;
		for (uint32_t a = model_nodes(m)[n].parent;
		     outer && a != 0 && a != MODEL_NONE;
		     a = model_nodes(m)[a].parent)
			outer = !(model_kind_is_frame(model_nodes(m)[a].kind) &&
				  same_function(m, a, f));
		if (!outer)
			continue;
		if (!array_grow((void **)&sw->instances, &sw->cap_instances,
				sw->n_instances + 1, sizeof(*sw->instances)))
			return false;
		sw->instances[sw->n_instances++] = n;
	}
	return true;
}

/* The function's row of the bottom-up view (MODEL_NONE when none). */
static uint32_t bottom_up_row(struct sandwich *sw, const struct model *m,
			      uint32_t f, uint32_t column, struct error *err)
{
	uint32_t *rows = NULL, found = MODEL_NONE;
	size_t n = 0;
	if (view_children(sw->bu, view_root(sw->bu), column, false, &rows, &n,
			  err) != STATUS_OK)
		return MODEL_NONE;
	for (size_t i = 0; i < n && found == MODEL_NONE; i++) {
		struct view_node vn;
		if (view_node_get(sw->bu, rows[i], &vn) &&
		    vn.model_node < model_n_nodes(m) &&
		    same_function(m, vn.model_node, f))
			found = rows[i];
	}
	free(rows);
	return found;
}

static struct sandwich *sandwich_new(struct pane_env *env,
				     struct flame_pane *p)
{
	const struct model *m = env->model;
	struct view_node vn;
	struct error err = {0};
	if (!view_node_get(env->view, p->boxes[p->selected].node, &vn))
		return NULL;
	uint32_t f = frame_of(m, vn.model_node);
	if (f == 0 || f == MODEL_NONE || f >= model_n_nodes(m)) {
		pane_message(env, false, "sandwich: the box is not in a "
					 "function");
		return NULL;
	}
	struct sandwich *sw = calloc(1, sizeof *sw);
	if (!sw || view_new(m, VIEW_BOTTOM_UP, &sw->bu, &err) != STATUS_OK ||
	    view_new(m, VIEW_TOP_DOWN, &sw->td, &err) != STATUS_OK ||
	    !(sw->name = model_node_short_label(m, f)) ||
	    !find_instances(m, f, sw) || sw->n_instances == 0 ||
	    (sw->bu_row = bottom_up_row(sw, m, f, p->column, &err)) ==
		    MODEL_NONE) {
		if (err.status != STATUS_OK)
			pane_error(env, &err);
		else
			pane_message(env, false, "sandwich: the function "
						 "has no callers to show");
		sandwich_free(sw);
		return NULL;
	}
	return sw;
}

/* Lay the two halves out for `w` cells and `h` rows (callers above the
 * middle row, the function and its callees from it down). */
static bool sandwich_layout(struct pane_env *env, struct flame_pane *p,
			    int w, int h)
{
	struct sandwich *sw = p->sandwich;
	if (sw->width == w && sw->rows == h)
		return true;
	struct error err = {0};
	free(sw->callers);
	sw->callers = NULL;
	flame_merge_free(&sw->callees);
	int up = h / 2;
	if (flame_layout(sw->bu, sw->bu_row, p->column, w, up + 1,
			 &sw->callers, &sw->n_callers, &err) != STATUS_OK ||
	    flame_layout_merged(sw->td, sw->instances, sw->n_instances,
				sw->name, p->column, w, h - up, &sw->callees,
				&err) != STATUS_OK) {
		pane_error(env, &err);
		return false;
	}
	sw->width = w;
	sw->rows = h;
	return true;
}

static void sandwich_draw(struct pane_env *env, struct flame_pane *p,
			  struct rect r)
{
	struct sandwich *sw = p->sandwich;
	int h = r.h - 2, mid = r.y + 1 + h / 2;
	if (!sandwich_layout(env, p, r.w, h))
		return;
	short pair;
	attr_t a;
	for (size_t i = 1; i < sw->n_callers; i++) { /* upward */
		const struct flame_box *b = &sw->callers[i];
		char *label = view_node_short_label(sw->bu, b->node);
		a = name_attr(p, label, &pair);
		draw_cells(mid - (int)b->depth, r.x + b->x0, b->x1 - b->x0, a,
			   pair, label);
		free(label);
	}
	for (size_t i = 0; i < sw->callees.n_boxes; i++) {
		const struct flame_merged *b = &sw->callees.boxes[i];
		a = i == 0 ? theme_attr(THEME_ROLE_SELECTED) | A_BOLD
			   : name_attr(p, b->label, &pair);
		draw_cells(mid + (int)b->depth, r.x + b->x0, b->x1 - b->x0, a,
			   i == 0 ? 0 : pair, b->label);
	}
	char value[32], line[96];
	present_value_fit(env->model, p->column, sw->callees.boxes[0].value,
			  12, value, sizeof value);
	snprintf(line, sizeof line, " %s in %zu instance%s  ", value,
		 sw->n_instances, sw->n_instances == 1 ? "" : "s");
	int used = screen_text(r.y + r.h - 1, r.x, r.w,
			       theme_attr(THEME_ROLE_STATUS), line, false);
	screen_text(r.y + r.h - 1, r.x + used, r.w - used,
		    theme_attr(THEME_ROLE_STATUS), sw->name, true);
}

/* n, N: the next (previous) box the tree's search matches, around. */
static struct reaction next_match(struct pane_env *env, struct flame_pane *p,
				  bool forward)
{
	for (size_t k = 1; k <= p->n_boxes; k++) {
		size_t i = forward ? (p->selected + k) % p->n_boxes
				   : (p->selected + p->n_boxes - k) % p->n_boxes;
		if (outline_search_matches(env->outline, p->boxes[i].node)) {
			select_box(p, i);
			return REACTION(HANDLED_REDRAW);
		}
	}
	pane_message(env, false, outline_search_pattern(env->outline)
					 ? "flame: no box drawn matches the "
					   "search (/ searches)"
					 : "flame: no search (/ searches)");
	return REACTION(HANDLED_REDRAW);
}

static struct reaction flame_action(struct pane_env *env, struct pane *pane,
				    enum action a)
{
	struct flame_pane *p = pane->state;
	if (p->sandwich) { /* a picture: y or Esc goes back */
		if (a == ACTION_SANDWICH || a == ACTION_BACK) {
			sandwich_free(p->sandwich);
			p->sandwich = NULL;
			return REACTION(HANDLED_REDRAW);
		}
		return a == ACTION_QUIT || a == ACTION_FLAME
			       ? REACTION(HANDLED_CLOSE | HANDLED_REDRAW)
			       : REACTION(HANDLED_YES);
	}
	if (a == ACTION_SANDWICH && p->boxes) {
		p->sandwich = sandwich_new(env, p);
		return REACTION(HANDLED_REDRAW);
	}
	if (!p->boxes)
		return a == ACTION_BACK || a == ACTION_FLAME
			       ? REACTION(HANDLED_CLOSE | HANDLED_REDRAW)
			       : REACTION(HANDLED_NO);
	switch (a) {
	case ACTION_TOGGLE:
	case ACTION_ZOOM:
		if (p->selected == 0)
			return REACTION(HANDLED_YES);
		if (p->n_roots == ZOOM_MAX) {
			pane_message(env, false, "flame: zoomed %d deep, the "
						 "most it keeps",
				     ZOOM_MAX);
			return REACTION(HANDLED_YES);
		}
		p->roots[p->n_roots++] = p->boxes[p->selected].node;
		return REACTION(HANDLED_REDRAW);
	case ACTION_ZOOM_OUT:
		if (p->n_roots > 1) {
			p->selected_node = root_of(p);
			p->n_roots--;
		}
		return REACTION(HANDLED_REDRAW);
	case ACTION_SEARCH:
		return REACTION(HANDLED_PROMPT);
	case ACTION_SEARCH_NEXT:
	case ACTION_SEARCH_PREV:
		return next_match(env, p, a == ACTION_SEARCH_NEXT);
	case ACTION_SOURCE:
		pane_select(env, p->boxes[p->selected].node);
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	case ACTION_BACK:
	case ACTION_FLAME:
	case ACTION_QUIT:
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	default:
		return flame_move(p, a);
	}
}

/* The text of the prompt `/` opened: the tree's search pattern (the
 * tree keeps it), then the first matching box from the selection on. */
static void flame_search(struct pane_env *env, struct pane *pane,
			 const char *text)
{
	struct flame_pane *p = pane->state;
	struct error err = {0};
	if (outline_search_set(env->outline, text, &err) != STATUS_OK) {
		pane_error(env, &err);
		return;
	}
	if (!text || !*text) {
		pane_message(env, false, "search cleared");
		return;
	}
	if (p->boxes && !outline_search_matches(env->outline,
						p->boxes[p->selected].node))
		(void)next_match(env, p, true);
}

static void flame_pane_free(struct pane *pane)
{
	struct flame_pane *p = pane ? pane->state : NULL;
	if (p) {
		sandwich_free(p->sandwich);
		free(p->boxes);
		free(p);
	}
	free(pane);
}

/* Compared runs sorted by a diff column: the widths are the new run's
 * values of that metric and scope, the colours its delta's (a
 * differential flame graph: what the new run spends, and where it
 * spends more or less).  *delta MODEL_NONE otherwise. */
static uint32_t compare_columns(struct pane_env *env, uint32_t c,
				uint32_t *delta)
{
	size_t k;
	enum diff_scope scope;
	enum diff_role role;
	*delta = MODEL_NONE;
	if (!env->diff || !diff_model_column_of(env->diff, c, &k, &scope, &role))
		return c;
	if (diff_model_column(env->diff, k, DIFF_INCLUSIVE, DIFF_ROLE_NEW) !=
	    MODEL_NONE)
		scope = DIFF_INCLUSIVE;
	*delta = diff_model_column(env->diff, k, scope, DIFF_ROLE_DELTA);
	return diff_model_column(env->diff, k, scope, DIFF_ROLE_NEW);
}

/* The column of the graph: the tree's sort column (or the view's
 * default), inclusive; MODEL_NONE with a message when it cannot be. */
static uint32_t graph_column(struct pane_env *env, uint32_t *delta)
{
	const struct model *m = env->model;
	uint32_t c = env->cols->sort_column;
	*delta = MODEL_NONE;
	if (c >= model_n_columns(m))
		c = view_default_column(m, env->view_kind, env->cols->columns,
					env->cols->n_columns);
	if (c != MODEL_NONE && c < model_n_columns(m))
		c = compare_columns(env, c, delta);
	if (c == MODEL_NONE || c >= model_n_columns(m)) {
		pane_message(env, true, "flame: no metric column to draw");
		return MODEL_NONE;
	}
	if (model_columns(m)[c].kind != COLUMN_INCLUSIVE &&
	    model_columns(m)[c].pair != MODEL_NONE)
		c = model_columns(m)[c].pair;
	if (model_columns(m)[c].kind != COLUMN_INCLUSIVE ||
	    !view_column_adds_up(m, c)) {
		char *t = pane_column_title(env, c);
		pane_message(env, true, "flame: %s does not add up (a mean, "
					"minimum or ratio); sort by a sum",
			     t ? t : "the column");
		free(t);
		return MODEL_NONE;
	}
	return c;
}

static struct pane *flame_new(struct pane_env *env)
{
	uint32_t delta;
	uint32_t column = graph_column(env, &delta);
	if (column == MODEL_NONE)
		return NULL;
	struct pane *pane = pane_alloc(&pane_flame_ops, sizeof(struct flame_pane));
	if (!pane)
		return NULL;
	struct flame_pane *p = pane->state;
	p->column = column;
	p->delta = delta;
	p->roots[0] = env->cursor && env->cursor->node != MODEL_NONE
			      ? env->cursor->node
			      : view_root(env->view);
	p->n_roots = 1;
	p->selected_node = p->roots[0];
	setup_colors(env, p);
	return pane;
}

const struct pane_ops pane_flame_ops = {
	.name = "flame",
	.title = "Flame",
	.open = ACTION_FLAME,
	.flags = PANE_CLEARS,
	.prompt = "search (regular expression): ",
	.new = flame_new,
	.draw = flame_draw,
	.action = flame_action,
	.input = flame_search,
	.free = flame_pane_free,
};
