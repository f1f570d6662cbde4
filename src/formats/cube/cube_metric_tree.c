/* cube_metric_tree: the metric tree's expanded values.  Cube stores a
 * metric with sub-metrics metric-inclusive (time holds execution, which
 * holds mpi); the Cube GUI shows a collapsed metric so and an expanded one
 * metric-exclusive: its value less each sub-metric's (CubeLib's
 * Cube::get_sev with CUBE_CALCULATE_EXCLUSIVE for the metric, per call
 * path and location, CubeCalculationRoutines.cpp).  "Less" is the parent's
 * Value::operator-=: a difference, for MAXDOUBLE a minimum and for
 * MINDOUBLE a maximum (CubeMaxDoubleValue.h, CubeMinDoubleValue.h).  Per
 * parent metric and kind one hidden formula column "UNIQ/own" over the
 * statistics, which the parent's column names as its `own` (model_column.h);
 * the viewer's metric tree swaps the two (ui/pane_columns.c), the batch
 * commands name it.  Must not depend on curses or on another format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_internal.h"
#include "model/formula_pair.h"

/* op(first, leaf[0], ..., leaf[n - 1]) over statistics (`first`
 * MODEL_NONE: without it); NULL when out of memory. */
static struct formula *leaves_node(enum formula_op op, uint32_t first,
				   const uint32_t *leaf, uint32_t n)
{
	size_t nargs = (first != MODEL_NONE) + (size_t)n, a = 0;
	struct formula **args = calloc(nargs, sizeof(*args));
	bool ok = args != NULL;
	if (ok && first != MODEL_NONE)
		ok = (args[a++] = formula_leaf(first)) != NULL;
	for (uint32_t k = 0; ok && k < n; k++)
		ok = (args[a++] = formula_leaf(leaf[k])) != NULL;
	if (!ok) {
		for (size_t i = 0; args && i < a; i++)
			formula_free(args[i]);
		free(args);
		return NULL;
	}
	return formula_node(op, args, nargs);
}

/* The formula of parent metric `pm`'s values (statistic `pstat`) less its
 * sub-metrics' (statistics kid[0..n)); NULL when out of memory. */
static struct formula *own_formula(const struct cube_metric *pm,
				   uint32_t pstat, const uint32_t *kid,
				   uint32_t n)
{
	if (is_minmax(pm))
		return leaves_node(pm->dtype == CUBE_DT_MAXDOUBLE ? FORMULA_MIN
								  : FORMULA_MAX,
				   pstat, kid, n);
	return formula_pair(FORMULA_SUB, formula_leaf(pstat),
			    n == 1 ? formula_leaf(kid[0])
				   : leaves_node(FORMULA_ADD, MODEL_NONE, kid,
						 n));
}

/* The "UNIQ/own" column of kind `kind` of metric `i` (its column `col`,
 * statistic `pstat`) over its sub-metrics' statistics kid[0..n), linked as
 * col's own. */
static enum status add_own(struct opener *o, uint32_t i, uint32_t col,
			   uint32_t pstat, const uint32_t *kid, uint32_t n,
			   bool combine)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_metric *pm = &o->v->metrics[i];
	const struct model_column *pc = &model_columns(m)[col];
	struct model_column c = {
		.variant = strdup(""),
		.format = strdup(pc->format),
		.unit = pc->unit,
		.kind = pc->kind,
		.render = pc->render,
		.visible = false,
		.pair = MODEL_NONE,
		.parent = pc->parent,
		.expr = own_formula(pm, pstat, kid, n),
		.combine_leaves = combine,
	};
	if (asprintf(&c.name, "%s/own", model_str(m, pm->uniq)) < 0)
		c.name = NULL;
	if (asprintf(&c.description,
		     "%s less its %u sub-metric%s (%s): the Cube GUI's value "
		     "of the metric expanded",
		     model_str(m, pm->disp), (unsigned)n, n == 1 ? "" : "s",
		     !is_minmax(pm)			   ? "their sum subtracted"
		     : pm->dtype == CUBE_DT_MAXDOUBLE ? "the minimum with them"
						      : "the maximum with them") <
	    0)
		c.description = NULL;
	uint32_t own = MODEL_NONE;
	if (c.name && c.variant && c.format && c.expr && c.description)
		own = model_builder_add_column(o->b, &c);
	else {
		free(c.name);
		free(c.variant);
		free(c.format);
		free(c.description);
		formula_free(c.expr);
	}
	if (own == MODEL_NONE ||
	    !model_builder_set_column_own(o->b, col, own))
		return error_set(o->err, STATUS_NOMEM, o->path,
				 "out of memory");
	return STATUS_OK;
}

enum status cube_metric_tree_columns(struct opener *o, const uint32_t *incl,
				     const uint32_t *excl,
				     const uint32_t *stats)
{
	const struct cube_values *v = o->v;
	size_t nm = (size_t)v->n_metrics + 1;
	uint32_t *kin = malloc(nm * sizeof(*kin));
	uint32_t *kex = malloc(nm * sizeof(*kex));
	enum status st = STATUS_OK;
	if (!kin || !kex)
		st = error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
	for (uint32_t i = 0; i < v->n_metrics && st == STATUS_OK; i++) {
		/* ranking codes (SCALE_FUNC) do not subtract */
		if (incl[i] == MODEL_NONE || excl[i] == MODEL_NONE ||
		    cube_is_scalefn(&v->metrics[i]))
			continue;
		/* the sub-metrics with statistics (a TAU_ATOMIC one has
		 * only its components': CubeLib would subtract a whole
		 * value of another kind) */
		uint32_t n = 0;
		bool combine = is_minmax(&v->metrics[i]);
		for (uint32_t j = 0; j < v->n_metrics; j++) {
			if (v->metrics[j].parent != i ||
			    cube_is_scalefn(&v->metrics[j]) ||
			    stats[2 * j] == MODEL_NONE ||
			    stats[2 * j + 1] == MODEL_NONE)
				continue;
			kin[n] = stats[2 * j];
			kex[n++] = stats[2 * j + 1];
			combine |= is_minmax(&v->metrics[j]);
		}
		if (n > 0)
			st = add_own(o, i, incl[i], stats[2 * i], kin, n,
				     combine);
		if (n > 0 && st == STATUS_OK)
			st = add_own(o, i, excl[i], stats[2 * i + 1], kex, n,
				     combine);
	}
	free(kin);
	free(kex);
	return st;
}
