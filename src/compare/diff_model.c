/* diff_model: the merged tree of two runs as a model (diff_model.h). */
#include "config.h"

#include "compare/diff_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *diff_role_name(enum diff_role role)
{
	static const char *const names[] = {"base", "new", "delta", "delta%",
					    "ratio"};
	return role < DIFF_N_ROLES ? names[role] : "";
}

uint32_t diff_model_column(const struct diff *d, size_t k,
			   enum diff_scope scope, enum diff_role role)
{
	uint32_t c = 0;
	for (size_t i = 0; i < d->n_metrics; i++)
		for (int s = 0; s < 2; s++) {
			if (!diff_has_scope(d, i, (enum diff_scope)s))
				continue;
			if (i == k && s == (int)scope)
				return c + (uint32_t)role;
			c += DIFF_N_ROLES;
		}
	return MODEL_NONE;
}

bool diff_model_column_of(const struct diff *d, uint32_t c, size_t *k,
			  enum diff_scope *scope, enum diff_role *role)
{
	uint32_t first = 0;
	for (size_t i = 0; i < d->n_metrics; i++)
		for (int s = 0; s < 2; s++) {
			if (!diff_has_scope(d, i, (enum diff_scope)s))
				continue;
			if (c < first + DIFF_N_ROLES) {
				*k = i;
				*scope = (enum diff_scope)s;
				*role = (enum diff_role)(c - first);
				return true;
			}
			first += DIFF_N_ROLES;
		}
	return false;
}

/* new - base, 0 when they differ by rounding only (the last bits of one
 * value stored by two runs: "8.88e-16" would read as a change) */
static double delta_of(double b, double n)
{
	double dv = n - b;
	return fabs(dv) <= 1e-12 * fmax(fabs(b), fabs(n)) ? 0.0 : dv;
}

bool diff_role_value(const struct diff *d, uint32_t node, size_t k,
		     enum diff_scope scope, enum diff_role role, double *out)
{
	double b = 0, n = 0;
	bool hb = diff_value(d, node, k, scope, DIFF_BASE, &b);
	bool hn = diff_value(d, node, k, scope, DIFF_NEW_RUN, &n);
	switch (role) {
	case DIFF_ROLE_BASE:
		*out = b;
		return hb;
	case DIFF_ROLE_NEW:
		*out = n;
		return hn;
	case DIFF_ROLE_DELTA:
		*out = delta_of(b, n);
		return hb || hn;
	case DIFF_ROLE_PERCENT:
		if (!d->has_total[k] || !(hb || hn))
			return false;
		*out = delta_of(b, n) / d->base_total[k] * 100.0;
		return true;
	case DIFF_ROLE_RATIO:
		if (!hb || !hn || b == 0)
			return false;
		*out = n / b;
		return true;
	default:
		return false;
	}
}

/* The value provider: stat_id = column index. */
static bool dm_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
		       double *out)
{
	const struct diff *d = impl;
	size_t k;
	enum diff_scope scope;
	enum diff_role role;
	return diff_model_column_of(d, stat_id, &k, &scope, &role) &&
	       diff_role_value(d, ctx_id, k, scope, role, out);
}

static void dm_close(void *impl)
{
	diff_free(impl);
}

static const struct value_ops dm_ops = {
    .summary = dm_summary,
    .close = dm_close,
};

/* Per run: model string handle -> the merged model's (+ 1). */
struct strmap {
	uint32_t *to[2];
};

static uint32_t copy_str(struct model_builder *b, struct strmap *sm, int run,
			 const struct model *m, uint32_t h)
{
	if (h == 0 || h >= model_n_strings(m))
		return 0;
	if (sm->to[run][h])
		return sm->to[run][h] - 1;
	const char *s = model_str(m, h);
	uint32_t id = model_builder_intern(b, s, strlen(s));
	if (id != MODEL_NONE)
		sm->to[run][h] = id + 1;
	return id;
}

/* The slot of a function key: its top bits (a name's handle is in the
 * high half, so the low bits of a product would see only the module). */
static size_t fn_slot(uint64_t key, size_t mask)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;
	return (size_t)((h ^ h >> 32) * 0xbf58476d1ce4e5b9ULL >> 20) & mask;
}

/* Functions of the merged model by (name, module) handle. */
struct fntab {
	uint64_t *keys; /* (name << 32 | module) */
	uint32_t *ids;	/* function + 1, 0 empty */
	size_t mask;
	uint32_t n;
};

static uint32_t fn_of(struct model_builder *b, struct fntab *ft, uint32_t name,
		      uint32_t module, uint32_t file, uint32_t line)
{
	if (!ft->keys || (size_t)ft->n * 2 >= ft->mask + 1) {
		size_t size = ft->keys ? (ft->mask + 1) * 2 : 1024;
		uint64_t *keys = calloc(size, sizeof(*keys));
		uint32_t *ids = calloc(size, sizeof(*ids));
		if (!keys || !ids) {
			free(keys);
			free(ids);
			return MODEL_NONE;
		}
		for (size_t i = 0; ft->keys && i <= ft->mask; i++) {
			if (!ft->ids[i])
				continue;
			size_t j = fn_slot(ft->keys[i], size - 1);
			while (ids[j])
				j = (j + 1) & (size - 1);
			keys[j] = ft->keys[i];
			ids[j] = ft->ids[i];
		}
		free(ft->keys);
		free(ft->ids);
		ft->keys = keys;
		ft->ids = ids;
		ft->mask = size - 1;
	}
	uint64_t key = (uint64_t)name << 32 | module;
	size_t j = fn_slot(key, ft->mask);
	for (; ft->ids[j]; j = (j + 1) & ft->mask)
		if (ft->keys[j] == key)
			return ft->ids[j] - 1;
	struct model_function f = {
	    .name = name, .module = module, .file = file, .line = line};
	uint32_t id = model_builder_add_function(b, &f);
	if (id == MODEL_NONE)
		return MODEL_NONE;
	ft->keys[j] = key;
	ft->ids[j] = id + 1;
	ft->n++;
	return id;
}

static bool add_columns(struct model_builder *b, const struct diff *d)
{
	int shown = diff_has_scope(d, 0, DIFF_INCLUSIVE) ? DIFF_INCLUSIVE
							 : DIFF_EXCLUSIVE;
	const struct model *base = d->run[0];
	uint32_t scope = model_builder_intern(b, "diff", 4);
	uint32_t formula = model_builder_intern(b, "$$", 2);
	for (size_t k = 0; k < d->n_metrics; k++)
		for (int s = 0; s < 2; s++) {
			if (!diff_has_scope(d, k, (enum diff_scope)s))
				continue;
			const struct model_column *bc =
			    &model_columns(base)[d->metrics[k].col[0][s]];
			uint32_t first = diff_model_column(
			    d, k, (enum diff_scope)s, DIFF_ROLE_BASE);
			/* codes (a Cube SCALE_FUNC ranking code) do not add
			 * up: a flat row of several paths has none */
			bool code = model_column_is_code(
			    base, d->metrics[k].col[0][s]);
			for (int r = 0; r < DIFF_N_ROLES; r++) {
				struct model_stat st = {
				    .metric = model_builder_intern(
					b, bc->name, strlen(bc->name)),
				    .scope = scope,
				    .formula = formula,
				    .combine = COMBINE_SUM,
				    .stat_id = first + (uint32_t)r,
				    .prop_id = MODEL_NONE,
				    .flags = code ? STAT_NO_AGGREGATE : 0,
				};
				uint32_t si = model_builder_add_stat(b, &st);
				if (si != first + (uint32_t)r)
					return false;
				/* the variant, but for "Sum" (every HPCToolkit
				 * metric's), then the run or role */
				const char *bv = bc->variant ? bc->variant : "";
				if (strcmp(bv, "Sum") == 0)
					bv = "";
				const char *role =
				    r == DIFF_ROLE_PERCENT
					? "delta% of base total"
					: diff_role_name((enum diff_role)r);
				struct model_column col = {
				    .kind = s == DIFF_INCLUSIVE
						? COLUMN_INCLUSIVE
						: COLUMN_EXCLUSIVE,
				    .render = RENDER_NUMBER,
				    .unit = r < DIFF_ROLE_PERCENT ? bc->unit
								  : UNIT_NUMBER,
				    .visible = k == 0 && s == shown &&
					       r != DIFF_ROLE_RATIO,
				    .pair = MODEL_NONE,
				    .parent = MODEL_NONE,
				};
				col.name = strdup(bc->name);
				if (asprintf(&col.variant, "%s%s%s", bv,
					     *bv ? " " : "", role) < 0)
					col.variant = NULL;
				col.format =
				    strdup(r == DIFF_ROLE_PERCENT ? "%.2f"
					   : r == DIFF_ROLE_RATIO ? "%.3f"
					   : bc->format		  ? bc->format
								  : "%.2e");
				col.expr = formula_leaf(si);
				if (r == DIFF_ROLE_RATIO && !code) {
					/* flat rows: the ratio of the sums */
					struct formula **args =
					    malloc(2 * sizeof(*args));
					if (args) {
						args[0] = formula_leaf(si - 3);
						args[1] = formula_leaf(si - 4);
					}
					col.expr_standard =
					    args ? formula_node(FORMULA_DIV,
								args, 2)
						 : NULL;
					col.combine_leaves = true;
					if (!col.expr_standard)
						return false;
				}
				if (!col.name || !col.variant || !col.format ||
				    !col.expr ||
				    model_builder_add_column(b, &col) ==
					MODEL_NONE)
					return false;
			}
		}
	return true;
}

/* The node's name, marked: interned anew (not through the run's
 * handle map, which the unmarked name keeps). */
static uint32_t marked_name(struct model_builder *b, const char *mark,
			    const char *name)
{
	char *s = NULL;
	if (asprintf(&s, "%s%s", mark, name) < 0)
		return MODEL_NONE;
	uint32_t id = model_builder_intern(b, s, strlen(s));
	free(s);
	return id;
}

struct model *diff_model_new(struct diff *d, const char *path, bool mark,
			     struct error *err)
{
	struct model_builder *b = model_builder_new("diff", path);
	struct strmap sm = {{NULL, NULL}};
	struct fntab ft = {0};
	bool ok = b != NULL;
	for (int r = 0; r < 2 && ok; r++) {
		sm.to[r] = calloc(model_n_strings(d->run[r]) + 1, sizeof(uint32_t));
		ok = sm.to[r] != NULL;
	}
	if (ok) {
		model_builder_set_title(b, path, NULL);
		ok = add_columns(b, d);
	}
	for (uint32_t i = 1; ok && i < d->n_nodes; i++) {
		const struct diff_node *dn = &d->nodes[i];
		int run = dn->rep[0] != MODEL_NONE ? 0 : 1;
		const struct model *m = d->run[run];
		const struct model_node *src = &model_nodes(m)[dn->rep[run]];
		const struct model_function *f =
		    src->function < model_n_functions(m)
			? &model_functions(m)[src->function]
			: NULL;
		struct model_node nd = *src;
		nd.ctx_id = i;
		nd.traits = 0;
		nd.flags = 0;
		nd.name = copy_str(b, &sm, run, m,
				   src->name ? src->name
				   : f	     ? f->name
					     : 0);
		nd.file = copy_str(b, &sm, run, m, src->file);
		nd.module = copy_str(b, &sm, run, m, src->module);
		nd.function = MODEL_NONE;
		if (d->match == DIFF_MATCH_FUNCTION && nd.kind == NODE_ENTRY)
			nd.kind = NODE_FUNCTION;
		if (f) {
			uint32_t fname = copy_str(b, &sm, run, m, f->name);
			uint32_t fmod = copy_str(b, &sm, run, m, f->module);
			uint32_t ffile = copy_str(b, &sm, run, m, f->file);
			if (fname == MODEL_NONE || fmod == MODEL_NONE ||
			    ffile == MODEL_NONE)
				ok = false;
			else
				nd.function =
				    fn_of(b, &ft, fname, fmod, ffile, f->line);
			ok = ok && nd.function != MODEL_NONE;
		}
		if (d->match == DIFF_MATCH_FUNCTION)
			nd.relation = RELATION_CALL;
		if (mark && dn->status != DIFF_BOTH && nd.name != MODEL_NONE &&
		    nd.name != 0)
			nd.name =
			    marked_name(b,
					dn->status == DIFF_NEW ? DIFF_MARK_NEW
							       : DIFF_MARK_GONE,
					model_str(m, src->name ? src->name
						     : f       ? f->name
							       : 0));
		ok = ok && nd.name != MODEL_NONE && nd.file != MODEL_NONE &&
		     nd.module != MODEL_NONE &&
		     model_builder_add_node(b, dn->parent, &nd) == i;
	}
	free(sm.to[0]);
	free(sm.to[1]);
	free(ft.keys);
	free(ft.ids);
	if (!ok) {
		model_builder_free(b);
		diff_free(d);
		error_set(err, STATUS_NOMEM, NULL, "out of memory");
		return NULL;
	}
	diff_forget_runs(d);
	model_builder_set_values(b, &dm_ops, d);
	return model_builder_finish(b, err);
}
