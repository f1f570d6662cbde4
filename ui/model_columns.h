/* model_columns: what the tree pane shows of a parametric database's
 * performance models (issue 17, Extra-P's call tree): the model columns
 * (severity, the value at the evaluation point, the formula, RSS, adjusted
 * R², SMAPE, RE; "…" while a model is being fitted), the status line of
 * the evaluation point (the "sliders"), and the model keys the tree and
 * the plot share (mark for the overlay, pick a parameter, double or halve
 * it, jump to the worst-scaling call path).  Only the visible rows are
 * touched per frame: a model is peeked (never waited for) when its row is
 * drawn. */
#ifndef CALLSCOPE_UI_MODEL_COLUMNS_H
#define CALLSCOPE_UI_MODEL_COLUMNS_H

#include "pane.h"

struct extrap;
struct scaling_model;

/* Whether the tree shows model columns now (a parametric database in
 * the top-down view); follows the tree's sort column to the metric. */
bool model_columns_active(struct pane_env *env);

/* The width the model columns take in a tree of width `w` (0: none). */
int model_columns_width(struct pane_env *env, int w);

/* Their header at (y, x), for a tree `tree_w` wide, in the header's
 * colours. */
void model_columns_header(struct pane_env *env, int y, int x, int tree_w);

/* The cells of view node `node` at (y, x), for a tree `tree_w` wide. */
void model_columns_row(struct pane_env *env, int y, int x, int tree_w,
		       uint32_t node, bool selected);

/* The formula of `sm` for `width` columns: Extra-P's full text when it
 * fits, else the short form (scaling_text_compact) with 6, 4 or 3
 * significant digits, the first that fits (3 at least); heap, NULL when
 * out of memory.  Not sanitized (screen_text does it). */
char *model_columns_formula(const struct extrap *ex,
			    const struct scaling_model *sm, int width);

/* The detail line of call path `model_node` at (y, x): "Model " and its
 * formula (model_columns_formula); false, drawing nothing, when it has
 * no model (yet). */
bool model_columns_detail(struct extrap *ex, uint32_t model_node, int y,
			  int x, int width);

/* The evaluation point's status line at (y, x) in `width` columns. */
void model_columns_status(struct pane_env *env, int y, int x, int width);

/* The model keys (mark, at-param, at-double, at-halve, worst-scaling):
 * handled (the tree is told to select through pane_select), or
 * HANDLED_NO for another action.  `tree` says the tree is the caller. */
struct reaction model_columns_action(struct pane_env *env, enum action a);

#endif
