/* runset_model: the set of N runs as a model of its own, so that the
 * report's writers (present_rows) show it, and as an Extra-P measurement
 * set for `callscope compare --model` (runset.h). */
#include "config.h"

#include "compare/runset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/extrap/extrap_set.h"
#include "present/present_path.h"

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

/* The column `j` of metric k: its variant and format. */
static bool column_text(const struct runset *rs, uint32_t j,
			const char *fmt, struct model_column *col)
{
	enum runset_stat s = (enum runset_stat)(j - rs->n_runs);
	bool plain = j >= rs->n_runs &&
		     (s == RUNSET_CV || s == RUNSET_COUNT ||
		      s == RUNSET_OUTLIER || s == RUNSET_OUTLIER_Z);
	if (j < rs->n_runs) {
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
	const struct model *first = rs->first;
	uint32_t scope = model_builder_intern(b, "compare", 7);
	uint32_t formula = model_builder_intern(b, "$$", 2);
	for (size_t k = 0; k < rs->n_metrics; k++) {
		const struct model_column *mc =
		    &first->columns[rs->pairs[k].col[0][rs->scope[k]]];
		for (uint32_t j = 0; j < rs->n_runs + RUNSET_N_STATS; j++) {
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
			if (model_builder_add_stat(b, &st) != c)
				return false;
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
			if (!column_text(rs, j, mc->format ? mc->format : "%.2e",
					 &col) ||
			    !col.name || !col.expr ||
			    model_builder_add_column(b, &col) == MODEL_NONE)
				return false;
		}
	}
	return true;
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

/* The points of the runs' coordinates into `s`; point[r] per run. */
static bool extrap_points(const struct runset *rs, struct extrap_set *s,
			  uint32_t *point)
{
	for (uint32_t i = 0; i < rs->n_params; i++)
		if (extrap_set_param(s, rs->param_names[i],
				     strlen(rs->param_names[i])) == MODEL_NONE)
			return false;
	for (uint32_t r = 0; r < rs->n_added; r++)
		if ((point[r] = extrap_set_point(s, rs->runs[r].coords)) ==
		    MODEL_NONE)
			return false;
	return true;
}

/* A node's call path, made unique: a merged tree may hold two nodes
 * whose names read the same (two lines of one file), which Extra-P's
 * paths cannot tell apart: the second gets " #ID". */
static uint32_t extrap_callpath(struct extrap_set *s, const struct model *m,
				uint32_t node, uint32_t *owner, size_t n_owner)
{
	char *cp = present_node_path(m, node, "->", PRESENT_PATH_NAMES);
	if (!cp)
		return MODEL_NONE;
	uint32_t id = extrap_set_callpath(s, cp, strlen(cp));
	if (id != MODEL_NONE && id < n_owner && owner[id] != node &&
	    owner[id] != MODEL_NONE) {
		char *u = NULL;
		if (asprintf(&u, "%s #%u", cp, node) < 0)
			u = NULL;
		id = u ? extrap_set_callpath(s, u, strlen(u)) : MODEL_NONE;
		free(u);
	}
	free(cp);
	if (id != MODEL_NONE && id < n_owner)
		owner[id] = node;
	return id;
}

/* Every node every run has: its values as repetitions at its run's
 * point. */
static bool extrap_values(const struct runset *rs, struct extrap_set *s,
			  const uint32_t *point, uint32_t *metric)
{
	const struct model *m = model_builder_peek(rs->b);
	size_t n_owner = (size_t)rs->n_nodes * 2 + 1;
	uint32_t *owner = malloc(n_owner * sizeof(*owner));
	bool ok = owner != NULL;
	for (size_t i = 0; ok && i < n_owner; i++)
		owner[i] = MODEL_NONE;
	for (uint32_t node = 1; ok && node < rs->n_nodes; node++) {
		bool all = true;
		double x;
		for (size_t k = 0; k < rs->n_metrics; k++)
			for (uint32_t r = 0; r < rs->n_added; r++)
				all = all && runset_value(rs, node, k, r, &x);
		if (!all)
			continue;
		uint32_t cp = extrap_callpath(s, m, node, owner, n_owner);
		ok = cp != MODEL_NONE;
		for (size_t k = 0; ok && k < rs->n_metrics; k++)
			for (uint32_t r = 0; ok && r < rs->n_added; r++)
				ok = runset_value(rs, node, k, r, &x) &&
				     extrap_set_add_values(s, cp, metric[k],
							   point[r], &x, 1);
	}
	free(owner);
	return ok;
}

struct model *runset_extrap(const struct runset *rs, const char *path,
			    struct error *err)
{
	if (rs->n_params == 0 || !rs->first || !rs->b) {
		error_set(err, STATUS_USAGE, NULL,
			  "the runs have no parameters (--param NAME=VALUE "
			  "before each run, or directories named as "
			  "Extra-P's: name.p16.r1)");
		return NULL;
	}
	struct extrap_set *s = extrap_set_new();
	uint32_t *point = malloc(rs->n_added * sizeof(*point) + 1);
	uint32_t *metric = malloc(rs->n_metrics * sizeof(*metric));
	struct model *out = NULL;
	bool ok = s && point && metric && extrap_points(rs, s, point);
	for (size_t k = 0; ok && k < rs->n_metrics; k++) {
		const char *name =
		    rs->first->columns[rs->pairs[k].col[0][rs->scope[k]]].name;
		ok = (metric[k] = extrap_set_metric(s, name, strlen(name))) !=
		     MODEL_NONE;
	}
	ok = ok && extrap_values(rs, s, point, metric);
	if (!ok || extrap_set_nomem(s))
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
	else if (extrap_set_n_points(s) < 2)
		error_set(err, STATUS_USAGE, NULL,
			  "the runs are at one point of the parameters: a "
			  "model needs two or more");
	else if (rs->scope[0] == DIFF_EXCLUSIVE)
		extrap_set_values_exclusive(s);
	if (ok && !extrap_set_nomem(s) && extrap_set_n_points(s) >= 2 &&
	    extrap_set_validate(s, path, err) == STATUS_OK)
		extrap_set_build(s, "compare", path, &out, err);
	extrap_set_free(s);
	free(point);
	free(metric);
	return out;
}
