/* prebuild: the background build of the aggregated views. */
#include "config.h"

#include "hub.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- background build of the aggregated views ----------------------
 *
 * The bottom-up and flat views need one pass over the whole tree before
 * they can show their first level.  Rather than making the first switch to
 * them wait for it, a thread builds both (their first level sorted by the
 * current column) right after the first frame, while the user reads it.
 * The thread only reads the immutable model and the reader's mapped
 * summary values; the main thread does not touch these two views until it
 * has joined the thread (at the first switch, or at exit).  Not for a
 * model with deferred subtrees (model.h: it grows on the main thread). */

#define PREBUILD_ROWS 128 /* rows of the first screen whose children are
			    prepared */

struct prebuild {
	pthread_t thread;
	const struct model *model;
	uint32_t column[2]; /* sort column: bottom-up, flat */
	uint32_t *columns; /* shown columns: their values are computed too */
	size_t n_columns;
	struct view *views[2]; /* bottom-up, flat */
	bool joined;
};

static void *prebuild_main(void *arg)
{
	struct prebuild *pb = arg;
	for (int i = 0; i < 2; i++) {
		struct error err = {0};
		enum view_kind k = i == 0 ? VIEW_BOTTOM_UP : VIEW_FLAT;
		if (view_new(pb->model, k, &pb->views[i], &err) != STATUS_OK) {
			error_clear(&err);
			continue;
		}
		uint32_t *kids = NULL;
		size_t n = 0;
		/* builds the first level and its values for the sort column;
		 * then what the first screen of the view will ask for: the
		 * other shown columns' values and whether the first rows have
		 * children (in bottom-up, their callers) */
		struct view *v = pb->views[i];
		view_children(v, view_root(v), pb->column[i], false, &kids,
			      &n, &err);
		for (size_t c = 0; c < pb->n_columns && n > 0; c++) {
			double value;
			view_value(v, kids[0], pb->columns[c], &value);
		}
		for (size_t r = 0; r < n && r < PREBUILD_ROWS; r++) {
			uint32_t *sub = NULL;
			size_t nsub = 0;
			view_children(v, kids[r], pb->column[i], false, &sub,
				      &nsub, &err);
			free(sub);
			error_clear(&err);
		}
		free(kids);
		error_clear(&err);
	}
	return NULL;
}

void prebuild_start(struct app *app)
{
	/* a model with deferred subtrees grows on the main thread as rows
	 * expand: no other thread may read it (model.h); its aggregated
	 * views load everything, when the user asks for them */
	if (model_n_deferred(app->model))
		return;
	struct prebuild *pb = calloc(1, sizeof(*pb));
	if (!pb)
		return;
	pb->model = app->model;
	/* what each view will open sorted by (app.c default_sort) */
	for (int i = 0; i < 2; i++) {
		uint32_t c = app->sort_chosen
				     ? MODEL_NONE
				     : view_default_column(
					       app->model,
					       i == 0 ? VIEW_BOTTOM_UP
						      : VIEW_FLAT,
					       app->columns,
					       app->cols.n_columns);
		pb->column[i] = c != MODEL_NONE ? c : app->cols.sort_column;
	}
	pb->columns = malloc((app->cols.n_columns ? app->cols.n_columns : 1) *
			     sizeof(*pb->columns));
	if (!pb->columns) {
		free(pb);
		return;
	}
	memcpy(pb->columns, app->columns, app->cols.n_columns * sizeof(*pb->columns));
	pb->n_columns = app->cols.n_columns;
	if (pthread_create(&pb->thread, NULL, prebuild_main, pb) != 0) {
		free(pb->columns);
		free(pb);
		return;
	}
	app->prebuild = pb;
}

/* Take the views of a finished background build. */
static void prebuild_take(struct app *app)
{
	struct prebuild *pb = app->prebuild;
	pb->joined = true;
	for (int i = 0; i < 2; i++) {
		enum view_kind k = i == 0 ? VIEW_BOTTOM_UP : VIEW_FLAT;
		if (!app->views[k])
			app->views[k] = pb->views[i];
		else
			view_free(pb->views[i]);
	}
}

/* Wait for the background build and take its views (no-op when none). */
void prebuild_join(struct app *app)
{
	if (!app->prebuild || app->prebuild->joined)
		return;
	pthread_join(app->prebuild->thread, NULL);
	prebuild_take(app);
}

bool prebuild_running_at_exit(struct app *app)
{
	struct prebuild *pb = app->prebuild;
	if (!pb || pb->joined)
		return false;
	if (pthread_tryjoin_np(pb->thread, NULL) != 0) {
		pthread_detach(pb->thread);
		return true;
	}
	prebuild_take(app); /* the tryjoin above joined it */
	return false;
}

void prebuild_free(struct app *app)
{
	if (app->prebuild)
		free(app->prebuild->columns);
	free(app->prebuild);
	app->prebuild = NULL;
}
