/* pane_columns: the column chooser.  Lists every column of the model
 * (inclusive, exclusive, hidden ones too) as the metric tree the format
 * gives (model_column.parent: Cube's metric tree, HPCToolkit's metric
 * taxonomy), a column under its parent, opened and closed with Right and
 * Left, and the derived ones after them; Space shows or hides a column,
 * `b` toggles percent bars.  A Cube metric with sub-metrics shows as the
 * Cube GUI shows it: closed, its stored (metric-inclusive) values; open,
 * its values less its sub-metrics' (model_column.own, chosen by
 * present_metric_form), the one column taking the other's place; it
 * opens closed unless that form is shown (doc/views.md).  HPCToolkit's
 * taxonomy parents have no such form: opening them changes no value. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "pane_list.h"
#include "present/present_column.h"

struct chooser {
	struct list_cursor list;
	uint8_t *closed;   /* per model column: its sub-metrics hidden */
	uint8_t *has_kids; /* per model column */
	uint8_t *is_own;   /* per model column: another's open form, no row */
	uint32_t *level;   /* per model column: depth in the metric tree */
	uint32_t *first_kid, *next_kid; /* per model column, model order */
	uint32_t *stack;   /* n_columns */
	uint32_t *rows;    /* the columns listed, model then derived */
	size_t cap;        /* of rows */
};

/* The metric tree's depth of column c (parents out of range or in a
 * cycle end it). */
static uint32_t depth_of(const struct model *m, uint32_t c)
{
	uint32_t d = 0;
	for (uint32_t p = model_columns(m)[c].parent;
	     p < model_n_columns(m) && d < model_n_columns(m); p = model_columns(m)[p].parent)
		d++;
	return d;
}

/* The rows: the metric tree (roots in model order, each followed by its
 * open sub-metrics, depth first, without recursion), then the derived
 * columns (as many as there is room for: one added while the chooser is
 * open shows when it opens again). */
static void list_rows(const struct pane_env *env, struct chooser *ch)
{
	const struct model *m = env->model;
	size_t n = 0, sp = 0;
	for (uint32_t r = 0; r < model_n_columns(m); r++) {
		if (ch->level[r] != 0 || ch->is_own[r])
			continue;
		ch->stack[sp++] = r;
		while (sp > 0) {
			uint32_t c = ch->stack[--sp];
			ch->rows[n++] = c;
			if (ch->closed[c] || ch->first_kid[c] == MODEL_NONE)
				continue;
			/* push the sub-metrics last first, so that they come
			 * out in model order */
			size_t at = sp;
			for (uint32_t k = ch->first_kid[c]; k != MODEL_NONE;
			     k = ch->next_kid[k])
				ch->stack[sp++] = k;
			for (size_t i = at, j = sp - 1; i < j; i++, j--) {
				uint32_t t = ch->stack[i];
				ch->stack[i] = ch->stack[j];
				ch->stack[j] = t;
			}
		}
	}
	for (size_t d = 0; d < env->cols->n_derived && n < ch->cap; d++)
		ch->rows[n++] = model_n_columns(m) + (uint32_t)d;
	ch->list.count = n;
	if (ch->list.cursor >= n)
		ch->list.cursor = n ? n - 1 : 0;
}

static bool is_shown(const struct pane_env *env, uint32_t c)
{
	for (size_t i = 0; i < env->cols->n_columns; i++)
		if (env->cols->columns[i] == c)
			return true;
	return false;
}

static void columns_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct chooser *ch = pane->state;
	struct list_cursor *l = &ch->list;
	list_rows(env, ch);
	if (r.h < 2)
		return;
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_COLUMN_HEADER),
		    " Columns: Space or Enter shows/hides, Right/Left opens/"
		    "closes a metric, b bars, Esc closes; $N in :derive is "
		    "column N",
		    true);
	list_fit(l, r.h - 1);
	for (int i = 1; i < r.h; i++) {
		size_t idx = l->top + (size_t)(i - 1);
		if (idx >= l->count)
			break;
		uint32_t c = ch->rows[idx];
		bool derived = c >= model_n_columns(env->model);
		/* the form shown: a Cube metric open is less its sub-metrics */
		uint32_t d = derived ? c
				     : present_metric_form(env->model, c,
							   !ch->closed[c]);
		char *title = pane_column_title(env, d);
		char *line = NULL;
		const char *src = "";
		if (!derived) {
			uint32_t s = model_column_stat(env->model, c);
			if (s != MODEL_NONE)
				src = model_str(env->model, model_stats(env->model)[s].scope);
			else
				src = "formula";
		} else {
			src = env->cols->derived[c - model_n_columns(env->model)].text;
		}
		const struct screen_glyphs *g = screen_glyphs();
		int indent = derived ? 0 : 2 * (int)ch->level[c];
		const char *mark = derived || !ch->has_kids[c] ? ""
				   : ch->closed[c]	       ? g->collapsed
							       : g->expanded;
		if (asprintf(&line, " %*s%s%s[%c] $%u  %s  (%s%s)",
			     indent > 40 ? 40 : indent, "", mark,
			     *mark ? " " : "",
			     derived || is_shown(env, d) ? 'x' : ' ', d + 1,
			     title ? title : "?", src,
			     d != c ? ", less its sub-metrics" : "") < 0)
			line = NULL;
		attr_t a = idx == l->cursor ? theme_attr(THEME_ROLE_SELECTED)
					    : A_NORMAL;
		screen_text(r.y + i, r.x, r.w, a, line ? line : "", true);
		free(line);
		free(title);
	}
}

/* Show or hide model column `c` (derived columns always show). */
static void toggle(struct pane_env *env, uint32_t c)
{
	if (c >= model_n_columns(env->model))
		return;
	env->svc->show_column(env->hub, c, !is_shown(env, c));
}

static struct reaction columns_action(struct pane_env *env, struct pane *pane,
			       enum action a)
{
	struct chooser *ch = pane->state;
	struct list_cursor *l = &ch->list;
	list_rows(env, ch);
	if (list_move(l, a))
		return REACTION(HANDLED_REDRAW);
	uint32_t c = l->count ? ch->rows[l->cursor] : MODEL_NONE;
	const struct model *m = env->model;
	bool metric = c < model_n_columns(m);
	bool kids = metric && ch->has_kids[c];
	uint32_t form = metric ? present_metric_form(m, c, !ch->closed[c]) : c;
	if (a == ACTION_TOGGLE || (a == ACTION_EXPAND && !kids)) {
		if (metric)
			toggle(env, form);
		return REACTION(HANDLED_REDRAW);
	}
	if (a == ACTION_EXPAND || a == ACTION_COLLAPSE) {
		if (kids && (a == ACTION_EXPAND || !ch->closed[c])) {
			ch->closed[c] = a == ACTION_COLLAPSE;
			/* Cube: the other form takes the column's place */
			uint32_t to = present_metric_form(m, c, !ch->closed[c]);
			if (to != form && is_shown(env, form) &&
			    env->svc->replace_column)
				env->svc->replace_column(env->hub, form, to);
		} else if (metric && model_columns(m)[c].parent < model_n_columns(m)) {
			/* Left on a sub-metric: to its parent */
			for (size_t i = 0; i < l->count; i++)
				if (ch->rows[i] == model_columns(m)[c].parent)
					l->cursor = i;
		}
		list_rows(env, ch);
		return REACTION(HANDLED_REDRAW);
	}
	return pane_close_keys(pane, a);
}

static void columns_free(struct pane *pane)
{
	struct chooser *ch = pane->state;
	if (ch) {
		free(ch->closed);
		free(ch->has_kids);
		free(ch->is_own);
		free(ch->level);
		free(ch->first_kid);
		free(ch->next_kid);
		free(ch->stack);
		free(ch->rows);
		free(ch);
	}
	free(pane);
}

static struct pane *columns_new(struct pane_env *env)
{
	const struct model *m = env->model;
	size_t n = model_n_columns(m) ? model_n_columns(m) : 1;
	struct pane *p = pane_alloc(&pane_columns_ops, sizeof(struct chooser));
	if (!p)
		return NULL;
	struct chooser *ch = p->state;
	ch->closed = calloc(n, 1);
	ch->has_kids = calloc(n, 1);
	ch->is_own = calloc(n, 1);
	ch->level = calloc(n, sizeof(*ch->level));
	ch->cap = n + env->cols->n_derived;
	ch->rows = calloc(ch->cap, sizeof(*ch->rows));
	ch->first_kid = malloc(n * sizeof(*ch->first_kid));
	ch->next_kid = malloc(n * sizeof(*ch->next_kid));
	ch->stack = malloc(n * sizeof(*ch->stack));
	if (!ch->closed || !ch->has_kids || !ch->is_own || !ch->level ||
	    !ch->rows ||
	    !ch->first_kid || !ch->next_kid || !ch->stack) {
		columns_free(p);
		return NULL;
	}
	uint32_t *last = ch->stack; /* scratch until the first listing */
	for (uint32_t c = 0; c < n; c++)
		ch->first_kid[c] = ch->next_kid[c] = last[c] = MODEL_NONE;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		/* a column in a parent cycle is a root */
		uint32_t d = depth_of(m, c);
		ch->level[c] = d >= model_n_columns(m) ? 0 : d;
	}
	for (uint32_t c = 0; c < model_n_columns(m); c++)
		if (present_metric_form(m, c, true) != c)
			ch->is_own[present_metric_form(m, c, true)] = 1;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		uint32_t par = model_columns(m)[c].parent;
		/* a Cube metric opens closed unless its open form shows */
		if (present_metric_form(m, c, true) != c)
			ch->closed[c] = !is_shown(
				env, present_metric_form(m, c, true));
		if (ch->level[c] == 0 || ch->is_own[c] ||
		    par >= model_n_columns(m))
			continue;
		ch->has_kids[par] = 1;
		if (last[par] == MODEL_NONE)
			ch->first_kid[par] = c;
		else
			ch->next_kid[last[par]] = c;
		last[par] = c;
	}
	return p;
}

const struct pane_ops pane_columns_ops = {
	.name = "columns",
	.title = "Columns",
	.open = ACTION_COLUMNS,
	.new = columns_new,
	.draw = columns_draw,
	.action = columns_action,
	.free = columns_free,
};
