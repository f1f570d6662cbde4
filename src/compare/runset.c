/* runset: building the set of N runs (runset.h): pairing each run's
 * metrics with the first run's, matching its nodes into the union,
 * copying the names of the nodes it adds, adding its values; the model
 * and the Extra-P set are in runset_model.c. */
#include "config.h"

#include "compare/runset.h"
#include "core/array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/view.h"

struct runset *runset_new(uint32_t n_runs, const struct runset_options *o,
			  struct error *err)
{
	struct runset *rs = calloc(1, sizeof(*rs));
	size_t nm = o->n_metrics ? o->n_metrics : 1;
	bool ok = rs != NULL;
	if (ok) {
		rs->n_runs = n_runs;
		rs->normalize = o->normalize;
		rs->match = o->match;
		rs->n_metrics = nm;
		rs->runs = calloc(n_runs ? n_runs : 1, sizeof(*rs->runs));
		rs->metric_specs = calloc(nm, sizeof(char *));
		rs->scope = calloc(nm, sizeof(*rs->scope));
		rs->pairs = calloc(nm, sizeof(*rs->pairs));
		rs->u = diff_union_new(o->normalize);
		rs->b = model_builder_new("compare", "");
		rs->n_params = o->n_params;
		rs->param_names =
		    calloc(o->n_params ? o->n_params : 1, sizeof(char *));
		ok = rs->runs && rs->metric_specs && rs->scope && rs->pairs &&
		     rs->u && rs->b && rs->param_names;
	}
	for (uint32_t i = 0; ok && i < o->n_params; i++)
		ok = (rs->param_names[i] = strdup(o->param_names[i])) != NULL;
	for (size_t k = 0; ok && k < o->n_metrics; k++)
		ok = (rs->metric_specs[k] = strdup(o->metrics[k])) != NULL;
	for (size_t k = 0; ok && k < nm; k++)
		rs->scope[k] = o->scope < 0 ? (enum diff_scope)-1
					    : (enum diff_scope)o->scope;
	if (!ok) {
		runset_free(rs);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	return rs;
}

void runset_free(struct runset *rs)
{
	if (!rs)
		return;
	for (uint32_t r = 0; r < rs->n_runs; r++) {
		free(rs->runs[r].path);
		free(rs->runs[r].format);
		free(rs->runs[r].title);
		free(rs->runs[r].coords);
	}
	free(rs->runs);
	array_free_each(rs->param_names, rs->n_params);
	array_free_each(rs->metric_specs, rs->n_metrics);
	free(rs->scope);
	free(rs->pairs);
	model_free(rs->first);
	diff_union_free(rs->u);
	free(rs->values);
	free(rs->stats);
	model_builder_free(rs->b);
	free(rs);
}

static enum status why_error(struct error *err, const char *path, char *why)
{
	enum status st =
	    error_set(err, why ? STATUS_USAGE : STATUS_NOMEM, path, "%s",
		      why ? why : "out of memory");
	free(why);
	return st;
}

/* The first run: its metrics become the set's ("NAME:VARIANT", so that
 * every other run is paired with the same column), each with its scope. */
static enum status first_metrics(struct runset *rs, const struct model *m,
				 struct error *err)
{
	for (size_t k = 0; k < rs->n_metrics; k++) {
		char *why = NULL;
		const char *spec = rs->metric_specs[k];
		bool ok = spec ? diff_pair_metric(m, spec, m, spec,
						  &rs->pairs[k], &why)
			       : diff_pair_default(m, m, &rs->pairs[k], &why);
		if (!ok)
			return why_error(err, model_path(m), why);
		const uint32_t *col = rs->pairs[k].col[0];
		if ((int)rs->scope[k] < 0)
			rs->scope[k] = col[DIFF_INCLUSIVE] != MODEL_NONE
					   ? DIFF_INCLUSIVE
					   : DIFF_EXCLUSIVE;
		uint32_t c = col[rs->scope[k]];
		if (c == MODEL_NONE)
			return error_set(err, STATUS_USAGE, model_path(m),
					 "the metric has no %s values",
					 rs->scope[k] == DIFF_INCLUSIVE
					     ? "inclusive"
					     : "exclusive");
		const struct model_column *mc = &model_columns(m)[c];
		char *s = NULL;
		if (asprintf(&s, "%s%s%s", mc->name,
			     mc->variant && *mc->variant ? ":" : "",
			     mc->variant ? mc->variant : "") < 0)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		free(rs->metric_specs[k]);
		rs->metric_specs[k] = s;
	}
	return STATUS_OK;
}

/* Pair a later run's metrics with the first run's. */
static enum status pair_metrics(struct runset *rs, const struct model *m,
				struct error *err)
{
	for (size_t k = 0; k < rs->n_metrics; k++) {
		char *why = NULL;
		const char *spec = rs->metric_specs[k];
		if (!diff_pair_metric(rs->first, spec, m, spec, &rs->pairs[k],
				      &why))
			return why_error(err, model_path(m), why);
		if (rs->pairs[k].col[1][rs->scope[k]] == MODEL_NONE)
			return error_set(err, STATUS_USAGE, model_path(m),
					 "no %s values of '%s'",
					 rs->scope[k] == DIFF_INCLUSIVE
					     ? "inclusive"
					     : "exclusive",
					 spec);
	}
	return STATUS_OK;
}

/* Room for the union's nodes: the new ones' values absent. */
static enum status grow_values(struct runset *rs, uint32_t n_nodes,
			       struct error *err)
{
	size_t per = rs->n_metrics * rs->n_runs;
	if (n_nodes <= rs->n_nodes && rs->values)
		return STATUS_OK;
	double *v = realloc(rs->values, (size_t)n_nodes * per * sizeof(*v));
	if (!v)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	for (size_t i = (size_t)rs->n_nodes * per; i < (size_t)n_nodes * per;
	     i++)
		v[i] = NAN;
	rs->values = v;
	return STATUS_OK;
}

/* Copy the names of the union nodes run `m` made (rs->n_nodes up to
 * `n`) into the builder: node i stays node i. */
static enum status copy_nodes(struct runset *rs, const struct model *m,
			      const struct diff_node *un, uint32_t n,
			      struct error *err)
{
	for (uint32_t i = rs->n_nodes ? rs->n_nodes : 1; i < n; i++) {
		const struct model_node *src = &model_nodes(m)[un[i].rep[0]];
		const struct model_function *f =
		    src->function < model_n_functions(m)
			? &model_functions(m)[src->function]
			: NULL;
		struct model_node nd = *src;
		const char *name = model_str(m, src->name ? src->name
						: f	  ? f->name
							  : 0);
		const char *file = model_str(m, src->file ? src->file
						: f	  ? f->file
							  : 0);
		const char *module = model_str(m, src->module ? src->module
						  : f	    ? f->module
							    : 0);
		nd.ctx_id = i;
		nd.traits = 0;
		nd.flags = 0;
		nd.function = MODEL_NONE;
		if (rs->match == DIFF_MATCH_FUNCTION) {
			if (nd.kind == NODE_ENTRY)
				nd.kind = NODE_FUNCTION;
			nd.relation = RELATION_CALL;
		}
		nd.name = model_builder_intern(rs->b, name, strlen(name));
		nd.file = model_builder_intern(rs->b, file, strlen(file));
		nd.module = model_builder_intern(rs->b, module, strlen(module));
		if (nd.name == MODEL_NONE || nd.file == MODEL_NONE ||
		    nd.module == MODEL_NONE ||
		    model_builder_add_node(rs->b, un[i].parent, &nd) != i)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	return STATUS_OK;
}

static void add_one(struct runset *rs, uint32_t node, size_t k, uint32_t r,
		    double x)
{
	double *v = &rs->values[((size_t)node * rs->n_metrics + k) *
				    rs->n_runs +
				r];
	*v = (isnan(*v) ? 0 : *v) + x;
}

/* One metric's values of run `r` into the set (through the run's node
 * map). */
struct run_adder {
	struct runset *rs;
	const uint32_t *map;
	size_t k;
	uint32_t r;
	double scale;
};

static void add_run_value(void *ctx, uint32_t node, double v)
{
	const struct run_adder *a = ctx;
	add_one(a->rs, a->map[node], a->k, a->r, v * a->scale);
}

/* Add run `r`'s values of every metric through `map`. */
static enum status add_values(struct runset *rs, const struct model *m,
			      uint32_t r, bool skip, const uint32_t *map,
			      struct error *err)
{
	enum status st = STATUS_OK;
	for (size_t k = 0; k < rs->n_metrics && st == STATUS_OK; k++) {
		const struct diff_metric *p = &rs->pairs[k];
		struct run_adder a = {rs, map, k, r, r ? p->scale_new : 1};
		st = diff_column_each(m, p->col[r ? 1 : 0][rs->scope[k]], skip,
				      add_run_value, &a, err);
	}
	return st;
}

/* Whether some run of the set has no entry points under its root: the
 * runs that have them leave them out (as diff_build does), known only
 * for the runs seen so far -- so the first run decides. */
static bool skip_entries(const struct runset *rs, const struct model *m)
{
	return diff_run_has_entries(m) && rs->first &&
	       !diff_run_has_entries(rs->first);
}

static enum status add_meta(struct runset_run *run, const struct model *m,
			    const char *path, const double *coords,
			    uint32_t n_params, struct error *err)
{
	run->path = strdup(path);
	run->format = strdup(model_format(m) ? model_format(m) : "");
	run->title = model_title(m) ? strdup(model_title(m)) : NULL;
	run->n_nodes = model_n_nodes(m);
	if (coords && n_params) {
		run->coords = malloc(n_params * sizeof(double));
		if (run->coords)
			memcpy(run->coords, coords, n_params * sizeof(double));
	}
	if (!run->path || !run->format || (model_title(m) && !run->title) ||
	    (coords && n_params && !run->coords))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	return STATUS_OK;
}

/* Function mode: the flat view's function rows (frames, below its module
 * and file rows; not their loops and lines, which are their own) and
 * their model nodes. */
static enum status flat_rows(struct view *v, const struct model *m,
			     uint32_t **rows, uint32_t **nodes, size_t *n,
			     struct error *err)
{
	size_t cap = 64, top = 0, rcap = 64;
	uint32_t *stack = malloc(cap * sizeof(*stack));
	enum status st = STATUS_OK;
	*rows = malloc(rcap * sizeof(**rows));
	*nodes = malloc(rcap * sizeof(**nodes));
	*n = 0;
	if (!stack || !*rows || !*nodes)
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	else
		stack[top++] = view_root(v);
	while (top > 0 && st == STATUS_OK) {
		uint32_t row = stack[--top], *kids = NULL;
		struct view_node vn;
		size_t nk = 0;
		if (!view_node_get(v, row, &vn))
			continue;
		if (row != view_root(v) && vn.kind < VIEW_ROW_MODULE &&
		    model_kind_is_frame(vn.kind) && vn.model_node < model_n_nodes(m)) {
			size_t ncap = rcap;
			if (!array_grow((void **)rows, &rcap, *n + 1,
					sizeof(**rows)) ||
			    !array_grow((void **)nodes, &ncap, *n + 1,
					sizeof(**nodes)))
				st = error_set(err, STATUS_NOMEM, NULL,
					       "out of memory");
			else {
				(*rows)[*n] = row;
				(*nodes)[(*n)++] = vn.model_node;
			}
			continue;
		}
		st = view_children(v, row, MODEL_NONE, false, &kids, &nk, err);
		if (st == STATUS_OK &&
		    !array_push_reversed_u32(&stack, &top, &cap, kids, nk))
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		free(kids);
	}
	free(stack);
	return st;
}

/* Function mode: match run `r`'s function rows and add their values
 * (the root's: the run's totals). */
static enum status add_functions(struct runset *rs, const struct model *m,
				 uint32_t r, struct error *err)
{
	struct view *v = NULL;
	uint32_t *rows = NULL, *nodes = NULL, *map = NULL, n_union = 0;
	size_t n = 0;
	enum status st = view_new(m, VIEW_FLAT, &v, err);
	if (st == STATUS_OK)
		st = flat_rows(v, m, &rows, &nodes, &n, err);
	if (st == STATUS_OK)
		st = diff_union_add_functions(rs->u, m, nodes, n, &map, err);
	const struct diff_node *un = diff_union_nodes(rs->u, &n_union);
	if (st == STATUS_OK)
		st = copy_nodes(rs, m, un, n_union, err);
	if (st == STATUS_OK)
		st = grow_values(rs, n_union, err);
	if (st == STATUS_OK)
		rs->n_nodes = n_union;
	for (size_t k = 0; st == STATUS_OK && k < rs->n_metrics; k++) {
		const struct diff_metric *p = &rs->pairs[k];
		uint32_t c = p->col[r ? 1 : 0][rs->scope[k]];
		double scale = r ? p->scale_new : 1, x;
		if (model_value(m, 0, c, &x))
			add_one(rs, 0, k, r, x * scale);
		for (size_t i = 0; i < n; i++)
			if (view_value(v, rows[i], c, &x))
				add_one(rs, map[i], k, r, x * scale);
	}
	free(rows);
	free(nodes);
	free(map);
	view_free(v);
	return st;
}

enum status runset_add(struct runset *rs, struct model *m, const char *path,
		       const double *coords, struct error *err)
{
	uint32_t r = rs->n_added;
	uint32_t *map = NULL;
	enum status st;
	if (r >= rs->n_runs) {
		model_free(m);
		return error_set(err, STATUS_USAGE, path, "one run too many");
	}
	st = r == 0 ? first_metrics(rs, m, err) : pair_metrics(rs, m, err);
	bool skip = skip_entries(rs, m);
	if (st == STATUS_OK)
		st = add_meta(&rs->runs[r], m, path, coords, rs->n_params, err);
	if (st == STATUS_OK && rs->match == DIFF_MATCH_FUNCTION) {
		st = add_functions(rs, m, r, err);
		goto done;
	}
	if (st == STATUS_OK)
		st = diff_union_add(rs->u, m, skip, &map, err);
	uint32_t n = 0;
	const struct diff_node *un = diff_union_nodes(rs->u, &n);
	if (st == STATUS_OK)
		st = copy_nodes(rs, m, un, n, err);
	if (st == STATUS_OK)
		st = grow_values(rs, n, err);
	if (st == STATUS_OK) {
		rs->n_nodes = n;
		st = add_values(rs, m, r, skip, map, err);
	}
done:
	free(map);
	if (r == 0 && st == STATUS_OK)
		rs->first = m;
	else
		model_free(m);
	if (st == STATUS_OK)
		rs->n_added++;
	return st;
}

enum status runset_finish(struct runset *rs, struct error *err)
{
	size_t nk = (size_t)rs->n_nodes * rs->n_metrics;
	double *scratch = malloc((2 * (size_t)rs->n_runs + 1) * sizeof(double));
	rs->stats = malloc((nk ? nk : 1) * RUNSET_N_STATS * sizeof(double));
	enum status st = STATUS_OK;
	if (!scratch || !rs->stats)
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	for (size_t i = 0; i < nk && st == STATUS_OK; i++)
		st = runset_stats_of(&rs->values[i * rs->n_runs], rs->n_runs,
				     scratch, &rs->stats[i * RUNSET_N_STATS],
				     err);
	free(scratch);
	return st;
}

bool runset_value(const struct runset *rs, uint32_t node, size_t k,
		  uint32_t run, double *out)
{
	if (node >= rs->n_nodes || k >= rs->n_metrics || run >= rs->n_runs)
		return false;
	double v = rs->values[((size_t)node * rs->n_metrics + k) * rs->n_runs +
			      run];
	*out = v;
	return !isnan(v);
}

bool runset_stat(const struct runset *rs, uint32_t node, size_t k,
		 enum runset_stat s, double *out)
{
	if (!rs->stats || node >= rs->n_nodes || k >= rs->n_metrics ||
	    s >= RUNSET_N_STATS)
		return false;
	double v = rs->stats[((size_t)node * rs->n_metrics + k) *
			     RUNSET_N_STATS + s];
	*out = v;
	return !isnan(v);
}
