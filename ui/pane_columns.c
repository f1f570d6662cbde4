/* pane_columns: the column chooser.  Lists every column of the model
 * (inclusive, exclusive, hidden ones too) and the derived ones; Space
 * shows or hides a column, `b` toggles percent bars. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "screen.h"
#include "theme.h"
#include "pane_list.h"

static bool is_shown(const struct pane_env *env, uint32_t c)
{
	for (size_t i = 0; i < env->cols->n_columns; i++)
		if (env->cols->columns[i] == c)
			return true;
	return false;
}

static void columns_draw(struct pane_env *env, struct pane *pane, struct rect r)
{
	struct list_cursor *l = pane->state;
	l->count = model_n_columns(env->model) + env->cols->n_derived;
	if (r.h < 2)
		return;
	screen_text(r.y, r.x, r.w, theme_attr(THEME_ROLE_COLUMN_HEADER),
		    " Columns: Space or Enter shows/hides, b bars, Esc closes; "
		    "$N in :derive is column N",
		    true);
	list_fit(l, r.h - 1);
	for (int i = 1; i < r.h; i++) {
		size_t idx = l->top + (size_t)(i - 1);
		if (idx >= l->count)
			break;
		uint32_t c = (uint32_t)idx;
		bool derived = c >= model_n_columns(env->model);
		char *title = pane_column_title(env, c);
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
		if (asprintf(&line, " [%c] $%u  %s  (%s)",
			     derived || is_shown(env, c) ? 'x' : ' ', c + 1,
			     title ? title : "?", src) < 0)
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
	struct list_cursor *l = pane->state;
	if (list_move(l, a))
		return REACTION(HANDLED_REDRAW);
	if (a == ACTION_TOGGLE || a == ACTION_EXPAND) {
		toggle(env, (uint32_t)l->cursor);
		return REACTION(HANDLED_REDRAW);
	}
	if (a == ACTION_QUIT || a == ACTION_COLUMNS)
		return REACTION(HANDLED_CLOSE | HANDLED_REDRAW);
	return REACTION(HANDLED_NO);
}

static struct pane *columns_new(struct pane_env *env)
{
	(void)env;
	return list_pane_new(&pane_columns_ops);
}

const struct pane_ops pane_columns_ops = {
	.name = "columns",
	.title = "Columns",
	.open = ACTION_COLUMNS,
	.new = columns_new,
	.draw = columns_draw,
	.action = columns_action,
	.free = list_pane_free,
};
