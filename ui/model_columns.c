/* model_columns: the tree's model columns, the evaluation point's status
 * line and the model keys (see model_columns.h).  Severity (defined in
 * extrap.h and doc/extrap-ui.md) is drawn as a shade in the first column,
 * coloured by theme role from cool (dim) to hot (error). */
#include "config.h"

#include "model_columns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap.h"
#include "screen.h"
#include "theme.h"

#define SEV_W	    2
#define VALUE_W	    10
#define FIT_W	    30 /* RSS 9, adj. R² 7, SMAPE 7, RE 7 */
#define FORMULA_MIN 28 /* a term of one parameter, whole: "-2.43e-10*s^(11/4)*log2(s)^2" */
#define FORMULA_MAX 72
#define NAME_ROOM   30 /* what the model columns leave to the rest */

bool model_columns_active(struct pane_env *env)
{
	if (!env->extrap || env->view_kind != VIEW_TOP_DOWN)
		return false;
	extrap_follow_column(env->extrap, env->cols->sort_column);
	return true;
}

/* Widths of the parts for a tree `w` wide: on narrow screens the fit
 * numbers go first, then the formula; 20 columns stay for the metric
 * columns. */
static void widths(int w, int *formula, int *fit)
{
	int budget = w - NAME_ROOM;
	*formula = *fit = 0;
	if (budget < SEV_W + VALUE_W)
		return;
	budget -= SEV_W + VALUE_W;
	/* the formula (Extra-P's "Value" column) before the fit numbers */
	if (budget >= 50 + FIT_W + 20)
		*fit = FIT_W;
	budget -= *fit;
	if (budget >= FORMULA_MIN)
		*formula =
		    budget - 20 < FORMULA_MAX ? budget - 20 : FORMULA_MAX;
	if (*formula < FORMULA_MIN && budget >= FORMULA_MIN)
		*formula = FORMULA_MIN;
}

int model_columns_width(struct pane_env *env, int w)
{
	if (!model_columns_active(env))
		return 0;
	int formula, fit;
	widths(w, &formula, &fit);
	if (w - NAME_ROOM < SEV_W + VALUE_W)
		return 0;
	return SEV_W + VALUE_W + 1 + (formula ? formula + 1 : 0) + fit;
}

void model_columns_header(struct pane_env *env, int y, int x, int tree_w)
{
	int formula, fit;
	widths(tree_w, &formula, &fit);
	attr_t h = theme_attr(THEME_ROLE_COLUMN_HEADER);
	bool u = strcmp(screen_glyphs()->bar_full, "#") != 0;
	/* sorted by severity: the column's mark, as a metric's */
	const char *sev = "S";
	if (env->cols->sort_column == COLUMN_SEVERITY)
		sev = env->cols->sort_ascending ? (u ? "S\xe2\x96\xb2" : "S^")
						: (u ? "S\xe2\x96\xbc" : "Sv");
	screen_text(y, x, SEV_W, h, sev, true);
	x += SEV_W;
	screen_text_right(y, x, VALUE_W, h, "Value@at");
	x += VALUE_W + 1;
	if (formula) {
		const struct model *m = env->model;
		uint32_t c = extrap_column(env->extrap);
		char *t = NULL, *what = extrap_models_text(env->extrap);
		/* which models: the statistic fitted on, or the stored set */
		if (asprintf(&t, "Model of %s, %s",
			     c < model_n_columns(m) && model_columns(m)[c].name
				 ? model_columns(m)[c].name
				 : "?",
			     what ? what : "?") < 0)
			t = NULL;
		free(what);
		screen_text(y, x, formula, h, t ? t : "Model", true);
		free(t);
		x += formula + 1;
	}
	if (fit) {
		screen_text_right(y, x, 8, h, "RSS");
		screen_text_right(y, x + 9, 6, h,
				  u ? "Adj.R\xc2\xb2" : "AdjR2");
		screen_text_right(y, x + 16, 6, h, "SMAPE");
		screen_text_right(y, x + 23, 6, h, "RE");
	}
}

static void number(int y, int x, int w, attr_t a, double v)
{
	char buf[32];
	if (!isfinite(v))
		snprintf(buf, sizeof(buf), "-");
	else /* as many digits as fit, down to 2 */
		for (int digits = 4; digits >= 2; digits--)
			if (snprintf(buf, sizeof(buf), "%.*g", digits, v) <= w)
				break;
	screen_text_right(y, x, w, a, buf);
}

/* The severity shade: four levels, by glyph and by theme role. */
static void severity_cell(int y, int x, double s, bool selected, attr_t base)
{
	bool u = strcmp(screen_glyphs()->bar_full, "#") != 0;
	static const char *const ug[] = {"\xe2\x96\x91", "\xe2\x96\x92",
					 "\xe2\x96\x93", "\xe2\x96\x88"};
	static const char *const ag[] = {".", ":", "+", "#"};
	static const enum theme_role roles[] = {
	    THEME_ROLE_DIM, THEME_ROLE_HISTOGRAM, THEME_ROLE_SOURCE_HOT,
	    THEME_ROLE_ERROR};
	int level = s >= 0.75 ? 3 : s >= 0.4 ? 2 : s >= 0.1 ? 1 : 0;
	attr_t a = selected ? base : theme_attr(roles[level]);
	screen_text(y, x, 1, a, u ? ug[level] : ag[level], false);
}

void model_columns_row(struct pane_env *env, int y, int x, int tree_w,
		       uint32_t node, bool selected)
{
	int formula, fit;
	widths(tree_w, &formula, &fit);
	attr_t base = selected ? theme_attr(THEME_ROLE_SELECTED) : A_NORMAL;
	attr_t va = selected ? base : theme_attr(THEME_ROLE_VALUE);
	screen_text(y, x,
		    SEV_W + VALUE_W + 1 + (formula ? formula + 1 : 0) + fit,
		    base, "", true);
	struct view_node vn;
	if (!view_node_get(env->view, node, &vn))
		return;
	bool pending = false;
	const struct scaling_model *sm =
	    extrap_peek(env->extrap, vn.model_node, &pending);
	const char *ell = screen_glyphs()->ellipsis;
	if (!sm) {
		if (pending) {
			screen_text_right(y, x + SEV_W, VALUE_W, va, ell);
			if (formula)
				screen_text(y, x + SEV_W + VALUE_W + 1, formula,
					    va, ell, false);
		}
		return;
	}
	double s;
	if (extrap_severity(env->extrap, vn.model_node, &s))
		severity_cell(y, x, s, selected, base);
	x += SEV_W;
	number(y, x, VALUE_W, va, extrap_eval(env->extrap, sm));
	x += VALUE_W + 1;
	if (formula) {
		/* the short form: the growing term first, visible however
		 * narrow the column; 4 digits when the column is wide */
		char *text = extrap_formula_compact(env->extrap, sm,
						    formula >= 40 ? 4 : 3);
		screen_text(y, x, formula,
			    selected ? base : theme_attr(THEME_ROLE_DETAIL),
			    text ? text : "?", false);
		free(text);
		x += formula + 1;
	}
	if (fit) {
		attr_t pa = selected ? base : theme_attr(THEME_ROLE_PERCENT);
		number(y, x, 8, pa, sm->rss);
		number(y, x + 9, 6, pa, sm->ar2);
		number(y, x + 16, 6, pa, sm->smape);
		number(y, x + 23, 6, pa, sm->re);
	}
}

char *model_columns_formula(const struct extrap *ex,
			    const struct scaling_model *sm, int width)
{
	char *full = extrap_formula(ex, sm);
	if (!full || screen_text_width(full) <= width)
		return full;
	static const int digits[] = {6, 4};
	for (size_t i = 0; i < sizeof(digits) / sizeof(*digits); i++) {
		char *t = extrap_formula_compact(ex, sm, digits[i]);
		if (t && screen_text_width(t) <= width) {
			free(full);
			return t;
		}
		free(t);
	}
	free(full);
	return extrap_formula_compact(ex, sm, 3);
}

bool model_columns_detail(struct extrap *ex, uint32_t model_node, int y,
			  int x, int width)
{
	const struct scaling_model *sm = extrap_peek(ex, model_node, NULL);
	if (!sm || width < 8)
		return false;
	attr_t a = theme_attr(THEME_ROLE_DETAIL);
	attr_t l = theme_attr(THEME_ROLE_DETAIL_LABEL);
	char *text = model_columns_formula(ex, sm, width - 6);
	screen_text(y, x, 6, l, "Model ", true);
	screen_text(y, x + 6, width - 6, a, text ? text : "?", false);
	free(text);
	return true;
}

void model_columns_status(struct pane_env *env, int y, int x, int width)
{
	struct extrap *ex = env->extrap;
	attr_t a = theme_attr(THEME_ROLE_STATUS);
	char *at = extrap_at_text(ex);
	uint64_t ready = 0, total = 0;
	extrap_progress(ex, &ready, &total);
	char *text = NULL, *what = extrap_models_text(ex);
	char prog[64] = "", key[32] = "", first[24];
	/* the key that cycles the statistic: its first live binding */
	if (env->keymap &&
	    keymap_first_key(env->keymap, ACTION_MEASURE_NEXT, first,
			     sizeof(first)) &&
	    extrap_stored_set(ex) == MODEL_NONE)
		snprintf(key, sizeof(key), " (%s)", first);
	if (extrap_fitting(ex))
		snprintf(prog, sizeof(prog), ", fitting %llu/%llu",
			 (unsigned long long)ready, (unsigned long long)total);
	/* sorted by severity: say so, and that a sibling set waits */
	const char *sort = "";
	if (env->cols->sort_column == COLUMN_SEVERITY)
		sort = outline_sort_waiting(env->outline)
			       ? "  sort: severity, sorting when models are "
				 "fitted"
			       : "  sort: severity";
	/* the name goes through screen_text, which sanitizes */
	if (asprintf(&text,
		     "Models at %s  models: %s%s%s%s  slider: %s (@ next, "
		     "d/D halve/double, :set at)  severity: %s",
		     at ? at : "?", what ? what : "?", key, prog, sort,
		     extrap_param_name(ex, extrap_param(ex)),
		     extrap_severity_name(ex)) < 0)
		text = NULL;
	screen_text(y, x, width, a, text ? text : "", true);
	free(text);
	free(what);
	free(at);
}

/* `*` marks or unmarks the call path selected (top-down only) for the
 * plot. */
static struct reaction mark_path(struct pane_env *env, struct extrap *ex)
{
	uint32_t node = pane_selected_model_node(env);
	bool marked = false;
	if (env->view_kind != VIEW_TOP_DOWN) {
		pane_message(env, true,
			     "models are per call path: "
			     "mark one in the top-down view");
		return REACTION(HANDLED_REDRAW);
	}
	if (node == MODEL_NONE)
		return REACTION(HANDLED_YES);
	if (!extrap_toggle_mark(ex, node, &marked))
		pane_message(env, true,
			     "the plot overlays %d call paths "
			     "at most (* unmarks)",
			     EXTRAP_MARKS_MAX);
	else
		pane_message(env, false, "%s for the plot",
			     marked ? "marked" : "unmarked");
	return REACTION(HANDLED_REDRAW);
}

/* mean, median, minimum, maximum, mean...; from a stored set, the
 * fitted models of the statistic shown before it */
static void next_measure(struct pane_env *env, struct extrap *ex)
{
	enum measure_kind k = extrap_measure_kind(ex);
	if (extrap_stored_set(ex) == MODEL_NONE)
		k = (enum measure_kind)((k + 1) % (MEASURE_MAXIMUM + 1));
	struct error err = {0};
	if (!extrap_set_measure(ex, k, &err)) {
		char *msg = error_format(&err);
		pane_message(env, true, "%s", msg ? msg : "out of memory");
		free(msg);
		error_clear(&err);
	} else {
		pane_message(env, false,
			     "models fitted on the %s of the repetitions",
			     model_measure_name(k));
	}
}

/* The worst call path, wherever the cursor is; again on the one it
 * selected: the next (extrap_worst_step). */
static struct reaction worst_path(struct pane_env *env, struct extrap *ex)
{
	uint32_t sel = env->view_kind == VIEW_TOP_DOWN
			       ? pane_selected_model_node(env)
			       : MODEL_NONE;
	size_t k = 0;
	double q = 0;
	uint32_t n = extrap_worst_step(ex, sel, &k, &q);
	if (n == MODEL_NONE) {
		pane_message(env, false,
			     "models are still being fitted; try again");
		return REACTION(HANDLED_REDRAW);
	}
	if (strcmp(extrap_severity_name(ex), "growth") == 0)
		pane_message(env, false,
			     "worst-scaling call path #%zu: grows %.3gx from "
			     "the largest measured point",
			     k + 1, q);
	else
		pane_message(env, false,
			     "worst-scaling call path #%zu: %.4g at the "
			     "evaluation point",
			     k + 1, q);
	if (env->view_kind == VIEW_TOP_DOWN) {
		pane_select(env, n);
		return REACTION(HANDLED_REDRAW);
	}
	return (struct reaction){HANDLED_REDRAW, ACTION_VIEW_TOP_DOWN, n};
}

struct reaction model_columns_action(struct pane_env *env, enum action a)
{
	struct extrap *ex = env->extrap;
	switch (a) {
	case ACTION_MODEL_MARK:
	case ACTION_AT_PARAM:
	case ACTION_AT_DOUBLE:
	case ACTION_AT_HALVE:
	case ACTION_WORST:
	case ACTION_MEASURE_NEXT:
		break;
	default:
		return REACTION(HANDLED_NO);
	}
	if (!ex) {
		pane_message(env, true,
			     "no performance models: the database "
			     "is not parametric (Extra-P sets)");
		return REACTION(HANDLED_REDRAW);
	}
	switch (a) {
	case ACTION_MODEL_MARK:
		return mark_path(env, ex);
	case ACTION_MEASURE_NEXT:
		next_measure(env, ex);
		return REACTION(HANDLED_REDRAW);
	case ACTION_AT_PARAM:
	case ACTION_AT_DOUBLE:
	case ACTION_AT_HALVE: {
		if (a == ACTION_AT_PARAM)
			extrap_next_param(ex);
		else
			extrap_scale(ex, a == ACTION_AT_DOUBLE ? 2 : 0.5);
		char *at = extrap_at_text(ex);
		pane_message(env, false, "models at %s", at ? at : "?");
		free(at);
		return REACTION(HANDLED_REDRAW);
	}
	default:
		return worst_path(env, ex);
	}
}
