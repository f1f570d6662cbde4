/* app: the hub of the viewer: its state (struct app, hub.h), the services
 * panes reach through struct pane_env, the views, the main loop, and set-up
 * and teardown.  It knows panes only through the registry
 * (panes.c) and the layout (layout.c); actions and key dispatch are
 * dispatch.c, drawing frame.c, prompts prompt.c, ":" commands and options commands.c, the key script input.c,
 * the background build prebuild.c, the columns shown at start
 * app_columns.c. */
#include "config.h"

#include "hub.h"
#include "partial.h"
#include "formats/open_later.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_columns.h"
#include "core/array.h"
#include "extrap.h"
#include "net/http.h"
#include "views/system_focus.h"

void app_message(struct app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL; /* formatted first: an argument may be the old one */
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	free(app->message);
	app->message = text;
	app->message_error = error;
}

void app_error(struct app *app, struct error *err)
{
	char *text = error_format(err);
	app_message(app, true, "%s", text ? text : "error");
	free(text);
	error_clear(err);
}

struct view *app_view(struct app *app)
{
	return app->views[app->current];
}

struct outline *app_outline(struct app *app)
{
	return app->outlines[app->current];
}

struct tree_cursor *app_cursor(struct app *app)
{
	return &app->cursors[app->current];
}

struct pane *app_top(struct app *app)
{
	return app->stack[app->n_stack - 1];
}

void app_push_pane(struct app *app, struct pane *pane)
{
	if (!pane)
		return;
	if (app->n_stack >= STACK_MAX) {
		pane->ops->free(pane);
		return;
	}
	app->stack[app->n_stack++] = pane;
}

void app_pop_pane(struct app *app)
{
	if (app->n_stack <= 1)
		return;
	struct pane *p = app->stack[--app->n_stack];
	p->ops->free(p);
}

void app_pop_overlays(struct app *app)
{
	while (app->n_stack > 1)
		app_pop_pane(app);
}

void app_select(struct app *app, uint32_t node)
{
	struct error err = {0};
	if (outline_find(app_outline(app), node) == OUTLINE_NONE &&
	    outline_reveal(app_outline(app), node, &err) != STATUS_OK)
		app_error(app, &err);
	app_cursor(app)->node = node;
}

static void apply_sort(struct app *app, enum view_kind k, bool force);
static void default_sort(struct app *app, enum view_kind k);

bool app_show_column(struct app *app, uint32_t c, bool shown)
{
	if (c >= model_n_columns(app->model))
		return false;
	size_t n = app->cols.n_columns;
	for (size_t i = 0; i < n; i++)
		if (app->columns[i] == c) {
			if (shown)
				return true;
			if (n == 1) {
				app_message(app, true,
					    "at least one column stays");
				return false;
			}
			memmove(app->columns + i, app->columns + i + 1,
				(n - i - 1) * sizeof(*app->columns));
			app->cols.n_columns--;
			if (c == app->cols.sort_column) {
				/* rows sorted by a column no longer drawn
				 * read unsorted: the view's default of
				 * those left sorts them */
				app->sort_chosen = false;
				default_sort(app, app->current);
				apply_sort(app, app->current, true);
			}
			return true;
		}
	if (!shown)
		return true;
	size_t at = 0;
	while (at < n && app->columns[at] < c)
		at++;
	return app_insert_column(app, at, c);
}

bool app_insert_column(struct app *app, size_t at, uint32_t c)
{
	size_t n = app->cols.n_columns;
	if (!array_grow((void **)&app->columns, &app->columns_cap, n + 1,
			sizeof(*app->columns)))
		return false;
	uint32_t *p = app->columns;
	app->cols.columns = p;
	memmove(p + at + 1, p + at, (n - at) * sizeof(*p));
	p[at] = c;
	app->cols.n_columns++;
	return true;
}

bool app_replace_column(struct app *app, uint32_t from, uint32_t to)
{
	size_t n = app->cols.n_columns, at = n;
	bool has_to = false;
	if (to >= model_n_columns(app->model))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (app->columns[i] == from)
			at = i;
		has_to |= app->columns[i] == to;
	}
	if (at == n)
		return false;
	if (has_to)
		return app_show_column(app, from, false);
	app->columns[at] = to;
	if (app->cols.sort_column == from) {
		/* the same sort, chosen or not, over the other form */
		app->cols.sort_column = to;
		apply_sort(app, app->current, true);
	}
	return true;
}

/* ---- the services panes see ------------------------------------------- */

static void svc_message(void *hub, bool error, const char *text)
{
	app_message(hub, error, "%s", text);
}

static void svc_select(void *hub, uint32_t node)
{
	app_select(hub, node);
}

static void svc_open(void *hub, struct pane *pane)
{
	app_push_pane(hub, pane);
}

static bool svc_show_column(void *hub, uint32_t c, bool shown)
{
	return app_show_column(hub, c, shown);
}

static bool svc_replace_column(void *hub, uint32_t from, uint32_t to)
{
	return app_replace_column(hub, from, to);
}

static void svc_system_focus(void *hub, struct system_focus *focus)
{
	struct app *app = hub;
	system_focus_free(app->sys_focus);
	app->sys_focus = focus;
}

static const struct pane_services services = {
	.message = svc_message,
	.select = svc_select,
	.open = svc_open,
	.show_column = svc_show_column,
	.replace_column = svc_replace_column,
	.system_focus = svc_system_focus,
};

struct pane_env app_env(struct app *app, bool focused)
{
	app->cols.columns = app->columns;
	app->cols.derived = app->derived;
	return (struct pane_env){
		.model = app->model,
		.view_kind = app->current,
		.view = app_view(app),
		.outline = app_outline(app),
		.cursor = app_cursor(app),
		.cols = &app->cols,
		.sort_magnitude = app->sort_magnitude,
		.diff = app->diff,
		.keymap = app->keymap,
		.caps = &app->caps,
		.db_path = app->db_path,
		.n_threads = app->n_threads,
		.focused = focused,
		.extrap = app->extrap,
		.sys_focus = app->sys_focus,
		.svc = &services,
		.hub = app,
	};
}

/* ---- views ------------------------------------------------------------ */

/* Reading a database's deferred parts (model.h) for an aggregated view: a
 * note on the bottom line every 0.1 s; Esc stops. */
struct load_note {
	const char *view;
	double start_us, shown_us;
	uint32_t total;
};

static bool on_load(void *ctx, uint32_t left)
{
	struct load_note *ln = ctx;
	double now = input_now_us();
	if (now - ln->shown_us < 1e5)
		return true;
	ln->shown_us = now;
	screen_notef(theme_attr(THEME_ROLE_STATUS),
		     "The %s view reads every part of the database: %u of %u "
		     "left, %.0f s   Esc stops",
		     ln->view, (unsigned)left, (unsigned)ln->total,
		     (now - ln->start_us) / 1e6);
	return !screen_poll_escape();
}

/* The severity sort's key of top-down row `row` (struct outline_sort_key
 * over extrap_sort_key). */
static enum outline_key_state severity_key(void *ctx, uint32_t row,
					   double *out)
{
	struct app *app = ctx;
	struct view_node vn;
	if (!app->extrap ||
	    !view_node_get(app->views[VIEW_TOP_DOWN], row, &vn))
		return OUTLINE_KEY_NONE;
	switch (extrap_sort_key(app->extrap, vn.model_node, out)) {
	case EXTRAP_KEY_VALUE:
		return OUTLINE_KEY_VALUE;
	case EXTRAP_KEY_PENDING:
		return OUTLINE_KEY_PENDING;
	default:
		return OUTLINE_KEY_NONE;
	}
}

/* The magnitude sort's key of row `row` of view k: the absolute value of
 * the sort column there. */
static enum outline_key_state magnitude_key(void *ctx, uint32_t row,
					    double *out)
{
	const struct magnitude_key *mk = ctx;
	struct app *app = mk->app;
	double v;
	if (!app->views[mk->k] ||
	    !view_value(app->views[mk->k], row, app->cols.sort_column, &v))
		return OUTLINE_KEY_NONE;
	*out = fabs(v);
	return OUTLINE_KEY_VALUE;
}

/* Sort outline `k` as the columns say: by a model column, or the top-down
 * tree of a parametric database by severity (the other views then by the
 * models' metric); unless `force`, only when it is sorted otherwise (or
 * its severity sort is stale). */
static void apply_sort(struct app *app, enum view_kind k, bool force)
{
	struct outline *o = app->outlines[k];
	struct error err = {0};
	enum status st = STATUS_OK;
	uint32_t c = app->cols.sort_column;
	bool asc = app->cols.sort_ascending;
	if (!o)
		return;
	if (app->sort_magnitude && c < model_n_columns(app->model)) {
		if (!force && outline_sort_keyed(o) &&
		    outline_sort_ascending(o) == asc)
			return;
		app->magnitude[k] = (struct magnitude_key){app, k};
		struct outline_sort_key key = {magnitude_key, &app->magnitude[k]};
		st = outline_set_sort_key(o, &key, asc, &err);
	} else if (c == COLUMN_SEVERITY && app->extrap && k == VIEW_TOP_DOWN) {
		uint64_t gen = extrap_generation(app->extrap), total = 0;
		if (!force && outline_sort_keyed(o) && app->sev_gen == gen &&
		    outline_sort_ascending(o) == asc)
			return;
		struct outline_sort_key key = {severity_key, app};
		app->sev_gen = gen;
		extrap_progress(app->extrap, &app->sev_ready, &total);
		st = outline_set_sort_key(o, &key, asc, &err);
	} else {
		if (c == COLUMN_SEVERITY)
			c = app->extrap ? extrap_column(app->extrap)
					: MODEL_NONE;
		uint32_t sortable = c < model_n_columns(app->model) ? c : MODEL_NONE;
		if (force || outline_sort_keyed(o) ||
		    outline_sort_column(o) != sortable ||
		    outline_sort_ascending(o) != asc)
			st = outline_set_sort(o, sortable, asc, &err);
	}
	if (st != STATUS_OK)
		app_error(app, &err);
}

bool app_ensure_view(struct app *app, enum view_kind k)
{
	struct error err = {0};
	if (app->outlines[k])
		return true;
	if (k != VIEW_TOP_DOWN)
		prebuild_join(app);
	if (k != VIEW_TOP_DOWN && model_deferred_pending(app->model)) {
		struct load_note ln = {.view = view_kind_name(k),
				       .start_us = input_now_us(),
				       .total = model_deferred_pending(app->model)};
		enum status st = model_load_all_progress(app->model, on_load,
							 &ln, &err);
		screen_note(0, NULL);
		if (st != STATUS_OK) {
			app_error(app, &err);
			return false;
		}
	}
	if (!app->views[k] &&
	    view_new(app->model, k, &app->views[k], &err) != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	uint32_t c = app->cols.sort_column;
	uint32_t sortable = c < model_n_columns(app->model) ? c : MODEL_NONE;
	if (outline_new(app->views[k], sortable, app->cols.sort_ascending,
			&app->outlines[k], &err) != STATUS_OK) {
		app_error(app, &err);
		return false;
	}
	if (c == COLUMN_SEVERITY || app->sort_magnitude)
		apply_sort(app, k, true);
	uint32_t root = view_root(app->views[k]);
	if (outline_expand(app->outlines[k], root, &err) != STATUS_OK)
		app_error(app, &err);
	app->cursors[k].node = root;
	app->cursors[k].top = 0;
	/* top-down opens one level deeper: the entry points' children */
	if (k == VIEW_TOP_DOWN) {
		size_t n = outline_count(app->outlines[k]);
		for (size_t i = 1; i < n && i < 64; i++) {
			struct outline_row row;
			if (outline_row_get(app->outlines[k], i, &row) &&
			    row.depth == 1 && row.has_children)
				outline_expand(app->outlines[k], row.node, &err);
			n = outline_count(app->outlines[k]);
		}
	}
	/* the flat view opens down to its first level of several rows: a
	 * database without modules and files (GPU runs) shows its kernels
	 * and calls, not "<unknown module>" folded */
	for (uint32_t level = 1; k == VIEW_FLAT && level < 4; level++) {
		size_t n = outline_count(app->outlines[k]), seen = 0;
		struct outline_row row, only = {0};
		for (size_t i = 1; i < n && seen < 2; i++)
			if (outline_row_get(app->outlines[k], i, &row) &&
			    row.depth == level && seen++ == 0)
				only = row;
		if (seen != 1 || !only.has_children ||
		    outline_expand(app->outlines[k], only.node, &err) !=
			    STATUS_OK)
			break;
	}
	error_clear(&err);
	return true;
}

/* Until the user chooses a sort column, each view is sorted by its own
 * default: a time column, exclusive in bottom-up (view_default_column). */
static void default_sort(struct app *app, enum view_kind k)
{
	if (app->sort_chosen)
		return;
	uint32_t c = view_default_column(app->model, k, app->columns,
					 app->cols.n_columns);
	if (c == MODEL_NONE)
		return;
	app->cols.sort_column = c;
	app->cols.sort_ascending = false;
}

void app_switch_view(struct app *app, enum view_kind k)
{
	default_sort(app, k);
	if (!app_ensure_view(app, k))
		return;
	app->current = k;
	apply_sort(app, k, false);
}

void app_set_sort(struct app *app, uint32_t column, bool ascending,
		  bool magnitude)
{
	app->sort_chosen = true;
	app->sort_magnitude = magnitude;
	app->cols.sort_column = column;
	app->cols.sort_ascending = ascending;
	apply_sort(app, app->current, true);
}

void app_sort_tick(struct app *app)
{
	struct outline *o = app->outlines[VIEW_TOP_DOWN];
	if (app->cols.sort_column != COLUMN_SEVERITY || !app->extrap ||
	    app->current != VIEW_TOP_DOWN || !o)
		return;
	if (!outline_sort_keyed(o) ||
	    app->sev_gen != extrap_generation(app->extrap)) {
		apply_sort(app, VIEW_TOP_DOWN, true);
		return;
	}
	if (outline_sort_waiting(o) == 0)
		return;
	uint64_t ready = 0, total = 0;
	extrap_progress(app->extrap, &ready, &total);
	if (ready == app->sev_ready)
		return; /* nothing new was fitted */
	app->sev_ready = ready;
	bool resorted = false;
	struct error err = {0};
	if (outline_sort_retry(o, &resorted, &err) != STATUS_OK)
		app_error(app, &err);
}

/* A new pane of `ops` (NULL when it has nothing to show). */
struct pane *app_make_pane(struct app *app, const struct pane_ops *ops)
{
	struct pane_env env = app_env(app, true);
	return ops->new(&env);
}

/* ---- the loop --------------------------------------------------------- */

/* The viewer quits to be run again (a reopen, a compare, the complete
 * model of a partial one). */
static bool reopen_asked(const struct app *app)
{
	const struct ui_reopen *r = app->reopen;
	return r && (r->names[0] || r->compare || r->complete);
}

static void loop(struct app *app, const struct ui_options *opt,
		 double *frame_start_us)
{
	struct script script = {.p = opt->keys};
	*frame_start_us = input_now_us();
	partial_start(app);
	frame_draw(app);
	input_first_frame();
	if (opt->dump && opt->dump_each) {
		fputs("--- start\n", opt->dump);
		screen_dump(opt->dump);
	}
	while (!app->quit) {
		int key = 0;
		bool is_char = false;
		wint_t wc = 0;
		if (app->later && partial_poll(app, false)) {
			app->reopen->keys = opt->headless ? script.p : NULL;
			break;
		}
		if (opt->headless) {
			if (!script_next(&script, &key, &is_char, &wc))
				break;
			/* <Scan>: the scan's end, then a redraw (its error) */
			if (script.wait_scan && partial_poll(app, true)) {
				app->reopen->keys = script.p;
				break;
			}
			/* <Fill>: the scan's next partial model (or its end) */
			if (script.wait_fill && partial_wait_better(app)) {
				app->reopen->keys = script.p;
				break;
			}
			script.wait_scan = script.wait_fill = false;
		} else {
			int r = screen_get_key(&wc);
			if (r == ERR)
				break; /* the terminal is gone */
			is_char = r == OK;
			key = (int)wc;
		}
		double t0 = input_now_us();
		*frame_start_us = t0;
		if (is_char || key != KEY_RESIZE) /* a resize only redraws */
			app_handle_key(app, key, is_char, wc);
		if (app->quit) {
			/* opened again: the rest of the script is the next
			 * run's */
			if (reopen_asked(app))
				app->reopen->keys = opt->headless ? script.p
								  : NULL;
			break;
		}
		frame_draw(app);
		double t1 = input_now_us();
		char name[32];
		if (opt->timing) {
			input_key_label(key, is_char, wc, name, sizeof(name));
			fprintf(opt->timing, "%s %.0f\n", name, t1 - t0);
		}
		if (opt->dump && opt->dump_each) {
			input_key_label(key, is_char, wc, name, sizeof(name));
			fprintf(opt->dump, "--- %s\n", name);
			screen_dump(opt->dump);
		}
	}
	if (opt->dump && !opt->dump_each && !reopen_asked(app))
		screen_dump(opt->dump);
}

/* ---- set-up ----------------------------------------------------------- */

static bool setup_columns(struct app *app)
{
	const struct model *model = app->model;
	size_t n = model_n_columns(model) ? model_n_columns(model) : 1;
	app->columns = calloc(n, sizeof(*app->columns));
	app->columns_cap = app->columns ? n : 0;
	app->totals = calloc(n, sizeof(*app->totals));
	app->has_total = calloc(n, sizeof(*app->has_total));
	if (!app->columns || !app->totals || !app->has_total)
		return false;
	/* columns: those visible by default, less the empty ones
	 * (app_columns_default), sorted by the first time column
	 * (view_default_column) */
	app->cols.n_columns = app_columns_default(model, app->diff != NULL,
						  app->totals, app->has_total,
						  app->columns);
	/* the columns' totals are computed on first use
	 * (pane_column_total) */
	for (uint32_t i = 0; i < model_n_profiles(model); i++)
		app->n_threads += !model_profiles(model)[i].is_summary;
	app->cols.columns = app->columns;
	app->cols.totals = app->totals;
	app->cols.has_total = app->has_total;
	app->cols.sort_column =
		app->cols.n_columns
			? view_default_column(model, VIEW_TOP_DOWN,
					      app->columns,
					      app->cols.n_columns)
			: MODEL_NONE;
	app->cols.threshold = 50.0;
	return true;
}

static void teardown(struct app *app)
{
	open_later_free(app->later); /* the scan stopped, its thread joined */
	app->later = NULL;
	partial_carry_free(app->carry_in);
	while (app->n_stack > 0) {
		struct pane *p = app->stack[--app->n_stack];
		p->ops->free(p);
	}
	layout_fini(&app->layout);
	extrap_free(app->extrap);
	system_focus_free(app->sys_focus);
	app->sys_focus = NULL;
	prebuild_join(app);
	prebuild_free(app);
	for (int k = 0; k < 3; k++) {
		outline_free(app->outlines[k]);
		view_free(app->views[k]);
	}
	for (size_t i = 0; i < app->cols.n_derived; i++) {
		free(app->derived[i].name);
		free(app->derived[i].text);
		formula_free(app->derived[i].expr);
	}
	free(app->derived);
	free(app->columns);
	free(app->totals);
	free(app->has_total);
	free(app->message);
	free(app->prompt_buf);
	free(app->db_path);
	free(app->base_path);
	free(app->new_path);
	free(app->config_path_owned);
	free(app->theme_loaded);
	keymap_free(app->keymap);
	config_free(&app->config);
	model_free(app->model);
}

int app_run(struct model *model, const char *path, bool demo,
	    const struct ui_options *opt, struct ui_reopen *reopen)
{
	struct app app;
	memset(&app, 0, sizeof(app));
	app.model = model;
	app.session = opt->session;
	app.reopen = reopen;
	struct ui_carry *carry = reopen ? reopen->carry : NULL;
	if (reopen) {
		app.later = reopen->later;
		app.partial_exact = app.later ? reopen->exact_files : 0;
		reopen->later = NULL;
		reopen->exact_files = 0;
		reopen->carry = NULL;
		reopen->complete = NULL;
		reopen->names[0] = '\0';
		reopen->keys = NULL;
		reopen->compare = NULL;
		reopen->diff = NULL;
	}
	app.db_path = strdup(path);
	app.demo = demo;
	app.diff = opt->diff; /* the rest of the compare view: compare_setup */
	layout_init(&app.layout);
	app.keymap = keymap_new();
	int rc = 0;
	if (!app.db_path || !app.keymap ||
	    !pane_registry_keymaps(pane_registry, app.keymap) ||
	    !setup_columns(&app)) {
		rc = 2;
		goto out;
	}
	/* a parametric database's models: fitted ahead in a background
	 * thread, or, headless (dumps must not depend on timing), when a
	 * frame asks */
	struct error xerr = {0};
	app.extrap = extrap_new(model, !opt->headless, &xerr);
	if (xerr.status != STATUS_OK)
		app_error(&app, &xerr);
	/* the tree sorted by the models' metric (time when the set has
	 * one, doc/extrap-ui.md), which the model columns follow */
	for (size_t i = 0; app.extrap && i < app.cols.n_columns; i++)
		if (app.columns[i] == extrap_column(app.extrap))
			app.cols.sort_column = app.columns[i];
	for (size_t i = 0; opt->has_sort_column && i < app.cols.n_columns; i++)
		if (app.columns[i] == opt->sort_column) {
			app.cols.sort_column = app.columns[i];
			/* every view sorted so (the compare view's |delta|) */
			app.sort_chosen = true;
			app.sort_magnitude = opt->sort_magnitude;
		}
	app_load_config(&app, opt->no_config, opt->config_path);
	if (!compare_setup(&app, opt)) {
		rc = 2;
		goto out;
	}
	/* the database's warnings went to stderr before the screen hid
	 * them: the first one also on the status line (a database without
	 * values must not look like one whose values are all small) */
	if (model_n_warnings(model) && !app.message)
		app_message(&app, true, "%s%s", model_warnings(model)[0],
			    model_n_warnings(model) > 1 ? " (and more)" : "");
	if (!screen_start(opt->headless, opt->cols, opt->rows, &app.caps)) {
		rc = 1;
		goto out;
	}
	app.screen_on = true;
	theme_apply(&app.config, &app.caps);
	const struct pane_ops *base = pane_find_by_flags(pane_registry,
							 PANE_BASE);
	if (base && app_ensure_view(&app, VIEW_TOP_DOWN))
		app_push_pane(&app, app_make_pane(&app, base));
	if (app.n_stack == 0) {
		screen_stop();
		fputs("callscope: cannot build the view\n", stderr);
		rc = 2;
		goto out;
	}
	partial_apply(&app, carry);
	carry = NULL;
	if (reopen && reopen->reopened && !app.message)
		app_message(&app, false, "kernels named by their %s names "
					 "(the run opened again)",
			    reopen->current);
	if (demo && !app.message)
		app_message(&app, false, "This is the demo database (%s); "
					 "give a database path to open "
					 "yours.  ? for help, q to quit",
			    path);
	if (!opt->no_prebuild)
		prebuild_start(&app);
	/* only a database opened by URL reads from a server after the open:
	 * elsewhere Ctrl-C keeps quitting at once */
	double frame_start_us = 0;
	bool remote = !opt->headless && path && http_is_url(path);
	if (remote && app.session)
		input_watch_reads(app.session, true, &frame_start_us);
	loop(&app, opt, &frame_start_us);
	if (app.session)
		input_watch_reads(app.session, false, NULL);
	screen_stop();
	/* Quitting while the background build still runs: the terminal is
	 * restored and every stream flushed; waiting for the build only to
	 * free memory the process is about to give back would make `q` slow
	 * on a huge database. */
	if (!reopen_asked(&app) && prebuild_running_at_exit(&app)) {
		fflush(NULL);
		_exit(rc);
	}
out:
	partial_carry_free(carry);
	teardown(&app);
	return rc;
}
