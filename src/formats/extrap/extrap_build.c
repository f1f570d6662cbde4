/* extrap_build: the common model of an Extra-P set, built from the
 * collection (extrap_set.h): parameters, points sorted by coordinate tuple
 * (lexicographically, as Extra-P sorts them), the call tree from the
 * callpaths split on "->", a column per metric declared measured, the
 * measurements, a profile per point and the value provider (column value:
 * the mean at the last point; per-profile value: the mean at the profile's
 * point).  Also the number parser the text formats share.  Must not depend
 * on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap_set.h"
#include "core/array.h"
#include "core/strbuf.h"
#include "formats/extrap/extrap_set_internal.h"
#include "analysis/measure_stats.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the value provider -------------------------------------------- */

struct xvalues {
	const struct model *m; /* set once the model is finished */
	uint32_t last;         /* the last point */
};

static bool xv_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
		       double *out)
{
	const struct xvalues *v = impl;
	const struct model_measure *ms =
		v->m ? model_measure_at(v->m, ctx_id, stat_id, v->last) : NULL;
	if (!ms)
		return false;
	*out = ms->mean;
	return true;
}

static enum status xv_per_profile(void *impl, uint32_t ctx_id,
				  uint32_t prop_id, struct profile_value **out,
				  size_t *n, struct error *err)
{
	const struct xvalues *v = impl;
	*out = NULL;
	*n = 0;
	if (!v->m || model_n_points(v->m) == 0)
		return STATUS_OK;
	struct profile_value *pv = malloc(model_n_points(v->m) * sizeof(*pv));
	if (!pv)
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	size_t k = 0;
	/* profile p is point p */
	for (uint32_t p = 0; p < model_n_points(v->m); p++) {
		const struct model_measure *ms =
			model_measure_at(v->m, ctx_id, prop_id, p);
		if (ms && ms->mean != 0)
			pv[k++] = (struct profile_value){p, ms->mean};
	}
	if (k == 0) {
		FREE_AND_NULL(pv);
	}
	*out = pv;
	*n = k;
	return STATUS_OK;
}

static void xv_close(void *impl)
{
	free(impl);
}

static const struct value_ops xvalue_ops = {
	.summary = xv_summary,
	.per_profile = xv_per_profile,
	.close = xv_close,
};

/* ---- the build ------------------------------------------------------ */

struct build {
	struct extrap_set *s;
	struct model_builder *b;
	const char *path;
	struct error *err;
	uint32_t *rank;     /* collection point -> model point */
	uint32_t *cp_node;  /* callpath -> node */
	uint32_t *fn_of;    /* string handle -> function + 1 */
	uint32_t fn_cap;
	struct xmap children; /* (parent, name) -> node */
	struct model_measure *ms; /* cell -> its measurement */
	bool *keep;               /* cell -> still there (merges) */
	bool *cp_used;            /* callpath -> in the tree */
};

/* A point to sort: it carries its coordinates, so that the comparison
 * needs no file-scope state (readers may run in several threads). */
struct point_ref {
	const double *c;
	uint32_t np, index;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point_ref *x = a, *y = b;
	for (uint32_t j = 0; j < x->np; j++)
		if (x->c[j] != y->c[j])
			return x->c[j] < y->c[j] ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static enum status nomem(struct build *d)
{
	return error_set(d->err, STATUS_NOMEM, d->path, "out of memory");
}

static enum status build_points(struct build *d)
{
	struct extrap_set *s = d->s;
	for (uint32_t i = 0; i < s->params.n; i++)
		if (model_builder_add_param(d->b, s->params.v[i]) != i)
			return nomem(d);
	struct point_ref *order =
		malloc(((size_t)s->n_points + 1) * sizeof(*order));
	d->rank = malloc(((size_t)s->n_points + 1) * sizeof(*d->rank));
	if (!order || !d->rank) {
		free(order);
		return nomem(d);
	}
	for (uint32_t i = 0; i < s->n_points; i++)
		order[i] = (struct point_ref){
			s->coords + (size_t)i * s->params.n, s->params.n, i};
	qsort(order, s->n_points, sizeof(*order), cmp_point);
	enum status st = STATUS_OK;
	for (uint32_t i = 0; i < s->n_points && st == STATUS_OK; i++) {
		const double *c = order[i].c;
		d->rank[order[i].index] = i;
		if (model_builder_add_point(d->b, c, s->params.n) != i) {
			st = nomem(d);
			break;
		}
		/* the point's profile: "p=64 n=10" */
		struct strbuf lb = {0};
		for (uint32_t j = 0; j < s->params.n; j++)
			strbuf_addf(&lb, "%s%s=%.15g", j ? " " : "",
				    s->params.v[j], c[j]);
		char *label = strbuf_take(&lb);
		uint32_t prof = label ? model_builder_add_profile(
						d->b, false, NULL, 0, label)
				      : MODEL_NONE;
		free(label);
		if (prof != i || !model_builder_set_profile_point(d->b, prof, i, 0))
			st = nomem(d);
	}
	free(order);
	return st;
}

struct child_key {
	const struct model *m;
	uint32_t parent, name;
};

static bool child_eq(const void *ctx, uint32_t i)
{
	const struct child_key *k = ctx;
	return model_nodes(k->m)[i].parent == k->parent &&
	       model_nodes(k->m)[i].name == k->name;
}

static uint32_t child_hash(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

static uint32_t function_of(struct build *d, uint32_t name)
{
	if (name >= d->fn_cap) {
		uint32_t ncap = d->fn_cap ? d->fn_cap : 256;
		while (ncap <= name && ncap < UINT32_MAX / 2)
			ncap *= 2;
		if (ncap <= name)
			return MODEL_NONE;
		uint32_t *g = realloc(d->fn_of, ncap * sizeof(*g));
		if (!g)
			return MODEL_NONE;
		memset(g + d->fn_cap, 0, (ncap - d->fn_cap) * sizeof(*g));
		d->fn_of = g;
		d->fn_cap = ncap;
	}
	if (!d->fn_of[name]) {
		struct model_function f = {.name = name};
		uint32_t fn = model_builder_add_function(d->b, &f);
		if (fn == MODEL_NONE)
			return MODEL_NONE;
		d->fn_of[name] = fn + 1;
	}
	return d->fn_of[name] - 1;
}

/* The node of one callpath: each "->" segment a child, made when new. */
static enum status build_callpath(struct build *d, uint32_t cp)
{
	const char *p = d->s->cps.v[cp], *end = p + d->s->cps.len[cp];
	uint32_t parent = 0;
	for (;;) {
		const char *arrow = NULL;
		for (const char *q = p; q + 1 < end; q++)
			if (q[0] == '-' && q[1] == '>') {
				arrow = q;
				break;
			}
		const char *seg_end = arrow ? arrow : end;
		uint32_t name = model_builder_intern(d->b, p,
						     (size_t)(seg_end - p));
		if (name == MODEL_NONE)
			return nomem(d);
		struct child_key k = {model_builder_peek(d->b), parent, name};
		uint32_t h = child_hash(parent, name);
		uint32_t node = xmap_find(&d->children, h, child_eq, &k);
		if (node == MODEL_NONE) {
			uint32_t fn = function_of(d, name);
			if (fn == MODEL_NONE)
				return nomem(d);
			uint32_t next = model_n_nodes(model_builder_peek(d->b));
			struct model_node nd = {
				.ctx_id = next,
				.name = name,
				.function = fn,
				.kind = NODE_REGION,
				.relation = parent ? RELATION_CALL
						   : RELATION_NONE,
			};
			node = model_builder_add_node(d->b, parent, &nd);
			if (node != next || !xmap_put(&d->children, h, node))
				return nomem(d);
		}
		parent = node;
		if (!arrow)
			break;
		p = arrow + 2;
	}
	d->cp_node[cp] = parent;
	return STATUS_OK;
}

static enum status build_columns(struct build *d)
{
	struct extrap_set *s = d->s;
	uint32_t scope = model_builder_intern(d->b, "point", 5);
	uint32_t formula = model_builder_intern(d->b, "$$", 2);
	for (uint32_t i = 0; i < s->metrics.n; i++) {
		uint32_t name = model_builder_intern(d->b, s->metrics.v[i],
						     s->metrics.len[i]);
		struct model_stat st = {
			.metric = name, .scope = scope, .formula = formula,
			.combine = COMBINE_SUM, .stat_id = i, .prop_id = i,
		};
		uint32_t stat = model_builder_add_stat(d->b, &st);
		if (name == MODEL_NONE || stat == MODEL_NONE)
			return nomem(d);
		struct model_leaf_column c = {
			.name = s->metrics.len[i] ? s->metrics.v[i] : "value",
			.variant = "",
			.description =
				s->exclusive
					? "Extra-P measurement: the mean of the "
					  "repetitions at the last point (the "
					  "largest coordinates) of the call "
					  "path's exclusive values, as Extra-P "
					  "reads them; per profile, at each "
					  "point"
					: "Extra-P measurement: the mean of the "
					  "repetitions at the last point (the "
					  "largest coordinates); per profile, "
					  "at each point",
			.format = "%.4g",
			.stat = stat,
			.kind = s->exclusive ? COLUMN_EXCLUSIVE
					     : COLUMN_INCLUSIVE,
			.render = RENDER_NUMBER,
			.visible = true,
		};
		uint32_t col = model_builder_add_leaf_column(d->b, &c);
		if (col == MODEL_NONE)
			return nomem(d);
		if (model_builder_add_measured(d->b, col) != i)
			return nomem(d);
	}
	return STATUS_OK;
}

/* Every cell's measurement (measure_stats_of over its values, or the
 * stored aggregates) into d->ms, and which cells stay (d->keep): all, or
 * after Extra-P's merge of incomplete callpaths (Cube sets), which must
 * then leave every pair at every point. */
static enum status measure_cells(struct build *d)
{
	struct extrap_set *s = d->s;
	d->ms = calloc((size_t)s->n_cells + 1, sizeof(*d->ms));
	d->keep = calloc((size_t)s->n_cells + 1, sizeof(*d->keep));
	d->cp_used = calloc((size_t)s->cps.n + 1, sizeof(*d->cp_used));
	if (!d->ms || !d->keep || !d->cp_used)
		return nomem(d);
	for (uint32_t i = 0; i < s->n_cells; i++) {
		struct cell *c = &s->cells[i];
		d->cp_used[c->cp] = true;
		if (c->stored) {
			d->ms[i] = c->m;
		} else if (c->n == 0) {
			continue;
		} else {
			enum status st = measure_stats_of(c->v, c->n, &d->ms[i],
							  d->err);
			if (st != STATUS_OK)
				return st;
			if (c->rows)
				d->ms[i].repetitions = c->rows;
		}
		d->keep[i] = true;
	}
	for (uint32_t i = 0; i < s->cps.n; i++)
		d->cp_used[i] |= !s->merge_incomplete;
	for (size_t i = 0; i < s->n_models; i++)
		d->cp_used[s->models[i].cp] = true;
	if (!s->merge_incomplete)
		return STATUS_OK;
	if (!extrap_merge_incomplete(s, d->ms, d->keep, d->cp_used))
		return nomem(d);
	/* Extra-P's validation after the merge */
	return extrap_check_pairs(s, d->keep, d->path,
				  " after merging call trees", d->err);
}

static enum status build_measures(struct build *d)
{
	struct extrap_set *s = d->s;
	for (uint32_t i = 0; i < s->n_cells; i++) {
		struct cell *c = &s->cells[i];
		if (d->keep[i] &&
		    !model_builder_set_measure(d->b, d->cp_node[c->cp],
					       c->metric, d->rank[c->point],
					       &d->ms[i]))
			return nomem(d);
	}
	for (uint32_t i = 0; i < s->sets.n; i++)
		if (model_builder_add_stored_set(d->b, s->sets.v[i]) != i)
			return nomem(d);
	for (size_t i = 0; i < s->n_models; i++) {
		struct smodel *sm = &s->models[i];
		if (!model_builder_set_stored_model(d->b, sm->set,
						    d->cp_node[sm->cp],
						    sm->metric, &sm->model))
			return nomem(d);
	}
	return STATUS_OK;
}

enum status extrap_set_build(struct extrap_set *s, const char *format,
			     const char *path, struct model **out,
			     struct error *err)
{
	*out = NULL;
	if (s->nomem)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	struct build d = {.s = s, .path = path, .err = err};
	struct xvalues *xv = calloc(1, sizeof(*xv));
	d.b = model_builder_new(format, path);
	d.cp_node = malloc(((size_t)s->cps.n + 1) * sizeof(*d.cp_node));
	enum status st = STATUS_OK;
	if (!d.b || !xv || !d.cp_node) {
		free(xv);
		st = nomem(&d);
		goto out;
	}
	st = measure_cells(&d);
	if (st != STATUS_OK) {
		free(xv);
		goto out;
	}
	model_builder_set_values(d.b, &xvalue_ops, xv);
	/* the cells are in the order each (callpath, metric, point) was
	 * first added, and build_measures sets them in that order */
	if (s->file_order)
		model_builder_keep_measure_order(d.b);
	for (uint32_t i = 0; i < s->n_warnings; i++)
		model_builder_add_warning(d.b, s->warnings[i]);
	xv->last = s->n_points ? s->n_points - 1 : 0;
	st = build_points(&d);
	for (uint32_t i = 0; i < s->cps.n && st == STATUS_OK; i++)
		if (d.cp_used[i])
			st = build_callpath(&d, i);
	if (st == STATUS_OK)
		st = build_columns(&d);
	if (st == STATUS_OK)
		st = build_measures(&d);
	if (st == STATUS_OK) {
		struct model *m = model_builder_finish(d.b, err);
		d.b = NULL;
		if (!m) {
			st = STATUS_NOMEM;
		} else {
			xv->m = m;
			*out = m;
		}
	}
out:
	model_builder_free(d.b);
	free(d.rank);
	free(d.cp_node);
	free(d.fn_of);
	free(d.children.slots);
	free(d.ms);
	free(d.keep);
	free(d.cp_used);
	return st;
}

bool extrap_parse_double(const char *text, size_t len, double *out)
{
	while (len && isspace((unsigned char)*text)) {
		text++;
		len--;
	}
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (len == 0 || len > 400)
		return false;
	char buf[416];
	size_t k = 0;
	bool digit = false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '_') {
			/* Python: one underscore between digits */
			if (i == 0 || i + 1 == len ||
			    !isdigit((unsigned char)text[i - 1]) ||
			    !isdigit((unsigned char)text[i + 1]))
				return false;
			continue;
		}
		if (isdigit((unsigned char)c))
			digit = true;
		else if (!strchr("+-.eEinfatyINFATY", c))
			return false;
		buf[k++] = c;
	}
	buf[k] = '\0';
	if (!digit) {
		/* inf, infinity, nan with a sign, any case */
		const char *w = buf + (buf[0] == '+' || buf[0] == '-');
		if (strcasecmp(w, "inf") && strcasecmp(w, "infinity") &&
		    strcasecmp(w, "nan"))
			return false;
	} else if (strpbrk(buf, "infatyINFATY") &&
		   !strpbrk(buf, "eE")) {
		return false;
	}
	char *end = NULL;
	double v = strtod(buf, &end);
	if (end != buf + k)
		return false;
	*out = v;
	return true;
}

enum status extrap_set_finish(struct extrap_set *s, const char *format,
			      const char *path, struct model **out,
			      struct error *err)
{
	enum status st = extrap_set_validate(s, path, err);
	if (st != STATUS_OK)
		return st;
	return extrap_set_build(s, format, path, out, err);
}
