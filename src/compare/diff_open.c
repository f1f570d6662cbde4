/* diff_open: pair, build, make a model (diff_open.h). */
#include "config.h"

#include "compare/diff_open.h"

#include <stdlib.h>
#include <string.h>

/* The pair of spec `spec` ("NAME" in both runs, or "BASE=NEW"). */
static bool pair_spec(const struct model *b, const struct model *n,
		      const char *spec, struct diff_metric *out, char **why)
{
	const char *eq = strchr(spec, '=');
	if (!eq || model_find_column(b, spec) != MODEL_NONE)
		return diff_pair_metric(b, spec, n, spec, out, why);
	char *bs = strndup(spec, (size_t)(eq - spec));
	bool ok = bs && diff_pair_metric(b, bs, n, eq + 1, out, why);
	free(bs);
	return ok;
}

/* The metric pairs of `rq` in *out (heap, *n_out of them). */
static enum status pair_all(const struct model *b, const struct model *n,
			    const struct diff_request *rq,
			    struct diff_metric **out, size_t *n_out,
			    struct error *err)
{
	size_t want = rq->n_metrics ? rq->n_metrics : 1;
	struct diff_metric *dm = calloc(want, sizeof(*dm));
	char *why = NULL;
	bool ok = dm != NULL;
	if (ok && rq->n_metrics == 0)
		ok = diff_pair_default(b, n, &dm[0], &why);
	for (size_t i = 0; ok && i < rq->n_metrics; i++)
		ok = pair_spec(b, n, rq->metrics[i], &dm[i], &why);
	if (!ok) {
		enum status st = dm && why ? STATUS_USAGE : STATUS_NOMEM;
		free(dm);
		error_set(err, st, NULL, "%s", why ? why : "out of memory");
		free(why);
		return st;
	}
	*out = dm;
	*n_out = want;
	return STATUS_OK;
}

enum status diff_open_models(const struct model *base, const struct model *nw,
			     const struct diff_request *rq,
			     struct model **model, struct diff **diff,
			     struct error *err)
{
	struct diff_metric *dm = NULL;
	size_t ndm = 0;
	struct diff *d = NULL;
	*model = NULL;
	*diff = NULL;
	enum status st = pair_all(base, nw, rq, &dm, &ndm, err);
	if (st == STATUS_OK)
		st = diff_build(base, nw, dm, ndm, &rq->opt, &d, err);
	free(dm);
	if (st != STATUS_OK)
		return st;
	/* a value a run could not read: its error, not a wrong tree */
	if (model_take_value_error(base, err) ||
	    model_take_value_error(nw, err)) {
		diff_free(d);
		return err->status != STATUS_OK ? err->status : STATUS_IO;
	}
	*model = diff_model_new(d, rq->title ? rq->title : "diff", rq->mark,
				err);
	if (!*model)
		return err->status != STATUS_OK ? err->status : STATUS_NOMEM;
	*diff = d;
	return STATUS_OK;
}
