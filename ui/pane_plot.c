/* pane_plot: the performance-model plot of a parametric database (issue
 * 17; Extra-P's line graph and heat map), a split pane like the trace
 * timeline.  For the selected call path (and those marked with *), the
 * shown metric's measured points (the statistic the models are fitted on,
 * mean at first; min..max) along one parameter, the
 * others held at the measured point nearest the evaluation point, and the
 * fitted model over the measured range, extrapolated (dotted) to the
 * evaluation point, marked by a vertical line; or, for two parameters, the
 * model's heat map with the measured points marked.  It draws what
 * ui/plot.c lays out (no layout here), colouring by theme role; database
 * names reach the terminal through screen_text (sanitized).  Work per
 * frame: the plot's cells and one model evaluation per pixel column. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap.h"
#include "model_columns.h"
#include "pane.h"
#include "plot.h"
#include "screen.h"
#include "theme.h"

struct plot_pane {
	uint32_t xparam;
	bool heat, log;
	enum plot_glyphs glyphs;
};

static const enum theme_role series_roles[PLOT_SERIES_MAX] = {
    THEME_ROLE_VALUE,	     THEME_ROLE_SOURCE_HOT, THEME_ROLE_HISTOGRAM,
    THEME_ROLE_SEARCH_MATCH, THEME_ROLE_PERCENT,    THEME_ROLE_MESSAGE,
    THEME_ROLE_ERROR,	     THEME_ROLE_TREE,
};

static attr_t style_attr(unsigned style, unsigned series, bool dim)
{
	attr_t a;
	switch (style) {
	case PLOT_STYLE_AXIS:
		a = theme_attr(THEME_ROLE_GUIDE);
		break;
	case PLOT_STYLE_TICK:
		a = theme_attr(THEME_ROLE_DETAIL);
		break;
	case PLOT_STYLE_LABEL:
		a = theme_attr(THEME_ROLE_DETAIL_LABEL);
		break;
	case PLOT_STYLE_SERIES:
		a = theme_attr(series_roles[series % PLOT_SERIES_MAX]);
		break;
	case PLOT_STYLE_RAMP:
		a = theme_attr(series >= 6   ? THEME_ROLE_ERROR
			       : series >= 4 ? THEME_ROLE_SOURCE_HOT
			       : series >= 2 ? THEME_ROLE_HISTOGRAM
					     : THEME_ROLE_DIM);
		break;
	case PLOT_STYLE_NOTE:
		a = theme_attr(THEME_ROLE_MESSAGE);
		break;
	default:
		a = A_NORMAL;
	}
	return dim ? a | A_DIM : a;
}

/* Draw the rendered plot at (y, x). */
static void blit(const struct plot *p, int y0, int x0)
{
	for (int y = 0; y < plot_height(p); y++)
		for (int x = 0; x < plot_width(p); x++) {
			const struct plot_cell *c = plot_cell(p, y, x);
			if (!c->text[0])
				continue;
			attrset(style_attr(c->style, c->series, c->dim));
			mvaddstr(y0 + y, x0 + x, c->text);
		}
	attrset(A_NORMAL);
	size_t n;
	const struct plot_text *t = plot_texts(p, &n);
	for (size_t i = 0; i < n; i++) {
		attr_t a = style_attr(t[i].style, t[i].series, false);
		if (t[i].right)
			screen_text_right(y0 + t[i].y, x0 + t[i].x, t[i].w, a,
					  t[i].text);
		else
			screen_text(y0 + t[i].y, x0 + t[i].x, t[i].w, a,
				    t[i].text, false);
	}
}

/* The measured point whose coordinates other than `param` are nearest the
 * evaluation point (log distance): the slice the points are taken from. */
static uint32_t slice_point(const struct extrap *ex, uint32_t param)
{
	const struct model *m = extrap_model(ex);
	const double *at = extrap_at(ex);
	uint32_t best = 0;
	double best_d = INFINITY;
	for (uint32_t q = 0; q < model_n_points(m); q++) {
		const double *c = model_point_coords(m, q);
		double d = 0;
		for (uint32_t k = 0; c && k < model_n_params(m); k++)
			if (k != param && c[k] > 0 && at[k] > 0)
				d += fabs(log(c[k] / at[k]));
		if (c && d < best_d) {
			best_d = d;
			best = q;
		}
	}
	return best;
}

struct curve_ctx {
	struct extrap *ex;
	const struct scaling_model *sm;
	uint32_t px, py;
};

static double curve_f(void *ctx, double x)
{
	struct curve_ctx *c = ctx;
	return extrap_eval_along(c->ex, c->sm, c->px, x);
}

static double heat_f(void *ctx, double x, double y)
{
	struct curve_ctx *c = ctx;
	return extrap_eval_along2(c->ex, c->sm, c->px, x, c->py, y);
}

static void axis_range(const struct extrap *ex, uint32_t param, double *lo,
		       double *hi)
{
	extrap_param_range(ex, param, lo, hi);
	double at = extrap_at(ex)[param];
	if (at > *hi)
		*hi = at;
	if (at < *lo)
		*lo = at;
}

/* The selected call path: the top-down view's selection (a bottom-up or
 * flat row stands for several call paths). */
static uint32_t selected_call_path(const struct pane_env *env)
{
	return env->view_kind == VIEW_TOP_DOWN ? pane_selected_model_node(env)
					       : MODEL_NONE;
}

/* The call paths plotted: the selection, then the marked ones. */
static size_t plotted(struct pane_env *env, uint32_t *nodes)
{
	size_t n = 0, nm;
	uint32_t sel = selected_call_path(env);
	if (sel != MODEL_NONE)
		nodes[n++] = sel;
	const uint32_t *marks = extrap_marks(env->extrap, &nm);
	for (size_t i = 0; i < nm && n < PLOT_SERIES_MAX; i++)
		if (marks[i] != sel)
			nodes[n++] = marks[i];
	return n;
}

static const char *metric_name(const struct extrap *ex)
{
	const struct model *m = extrap_model(ex);
	uint32_t c = extrap_column(ex);
	return c < model_n_columns(m) && model_columns(m)[c].name ? model_columns(m)[c].name
						      : "value";
}

/* Fill `p` for the line plot, its legend `legend_w` wide; returns how many models are pending and
 * sets *shown to whether anything (a point, a curve) is drawn. */
static int build_lines(struct pane_env *env, struct plot_pane *pp,
		       struct plot *p, struct curve_ctx *ctx, int legend_w,
		       bool *shown)
{
	struct extrap *ex = env->extrap;
	const struct model *m = env->model;
	uint32_t xp = pp->xparam;
	struct plot_axis xa = {0, 0, pp->log, extrap_param_name(ex, xp)};
	struct plot_axis ya = {0, 0, pp->log, metric_name(ex)};
	axis_range(ex, xp, &xa.min, &xa.max);
	plot_set_axes(p, &xa, &ya);
	plot_set_marker(p, extrap_at(ex)[xp]);
	uint32_t nodes[PLOT_SERIES_MAX];
	size_t n = plotted(env, nodes);
	uint32_t *series = NULL;
	size_t n_series = 0;
	struct error err = {0};
	if (model_param_series(m, xp, slice_point(ex, xp), &series, &n_series,
			       &err) != STATUS_OK)
		error_clear(&err);
	double lo, hi;
	extrap_param_range(ex, xp, &lo, &hi);
	int pending = 0;
	for (size_t i = 0; i < n; i++) {
		/* the legend: "name: formula" */
		bool wait = false;
		const struct scaling_model *sm =
		    extrap_peek(ex, nodes[i], &wait);
		char *label = model_node_label(m, nodes[i]);
		const char *lt = label ? label : "?";
		/* the legend's share of the width (plot_draw_legend), less
		 * "● ", the name and ": "; the formula full when it fits,
		 * else short (the growing term first), and put before the
		 * name when it would not fit after it */
		int room = legend_w / (int)n - 3 - screen_text_width(lt) - 2;
		char *formula =
		    sm ? model_columns_formula(ex, sm, room) : NULL;
		char *name = NULL;
		int r;
		if (!formula)
			r = asprintf(&name, "%s", lt);
		else if (screen_text_width(formula) <= room)
			r = asprintf(&name, "%s: %s", lt, formula);
		else
			r = asprintf(&name, "%s  %s", formula, lt);
		if (r < 0)
			name = NULL;
		int s = plot_add_series(p, name ? name : "?");
		free(name);
		free(formula);
		free(label);
		if (s < 0)
			break;
		for (size_t k = 0; k < n_series; k++) {
			const struct model_measure *me =
			    extrap_measure(ex, nodes[i], series[k]);
			const double *c = model_point_coords(m, series[k]);
			if (me && c &&
			    plot_add_point(p, s, c[xp],
					   extrap_measure_value(ex, me),
					   me->minimum, me->maximum))
				*shown = true;
		}
		ctx[i] = (struct curve_ctx){ex, sm, xp, xp};
		pending += wait;
		if (ctx[i].sm && plot_set_curve(p, s, curve_f, &ctx[i], lo, hi))
			*shown = true;
	}
	free(series);
	return pending;
}

/* Fill `p` for the heat map of the selection; false when it has no
 * model (yet: *pending). */
static bool build_heat(struct pane_env *env, struct plot_pane *pp,
		       struct plot *p, struct curve_ctx *ctx, bool *pending)
{
	struct extrap *ex = env->extrap;
	const struct model *m = env->model;
	uint32_t xp = pp->xparam, yp = (xp + 1) % model_n_params(m);
	uint32_t node = selected_call_path(env);
	ctx->sm = node == MODEL_NONE ? NULL : extrap_peek(ex, node, pending);
	if (!ctx->sm)
		return false;
	*ctx = (struct curve_ctx){ex, ctx->sm, xp, yp};
	struct plot_axis xa = {0, 0, pp->log, extrap_param_name(ex, xp)};
	struct plot_axis ya = {0, 0, pp->log, extrap_param_name(ex, yp)};
	axis_range(ex, xp, &xa.min, &xa.max);
	axis_range(ex, yp, &ya.min, &ya.max);
	plot_set_axes(p, &xa, &ya);
	plot_set_heatmap(p, heat_f, ctx, metric_name(ex));
	for (uint32_t q = 0; q < model_n_points(m); q++) {
		const double *c = model_point_coords(m, q);
		if (c)
			plot_add_heat_mark(p, c[xp], c[yp]);
	}
	return true;
}

static void plot_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct plot_pane *pp = pane->state;
	for (int i = 0; i < r.h; i++)
		screen_text(r.y + i, r.x, r.w, A_NORMAL, "", true);
	attr_t title =
	    theme_attr(env->focused ? THEME_ROLE_TAB_ACTIVE : THEME_ROLE_TABS);
	struct extrap *ex = env->extrap;
	if (!ex) {
		screen_text(r.y, r.x, r.w, title, "Plot", true);
		if (r.h > 2)
			screen_text(r.y + 2, r.x + 1, r.w - 1,
				    theme_attr(THEME_ROLE_MESSAGE),
				    "No performance models to plot: this "
				    "database is not parametric (an Extra-P "
				    "measurement set is).",
				    false);
		return;
	}
	model_columns_active(env); /* the metric follows the sort column */
	const struct model *m = env->model;
	if (pp->xparam >= model_n_params(m))
		pp->xparam = 0;
	bool heat = pp->heat && model_n_params(m) >= 2;
	struct plot *p = plot_new(pp->glyphs);
	struct curve_ctx ctx[PLOT_SERIES_MAX];
	int pending = 0;
	bool have = true;
	if (p && heat) {
		bool wait = false;
		have = build_heat(env, pp, p, &ctx[0], &wait);
		pending = wait;
	} else if (p) {
		have = false;
		pending = build_lines(env, pp, p, ctx, r.w, &have);
		have = have || pending;
	}
	char *at = extrap_at_text(ex);
	char *what = extrap_models_text(ex);
	char *text = NULL;
	/* unfocused: the live key that gives it the keys, as the trace */
	char focus[48] = "", key[24];
	if (!env->focused && keymap_first_key(env->keymap, ACTION_SPLIT_FOCUS,
					      key, sizeof(key)))
		snprintf(focus, sizeof(focus), " [%s: keys]", key);
	if (asprintf(&text, "Plot%s: %s along %s%s at %s%s  models: %s%s",
		     focus, metric_name(ex), extrap_param_name(ex, pp->xparam),
		     heat ? " (heat map)" : "", at ? at : "?",
		     pp->log ? ", log" : "", what ? what : "?",
		     pending ? "  fitting\xe2\x80\xa6" : "") < 0)
		text = NULL;
	screen_text(r.y, r.x, r.w, title, text ? text : "Plot", true);
	free(text);
	free(what);
	free(at);
	if (!p) {
		return;
	} else if (!have) {
		screen_text(r.y + 1, r.x + 1, r.w - 1,
			    theme_attr(THEME_ROLE_MESSAGE),
			    pending ? "the model is being fitted\xe2\x80\xa6"
			    : env->view_kind != VIEW_TOP_DOWN
				? "models are per call path: select one in the "
				  "top-down view (1)"
				: "no measurements of this call path for "
				  "the metric (select a call path)",
			    false);
	} else if (r.h > 1 && plot_render(p, r.w, r.h - 1)) {
		blit(p, r.y + 1, r.x);
	}
	plot_free(p);
}

static struct reaction plot_action(struct pane_env *env, struct pane *pane,
				   enum action a)
{
	struct plot_pane *pp = pane->state;
	const struct model *m = env->model;
	switch (a) {
	case ACTION_PLOT_X:
		if (env->extrap && model_n_params(m) > 0) {
			pp->xparam = (pp->xparam + 1) % model_n_params(m);
			pane_message(
			    env, false, "plot along %s",
			    extrap_param_name(env->extrap, pp->xparam));
		}
		return REACTION(HANDLED_REDRAW);
	case ACTION_PLOT_HEATMAP:
		if (model_n_params(m) < 2) {
			pane_message(env, true,
				     "a heat map needs two "
				     "parameters");
			pp->heat = false;
		} else {
			pp->heat = !pp->heat;
		}
		return REACTION(HANDLED_REDRAW);
	case ACTION_PLOT_LOG:
		pp->log = !pp->log;
		return REACTION(HANDLED_REDRAW);
	case ACTION_PLOT_GLYPHS:
		pp->glyphs = env->caps->utf8
				 ? (enum plot_glyphs)((pp->glyphs + 1) %
						      PLOT_GLYPHS_COUNT)
				 : PLOT_ASCII;
		pane_message(env, false, "plot cells: %s",
			     pp->glyphs == PLOT_BRAILLE ? "braille"
			     : pp->glyphs == PLOT_BLOCK ? "half blocks"
							: "ASCII");
		return REACTION(HANDLED_REDRAW);
	default:
		return model_columns_action(env, a);
	}
}

static void plot_pane_free(struct pane *pane)
{
	free(pane->state);
	free(pane);
}

static struct pane *plot_new_pane(struct pane_env *env)
{
	struct pane *p = pane_alloc(&pane_plot_ops, sizeof(struct plot_pane));
	if (!p)
		return NULL;
	struct plot_pane *pp = p->state;
	pp->glyphs = env->caps->utf8 ? PLOT_BRAILLE : PLOT_ASCII;
	pp->log = true; /* Extra-P's parameters grow geometrically */
	return p;
}

const struct pane_ops pane_plot_ops = {
    .name = "plot",
    .title = "Plot",
    .open = ACTION_PLOT,
    .flags = PANE_SPLIT | PANE_TAB_OPEN,
    .new = plot_new_pane,
    .draw = plot_draw,
    .action = plot_action,
    .free = plot_pane_free,
};
