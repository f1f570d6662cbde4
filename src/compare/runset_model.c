/* runset_model: the set of N runs as a model of its own, so that the
 * report's writers (present_rows) show it, and as an Extra-P measurement
 * set for `callscope compare --model` (runset.h). */
#include "config.h"

#include "analysis/measure_stats.h"
#include "core/array.h"
#include "compare/runset.h"
#include "compare/runset_label.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


uint32_t runset_column(const struct runset *rs, size_t k, uint32_t j)
{
	return (uint32_t)(k * (rs->n_runs + RUNSET_N_STATS)) + j;
}

/* What column `c` is: metric *k, run or statistic *j. */
static void column_of(const struct runset *rs, uint32_t c, size_t *k,
		      uint32_t *j)
{
	*k = c / (rs->n_runs + RUNSET_N_STATS);
	*j = c % (rs->n_runs + RUNSET_N_STATS);
}

static bool rm_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
		       double *out)
{
	const struct runset *rs = impl;
	size_t k;
	uint32_t j;
	column_of(rs, stat_id, &k, &j);
	return j < rs->n_runs ? runset_value(rs, ctx_id, k, j, out)
			      : runset_stat(rs, ctx_id, k,
					    (enum runset_stat)(j - rs->n_runs),
					    out);
}

static void rm_close(void *impl)
{
	runset_free(impl);
}

static const struct value_ops rm_ops = {
    .summary = rm_summary,
    .close = rm_close,
};

/* The runs' labels when the set shows short titles (runset_label.h),
 * else NULL ("run N"; also out of memory); free with free_labels. */
static char **run_labels(const struct runset *rs)
{
	char **l = rs->short_titles ? calloc(rs->n_added + 1, sizeof(*l))
				    : NULL;
	const char **paths = l ? calloc(rs->n_added + 1, sizeof(*paths)) : NULL;
	for (uint32_t r = 0; paths && r < rs->n_added; r++)
		paths[r] = rs->runs[r].path ? rs->runs[r].path : "";
	if (!paths || !runset_labels(paths, rs->n_added, l)) {
		FREE_AND_NULL(l);
	}
	free(paths);
	return l;
}

static void free_labels(const struct runset *rs, char **l)
{
	for (uint32_t r = 0; l && r < rs->n_added; r++)
		free(l[r]);
	free(l);
}

/* The column `j` of metric k: its variant (run j's label when `labels`)
 * and format. */
static bool column_text(const struct runset *rs, uint32_t j,
			char *const *labels, const char *fmt,
			struct model_column *col)
{
	enum runset_stat s = (enum runset_stat)(j - rs->n_runs);
	bool plain = j >= rs->n_runs &&
		     (s == RUNSET_CV || s == RUNSET_COUNT ||
		      s == RUNSET_OUTLIER || s == RUNSET_OUTLIER_Z);
	if (j < rs->n_runs && labels && j < rs->n_added) {
		col->variant = strdup(labels[j]);
	} else if (j < rs->n_runs) {
		if (asprintf(&col->variant, "run %u", j + 1) < 0)
			col->variant = NULL;
	} else {
		col->variant = strdup(runset_stat_name(s));
	}
	col->format = strdup(!plain			 ? fmt
			     : s == RUNSET_COUNT || s == RUNSET_OUTLIER ? "%.0f"
								      : "%.3f");
	if (plain)
		col->unit = UNIT_NUMBER;
	return col->variant && col->format;
}

static bool add_columns(struct model_builder *b, const struct runset *rs)
{
	char **labels = run_labels(rs);
	bool ok = true;
	const struct model *first = rs->first;
	uint32_t scope = model_builder_intern(b, "compare", 7);
	uint32_t formula = model_builder_intern(b, "$$", 2);
	for (size_t k = 0; ok && k < rs->n_metrics; k++) {
		const struct model_column *mc =
		    &model_columns(first)[rs->pairs[k].col[0][rs->scope[k]]];
		for (uint32_t j = 0; ok && j < rs->n_runs + RUNSET_N_STATS;
		     j++) {
			uint32_t c = runset_column(rs, k, j);
			struct model_stat st = {
			    .metric = model_builder_intern(b, mc->name,
							   strlen(mc->name)),
			    .scope = scope,
			    .formula = formula,
			    .combine = COMBINE_SUM,
			    .stat_id = c,
			    .prop_id = MODEL_NONE,
			};
			if (model_builder_add_stat(b, &st) != c) {
				ok = false;
				break;
			}
			struct model_column col = {
			    .kind = rs->scope[k] == DIFF_INCLUSIVE
					? COLUMN_INCLUSIVE
					: COLUMN_EXCLUSIVE,
			    .render = RENDER_NUMBER,
			    .unit = mc->unit,
			    .visible = true,
			    .pair = MODEL_NONE,
			    .parent = MODEL_NONE,
			};
			col.name = strdup(mc->name);
			col.expr = formula_leaf(c);
			ok = column_text(rs, j, labels,
					 mc->format ? mc->format : "%.2e",
					 &col) &&
			     col.name && col.expr &&
			     model_builder_add_column(b, &col) != MODEL_NONE;
		}
	}
	free_labels(rs, labels);
	return ok;
}

/* Whether column c reads one statistic of scope "compare". */
static bool set_column(const struct model *m, uint32_t c)
{
	uint32_t st = c < model_n_columns(m) ? model_column_stat(m, c) : MODEL_NONE;
	const char *scope = st < model_n_stats(m) ? model_str(m, model_stats(m)[st].scope)
					    : NULL;
	return scope && strcmp(scope, "compare") == 0;
}

/* Whether columns i.. are the statistics' columns, in their order. */
static bool stats_at(const struct model *m, uint32_t i)
{
	for (uint32_t s = 0; s < RUNSET_N_STATS; s++) {
		const char *v = i + s < model_n_columns(m) ? model_columns(m)[i + s].variant
						     : NULL;
		if (!v || !set_column(m, i + s) ||
		    strcmp(v, runset_stat_name((enum runset_stat)s)) != 0)
			return false;
	}
	return true;
}

enum runset_column_kind runset_model_column(const struct model *m,
					    uint32_t c)
{
	if (!m || !set_column(m, c))
		return RUNSET_COLUMN_NONE;
	uint32_t runs = 0; /* the first block's run columns */
	while (runs < model_n_columns(m) && !stats_at(m, runs))
		runs++;
	if (runs == 0 || runs >= model_n_columns(m))
		return RUNSET_COLUMN_NONE;
	return c % (runs + RUNSET_N_STATS) < runs ? RUNSET_COLUMN_RUN
						  : RUNSET_COLUMN_STAT;
}

struct model *runset_model_new(struct runset *rs, const char *path,
			       struct error *err)
{
	struct model_builder *b = rs->b;
	if (!rs->first) {
		runset_free(rs);
		error_set(err, STATUS_USAGE, NULL, "no runs");
		return NULL;
	}
	rs->b = NULL;
	model_builder_set_title(b, path, NULL);
	if (!add_columns(b, rs)) {
		model_builder_free(b);
		runset_free(rs);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	model_builder_set_values(b, &rm_ops, rs);
	return model_builder_finish(b, err);
}

/* ---- the Extra-P set -------------------------------------------------- */

/* The parameters, one point per distinct coordinate tuple, one profile
 * per run (a repetition at its point); point[r] per run. */
static bool extrap_points(struct model_builder *b, const struct runset *rs,
			  uint32_t *point, uint32_t *n_points)
{
	uint32_t *rep = calloc(rs->n_added + 1, sizeof(*rep));
	char **labels = run_labels(rs);
	bool ok = rep != NULL;
	for (uint32_t i = 0; ok && i < rs->n_params; i++)
		ok = model_builder_add_param(b, rs->param_names[i]) !=
		     MODEL_NONE;
	*n_points = 0;
	for (uint32_t r = 0; ok && r < rs->n_added; r++) {
		uint32_t q = 0;
		while (q < r && memcmp(rs->runs[q].coords, rs->runs[r].coords,
				       rs->n_params * sizeof(double)))
			q++;
		point[r] = q < r ? point[q]
				 : model_builder_add_point(b, rs->runs[r].coords,
							   rs->n_params);
		*n_points += q == r;
		char label[32];
		snprintf(label, sizeof(label), "run %u", r + 1);
		uint32_t prof = model_builder_add_profile(
		    b, false, NULL, 0, labels ? labels[r] : label);
		ok = point[r] != MODEL_NONE && prof != MODEL_NONE &&
		     model_builder_set_profile_point(b, prof, point[r],
						     rep[point[r]]++);
	}
	free(rep);
	free_labels(rs, labels);
	return ok;
}

/* The measurement of every node every run has, per metric and point:
 * Extra-P's statistics over the point's runs. */
static bool extrap_measures(struct model_builder *b, const struct runset *rs,
			    const uint32_t *point, uint32_t n_points)
{
	double *v = malloc((rs->n_added + 1) * sizeof(*v));
	bool ok = v != NULL;
	for (size_t k = 0; ok && k < rs->n_metrics; k++) {
		uint32_t meas = model_builder_add_measured(
		    b, runset_column(rs, k, rs->n_runs + RUNSET_MEAN));
		ok = meas != MODEL_NONE;
		for (uint32_t node = 1; ok && node < rs->n_nodes; node++) {
			bool all = true;
			for (uint32_t r = 0; all && r < rs->n_added; r++)
				all = runset_value(rs, node, k, r, &v[0]);
			for (uint32_t p = 0; all && ok && p < n_points; p++) {
				size_t n = 0;
				struct model_measure ms;
				struct error err = {0};
				for (uint32_t r = 0; r < rs->n_added; r++)
					if (point[r] == p)
						runset_value(rs, node, k, r,
							     &v[n++]);
				ok = measure_stats_of(v, n, &ms, &err) ==
					 STATUS_OK &&
				     model_builder_set_measure(b, node, meas, p,
							       &ms);
				error_clear(&err);
			}
		}
	}
	free(v);
	return ok;
}

struct model *runset_extrap(struct runset *rs, const char *path,
			    struct error *err)
{
	uint32_t n_points = 0;
	uint32_t *point = malloc((rs->n_added + 1) * sizeof(*point));
	struct model_builder *b = rs->b;
	enum status st = STATUS_NOMEM;
	rs->b = NULL;
	if (rs->n_params == 0)
		st = STATUS_USAGE;
	else if (point && b && rs->first && add_columns(b, rs) &&
		 extrap_points(b, rs, point, &n_points))
		st = n_points < 2 ? STATUS_USAGE
		     : extrap_measures(b, rs, point, n_points) ? STATUS_OK
							       : STATUS_NOMEM;
	free(point);
	if (st != STATUS_OK) {
		model_builder_free(b);
		runset_free(rs);
		error_set(err, st, NULL, "%s",
			  st == STATUS_NOMEM ? "out of memory"
			  : n_points < 2 && n_points
			      ? "the runs are at one point of the parameters: "
				"a model needs two or more"
			      : "the runs have no parameters (--param "
				"NAME=VALUE before each run, or directories "
				"named as Extra-P's: name.p16.r1)");
		return NULL;
	}
	model_builder_set_title(b, path, NULL);
	model_builder_set_values(b, &rm_ops, rs);
	return model_builder_finish(b, err);
}
