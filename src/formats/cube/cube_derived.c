/* cube_derived: a Cube file's derived metrics at open (see
 * cube_derived.h): the tables of the reserved variables CubePL reads
 * (${cube::region::name}[id], ${cube::callpath::calleeid}[id], the
 * counts, the locations', the metrics'), every derived metric's <cubepl>
 * and <cubeplinit> parsed, the init blocks run in document order (they
 * fill the variables the expressions read, as CubeLib runs them before
 * any value), then the metrics that cannot be computed found, each with
 * its reason: a parse error, an init that fails, a cycle of references
 * between derived metrics, a reference to a metric that cannot be
 * computed, an own aggregation (<cubeplaggr>) that does not parse or
 * does not finish.  Their columns stay blank and the reason is a
 * warning; so are an own aggregation CubeLib does not apply to the
 * metric's kind and one that reads a metric (reads 0).
 * Must not depend on curses or on another format. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cube_derived.h"

static char *dup_str(const struct model *m, uint32_t h)
{
	return strdup(model_str(m, h));
}

static bool tables_regions(struct opener *o, struct cube_pl *pl)
{
	const struct model *m = model_builder_peek(o->b);
	const struct cube_anchor *a = &o->a;
	uint32_t nr = a->n_regions;
	pl->n_regions = nr;
	for (int k = 0; k < 5; k++)
		if (!(pl->reg_str[k] = calloc(nr + 1, sizeof(char *))))
			return false;
	for (int k = 0; k < 2; k++)
		if (!(pl->reg_line[k] = calloc(nr + 1, sizeof(uint32_t))))
			return false;
	if (!(pl->reg_id = calloc(nr + 1, sizeof(uint32_t))))
		return false;
	for (uint32_t i = 0; i < nr; i++) {
		const struct cube_region *r = &a->regions[i];
		uint32_t h[5] = {r->name, r->mangled, r->paradigm, r->role,
				 r->mod};
		for (int k = 0; k < 5; k++)
			if (!(pl->reg_str[k][i] = dup_str(m, h[k])))
				return false;
		pl->reg_line[0][i] = r->begin;
		pl->reg_id[i] = r->id;
	}
	if (o->region_of_id) {
		pl->reg_id_len = o->region_len;
		pl->reg_of_id = malloc((size_t)o->region_len * sizeof(uint32_t) + 1);
		if (!pl->reg_of_id)
			return false;
		memcpy(pl->reg_of_id, o->region_of_id,
		       (size_t)o->region_len * sizeof(uint32_t));
	}
	return true;
}

static bool tables(struct opener *o, struct cube_pl *pl)
{
	struct cube_values *v = o->v;
	const struct cube_anchor *a = &o->a;
	if (!(pl->filename = strdup(o->path)) || !tables_regions(o, pl))
		return false;
	pl->callee = malloc(((size_t)v->n + 1) * sizeof(uint32_t));
	pl->line = malloc(((size_t)v->n + 1) * sizeof(uint32_t));
	if (!pl->callee || !pl->line)
		return false;
	for (uint32_t p = 0; p < v->n; p++) {
		pl->callee[p] = a->cnodes[p].callee;
		pl->line[p] = a->cnodes[p].line;
		pl->n_root_cnodes += v->parent[p] == UINT32_MAX;
	}
	const struct model *m = model_builder_peek(o->b);
	for (int k = 0; k < 2; k++)
		if (!(pl->loc_str[k] = calloc(v->n_loc + 1, sizeof(char *))))
			return false;
	if (!(pl->loc_rank = calloc(v->n_loc + 1, sizeof(uint64_t))))
		return false;
	for (uint32_t j = 0; j < v->n_loc; j++) {
		const struct cube_location *l = &a->locations[j];
		if (!(pl->loc_str[0][j] = dup_str(m, l->name)) ||
		    !(pl->loc_str[1][j] = dup_str(m, l->type)))
			return false;
		pl->loc_rank[j] = l->rank;
	}
	for (int k = 0; k < 7; k++)
		if (!(pl->met_str[k] = calloc(v->n_metrics + 1, sizeof(char *))))
			return false;
	if (!(pl->met_nchild = calloc(v->n_metrics + 1, sizeof(uint32_t))))
		return false;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		const struct cube_metric *cm = &v->metrics[i];
		uint32_t h[7] = {cm->uniq,  cm->disp,      cm->uom,
				 cm->descr, cm->dtype_text, cm->cubepl[0],
				 cm->cubepl[1]};
		for (int k = 0; k < 7; k++)
			if (!(pl->met_str[k][i] = dup_str(m, h[k])))
				return false;
		if (cm->parent == MODEL_NONE)
			pl->n_root_metrics++;
		else if (cm->parent < v->n_metrics)
			pl->met_nchild[cm->parent]++;
	}
	return true;
}

static void set_why(struct dmetric *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_why(struct dmetric *d, const char *fmt, ...)
{
	if (!d->usable)
		return;
	d->usable = false;
	free(d->why);
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&d->why, fmt, ap) < 0)
		d->why = NULL;
	va_end(ap);
}

static const char *const agg_name[] = {"plus", "minus", "aggr"};

/* Whether CubeLib applies <cubeplaggr> kind k (enum cube_agg) to metric
 * cm: plus, minus and aggr to a PREDERIVED_INCLUSIVE metric, plus and
 * aggr to a PREDERIVED_EXCLUSIVE one (CubeCustomPreDerived*Metric.cpp),
 * aggr to a POSTDERIVED one (CubePostDerivedMetric.cpp). */
static bool agg_applies(const struct cube_metric *cm, int k)
{
	if (!cm->cubepl[2 + k] || cm->mtype != CUBE_MT_DERIVED)
		return false;
	return cm->derived == CUBE_DV_PRE_INCL ||
	       (cm->derived == CUBE_DV_PRE_EXCL && k != CUBE_AGG_MINUS) ||
	       (cm->derived == CUBE_DV_POST && k == CUBE_AGG_AGGR);
}

/* Parse metric i's expression, init block and own aggregation. */
static void parse_metric(struct opener *o, struct cubepl_host *h, uint32_t i)
{
	struct cube_values *v = o->v;
	struct cube_pl *pl = v->pl;
	struct dmetric *d = &pl->dm[i];
	struct cube_metric *cm = &v->metrics[i];
	char msg[256];
	const char *src = pl->met_str[5][i], *init = pl->met_str[6][i];
	d->usable = true;
	for (int k = 0; k < 3; k++)
		cm->own_aggr |= agg_applies(cm, k);
	if (!*src) {
		set_why(d, "no <cubepl> expression");
		return;
	}
	if (*init && !cubepl_parse(init, strlen(init), h, pl->env, &d->init,
				   msg, sizeof(msg))) {
		set_why(d, "CubePL init, %s", msg);
		return;
	}
	if (!cubepl_parse(src, strlen(src), h, pl->env, &d->expr, msg,
			  sizeof(msg))) {
		set_why(d, "CubePL, %s", msg);
		return;
	}
	const struct model *m = model_builder_peek(o->b);
	for (int k = 0; k < 3 && d->usable; k++) {
		const char *a = model_str(m, cm->cubepl[2 + k]);
		if (agg_applies(cm, k) &&
		    !cubepl_parse(a, strlen(a), h, pl->env, &d->agg[k], msg,
				  sizeof(msg)))
			set_why(d, "its own aggregation (<cubeplaggr> %s), "
				   "CubePL, %s", agg_name[k], msg);
	}
}

/* Metrics in a cycle of references, or referring to one that cannot be
 * computed, cannot be computed either (repeated until nothing changes;
 * a cycle never becomes computable, so it stays in `busy` until found). */
static void propagate(struct cube_values *v)
{
	struct cube_pl *pl = v->pl;
	/* cycles: a depth-first search per metric, iterative */
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		struct dmetric *d = &pl->dm[i];
		if (!d->expr || !d->usable)
			continue;
		uint32_t *stack = malloc(((size_t)v->n_metrics + 1) * 2 *
					 sizeof(uint32_t));
		uint8_t *seen = calloc(v->n_metrics + 1, 1);
		if (!stack || !seen) {
			free(stack);
			free(seen);
			set_why(d, "out of memory");
			continue;
		}
		size_t sp = 0;
		stack[sp++] = i;
		bool cycle = false;
		while (sp && !cycle) {
			uint32_t x = stack[--sp];
			size_t n = 0;
			const int32_t *r = pl->dm[x].expr
				? cubepl_program_metrics(pl->dm[x].expr, &n)
				: NULL;
			for (size_t k = 0; k < n && !cycle; k++) {
				uint32_t y = (uint32_t)r[k];
				if (y == i)
					cycle = true;
				else if (!seen[y] && pl->dm[y].expr) {
					seen[y] = 1;
					stack[sp++] = y;
				}
			}
		}
		free(stack);
		free(seen);
		if (cycle)
			set_why(d, "its CubePL refers back to itself (a cycle "
				   "through %s)", pl->met_str[0][i]);
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < v->n_metrics; i++) {
			struct dmetric *d = &pl->dm[i];
			size_t n = 0;
			const int32_t *r = d->expr && d->usable
				? cubepl_program_metrics(d->expr, &n)
				: NULL;
			for (size_t k = 0; k < n; k++) {
				struct dmetric *y = &pl->dm[r[k]];
				if (v->metrics[r[k]].mtype == CUBE_MT_DERIVED &&
				    !y->usable) {
					set_why(d, "it reads %s, which cannot be "
						   "computed",
						pl->met_str[0][r[k]]);
					changed = true;
					break;
				}
			}
		}
	}
}

/* References to a metric the file does not define: one warning per
 * name, with how many derived metrics read it. */
static void warn_unknown(struct opener *o)
{
	struct cube_values *v = o->v;
	struct cube_pl *pl = v->pl;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		struct dmetric *dm = &pl->dm[i];
		const char *u = dm->usable && dm->expr
			? cubepl_program_unknown_metric(dm->expr)
			: NULL;
		uint32_t first = i, count = 0;
		bool seen = false;
		for (uint32_t j = 0; u && j < v->n_metrics && !seen; j++) {
			struct dmetric *dj = &pl->dm[j];
			const char *uj = dj->usable && dj->expr
				? cubepl_program_unknown_metric(dj->expr)
				: NULL;
			if (!uj || strcmp(uj, u) != 0)
				continue;
			seen = j < i; /* warned at the first one */
			count++;
		}
		if (u && !seen)
			cube_warn(o, "derived metric %s%s reads metric %s, which "
				  "the file does not define: read as 0 (as "
				  "CubeLib does)",
				  pl->met_str[0][first],
				  count > 1 ? " (and others)" : "", u);
	}
}

/* One line for a metric with an own aggregation (<cubeplaggr>, by
 * cubeplaggrtype) that is not applied (see agg_applies; one without a
 * known type never is): its values add up. */
static void warn_aggr(struct opener *o, const struct cube_metric *cm,
		      const char *name)
{
	static const char *const kinds[] = {"plus", "minus", "aggr",
					    "untyped"};
	char list[40] = "";
	size_t at = 0;
	for (int k = 0; k < 4; k++)
		if (cm->cubepl[2 + k] && (k == 3 || !agg_applies(cm, k)))
			at += (size_t)snprintf(list + at, sizeof(list) - at,
					       "%s%s", at ? ", " : "",
					       kinds[k]);
	if (at)
		cube_warn(o, "derived metric %s: its own aggregation "
			  "(<cubeplaggr> %s) is not applied: values add up",
			  name, list);
}

/* An aggregation's metric references read 0 (its operands are arg1 and
 * arg2): one line per metric that has any. */
static void warn_agg_refs(struct opener *o, const struct dmetric *dm,
			  const char *name)
{
	for (int k = 0; k < 3; k++) {
		size_t n = 0;
		const int32_t *r = dm->agg[k]
			? cubepl_program_metrics(dm->agg[k], &n) : NULL;
		const char *u = dm->agg[k]
			? cubepl_program_unknown_metric(dm->agg[k]) : NULL;
		const char *ref = u ? u : n ? o->v->pl->met_str[0][r[0]] : NULL;
		if (ref) {
			cube_warn(o, "derived metric %s: its own aggregation "
				  "(<cubeplaggr> %s) reads metric %s, which "
				  "reads 0 there (its operands are arg1 and "
				  "arg2)", name, agg_name[k], ref);
			return;
		}
	}
}

static void warn_all(struct opener *o)
{
	struct cube_values *v = o->v;
	struct cube_pl *pl = v->pl;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		const struct cube_metric *cm = &v->metrics[i];
		struct dmetric *dm = &pl->dm[i];
		if (cm->mtype != CUBE_MT_DERIVED)
			continue;
		if (!dm->usable)
			cube_warn(o, "derived metric %s not computed: %s",
				  pl->met_str[0][i], dm->why ? dm->why : "");
		else
			warn_agg_refs(o, dm, pl->met_str[0][i]);
		warn_aggr(o, cm, pl->met_str[0][i]);
	}
	warn_unknown(o);
}

enum status cube_derived_setup(struct opener *o)
{
	struct cube_values *v = o->v;
	bool any = false;
	for (uint32_t i = 0; i < v->n_metrics; i++)
		any |= v->metrics[i].mtype == CUBE_MT_DERIVED;
	if (!any)
		return STATUS_OK;
	struct cube_pl *pl = v->pl = calloc(1, sizeof(*pl));
	/* variables are indexed by ids: call paths', regions', locations',
	 * metrics' (ids up to 4 n + 1024 are dense, cube_tree.c) */
	size_t most = v->n;
	if (o->a.n_regions > most)
		most = o->a.n_regions;
	if (v->n_loc > most)
		most = v->n_loc;
	if (v->n_metrics > most)
		most = v->n_metrics;
	if (!pl || !(pl->env = cubepl_env_new(4 * most + 1024)) ||
	    !(pl->dm = calloc(v->n_metrics, sizeof(*pl->dm))) || !tables(o, pl))
		return error_set(o->err, STATUS_NOMEM, o->path, "out of memory");
	struct dctx d = {.v = v, .mi = UINT32_MAX, .pos = CUBE_POS_ALL,
			 .loc = -1};
	struct cubepl_host h;
	cube_pl_host(&d, &h);
	for (uint32_t i = 0; i < v->n_metrics; i++)
		if (v->metrics[i].mtype == CUBE_MT_DERIVED)
			parse_metric(o, &h, i);
	/* init blocks in document order; their budget grows with the file
	 * (they loop over call paths and regions) */
	uint64_t steps = 1000ull * ((uint64_t)v->n + pl->n_regions + v->n_loc) +
			 CUBE_PL_EVAL_STEPS;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		struct dmetric *dm = &pl->dm[i];
		char msg[256];
		double ignored;
		if (dm->init && dm->usable &&
		    !cubepl_run(dm->init, pl->env, &h, steps, &ignored, msg,
				sizeof(msg)))
			set_why(dm, "its CubePL init block failed: %s", msg);
	}
	/* a trial run of each expression with every metric reading 0 (no
	 * data read): one that does not finish even then is not computed,
	 * rather than failing later, when its values are asked */
	d.pos = v->n ? 0 : CUBE_POS_ALL;
	d.loc = 0;
	for (uint32_t i = 0; i < v->n_metrics; i++) {
		struct dmetric *dm = &pl->dm[i];
		char msg[256];
		double ignored;
		if (dm->expr && dm->usable &&
		    !cubepl_run(dm->expr, pl->env, &h, CUBE_PL_EVAL_STEPS,
				&ignored, msg, sizeof(msg)))
			set_why(dm, "its CubePL expression failed: %s", msg);
		for (int k = 0; k < 3; k++)
			if (dm->agg[k] && dm->usable &&
			    !cubepl_run_args(dm->agg[k], pl->env, &h,
					     CUBE_PL_EVAL_STEPS, 0, 0, &ignored,
					     msg, sizeof(msg)))
				set_why(dm, "its own aggregation (<cubeplaggr> "
					    "%s) failed: %s", agg_name[k], msg);
	}
	propagate(v);
	warn_all(o);
	return STATUS_OK;
}

bool cube_derived_usable(const struct cube_values *v, uint32_t mi,
			 const char **why)
{
	*why = NULL;
	if (!v->pl || mi >= v->n_metrics)
		return false;
	*why = v->pl->dm[mi].why;
	return v->pl->dm[mi].usable;
}

static void free_strs(char **a, uint32_t n)
{
	if (!a)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

void cube_derived_free(struct cube_values *v)
{
	struct cube_pl *pl = v->pl;
	if (!pl)
		return;
	for (uint32_t i = 0; pl->dm && i < v->n_metrics; i++) {
		struct dmetric *d = &pl->dm[i];
		cubepl_program_free(d->expr);
		cubepl_program_free(d->init);
		for (int k = 0; k < 3; k++)
			cubepl_program_free(d->agg[k]);
		free(d->why);
		for (int k = 0; k < 2; k++) {
			free(d->tot[k]);
			free(d->tstate[k]);
		}
	}
	free(pl->dm);
	cubepl_env_free(pl->env);
	free(pl->filename);
	for (int k = 0; k < 5; k++)
		free_strs(pl->reg_str[k], pl->n_regions);
	for (int k = 0; k < 2; k++) {
		free(pl->reg_line[k]);
		free_strs(pl->loc_str[k], v->n_loc);
	}
	for (int k = 0; k < 7; k++)
		free_strs(pl->met_str[k], v->n_metrics);
	free(pl->met_nchild);
	free(pl->reg_of_id);
	free(pl->reg_id);
	free(pl->callee);
	free(pl->line);
	free(pl->loc_rank);
	free(pl);
	v->pl = NULL;
}
