/* partial: a partial model's viewer (see partial.h). */
#include "config.h"

#include "partial.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "hub.h"
#include "pane.h"
#include "screen.h"
#include "formats/open_later.h"
#include "views/outline.h"
#include "views/view_path.h"

/* One view's state, by path (the state as a whole: struct ui_carry). */
struct view_carry {
	bool has;
	struct view_path sel;
	struct view_path *rows; /* the visible rows that can expand */
	bool *expanded;         /* whether each was */
	size_t n_rows;
};

struct ui_carry {
	enum view_kind current;
	/* the panes over the tree, bottom first (made again, on the
	 * carried selection) */
	const struct pane_ops *panes[STACK_MAX];
	size_t n_panes;
	struct view_carry views[3];
	char *sort_name; /* the sort column's name (NULL: the default) */
	uint8_t sort_kind;
	bool ascending;
};

void partial_carry_free(struct ui_carry *c)
{
	if (!c)
		return;
	for (int k = 0; k < 3; k++) {
		view_path_free(&c->views[k].sel);
		for (size_t i = 0; i < c->views[k].n_rows; i++)
			view_path_free(&c->views[k].rows[i]);
		free(c->views[k].rows);
		free(c->views[k].expanded);
	}
	free(c->sort_name);
	free(c);
}

/* Whether visible row `node` of `o` is expanded. */
static bool is_expanded(struct outline *o, uint32_t node)
{
	struct outline_row row;
	size_t i = outline_find(o, node);
	return i != OUTLINE_NONE && outline_row_get(o, i, &row) &&
	       row.expanded;
}

/* The outline view k would have now by default (app_ensure_view's
 * expansions, over its view as it is), or NULL. */
static struct outline *default_outline(struct app *app, int k)
{
	struct outline *cur = app->outlines[k];
	struct tree_cursor cursor = app->cursors[k];
	app->outlines[k] = NULL;
	struct outline *fresh = app_ensure_view(app, (enum view_kind)k)
					? app->outlines[k]
					: NULL;
	app->outlines[k] = cur;
	app->cursors[k] = cursor;
	return fresh;
}

/* The rows carried before (`was`, the last swap's, taken) that still
 * hold: hidden now, or as they were and as the default has them (the
 * default of the next model may differ). */
static void carry_kept(struct app *app, int k, struct outline *fresh,
		       struct view_carry *was, struct view_carry *vc)
{
	for (size_t i = 0; i < was->n_rows; i++) {
		uint32_t n = view_path_find(app->views[k], &was->rows[i]);
		bool shown = n != MODEL_NONE &&
			     outline_find(app->outlines[k], n) != OUTLINE_NONE;
		bool now = shown && is_expanded(app->outlines[k], n);
		if (shown && (now != was->expanded[i] ||
			      (fresh && is_expanded(fresh, n) != now)))
			continue; /* changed again, or a difference carried */
		vc->rows[vc->n_rows] = was->rows[i];
		vc->expanded[vc->n_rows++] = was->expanded[i];
		was->rows[i] = (struct view_path){0};
	}
}

/* View k's rows expanded or collapsed otherwise than by default (the
 * user's doing: a model swapped in has defaults of its own), with those
 * carried to this model (`was`, may be NULL), and its selection, by
 * path. */
static void carry_view(struct app *app, int k, struct view_carry *vc,
		       struct view_carry *was)
{
	struct outline *o = app->outlines[k];
	struct error err = {0};
	size_t n = outline_count(o) + (was ? was->n_rows : 0);
	vc->rows = calloc(n ? n : 1, sizeof(*vc->rows));
	vc->expanded = calloc(n ? n : 1, sizeof(*vc->expanded));
	if (!vc->rows || !vc->expanded)
		return;
	vc->has = true;
	struct outline *fresh = default_outline(app, k);
	for (size_t i = 0; i < outline_count(o); i++) {
		struct outline_row row;
		if (!outline_row_get(o, i, &row) || !row.has_children ||
		    (fresh && is_expanded(fresh, row.node) == row.expanded))
			continue;
		if (view_path_of(app->views[k], row.node, &vc->rows[vc->n_rows],
				 &err) == STATUS_OK)
			vc->expanded[vc->n_rows++] = row.expanded;
		error_clear(&err);
	}
	if (was)
		carry_kept(app, k, fresh, was, vc);
	outline_free(fresh);
	if (view_path_of(app->views[k], app->cursors[k].node, &vc->sel,
			 &err) != STATUS_OK)
		error_clear(&err);
}

static struct ui_carry *carry_take(struct app *app)
{
	struct ui_carry *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->current = app->current;
	for (size_t i = 1; i < app->n_stack; i++)
		c->panes[c->n_panes++] = app->stack[i]->ops;
	struct ui_carry *was = app->carry_in;
	for (int k = 0; k < 3; k++)
		if (app->outlines[k] && app->views[k])
			carry_view(app, k, &c->views[k],
				   was && was->views[k].has ? &was->views[k]
							    : NULL);
	uint32_t col = app->cols.sort_column;
	if (app->sort_chosen && col < model_n_columns(app->model)) {
		c->sort_name = strdup(model_columns(app->model)[col].name);
		c->sort_kind = model_columns(app->model)[col].kind;
		c->ascending = app->cols.sort_ascending;
	}
	return c;
}

/* The note of a partial model: what is scanned, how far. */
static void note(struct app *app, const struct reader_progress *p)
{
	if (app->partial_exact && p->n_files)
		app_message(app, false,
			    "partial totals: %u of %u files exact, the rest "
			    "kernels counted; %.1f M rows",
			    app->partial_exact, p->n_files,
			    (double)p->rows / 1e6);
	else if (p->n_files)
		app_message(app, false,
			    "partial totals (kernels counted, times to come): "
			    "scanning the run, %u of %u files, %.1f M rows",
			    p->files_done, p->n_files, (double)p->rows / 1e6);
	else
		app_message(app, false,
			    "partial totals (kernels counted, times to "
			    "come): scanning the run");
	app->partial_note = true;
}

void partial_start(struct app *app)
{
	struct reader_progress p;
	if (!app->later)
		return;
	open_later_poll(app->later, &p);
	note(app, &p); /* before the model's warnings: they come back */
}

/* Swap to partial model `m`, better than the one shown (`exact` files
 * exact), the scan going on: the viewer quits to be run on it, the job
 * handed back through app->reopen. */
static bool swap_better(struct app *app, struct model *m, unsigned exact)
{
	screen_hold();
	app->reopen->complete = m;
	app->reopen->carry = carry_take(app);
	app->reopen->later = app->later;
	app->reopen->exact_files = exact;
	app->later = NULL;
	app->quit = true;
	return true;
}

bool partial_poll(struct app *app, bool wait)
{
	struct reader_progress p;
	if (!app->later)
		return false;
	bool done = open_later_poll(app->later, &p);
	unsigned exact = 0;
	struct model *better = !done && !wait && app->reopen
				       ? open_later_take_better(app->later,
								&exact)
				       : NULL;
	if (better)
		return swap_better(app, better, exact);
	if (!done && !wait) {
		if (!app->message || app->partial_note)
			note(app, &p);
		return false;
	}
	struct model *m = NULL;
	struct error err = {0};
	enum status st = open_later_take(app->later, &m, &err);
	open_later_free(app->later);
	app->later = NULL; /* the next frame stops the tick (frame.c) */
	app->partial_note = false;
	if (st != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	if (!app->reopen) {
		model_free(m);
		return false;
	}
	app->reopen->complete = m;
	app->reopen->carry = carry_take(app);
	screen_hold();
	app->quit = true;
	return true;
}

bool partial_wait_better(struct app *app)
{
	unsigned exact = 0;
	while (app->later && app->reopen) {
		if (open_later_poll(app->later, NULL))
			return partial_poll(app, true);
		struct model *m = open_later_take_better(app->later, &exact);
		if (m)
			return swap_better(app, m, exact);
		struct timespec ts = {0, 10000000L};
		nanosleep(&ts, NULL);
	}
	return false;
}

bool partial_refuses(struct app *app, const struct pane_ops *ops)
{
	struct reader_progress p;
	if (!app->later || strcmp(ops->name, "trace") != 0)
		return false;
	open_later_poll(app->later, &p);
	if (p.n_files)
		app_message(app, false,
			    "the timeline comes with the complete run: the "
			    "scan has read %u of %u files",
			    p.files_done, p.n_files);
	else
		app_message(app, false, "the timeline comes with the complete "
					"run, when the scan ends");
	app->partial_note = false;
	return true;
}

/* The column of the new model named as the carried sort column. */
static uint32_t column_named(struct app *app, const struct ui_carry *c)
{
	for (size_t i = 0; c->sort_name && i < app->cols.n_columns; i++) {
		const struct model_column *mc =
			&model_columns(app->model)[app->columns[i]];
		if (mc->kind == c->sort_kind && strcmp(mc->name, c->sort_name) == 0)
			return app->columns[i];
	}
	return MODEL_NONE;
}

/* View k as it was: the rows expanded and collapsed as they were (rows
 * the partial model did not show keep their default), the selection. */
static void apply_view(struct app *app, int k, const struct view_carry *vc)
{
	struct error err = {0};
	if (!app_ensure_view(app, (enum view_kind)k))
		return;
	struct outline *o = app->outlines[k];
	for (size_t i = 0; i < vc->n_rows; i++) {
		uint32_t n = view_path_find(app->views[k], &vc->rows[i]);
		if (n == MODEL_NONE || outline_find(o, n) == OUTLINE_NONE)
			continue; /* hidden under a row collapsed before it */
		if (vc->expanded[i] && !is_expanded(o, n) &&
		    outline_expand(o, n, &err) != STATUS_OK)
			error_clear(&err);
		else if (!vc->expanded[i] && is_expanded(o, n))
			outline_collapse(o, n);
	}
	uint32_t sel = view_path_find(app->views[k], &vc->sel);
	if (sel != MODEL_NONE) {
		enum view_kind was = app->current;
		app->current = (enum view_kind)k;
		app_select(app, sel);
		app->current = was;
	}
}

void partial_apply(struct app *app, struct ui_carry *c)
{
	if (!c)
		return;
	uint32_t col = column_named(app, c);
	if (col != MODEL_NONE)
		app_set_sort(app, col, c->ascending, false);
	for (int k = 0; k < 3; k++)
		if (c->views[k].has)
			apply_view(app, k, &c->views[k]);
	if (c->current != app->current)
		app_switch_view(app, c->current);
	for (size_t i = 0; i < c->n_panes; i++)
		app_push_pane(app, app_make_pane(app, c->panes[i]));
	/* kept: what it carried is carried on at the next swap */
	partial_carry_free(app->carry_in);
	app->carry_in = c;
}
