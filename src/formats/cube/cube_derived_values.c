/* cube_derived_values: the values of derived metrics, as CubeLib defines
 * the kinds (CubeMetric.cpp; the Cube user guide's "derived metrics"):
 *
 * - PREDERIVED_EXCLUSIVE: the expression per call path and location on
 *   exclusive values (metric::x() is x's exclusive value there); inclusive
 *   values are the subtree's sums (cube_inclusive.c), totals are sums over
 *   locations.
 * - PREDERIVED_INCLUSIVE: the expression per call path and location on
 *   inclusive values; exclusive = the node's value minus its children's.
 * - POSTDERIVED: the expression on the values already summed: a total is
 *   the expression over the referred metrics' totals (of the same call
 *   path, flavour and set of locations), a location's value the
 *   expression over that location's values.
 *
 * A prederived metric with its own aggregation (<cubeplaggr>, CubeLib's
 * CubeCustomPreDerived*Metric.cpp; doc/cube.md) folds with its
 * expressions of arg1 and arg2 instead of + and -: "plus" a node's
 * children (PREDERIVED_INCLUSIVE: into minus(own, fold), its exclusive
 * value; PREDERIVED_EXCLUSIVE: onto its own value, its inclusive one,
 * cube_inclusive.c), "aggr" the locations into a total, from 0.  A
 * POSTDERIVED metric with its own aggr (CubeLib's
 * PostDerivedMetric::get_sev_native) runs its expression per location
 * and folds those by aggr from 0 into a total (at the synthetic root on
 * the locations' values there, root_row).
 *
 * In every kind metric::x(i) / metric::x(e) take x's inclusive / exclusive
 * value instead, metric::call::x(id, f) the value at call path `id`,
 * metric::fixed::x() x's total over the whole program and
 * metric::fixed::x(f) its total over locations at the current call path.
 * A metric without data reads 0 (CubeLib).  Totals are kept per metric,
 * kind and call path.  A run that fails (a step limit, a cycle found at
 * run time) gives no value and the first failure reaches the caller
 * through value_ops.take_error.  Called with v->lock held.  Must not
 * depend on curses or on another format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_derived.h"

/* ---- the host ----------------------------------------------------------- */

static int32_t host_resolve(void *ud, const char *name, size_t len)
{
	struct dctx *d = ud;
	struct cube_pl *pl = d->v->pl;
	for (uint32_t i = 0; i < d->v->n_metrics; i++)
		if (strlen(pl->met_str[0][i]) == len &&
		    memcmp(pl->met_str[0][i], name, len) == 0)
			return (int32_t)i;
	return -1;
}

/* Metric x's per-location values at the synthetic root: a derived
 * metric's own (its own aggregation's fold, or a POSTDERIVED expression
 * there), any other's inclusive values of its roots combined as its
 * totals are (cube_total); an exclusive value there reads 0. */
static void root_row(struct cube_values *v, uint32_t x, uint32_t kind,
		     double *row)
{
	const struct cube_metric *m = &v->metrics[x];
	uint32_t L = v->n_loc;
	if (m->mtype == CUBE_MT_DERIVED &&
	    (m->own_aggr || m->derived == CUBE_DV_POST)) {
		cube_cells(v, x, CUBE_POS_ALL, kind, row);
		return;
	}
	memset(row, 0, L * sizeof(*row));
	double *one = malloc(((size_t)L + 1) * sizeof(*one));
	bool any = false;
	for (uint32_t p = 0; one && kind == KIND_INCL && p < v->n;
	     p += v->subtree[p]) {
		if (!cube_cells(v, x, p, KIND_INCL, one))
			continue;
		for (uint32_t j = 0; j < L; j++)
			row[j] = any ? cube_combine(m, row[j], one[j]) : one[j];
		any = true;
	}
	free(one);
}

/* Metric x's per-location values at (pos, kind), kept for the other
 * locations of this evaluation. */
static const double *row_of(struct dctx *d, uint32_t x, uint32_t pos,
			    uint32_t kind)
{
	for (uint32_t i = 0; i < d->n_rows; i++)
		if (d->rows[i].mi == x && d->rows[i].pos == pos &&
		    d->rows[i].kind == kind)
			return d->rows[i].row;
	if (d->n_rows == sizeof(d->rows) / sizeof(d->rows[0]))
		return NULL;
	double *row = malloc(((size_t)d->v->n_loc + 1) * sizeof(double));
	if (!row)
		return NULL;
	if (pos == CUBE_POS_ALL)
		root_row(d->v, x, kind, row);
	else
		cube_cells(d->v, x, pos, kind, row);
	d->rows[d->n_rows].mi = x;
	d->rows[d->n_rows].pos = pos;
	d->rows[d->n_rows].kind = kind;
	d->rows[d->n_rows++].row = row;
	return row;
}

static bool list_run(struct cube_values *v, uint32_t mi, uint32_t kind,
		     const uint32_t *list, uint32_t n, bool per_loc,
		     double *out);

/* Metric x of flavour k over the call paths of a row (d->list) together,
 * as CubeLib's get_sev_native / get_sevs_native of a list of call paths
 * give it: in total (a prederived metric with its own aggr: their totals
 * folded by it from 0; a POSTDERIVED one: its expression over the
 * list; else their totals combined as its totals are), or per location
 * (the first call path's values, then plus (its own, or +) with the
 * next's; a POSTDERIVED one: its expression per location over the
 * list), row kept at position CUBE_POS_LIST. */
#define CUBE_POS_LIST (UINT32_MAX - 1)
static bool list_metric(struct dctx *d, uint32_t x, uint32_t k, bool total,
			double *out, const char **msg)
{
	struct cube_values *v = d->v;
	const struct cube_metric *m = &v->metrics[x];
	bool post = m->mtype == CUBE_MT_DERIVED && m->derived == CUBE_DV_POST;
	*out = 0;
	if (total && post) {
		if (!cube_derived_rows(v, x, k, d->list, d->n_list, out))
			goto fail;
		return true;
	}
	if (total) {
		bool any = false;
		for (uint32_t i = 0; i < d->n_list; i++) {
			double y;
			if (!cube_total(v, x, d->list[i], k, &y))
				continue;
			if (m->own_aggr) {
				if (!cube_derived_op(v, x, CUBE_AGG_AGGR, *out, y,
						     out))
					goto fail;
			} else {
				*out = any ? cube_combine(m, *out, y) : y;
			}
			any = true;
		}
		if (m->mtype == CUBE_MT_DERIVED && v->pl->dm[x].failed) {
			*msg = "a derived metric it reads failed";
			return false;
		}
		return true;
	}
	for (uint32_t i = 0; i < d->n_rows; i++)
		if (d->rows[i].mi == x && d->rows[i].pos == CUBE_POS_LIST &&
		    d->rows[i].kind == k) {
			*out = d->rows[i].row[d->loc];
			return true;
		}
	uint32_t L = v->n_loc;
	if (d->n_rows == sizeof(d->rows) / sizeof(d->rows[0])) {
		*msg = "too many metrics read";
		return false;
	}
	double *row = calloc((size_t)L + 1, sizeof(double));
	double *one = malloc(((size_t)L + 1) * sizeof(double));
	bool ok = row && one, any = false;
	if (ok && post) {
		ok = list_run(v, x, k, d->list, d->n_list, true, row);
	} else {
		for (uint32_t i = 0; ok && i < d->n_list; i++) {
			if (!cube_cells(v, x, d->list[i], k, one))
				continue;
			for (uint32_t j = 0; ok && j < L; j++)
				if (!any)
					row[j] = one[j];
				else if (m->own_aggr)
					ok = cube_derived_op(v, x, CUBE_AGG_PLUS,
							     row[j], one[j],
							     &row[j]);
				else
					row[j] = cube_combine(m, row[j], one[j]);
			any = true;
		}
	}
	free(one);
	if (!ok) {
		free(row);
		goto fail;
	}
	d->rows[d->n_rows].mi = x;
	d->rows[d->n_rows].pos = CUBE_POS_LIST;
	d->rows[d->n_rows].kind = k;
	d->rows[d->n_rows++].row = row;
	*out = row[d->loc];
	return true;
fail:
	*msg = v->pl->dm[x].failed ? "a derived metric it reads failed"
				   : "out of memory";
	return false;
}

static bool host_metric(void *ud, int32_t metric, enum cubepl_ref_kind kind,
			enum cubepl_flavour call, enum cubepl_flavour sys,
			double id, double *out, const char **msg)
{
	struct dctx *d = ud;
	struct cube_values *v = d->v;
	uint32_t x = (uint32_t)metric, pos = d->pos;
	uint32_t k = call == CUBEPL_SAME ? d->kind
		     : call == CUBEPL_INCL ? KIND_INCL
					   : KIND_EXCL;
	bool total = d->loc < 0;
	(void)sys; /* locations are the system tree's leaves */
	*out = 0;
	if (x >= v->n_metrics)
		return true;
	if (d->mi == UINT32_MAX)
		return true; /* an init block: no values yet */
	if (kind == CUBEPL_REF_CALL) {
		if (!(id >= 0 && id < 4294967295.0))
			return true;
		pos = cube_pos_of_id(v, (uint32_t)id);
		if (pos == UINT32_MAX)
			return true;
	} else if (kind == CUBEPL_REF_FIXED) {
		total = true;
		if (call == CUBEPL_SAME) {
			pos = CUBE_POS_ALL;
			k = KIND_INCL;
		}
	}
	if (v->pl->dm[x].busy) {
		*msg = "a cycle between derived metrics";
		return false;
	}
	if (d->list && kind != CUBEPL_REF_CALL &&
	    !(kind == CUBEPL_REF_FIXED && call == CUBEPL_SAME))
		return list_metric(d, x, k, total, out, msg);
	if (total) {
		cube_total(v, x, pos, k, out);
	} else {
		const double *row = row_of(d, x, pos, k);
		if (!row) {
			*msg = "out of memory";
			return false;
		}
		*out = row[d->loc];
	}
	if (v->pl->dm[x].failed) {
		*msg = "a derived metric it reads failed";
		return false;
	}
	return true;
}

static bool str_at(char **a, uint32_t n, double idx, struct cubepl_value *out)
{
	if (!a || !(idx >= 0) || idx >= n)
		return false;
	out->str = a[(size_t)idx];
	return true;
}

static bool num_at(const uint32_t *a, uint32_t n, double idx,
		   struct cubepl_value *out)
{
	if (!a || !(idx >= 0) || idx >= n)
		return false;
	out->num = a[(size_t)idx];
	return true;
}

/* A region's index from its id. */
static double region_index(const struct cube_pl *pl, double id)
{
	if (!(id >= 0) || id >= 4294967295.0)
		return -1;
	uint32_t i = (uint32_t)id;
	if (pl->reg_of_id)
		return i < pl->reg_id_len && pl->reg_of_id[i] != UINT32_MAX
			       ? (double)pl->reg_of_id[i]
			       : -1.0;
	for (uint32_t r = 0; r < pl->n_regions; r++)
		if (pl->reg_id[r] == i)
			return r;
	return -1;
}

/* A call path's position from its id. */
static double call_pos(const struct cube_values *v, double id)
{
	if (!(id >= 0) || id >= 4294967295.0)
		return -1;
	uint32_t p = cube_pos_of_id(v, (uint32_t)id);
	return p == UINT32_MAX ? -1.0 : (double)p;
}

static bool reserved_call(const struct dctx *d, enum cubepl_reserved r,
			  double idx, struct cubepl_value *out)
{
	const struct cube_values *v = d->v;
	double p = call_pos(v, idx);
	if (p < 0)
		return false;
	uint32_t pos = (uint32_t)p;
	switch (r) {
	case CUBEPL_R_CALL_LINE:
		return num_at(v->pl->line, v->n, p, out);
	case CUBEPL_R_CALL_CALLEE:
		return num_at(v->pl->callee, v->n, p, out);
	case CUBEPL_R_CALL_PARENT:
		out->num = v->parent[pos] == UINT32_MAX
				   ? -1.0
				   : (double)v->id[v->parent[pos]];
		return true;
	case CUBEPL_R_CALL_NCHILD:
		out->num = 0;
		for (uint32_t c = v->first_child[pos]; c != UINT32_MAX;
		     c = v->next_sibling[c])
			out->num++;
		return true;
	default:
		out->str = ""; /* CALL_MOD: not kept */
		return true;
	}
}

static bool host_reserved(void *ud, enum cubepl_reserved r, double idx,
			  struct cubepl_value *out)
{
	struct dctx *d = ud;
	const struct cube_values *v = d->v;
	const struct cube_pl *pl = v->pl;
	bool here = d->pos != CUBE_POS_ALL && d->pos < v->n;
	double ri = r >= CUBEPL_R_REGION_NAME && r <= CUBEPL_R_REGION_END
			    ? region_index(pl, idx)
			    : -1;
	double mi = idx; /* metric ids: the file's, looked up below */
	if (r >= CUBEPL_R_METRIC_UNIQ && r <= CUBEPL_R_METRIC_PARENT) {
		mi = -1;
		for (uint32_t i = 0; i < v->n_metrics; i++)
			if (!v->metrics[i].is_component && v->metrics[i].id == idx)
				mi = i;
	}
	switch (r) {
	case CUBEPL_R_NUM_METRICS: out->num = v->n_metrics; return true;
	case CUBEPL_R_NUM_ROOT_METRICS: out->num = pl->n_root_metrics; return true;
	case CUBEPL_R_NUM_REGIONS: out->num = pl->n_regions; return true;
	case CUBEPL_R_NUM_CALLPATHS: out->num = v->n; return true;
	case CUBEPL_R_NUM_ROOT_CALLPATHS: out->num = pl->n_root_cnodes; return true;
	case CUBEPL_R_NUM_LOCATIONS: out->num = v->n_loc; return true;
	case CUBEPL_R_FILENAME: out->str = pl->filename; return true;
	case CUBEPL_R_METRIC_UNIQ: case CUBEPL_R_METRIC_DISP:
	case CUBEPL_R_METRIC_UOM: case CUBEPL_R_METRIC_DESCR:
	case CUBEPL_R_METRIC_DTYPE: case CUBEPL_R_METRIC_EXPR:
	case CUBEPL_R_METRIC_INIT: {
		static const uint8_t k[] = {0, 1, 0, 3, 4, 2, 5, 6};
		return str_at(pl->met_str[k[r - CUBEPL_R_METRIC_UNIQ]],
			      v->n_metrics, mi, out);
	}
	case CUBEPL_R_METRIC_NCHILD:
		return num_at(pl->met_nchild, v->n_metrics, mi, out);
	case CUBEPL_R_REGION_NAME: case CUBEPL_R_REGION_MANGLED:
	case CUBEPL_R_REGION_PARADIGM: case CUBEPL_R_REGION_ROLE:
		return str_at(pl->reg_str[r - CUBEPL_R_REGION_NAME],
			      pl->n_regions, ri, out);
	case CUBEPL_R_REGION_MOD:
		return str_at(pl->reg_str[4], pl->n_regions, ri, out);
	case CUBEPL_R_REGION_BEGIN: case CUBEPL_R_REGION_END:
		return num_at(pl->reg_line[r - CUBEPL_R_REGION_BEGIN],
			      pl->n_regions, ri, out);
	case CUBEPL_R_CALL_MOD: case CUBEPL_R_CALL_LINE:
	case CUBEPL_R_CALL_NCHILD: case CUBEPL_R_CALL_PARENT:
	case CUBEPL_R_CALL_CALLEE:
		return reserved_call(d, r, idx, out);
	case CUBEPL_R_LOC_NAME: case CUBEPL_R_LOC_TYPE:
		return str_at(pl->loc_str[r - CUBEPL_R_LOC_NAME], v->n_loc, idx,
			      out);
	case CUBEPL_R_LOC_RANK:
		if (!(idx >= 0) || idx >= v->n_loc)
			return false;
		out->num = (double)pl->loc_rank[(size_t)idx];
		return true;
	case CUBEPL_R_LOC_VOID:
		if (!(idx >= 0) || idx >= v->n_loc)
			return false;
		out->num = strstr(pl->loc_str[0][(size_t)idx], "VOID") != NULL;
		return true;
	case CUBEPL_R_CALC_METRIC:
		out->num = d->mi < v->n_metrics ? v->metrics[d->mi].id : 0;
		return true;
	case CUBEPL_R_CALC_CALLPATH:
		out->num = here ? v->id[d->pos] : 0;
		return true;
	case CUBEPL_R_CALC_REGION:
		out->num = here ? pl->callee[d->pos] : 0;
		return true;
	case CUBEPL_R_CALC_SYSRES:
		out->num = d->loc >= 0 ? (double)d->loc : 0;
		return true;
	default:
		return false; /* not kept: reads 0 */
	}
}

void cube_pl_host(struct dctx *d, struct cubepl_host *h)
{
	*h = (struct cubepl_host){.ud = d,
				  .resolve = host_resolve,
				  .metric = host_metric,
				  .reserved = host_reserved};
}

void cube_pl_fail(struct cube_values *v, uint32_t mi, const char *msg)
{
	v->pl->dm[mi].failed = true;
	if (v->first_error.status == STATUS_OK)
		error_set(&v->first_error, STATUS_CORRUPT, v->name,
			  "derived metric %s: %s", v->pl->met_str[0][mi], msg);
}

/* ---- a metric's own aggregation ----------------------------------------- */

bool cube_derived_op(struct cube_values *v, uint32_t mi, enum cube_agg k,
		     double a, double b, double *out)
{
	struct dmetric *dm = v->pl && mi < v->n_metrics ? &v->pl->dm[mi]
							: NULL;
	if (!dm || !dm->agg[k]) {
		*out = k == CUBE_AGG_MINUS ? a - b : a + b;
		return true;
	}
	*out = 0;
	if (dm->failed)
		return false;
	/* no call path, location or metric: metric references read 0 */
	struct dctx d = {.v = v, .mi = UINT32_MAX, .pos = CUBE_POS_ALL,
			 .loc = -1};
	struct cubepl_host h;
	cube_pl_host(&d, &h);
	char msg[256], why[320];
	if (cubepl_run_args(dm->agg[k], v->pl->env, &h, CUBE_PL_EVAL_STEPS, a,
			    b, out, msg, sizeof(msg)))
		return true;
	static const char *const name[] = {"plus", "minus", "aggr"};
	snprintf(why, sizeof(why), "its own aggregation (<cubeplaggr> %s) "
		 "failed: %s", name[k], msg);
	cube_pl_fail(v, mi, why);
	return false;
}

/* acc[j] = op(acc[j], x[j]) for the L locations. */
static bool fold_row(struct cube_values *v, uint32_t mi, enum cube_agg k,
		     double *acc, const double *x, uint32_t L)
{
	for (uint32_t j = 0; j < L; j++)
		if (!cube_derived_op(v, mi, k, acc[j], x[j], &acc[j]))
			return false;
	return true;
}

/* ---- values ------------------------------------------------------------- */

static void drop_rows(struct dctx *d)
{
	for (uint32_t i = 0; i < d->n_rows; i++)
		free(d->rows[i].row);
	d->n_rows = 0;
}

/* Metric d->mi's expression run with `d` as its host: per location
 * into out[n_loc] (per_loc), or once into out[0]; on an error the
 * metric fails with the message (once: a nested run may have failed it
 * first). */
static bool eval_expr(struct cube_values *v, struct dctx *d, bool per_loc,
		      double *out)
{
	struct dmetric *dm = &v->pl->dm[d->mi];
	struct cubepl_host h;
	cube_pl_host(d, &h);
	char msg[256];
	bool ok = true;
	dm->busy = true;
	uint32_t n = per_loc ? v->n_loc : 1;
	for (uint32_t j = 0; j < n && ok; j++) {
		d->loc = per_loc ? (int64_t)j : -1;
		ok = cubepl_run(dm->expr, v->pl->env, &h, CUBE_PL_EVAL_STEPS,
				&out[j], msg, sizeof(msg));
	}
	dm->busy = false;
	drop_rows(d);
	if (!ok && !dm->failed)
		cube_pl_fail(v, d->mi, msg);
	return ok;
}

/* The expression of metric mi at (pos, kind): per location into
 * out[n_loc] (loc >= 0), or its total (out[0], loc < 0). */
static bool run(struct cube_values *v, uint32_t mi, uint32_t pos,
		uint32_t kind, bool per_loc, double *out)
{
	struct dmetric *dm = &v->pl->dm[mi];
	if (!dm->usable || dm->failed)
		return false;
	struct dctx d = {.v = v, .mi = mi, .pos = pos, .kind = kind, .loc = -1};
	return eval_expr(v, &d, per_loc, out);
}

/* The expression of POSTDERIVED metric mi of flavour `kind` over the
 * call paths list[0..n) together: per location into out[n_loc]
 * (per_loc), or in total (out[0]). */
static bool list_run(struct cube_values *v, uint32_t mi, uint32_t kind,
		     const uint32_t *list, uint32_t n, bool per_loc,
		     double *out)
{
	struct dmetric *dm = &v->pl->dm[mi];
	if (!dm->usable || dm->failed || !n)
		return false;
	/* the reserved variables of a call path read the last one's (CubeLib
	 * sets them up per call path of the list, in order) */
	struct dctx d = {.v = v, .mi = mi, .pos = list[n - 1], .kind = kind,
			 .loc = -1, .list = list, .n_list = n};
	return eval_expr(v, &d, per_loc, out);
}

bool cube_derived_rows(struct cube_values *v, uint32_t mi, uint32_t kind,
		       const uint32_t *pos, uint32_t n, double *out)
{
	*out = 0;
	if (!v->pl || mi >= v->n_metrics || kind > KIND_EXCL ||
	    v->metrics[mi].derived != CUBE_DV_POST)
		return false;
	if (!v->metrics[mi].own_aggr)
		return list_run(v, mi, kind, pos, n, false, out);
	double *row = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	bool ok = row && list_run(v, mi, kind, pos, n, true, row);
	for (uint32_t j = 0; ok && j < v->n_loc; j++)
		ok = cube_derived_op(v, mi, CUBE_AGG_AGGR, *out, row[j], out);
	free(row);
	return ok;
}

/* Per location at (pos, kind) of the metric's own flavour (PRE_EXCL:
 * exclusive, PRE_INCL: inclusive, POST: `kind`). */
static bool own_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
		      uint32_t kind, double *out)
{
	uint32_t L = v->n_loc;
	if (pos != CUBE_POS_ALL)
		return run(v, mi, pos, kind, true, out);
	/* the synthetic root: its roots together (an own "plus": the first
	 * root's values, then plus(those, the next root's)) */
	double *tmp = malloc(((size_t)L + 1) * sizeof(double));
	bool any = false, ok = true;
	memset(out, 0, L * sizeof(*out));
	for (uint32_t p = 0; tmp && ok && p < v->n; p += v->subtree[p])
		if (run(v, mi, p, kind, true, tmp)) {
			if (any && v->metrics[mi].own_aggr)
				ok = fold_row(v, mi, CUBE_AGG_PLUS, out, tmp, L);
			else
				for (uint32_t j = 0; j < L; j++)
					out[j] += tmp[j];
			any = true;
		}
	free(tmp);
	return any && ok;
}

/* A PREDERIVED_INCLUSIVE metric's exclusive values with its own
 * aggregation (CubeLib's CustomPreDerivedInclusiveMetric::get_sevs):
 * minus(own inclusive, the children's inclusive values folded by plus,
 * the first child's, then plus(fold, next); 0 without children). */
static bool own_excl_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
			   double *out)
{
	uint32_t L = v->n_loc;
	double *fold = calloc((size_t)L + 1, sizeof(double));
	double *tmp = malloc(((size_t)L + 1) * sizeof(double));
	bool first = true, ok = fold && tmp;
	for (uint32_t c = v->first_child[pos]; ok && c != UINT32_MAX;
	     c = v->next_sibling[c]) {
		if (!own_cells(v, mi, c, KIND_INCL, tmp)) {
			ok = !v->pl->dm[mi].failed;
			continue;
		}
		if (first)
			memcpy(fold, tmp, L * sizeof(double));
		else
			ok = fold_row(v, mi, CUBE_AGG_PLUS, fold, tmp, L);
		first = false;
	}
	ok = ok && fold_row(v, mi, CUBE_AGG_MINUS, out, fold, L);
	free(fold);
	free(tmp);
	return ok;
}

/* A PREDERIVED_EXCLUSIVE metric's inclusive values at the synthetic root
 * with its own aggregation: its roots' folded by plus. */
static bool root_incl_cells(struct cube_values *v, uint32_t mi, double *out)
{
	uint32_t L = v->n_loc;
	double *tmp = malloc(((size_t)L + 1) * sizeof(double));
	bool any = false, ok = tmp != NULL;
	for (uint32_t p = 0; ok && p < v->n; p += v->subtree[p])
		if (cube_incl_cells(v, mi, p, any ? tmp : out)) {
			if (any)
				ok = fold_row(v, mi, CUBE_AGG_PLUS, out, tmp, L);
			any = true;
		}
	free(tmp);
	return any && ok && !v->pl->dm[mi].failed;
}

bool cube_derived_cells(struct cube_values *v, uint32_t mi, uint32_t pos,
			uint32_t kind, double *out)
{
	const struct cube_metric *m = &v->metrics[mi];
	uint32_t L = v->n_loc;
	memset(out, 0, L * sizeof(*out));
	if (!v->pl || !v->pl->dm[mi].usable)
		return false;
	switch ((enum cube_derived)m->derived) {
	case CUBE_DV_PRE_EXCL:
		if (kind == KIND_EXCL)
			return pos != CUBE_POS_ALL &&
			       own_cells(v, mi, pos, KIND_EXCL, out);
		if (pos != CUBE_POS_ALL)
			return cube_incl_cells(v, mi, pos, out) &&
			       !v->pl->dm[mi].failed;
		return m->own_aggr && root_incl_cells(v, mi, out);
	case CUBE_DV_PRE_INCL: {
		if (!own_cells(v, mi, pos, KIND_INCL, out))
			return false;
		if (kind == KIND_INCL || pos == CUBE_POS_ALL)
			return kind == KIND_INCL;
		if (m->own_aggr)
			return own_excl_cells(v, mi, pos, out);
		double *tmp = malloc(((size_t)L + 1) * sizeof(double));
		for (uint32_t c = v->first_child[pos]; tmp && c != UINT32_MAX;
		     c = v->next_sibling[c])
			if (own_cells(v, mi, c, KIND_INCL, tmp))
				for (uint32_t j = 0; j < L; j++)
					out[j] -= tmp[j];
		free(tmp);
		return tmp != NULL;
	}
	case CUBE_DV_POST:
		return run(v, mi, pos, kind, true, out);
	case CUBE_DV_NONE:
		break;
	}
	return false;
}

/* Sum over locations of the metric's own flavour at pos. */
static bool own_total(struct cube_values *v, uint32_t mi, uint32_t pos,
		      uint32_t kind, double *out)
{
	double *row = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	bool ok = row && own_cells(v, mi, pos, kind, row);
	*out = 0;
	for (uint32_t j = 0; ok && j < v->n_loc; j++)
		*out += row[j];
	free(row);
	return ok;
}

/* A prederived metric's total with its own aggregation: its values at
 * the locations folded by aggr from 0 (CubeLib's
 * BuildInTypeMetric::get_sev_native: 0, then aggr(sum, next)). */
static bool own_aggr_total(struct cube_values *v, uint32_t mi, uint32_t pos,
			   uint32_t kind, double *out)
{
	double *row = malloc(((size_t)v->n_loc + 1) * sizeof(double));
	bool ok = row && cube_derived_cells(v, mi, pos, kind, row);
	*out = 0;
	for (uint32_t j = 0; ok && j < v->n_loc; j++)
		ok = cube_derived_op(v, mi, CUBE_AGG_AGGR, *out, row[j], out);
	free(row);
	return ok;
}

static bool compute_total(struct cube_values *v, uint32_t mi, uint32_t pos,
			  uint32_t kind, double *out)
{
	const struct cube_metric *m = &v->metrics[mi];
	if (m->own_aggr)
		return own_aggr_total(v, mi, pos, kind, out);
	switch ((enum cube_derived)m->derived) {
	case CUBE_DV_PRE_EXCL:
		if (kind == KIND_INCL)
			return cube_incl_total(v, mi, pos, out);
		return pos != CUBE_POS_ALL && own_total(v, mi, pos, kind, out);
	case CUBE_DV_PRE_INCL:
		if (kind == KIND_INCL)
			return own_total(v, mi, pos, KIND_INCL, out);
		if (pos == CUBE_POS_ALL ||
		    !cube_derived_total(v, mi, pos, KIND_INCL, out))
			return false;
		for (uint32_t c = v->first_child[pos]; c != UINT32_MAX;
		     c = v->next_sibling[c]) {
			double x;
			if (cube_derived_total(v, mi, c, KIND_INCL, &x))
				*out -= x;
		}
		return true;
	case CUBE_DV_POST:
		return run(v, mi, pos, kind, false, out);
	case CUBE_DV_NONE:
		break;
	}
	return false;
}

bool cube_derived_total(struct cube_values *v, uint32_t mi, uint32_t pos,
			uint32_t kind, double *out)
{
	*out = 0;
	if (!v->pl || mi >= v->n_metrics || !v->pl->dm[mi].usable ||
	    (pos != CUBE_POS_ALL && pos >= v->n))
		return false;
	struct dmetric *dm = &v->pl->dm[mi];
	size_t at = pos == CUBE_POS_ALL ? v->n : pos;
	if (!dm->tot[kind]) {
		dm->tot[kind] = malloc(((size_t)v->n + 1) * sizeof(double));
		dm->tstate[kind] = calloc((size_t)v->n + 1, 1);
		if (!dm->tot[kind] || !dm->tstate[kind]) {
			free(dm->tot[kind]);
			free(dm->tstate[kind]);
			dm->tot[kind] = NULL;
			dm->tstate[kind] = NULL;
			return false;
		}
	}
	if (dm->tstate[kind][at] == 0) {
		double x = 0;
		bool ok = compute_total(v, mi, pos, kind, &x);
		if (dm->failed)
			return false; /* not kept: the error is */
		dm->tot[kind][at] = x;
		dm->tstate[kind][at] = ok ? 1 : 2;
	}
	*out = dm->tot[kind][at];
	return dm->tstate[kind][at] == 1;
}
