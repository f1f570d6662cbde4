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
 * N select the next and previous matching box.  The
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
	} else if (p->delta == MODEL_NONE && p->n_colors) {
		a = A_NORMAL;
		pair = (short)(p->pair_base +
			       name_hash(label ? label : "") % p->n_colors);
	}
	/* the tree's search (/ here or in the tree): matching boxes in the
	 * search role, as the tree marks its rows */
	if (outline_search_matches(env->outline, b->node)) {
		a = theme_attr(THEME_ROLE_SEARCH_MATCH) | A_REVERSE | A_BOLD;
		pair = 0;
	}
	if (selected)
		a = theme_attr(THEME_ROLE_SELECTED) | A_BOLD;
	int w = b->x1 - b->x0;
	/* the first cell blank: neighbours stand apart without colour */
	screen_text(y, x0 + b->x0, 1, A_NORMAL, "", true);
	if (w > 1)
		screen_text_pair(y, x0 + b->x0 + 1, w - 1, a,
				 selected ? 0 : pair, label ? label : "?",
				 true);
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
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_TITLE), head, true);
	for (int y = r.y + 1; y < r.y + r.h; y++)
		screen_text(y, r.x, r.w, A_NORMAL, "", true);
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
	if (c >= m->n_columns)
		c = view_default_column(m, env->view_kind, env->cols->columns,
					env->cols->n_columns);
	if (c != MODEL_NONE && c < m->n_columns)
		c = compare_columns(env, c, delta);
	if (c == MODEL_NONE || c >= m->n_columns) {
		pane_message(env, true, "flame: no metric column to draw");
		return MODEL_NONE;
	}
	if (m->columns[c].kind != COLUMN_INCLUSIVE &&
	    m->columns[c].pair != MODEL_NONE)
		c = m->columns[c].pair;
	if (m->columns[c].kind != COLUMN_INCLUSIVE ||
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
	struct flame_pane *p = calloc(1, sizeof *p);
	struct pane *pane = p ? pane_wrap(&pane_flame_ops, p) : NULL;
	if (!pane) {
		free(p);
		return NULL;
	}
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
