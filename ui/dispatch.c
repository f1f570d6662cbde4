/* dispatch: what a key does.  The key is looked up in the keymap of the
 * pane that has the keys (the top of the stack, or the layout's split when
 * it has the focus), and the action runs through the request flow
 * (pane_run): the pane first, then the generic handler here, which opens
 * panes found in the registry by the action that opens them, arranges the
 * layout's split, and runs the requests panes hand back.  The mouse: a
 * click goes to the pane under it, the wheel scrolls or zooms. */
#include "config.h"

#include "hub.h"
#include "partial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff_view.h"
#include "net/session.h"
#include "extrap.h"

/* ---- actions ---------------------------------------------------------- */

/* The split of the layout: made from the registry's first PANE_SPLIT pane
 * when there is none yet. */
static bool ensure_split(struct app *app, const struct pane_ops *ops)
{
	if (app->layout.split && (!ops || app->layout.split->ops == ops))
		return true;
	if (!ops)
		ops = pane_find_by_flags(pane_registry, PANE_SPLIT);
	struct pane *p = ops ? app_make_pane(app, ops) : NULL;
	if (!p)
		return false;
	layout_fini(&app->layout);
	app->layout.split = p;
	return true;
}

/* The actions that arrange the split (the split pane handles its own). */
static struct reaction layout_action(struct app *app, enum action a)
{
	if (!ensure_split(app, NULL))
		return REACTION(HANDLED_REDRAW);
	app_pop_overlays(app);
	struct layout *l = &app->layout;
	switch (a) {
	case ACTION_SPLIT_FOCUS:
		layout_toggle_focus(l);
		/* keys for the tree: a full-screen split gives it room */
		if (!l->focus)
			l->full = false;
		break;
	case ACTION_SPLIT_FULL:
		layout_toggle_full(l);
		break;
	case ACTION_SPLIT_BESIDE:
		layout_toggle_beside(l);
		break;
	case ACTION_SPLIT_GROW:
	case ACTION_SPLIT_SHRINK:
		layout_resize(l, a == ACTION_SPLIT_GROW ? 10 : -10);
		break;
	default: /* an action of the split pane: show it and hand it over */
		l->shown = l->focus = true;
		{
			struct pane_env env = app_env(app, true);
			struct reaction r = l->split->ops->action(&env, l->split, a);
			if (r.flags & HANDLED_PROMPT) {
				prompt_open(app, PROMPT_PANE);
				app->prompt_pane = l->split;
			}
		}
		break;
	}
	return REACTION(HANDLED_REDRAW);
}

/* Open the pane `a` opens: on the stack, or in the split. */
static struct reaction open_action(struct app *app, const struct pane_ops *ops)
{
	if (partial_refuses(app, ops))
		return REACTION(HANDLED_REDRAW);
	if (ops->flags & PANE_SPLIT) {
		app_pop_overlays(app);
		/* another split pane shown (the trace, the plot): replace it,
		 * keep the split shown */
		bool other = layout_split_shown(&app->layout) &&
			     app->layout.split->ops != ops;
		if (ensure_split(app, ops)) {
			if (other)
				app->layout.shown = app->layout.focus = true;
			else
				layout_toggle(&app->layout);
		}
		return REACTION(HANDLED_REDRAW);
	}
	if (ops->flags & PANE_CLEARS)
		app_pop_overlays(app);
	if (ops->flags & PANE_BASE)
		return REACTION(HANDLED_REDRAW);
	app_push_pane(app, app_make_pane(app, ops));
	return REACTION(HANDLED_REDRAW);
}

/* The first key bound to `a` ("w"), or its name when no key is. */
static const char *key_of(struct app *app, enum action a, char *buf,
			  size_t size)
{
	if (!keymap_first_key(app->keymap, a, buf, size))
		snprintf(buf, size, ":bind KEYMAP KEY %s", action_name(a));
	return buf;
}

/* A key the pane with the keys does not handle: if its action works in
 * another pane (actions.def), say which and the key that gets there,
 * rather than nothing. */
static void say_where(struct app *app, enum action a)
{
	const char *where = action_pane(a);
	if (!*where)
		return;
	char k[48], go[48];
	struct layout *l = &app->layout;
	struct pane *split = layout_split_shown(l);
	bool split_keys = app->n_stack == 1 && split && l->focus;
	const char *focus = split_keys ? split->ops->name
				       : app_top(app)->ops->name;
	bool for_tree = strcmp(where, "tree") == 0 ||
			(strcmp(where, "models") == 0 &&
			 strcmp(focus, "plot") != 0);
	if (for_tree) {
		where = "tree";
		if (app->n_stack > 1)
			app_message(app, false, "%s works in the tree: %s "
				    "closes this pane", key_of(app, a, k,
				    sizeof(k)), key_of(app, ACTION_BACK, go,
				    sizeof(go)));
		else if (split_keys)
			app_message(app, false, "%s works in the tree: %s "
				    "moves the keys there",
				    key_of(app, a, k, sizeof(k)),
				    key_of(app, ACTION_SPLIT_FOCUS, go,
					   sizeof(go)));
		return;
	}
	if (strcmp(where, "models") == 0)
		return;
	/* the trace or the plot: shown beside the tree, or not */
	const struct pane_ops *ops = NULL;
	for (size_t i = 0; pane_registry[i]; i++)
		if (strcmp(pane_registry[i]->name, where) == 0)
			ops = pane_registry[i];
	if (!ops || strcmp(focus, where) == 0)
		return;
	key_of(app, a, k, sizeof(k));
	if (strcmp(where, "flame") == 0)
		where = "flame graph";
	if (split && split->ops == ops && app->n_stack == 1)
		app_message(app, false, "%s works in the %s: %s moves the "
			    "keys there", k, where,
			    key_of(app, ACTION_SPLIT_FOCUS, go, sizeof(go)));
	else if (split && split->ops == ops)
		app_message(app, false, "%s works in the %s: %s closes this "
			    "pane", k, where,
			    key_of(app, ACTION_BACK, go, sizeof(go)));
	else
		app_message(app, false, "%s works in the %s: %s shows it", k,
			    where, key_of(app, ops->open, go, sizeof(go)));
}

static struct reaction generic_action(void *hub, enum action a)
{
	struct app *app = hub;
	const struct pane_ops *ops = pane_find_by_action(pane_registry, a);
	if (ops)
		return open_action(app, ops);
	switch (a) {
	case ACTION_QUIT:
		return REACTION(HANDLED_QUIT);
	case ACTION_BACK:
		if (app->n_stack > 1) {
			app_pop_pane(app);
		} else if (outline_filter_mode(app_outline(app)) !=
			   OUTLINE_FILTER_OFF) {
			struct error err = {0};
			outline_set_filter(app_outline(app), NULL,
					   OUTLINE_FILTER_OFF, &err);
			error_clear(&err);
			app_message(app, false, "filter off");
		}
		return REACTION(HANDLED_REDRAW);
	case ACTION_REFRESH:
		if (app->session) /* stopped reads read again */
			app->session->cancel = 0;
		clearok(curscr, TRUE);
		return REACTION(HANDLED_REDRAW);
	case ACTION_COMMAND:
		prompt_open(app, PROMPT_COMMAND);
		return REACTION(HANDLED_REDRAW);
	case ACTION_SEARCH:
	case ACTION_FILTER:
		app_pop_overlays(app);
		prompt_open(app, a == ACTION_SEARCH ? PROMPT_SEARCH
						    : PROMPT_FILTER);
		return REACTION(HANDLED_REDRAW);
	case ACTION_VIEW_NEXT:
	case ACTION_VIEW_TOP_DOWN:
	case ACTION_VIEW_BOTTOM_UP:
	case ACTION_VIEW_FLAT:
		app_pop_overlays(app);
		app_switch_view(app, a == ACTION_VIEW_NEXT
					     ? (app->current + 1) % 3
				     : a == ACTION_VIEW_TOP_DOWN ? VIEW_TOP_DOWN
				     : a == ACTION_VIEW_BOTTOM_UP
					     ? VIEW_BOTTOM_UP
					     : VIEW_FLAT);
		return REACTION(HANDLED_REDRAW);
	case ACTION_SORT: {
		/* the columns shown, then (a parametric database) the
		 * models' severity, then the first column again */
		size_t total = app->cols.n_columns;
		if (total == 0)
			return REACTION(HANDLED_YES);
		size_t i = 0;
		while (i < total && app->columns[i] != app->cols.sort_column)
			i++;
		/* compared runs: a delta by its value, then its magnitude */
		bool magnitude = i < total && app->diff &&
				 !app->sort_magnitude &&
				 diff_view_signed(app->diff, app->columns[i]);
		if (i + 1 == total && app->extrap && !magnitude) {
			app_set_sort(app, COLUMN_SEVERITY, false, false);
			app_message(app, false, "sorted by severity (%s)",
				    extrap_severity_name(app->extrap));
			return REACTION(HANDLED_REDRAW);
		}
		if (!magnitude)
			i = i >= total ? 0 : (i + 1) % total;
		app_set_sort(app, app->columns[i], false, magnitude);
		struct pane_env env = app_env(app, false);
		char *t = pane_column_title(&env, app->columns[i]);
		const char *bar = magnitude ? "|" : "";
		app_message(app, false, "sorted by %s%s%s", bar, t ? t : "?",
			    bar);
		free(t);
		return REACTION(HANDLED_REDRAW);
	}
	case ACTION_SORT_REVERSE:
		/* |delta|: smallest first */
		app_set_sort(app, app->cols.sort_column,
			     !app->cols.sort_ascending, app->sort_magnitude);
		app_message(app, false, "sorted %s",
			    app->cols.sort_ascending ? "ascending"
						     : "descending");
		return REACTION(HANDLED_REDRAW);
	case ACTION_BARS:
		app->cols.show_bars = !app->cols.show_bars;
		return REACTION(HANDLED_REDRAW);
	case ACTION_SPLIT_FOCUS:
	case ACTION_SPLIT_FULL:
	case ACTION_SPLIT_BESIDE:
	case ACTION_SPLIT_GROW:
	case ACTION_SPLIT_SHRINK:
	case ACTION_TRACE_FILTER:
		return layout_action(app, a);
	default:
		say_where(app, a);
		return REACTION(app->message ? HANDLED_REDRAW : HANDLED_YES);
	}
}

/* A request's selection: the tree gets the keys, and shows (a
 * full-screen split gives way to it). */
static void host_select(void *hub, uint32_t node)
{
	struct app *app = hub;
	app_select(app, node);
	app->layout.focus = false;
	app->layout.full = false;
}

/* What the core does with the flags of a pane's reaction. */
static void settle(struct app *app, struct pane *p, unsigned r)
{
	if ((r & HANDLED_PROMPT) && p && p->ops->input) {
		prompt_open(app, PROMPT_PANE);
		app->prompt_pane = p;
	}
	if ((r & HANDLED_CLOSE) && p == app_top(app))
		app_pop_pane(app);
	if (r & HANDLED_QUIT)
		app->quit = true;
}

static void dispatch(struct app *app, struct pane *p, enum action a)
{
	struct pane_host host = {generic_action, host_select, app};
	struct pane_env env = app_env(app, true);
	settle(app, p, pane_run(&host, &env, p, a));
}

/* A click on pane `p` at (y, x) of its rect. */
static void click(struct app *app, struct pane *p, bool focused, int y, int x,
		  bool twice)
{
	if (!p->ops->click)
		return;
	struct pane_host host = {generic_action, host_select, app};
	struct pane_env env = app_env(app, focused);
	settle(app, p, pane_follow(&host, p->ops->click(&env, p, y, x, twice)));
}

static bool inside(struct rect r, int y, int x)
{
	return r.h > 0 && y >= r.y && y < r.y + r.h && x >= r.x &&
	       x < r.x + r.w;
}

static void handle_mouse(struct app *app)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	struct pane *split = layout_split_shown(&app->layout);
	bool wheel = ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED);
	bool twice = (ev.bstate & BUTTON1_DOUBLE_CLICKED) != 0;
	if (split && inside(app->split_rect, ev.y, ev.x)) {
		/* over the split (the trace): the wheel zooms in time, a
		 * click goes to the pane */
		if (wheel)
			dispatch(app, split, ev.bstate & BUTTON4_PRESSED
						     ? ACTION_TRACE_ZOOM_IN
						     : ACTION_TRACE_ZOOM_OUT);
		else
			click(app, split, app->layout.focus,
			      ev.y - app->split_rect.y,
			      ev.x - app->split_rect.x, twice);
		return;
	}
	struct pane *top = app_top(app);
	if (wheel) {
		dispatch(app, top, ev.bstate & BUTTON4_PRESSED
					   ? ACTION_MOVE_UP
					   : ACTION_MOVE_DOWN);
		return;
	}
	struct rect r = app->stack_rect;
	if (inside(r, ev.y, ev.x))
		click(app, top, true, ev.y - r.y, ev.x - r.x, twice);
}

void app_handle_key(struct app *app, int key, bool is_char, wint_t wc)
{
	if (app->prompt != PROMPT_NONE) {
		prompt_key(app, key, is_char, wc);
		return;
	}
	if (!is_char && key == KEY_MOUSE) {
		handle_mouse(app);
		return;
	}
	int code = is_char ? (int)wc : key;
	struct pane *top = app_top(app);
	/* the split has the keys when it is shown and focused */
	struct pane *split = layout_split_shown(&app->layout);
	if (app->n_stack == 1 && split && app->layout.focus)
		top = split;
	enum action a = keymap_lookup(app->keymap, top->ops->name, code);
	if (a == ACTION_NONE)
		return;
	free(app->message);
	app->message = NULL;
	dispatch(app, top, a);
}

