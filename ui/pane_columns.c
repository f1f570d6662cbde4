/* pane_columns: the column chooser.  Lists every column of the model
 * (inclusive, exclusive, hidden ones too) and the derived ones; Space
 * shows or hides a column, `b` toggles percent bars. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "pane_list.h"

static bool is_shown(const struct app *app, uint32_t c)
{
	for (size_t i = 0; i < app->n_columns; i++)
		if (app->columns[i] == c)
			return true;
	return false;
}

static void columns_draw(struct app *app, struct pane *pane, struct rect r)
{
	struct list_cursor *l = pane->state;
	l->count = app->model->n_columns + app->n_derived;
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
		bool derived = c >= app->model->n_columns;
		char *title = app_column_title(app, c);
		char *line = NULL;
		const char *src = "";
		if (!derived) {
			uint32_t s = model_column_stat(app->model, c);
			if (s != MODEL_NONE)
				src = model_str(app->model, app->model->stats[s].scope);
			else
				src = "formula";
		} else {
			src = app->derived[c - app->model->n_columns].text;
		}
		if (asprintf(&line, " [%c] $%u  %s  (%s)",
			     derived || is_shown(app, c) ? 'x' : ' ', c + 1,
			     title ? title : "?", src) < 0)
			line = NULL;
		attr_t a = idx == l->cursor ? theme_attr(THEME_ROLE_SELECTED)
					    : A_NORMAL;
		screen_text(r.y + i, r.x, r.w, a, line ? line : "", true);
		free(line);
		free(title);
	}
}

static void toggle(struct app *app, uint32_t c)
{
	if (c >= app->model->n_columns)
		return;
	for (size_t i = 0; i < app->n_columns; i++)
		if (app->columns[i] == c) {
			if (app->n_columns == 1) {
				app_message(app, true, "at least one column stays");
				return;
			}
			memmove(app->columns + i, app->columns + i + 1,
				(app->n_columns - i - 1) * sizeof(*app->columns));
			app->n_columns--;
			return;
		}
	uint32_t *p = realloc(app->columns, (app->n_columns + 1) * sizeof(*p));
	if (!p)
		return;
	app->columns = p;
	/* keep model order */
	size_t at = 0;
	while (at < app->n_columns && app->columns[at] < c)
		at++;
	memmove(p + at + 1, p + at, (app->n_columns - at) * sizeof(*p));
	p[at] = c;
	app->n_columns++;
}

static unsigned columns_action(struct app *app, struct pane *pane,
			       enum action a)
{
	struct list_cursor *l = pane->state;
	if (list_move(l, a))
		return HANDLED_REDRAW;
	if (a == ACTION_TOGGLE || a == ACTION_EXPAND) {
		toggle(app, (uint32_t)l->cursor);
		return HANDLED_REDRAW;
	}
	if (a == ACTION_QUIT || a == ACTION_COLUMNS)
		return HANDLED_CLOSE | HANDLED_REDRAW;
	return HANDLED_NO;
}

static void columns_free(struct pane *pane)
{
	free(pane->state);
	free(pane);
}

static const struct pane_ops columns_ops = {
	.name = "columns",
	.title = "Columns",
	.draw = columns_draw,
	.action = columns_action,
	.free = columns_free,
};

struct pane *pane_columns_new(struct app *app)
{
	(void)app;
	struct pane *p = calloc(1, sizeof(*p));
	struct list_cursor *l = calloc(1, sizeof(*l));
	if (!p || !l) {
		free(p);
		free(l);
		return NULL;
	}
	p->ops = &columns_ops;
	p->state = l;
	return p;
}
