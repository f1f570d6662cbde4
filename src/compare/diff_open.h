/* diff_open: two open runs made one merged tree shown as a model -- the
 * metrics paired (each spec "NAME" in both runs, or "BASE=NEW" split at
 * the first '=' that is not part of a column name of the base; the
 * default pair without any: diff_pair_default), the tree built
 * (diff_build) and made a model (diff_model_new).  What `callscope diff`
 * and `check`, `callscope BASE NEW --compare` and the viewer's `:compare
 * PATH` share.  Errors as values, no output.  No curses here. */
#ifndef CALLSCOPE_DIFF_OPEN_H
#define CALLSCOPE_DIFF_OPEN_H

#include "compare/diff_model.h"

struct diff_request {
	const char *const *metrics; /* specs, as above */
	size_t n_metrics;
	struct diff_options opt;
	bool mark;	   /* new and gone names marked (diff_model_new) */
	const char *title; /* the model's path and title */
};

/* The merged tree of `base` and `nw` (every deferred subtree loaded;
 * neither is kept: both may be freed afterwards) as a model in *model,
 * which owns the diff it shows (*diff, valid while *model is).  A pair
 * that cannot be compared is STATUS_USAGE with the reason as the error's
 * message; a value a run could not read is that run's error (model_take_
 * value_error); else STATUS_NOMEM or the build's error. */
enum status diff_open_models(const struct model *base, const struct model *nw,
			     const struct diff_request *rq,
			     struct model **model, struct diff **diff,
			     struct error *err);

#endif
