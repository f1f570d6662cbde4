/* compare: the viewer's side of comparing two runs.  The compare view's
 * state (the diff its model shows, the runs' paths), and `:compare PATH`:
 * the run shown -- the base of the comparison shown, opened again, when
 * one is -- and PATH made one merged tree by diff_open_models, as `callscope
 * BASE NEW --compare` makes it (cli_diff_open), with what fails said on
 * the status line instead of stderr (the viewer stays as it was); the
 * viewer then runs again on the merged tree (app_run's reopen), sorted by
 * |delta| as at start. */
#include "config.h"

#include "hub.h"

#include <stdlib.h>
#include <string.h>

#include "compare/diff_open.h"
#include "compare/diff_view.h"
#include "net/session.h"
#include "open.h"

/* The first key bound to action `a` ("?" when none), into buf. */
static const char *bound_key(struct app *app, enum action a, char *buf,
			    size_t n)
{
	if (!keymap_first_key(app->keymap, a, buf, n))
		snprintf(buf, n, "?");
	return buf;
}

bool compare_setup(struct app *app, const struct ui_options *opt)
{
	app->several = opt->several;
	app->reader_opts = opt->reader_opts;
	app->n_reader_opts = opt->n_reader_opts;
	if (!opt->diff)
		return true;
	app->diff = opt->diff;
	app->base_path = strdup(opt->base_path ? opt->base_path : "");
	app->new_path = strdup(opt->new_path ? opt->new_path : "");
	if (!app->base_path || !app->new_path)
		return false;
	char key[32];
	/* two runs of other programs: say it, not only with every mark */
	if (!app->message && diff_view_matched(app->diff) <= 1 &&
	    app->diff->n_nodes > 1)
		app_message(app, true,
			    "no call path matched: every node is new or gone "
			    "(other programs, or --match function in `callscope "
			    "diff`)");
	if (!app->message && opt->replaced)
		app_message(app, false,
			    "compared with %s instead of %s (the base stays); "
			    "sorted by |delta|",
			    app->new_path, opt->replaced);
	if (!app->message)
		app_message(app, false,
			    "sorted by |delta|: + worse, - better; %s the "
			    "biggest regression; :compare PATH",
			    bound_key(app, ACTION_NEXT_REGRESSION, key,
				     sizeof(key)));
	return true;
}

/* Run `path` opened, every part of it read, silently: errors as values. */
static enum status open_run(struct app *app, const char *path,
			    struct model **out, struct error *err)
{
	struct reader_options ro = {.list = app->reader_opts,
				    .n = app->n_reader_opts};
	*out = NULL;
	enum status st = database_open_paths(
		&path, 1, app->session ? &app->session->options : NULL,
		ro.n ? &ro : NULL, out, err);
	if (st == STATUS_OK)
		st = model_load_all_progress(*out, NULL, NULL, err);
	if (st != STATUS_OK) {
		model_free(*out);
		*out = NULL;
	}
	return st;
}

/* The base of a comparison: the run shown, every part of it read (not
 * opened again: one run less in memory while the merged tree is built),
 * or, when a comparison is shown, its base opened again.  *owned is what
 * the caller frees. */
static enum status base_run(struct app *app, const char *base,
			    const struct model **out, struct model **owned,
			    struct error *err)
{
	*owned = NULL;
	if (app->diff) {
		enum status st = open_run(app, base, owned, err);
		*out = *owned;
		return st;
	}
	/* the background build's views read the model in a thread; those
	 * not shown are let go (built again when asked): a 3M-context run's
	 * bottom-up and flat views would raise the peak by a third */
	prebuild_join(app);
	for (int k = 0; k < 3; k++)
		if (k != (int)app->current) {
			outline_free(app->outlines[k]);
			view_free(app->views[k]);
			app->outlines[k] = NULL;
			app->views[k] = NULL;
		}
	*out = app->model;
	return model_load_all_progress(app->model, NULL, NULL, err);
}

/* The two runs compared, handed to app_run's caller; false with `err`. */
static bool build(struct app *app, const char *base, const char *nw,
		  struct error *err)
{
	const struct model *b = NULL;
	struct model *b_owned = NULL, *n = NULL, *m = NULL;
	struct diff *d = NULL;
	char *title = NULL;
	if (asprintf(&title, "%s -> %s", base, nw) < 0)
		title = NULL;
	struct diff_request rq = {
		.opt = {.match = DIFF_MATCH_PATH, .normalize = true},
		.mark = true,
		.title = title,
	};
	bool ok = title && open_run(app, nw, &n, err) == STATUS_OK &&
		  base_run(app, base, &b, &b_owned, err) == STATUS_OK &&
		  diff_open_models(b, n, &rq, &m, &d, err) == STATUS_OK;
	model_free(b_owned);
	model_free(n);
	free(title);
	if (!ok) {
		if (err->status == STATUS_OK)
			error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return false;
	}
	struct ui_reopen *r = app->reopen;
	r->base_path = strdup(base);
	r->new_path = strdup(nw);
	r->compare = m;
	r->diff = d;
	return true;
}

void app_compare(struct app *app, const char *arg)
{
	const char *base = app->diff ? app->base_path : app->db_path;
	if (!arg) {
		if (app->diff)
			app_message(app, false,
				    ":compare PATH compares %s (the base) with "
				    "PATH instead of %s",
				    base, app->new_path);
		else
			app_message(app, false,
				    ":compare PATH compares this run (the base) "
				    "with PATH (the new run)");
		return;
	}
	if (!app->reopen || app->several || !base) {
		app_message(app, true,
			    "compare: %s; start callscope BASE NEW --compare",
			    app->several ? "the run shown is several databases"
					 : "the run cannot be replaced here");
		return;
	}
	screen_note(theme_attr(THEME_ROLE_STATUS), "comparing...");
	struct error err = {0};
	bool ok = build(app, base, arg, &err);
	screen_note(0, NULL);
	if (!ok) {
		char *line = error_format(&err);
		app_message(app, true, "compare: %s",
			    line ? line : "out of memory");
		free(line);
		error_clear(&err);
		return;
	}
	app->quit = true;
}
