/* view: what every kind of view shares -- construction and dispatch to the
 * per-kind ops tables, the per-row value cache, sorting children by a
 * column, the hot path, and the helpers the aggregated views build on (the
 * function identities, the iterative tree walk; view_stat.c has how a row
 * of several contexts gets a column's value).  Must not depend on
 * curses, on ui/ or on any reader; never modifies the model. */
#include "config.h"

#include "views/view_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/hash.h"

static const struct view_ops *const kind_ops[] = {
	[VIEW_TOP_DOWN] = &view_top_down_ops,
	[VIEW_BOTTOM_UP] = &view_bottom_up_ops,
	[VIEW_FLAT] = &view_flat_ops,
};

static const struct {
	const char *name;
	enum view_kind kind;
} kind_names[] = {
	{.name = "top-down", .kind = VIEW_TOP_DOWN},
	{.name = "bottom-up", .kind = VIEW_BOTTOM_UP},
	{.name = "flat", .kind = VIEW_FLAT},
	{.name = "td", .kind = VIEW_TOP_DOWN},
	{.name = "cct", .kind = VIEW_TOP_DOWN},
	{.name = "bu", .kind = VIEW_BOTTOM_UP},
	{.name = "callers", .kind = VIEW_BOTTOM_UP},
};

const char *view_kind_name(enum view_kind k)
{
	switch (k) {
	case VIEW_TOP_DOWN:
	case VIEW_BOTTOM_UP:
	case VIEW_FLAT:
		return kind_ops[k]->name;
	}
	return "";
}

bool view_kind_parse(const char *name, enum view_kind *out)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]);
	     i++) {
		if (strcasecmp(name, kind_names[i].name) == 0) {
			*out = kind_names[i].kind;
			return true;
		}
	}
	return false;
}

enum status view_new(const struct model *m, enum view_kind kind,
		     struct view **out, struct error *err)
{
	struct view *v = NULL;
	enum status st = STATUS_OK;
	*out = NULL;
	if (!m || model_n_nodes(m) == 0) {
		st = error_set(err, STATUS_USAGE, NULL, "no model");
		goto out;
	}
	if ((unsigned)kind >= sizeof(kind_ops) / sizeof(kind_ops[0])) {
		st = error_set(err, STATUS_USAGE, model_path(m),
			       "unknown view kind %d", (int)kind);
		goto out;
	}
	/* the aggregated views group every context: a model with deferred
	 * subtrees loads them all first (model.h) */
	if (kind != VIEW_TOP_DOWN && model_deferred_pending(m) &&
	    (st = model_load_all(m, err)) != STATUS_OK)
		goto out;
	v = calloc(1, sizeof(*v));
	if (!v) {
		st = error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
		goto out;
	}
	v->m = m;
	v->ops = kind_ops[kind];
	if (v->ops->cache_values && model_n_columns(m)) {
		v->cache = calloc(model_n_columns(m), sizeof(*v->cache));
		v->dense = calloc(model_n_columns(m), sizeof(*v->dense));
		v->rule = calloc(model_n_columns(m), 1);
		v->stat_dense = calloc(model_n_stats(m) ? model_n_stats(m) : 1,
				       sizeof(*v->stat_dense));
		if (!v->cache || !v->dense || !v->rule || !v->stat_dense) {
			st = error_set(err, STATUS_NOMEM, model_path(m),
				       "out of memory");
			goto out;
		}
	}
	st = v->ops->open(v, err);
	if (st != STATUS_OK)
		goto out;
	*out = v;
	v = NULL;
out:
	if (v) {
		free(v->cache);
		free(v->dense);
		free(v->rule);
		free(v->stat_dense);
		free(v);
	}
	return st;
}

void view_free(struct view *v)
{
	if (!v)
		return;
	v->ops->close(v);
	if (v->cache) {
		for (uint32_t c = 0; c < model_n_columns(v->m); c++) {
			free(v->cache[c].value);
			free(v->cache[c].state);
		}
		free(v->cache);
	}
	if (v->dense) {
		for (uint32_t c = 0; c < model_n_columns(v->m); c++) {
			free(v->dense[c].value);
			free(v->dense[c].present);
		}
		free(v->dense);
	}
	if (v->stat_dense) {
		for (uint32_t i = 0; i < model_n_stats(v->m); i++) {
			free(v->stat_dense[i].value);
			free(v->stat_dense[i].present);
		}
		free(v->stat_dense);
	}
	free(v->rule);
	view_threads_free(v);
	free(v);
}

enum view_kind view_kind_of(const struct view *v)
{
	return v->ops->kind;
}

const struct model *view_model(const struct view *v)
{
	return v->m;
}

uint32_t view_root(const struct view *v)
{
	(void)v;
	return 0;
}

bool view_node_get(const struct view *v, uint32_t node,
		   struct view_node *out)
{
	if (!v || !v->ops->exists(v, node))
		return false;
	v->ops->node_get(v, node, out);
	return true;
}

char *view_node_label(const struct view *v, uint32_t node)
{
	if (!v || !v->ops->exists(v, node))
		return strdup("");
	return v->ops->label(v, node);
}

char *view_node_short_label(const struct view *v, uint32_t node)
{
	struct view_node vn;
	bool got = view_node_get(v, node, &vn);
	if (got && (vn.kind == NODE_LINE || vn.kind == NODE_LOOP ||
		    vn.kind == NODE_INSTRUCTION || vn.kind == NODE_ADDRESS))
		return model_node_short_label(v->m, vn.model_node);
	char *label = view_node_label(v, node);
	if (label && got &&
	    (vn.kind == VIEW_ROW_MODULE || vn.kind == VIEW_ROW_FILE)) {
		const char *slash = strrchr(label, '/');
		if (slash && slash[1])
			memmove(label, slash + 1, strlen(slash + 1) + 1);
	}
	return label;
}

bool view_value(struct view *v, uint32_t node, uint32_t column, double *out)
{
	if (!v || column >= model_n_columns(v->m) || !v->ops->exists(v, node))
		return false;
	if (!v->cache)
		return v->ops->value(v, node, column, out);
	struct view_cache_column *c = &v->cache[column];
	if (node < c->cap && c->state[node])
		goto cached;
	if (node >= c->cap) {
		uint64_t ncap = c->cap ? c->cap : 64;
		while (ncap <= node)
			ncap *= 2;
		if (ncap > UINT32_MAX)
			ncap = UINT32_MAX;
		double *nv = realloc(c->value, (size_t)ncap * sizeof(*nv));
		if (!nv)
			return false;
		c->value = nv;
		uint8_t *ns = realloc(c->state, (size_t)ncap);
		if (!ns)
			return false;
		c->state = ns;
		memset(ns + c->cap, 0, (size_t)(ncap - c->cap));
		c->cap = (uint32_t)ncap;
	}
	CHECK(node < c->cap);
	double val = 0;
	bool present = v->ops->value(v, node, column, &val);
	c->value[node] = present ? val : 0;
	c->state[node] = present ? 2 : 1;
cached:
	if (c->state[node] != 2)
		return false;
	*out = c->value[node];
	return true;
}

/* Fill `d` (at its first use) with per-node values put in the view's
 * order: `column` through its standard formula, or statistic `stat` when
 * `column` is MODEL_NONE. */
static const struct view_dense *dense_fill(struct view *v,
					   struct view_dense *d,
					   uint32_t column, uint32_t stat,
					   const uint32_t *order, uint32_t n)
{
	double *node_value = NULL;
	uint8_t *node_present = NULL;
	struct error err = {0};
	if (d->value || d->failed)
		goto out;
	size_t n_nodes = model_n_nodes(v->m);
	node_value = malloc(n_nodes * sizeof(*node_value));
	node_present = malloc(n_nodes);
	d->value = malloc(((size_t)n + 1) * sizeof(*d->value));
	d->present = malloc((size_t)n + 1);
	if (!node_value || !node_present || !d->value || !d->present ||
	    (column != MODEL_NONE
		     ? model_column_dense(v->m, column, true, node_value,
					  node_present, &err)
		     : model_stat_dense(v->m, stat, node_value, node_present,
					&err)) != STATUS_OK) {
		/* no error channel here: per-node lookups give the same */
		free(d->value);
		free(d->present);
		d->value = NULL;
		d->present = NULL;
		d->failed = true;
		goto out;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t x = order[k];
		/* the view's order holds model nodes */
		bool ok = ALWAYS(x < n_nodes) && node_present[x];
		d->value[k] = ok ? node_value[x] : 0;
		d->present[k] = ok;
	}
out:
	error_clear(&err);
	free(node_value);
	free(node_present);
	return d->value ? d : NULL;
}

const struct view_dense *view_dense_column(struct view *v, uint32_t column,
					   const uint32_t *order, uint32_t n)
{
	if (!v->dense || column >= model_n_columns(v->m))
		return NULL;
	return dense_fill(v, &v->dense[column], column, MODEL_NONE, order, n);
}

const struct view_dense *view_dense_stat(struct view *v, uint32_t stat,
					 const uint32_t *order, uint32_t n)
{
	if (!v->stat_dense || stat >= model_n_stats(v->m))
		return NULL;
	return dense_fill(v, &v->stat_dense[stat], MODEL_NONE, stat, order,
			  n);
}

/* ---- sorting ---------------------------------------------------------- */

struct sort_item {
	double key; /* the value, negated when sorting descending */
	uint32_t row;
	uint32_t id;
	bool present;
	char *label; /* computed only for rows tied on the value */
};

static int cmp_by_value(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	if (x->present != y->present)
		return x->present ? -1 : 1;
	if (x->present && x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return 0;
}

static int cmp_by_label(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int c = strcmp(x->label ? x->label : "", y->label ? y->label : "");
	if (c)
		return c;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

enum status view_children(struct view *v, uint32_t node, uint32_t column,
			  bool ascending, uint32_t **out, size_t *n,
			  struct error *err)
{
	uint32_t *rows = NULL;
	size_t count = 0;
	struct sort_item *items = NULL;
	enum status st = STATUS_OK;
	*out = NULL;
	*n = 0;
	if (!v)
		return error_set(err, STATUS_USAGE, NULL, "no view");
	if (column != MODEL_NONE && column >= model_n_columns(v->m)) {
		st = error_set(err, STATUS_USAGE, model_path(v->m),
			       "no column %u", (unsigned)column);
		goto out;
	}
	if (!v->ops->exists(v, node)) {
		st = error_set(err, STATUS_USAGE, model_path(v->m),
			       "no row %u in the %s view", (unsigned)node,
			       v->ops->name);
		goto out;
	}
	st = v->ops->children(v, node, &rows, &count, err);
	if (st != STATUS_OK || count == 0)
		goto out;
	items = calloc(count, sizeof(*items));
	if (!items) {
		st = error_set(err, STATUS_NOMEM, model_path(v->m), "out of memory");
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		struct view_node vn;
		v->ops->node_get(v, rows[i], &vn);
		double val = 0;
		bool present = column != MODEL_NONE &&
			       view_value(v, rows[i], column, &val) &&
			       !isnan(val);
		items[i] = (struct sort_item){
			.key = ascending ? val : -val,
			.row = rows[i],
			.id = vn.id,
			.present = present,
		};
	}
	qsort(items, count, sizeof(*items), cmp_by_value);
	for (size_t i = 0; i < count;) {
		size_t j = i + 1;
		while (j < count && cmp_by_value(&items[i], &items[j]) == 0)
			j++;
		if (j - i > 1) {
			for (size_t k = i; k < j; k++) {
				items[k].label = v->ops->label(v, items[k].row);
				if (!items[k].label) {
					st = error_set(err, STATUS_NOMEM,
						       model_path(v->m),
						       "out of memory");
					goto out;
				}
			}
			qsort(items + i, j - i, sizeof(*items), cmp_by_label);
		}
		i = j;
	}
	for (size_t i = 0; i < count; i++)
		rows[i] = items[i].row;
	*out = rows;
	*n = count;
	rows = NULL;
out:
	if (items)
		for (size_t i = 0; i < count; i++)
			free(items[i].label);
	free(items);
	free(rows);
	return st;
}

/* ---- hot path --------------------------------------------------------- */

/* The child of `node` with the largest value of `column` (ties: lower
 * output id, then lower row id) into *best (MODEL_NONE when no child has
 * a value) and its value into *best_v. */
static enum status hot_child(struct view *v, uint32_t node, uint32_t column,
			     uint32_t *best_out, double *best_v_out,
			     struct error *err)
{
	uint32_t *kids = NULL;
	size_t nk = 0;
	*best_out = MODEL_NONE;
	*best_v_out = 0;
	enum status st = v->ops->children(v, node, &kids, &nk, err);
	if (st != STATUS_OK) {
		free(kids);
		return st;
	}
	uint32_t best = MODEL_NONE, best_id = 0;
	double best_v = 0;
	for (size_t i = 0; i < nk; i++) {
		double val;
		if (!view_value(v, kids[i], column, &val) || isnan(val))
			continue;
		struct view_node vn;
		v->ops->node_get(v, kids[i], &vn);
		if (best == MODEL_NONE || val > best_v ||
		    (val == best_v &&
		     (vn.id < best_id ||
		      (vn.id == best_id && kids[i] < best)))) {
			best = kids[i];
			best_v = val;
			best_id = vn.id;
		}
	}
	free(kids);
	*best_out = best;
	*best_v_out = best_v;
	return STATUS_OK;
}

enum status view_hotpath(struct view *v, uint32_t start, uint32_t column,
			 double threshold_pct, uint32_t **path, size_t *n,
			 struct error *err)
{
	uint32_t *p = NULL;
	uint32_t cap = 0, len = 0;
	enum status st = STATUS_OK;
	*path = NULL;
	*n = 0;
	if (!v)
		return error_set(err, STATUS_USAGE, NULL, "no view");
	if (column >= model_n_columns(v->m) || !v->ops->exists(v, start) ||
	    !(threshold_pct >= 0 && threshold_pct <= 100)) {
		st = error_set(err, STATUS_USAGE, model_path(v->m),
			       "hot path needs an existing row, column and a "
			       "threshold between 0 and 100");
		goto out;
	}
	/* every step goes one level deeper; a view is never deeper than the
	 * model plus its grouping levels (read afresh: a deferred subtree
	 * loaded on the way deepens the model) */
	uint32_t cur = start;
	for (;;) {
		if (!array_grow_u32((void **)&p, &cap, (uint64_t)len + 1,
			       sizeof(*p))) {
			st = error_set(err, STATUS_NOMEM, model_path(v->m),
				       "out of memory");
			goto out;
		}
		p[len++] = cur;
		if (len > (uint64_t)model_max_depth(v->m) + 8) {
			st = error_set(err, STATUS_CORRUPT, model_path(v->m),
				       "hot path deeper than the model");
			goto out;
		}
		uint32_t best;
		double best_v;
		st = hot_child(v, cur, column, &best, &best_v, err);
		if (st != STATUS_OK)
			goto out;
		if (best == MODEL_NONE)
			break;
		double cur_v = 0;
		if (!view_value(v, cur, column, &cur_v) || isnan(cur_v))
			cur_v = 0;
		if (best_v < threshold_pct / 100.0 * cur_v)
			break;
		cur = best;
	}
	*path = p;
	*n = len;
	p = NULL;
out:
	free(p);
	return st;
}

enum status view_hotpath_stop(struct view *v, uint32_t node, uint32_t column,
			      struct view_hot_stop *out, struct error *err)
{
	*out = (struct view_hot_stop){.best = MODEL_NONE};
	if (!v)
		return error_set(err, STATUS_USAGE, NULL, "no view");
	if (column >= model_n_columns(v->m) || !v->ops->exists(v, node))
		return error_set(err, STATUS_USAGE, model_path(v->m),
				 "hot path needs an existing row and column");
	uint32_t *kids = NULL;
	size_t nk = 0;
	enum status st = v->ops->children(v, node, &kids, &nk, err);
	free(kids);
	if (st != STATUS_OK)
		return st;
	out->leaf = nk == 0;
	st = hot_child(v, node, column, &out->best, &out->best_v, err);
	if (st != STATUS_OK)
		return st;
	if (!view_value(v, node, column, &out->node_v) || isnan(out->node_v))
		out->node_v = 0;
	return STATUS_OK;
}

/* ---- shared helpers for the aggregated views -------------------------- */

bool view_is_frame(uint8_t kind, bool with_root)
{
	return kind == NODE_ROOT ? with_root : model_kind_is_frame(kind);
}

static bool has_function(const struct model *m, const struct model_node *nd)
{
	return nd->kind != NODE_ENTRY && nd->kind != NODE_ROOT &&
	       nd->function < model_n_functions(m);
}

enum status view_idents_build(const struct model *m, bool with_root,
			      struct view_idents *ids, struct error *err)
{
	uint32_t *table = NULL;
	uint32_t tcap = 0, first_cap = 0, grouped = 0;
	enum status st = STATUS_OK;
	memset(ids, 0, sizeof(*ids));
	ids->of_node = malloc((size_t)model_n_nodes(m) * sizeof(*ids->of_node));
	if (!ids->of_node ||
	    !array_grow_u32((void **)&ids->first_node, &first_cap,
		       (uint64_t)model_n_functions(m) + 1, sizeof(uint32_t)))
		goto nomem;
	for (uint32_t f = 0; f < model_n_functions(m); f++)
		ids->first_node[f] = MODEL_NONE;
	for (uint32_t i = 0; i < model_n_nodes(m); i++) {
		const struct model_node *nd = &model_nodes(m)[i];
		ids->of_node[i] = MODEL_NONE;
		if (!view_is_frame(nd->kind, with_root))
			continue;
		uint32_t id;
		if (has_function(m, nd)) {
			id = nd->function;
		} else {
			if ((uint64_t)(grouped + 1) * 2 > tcap) {
				uint32_t ncap = tcap ? tcap * 2 : 1024;
				uint32_t *nt = calloc(ncap, sizeof(*nt));
				if (!nt || ncap < tcap)
					goto nomem;
				for (uint32_t s = 0; s < tcap; s++) {
					if (!table[s])
						continue;
					const struct model_node *o =
						&model_nodes(m)[ids->first_node
								  [table[s] - 1]];
					uint64_t h = hash_mix64(
						(uint64_t)o->name << 32 ^
						o->module ^
						(uint64_t)o->kind << 56);
					uint32_t k = (uint32_t)h & (ncap - 1);
					while (nt[k])
						k = (k + 1) & (ncap - 1);
					nt[k] = table[s];
				}
				free(table);
				table = nt;
				tcap = ncap;
			}
			uint64_t h = hash_mix64((uint64_t)nd->name << 32 ^
					   nd->module ^
					   (uint64_t)nd->kind << 56);
			uint32_t k = (uint32_t)h & (tcap - 1);
			id = MODEL_NONE;
			while (table[k]) {
				const struct model_node *o =
					&model_nodes(m)[ids->first_node[table[k] -
								  1]];
				if (o->kind == nd->kind && o->name == nd->name &&
				    o->module == nd->module &&
				    !has_function(m, o)) {
					id = table[k] - 1;
					break;
				}
				k = (k + 1) & (tcap - 1);
			}
			if (id == MODEL_NONE) {
				id = model_n_functions(m) + grouped++;
				if (!array_grow_u32((void **)&ids->first_node,
					       &first_cap, (uint64_t)id + 1,
					       sizeof(uint32_t)))
					goto nomem;
				ids->first_node[id] = i;
				table[k] = id + 1;
			}
		}
		if (ids->first_node[id] == MODEL_NONE)
			ids->first_node[id] = i;
		ids->of_node[i] = id;
	}
	ids->n = model_n_functions(m) + grouped;
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(m),
		       "out of memory grouping functions");
	view_idents_free(ids);
out:
	free(table);
	return st;
}

void view_idents_free(struct view_idents *ids)
{
	free(ids->of_node);
	free(ids->first_node);
	memset(ids, 0, sizeof(*ids));
}

enum status view_walk(const struct model *m,
		      void (*enter)(void *ctx, uint32_t node),
		      void (*leave)(void *ctx, uint32_t node), void *ctx,
		      struct error *err)
{
	uint64_t visits = 1;
	uint32_t cur = 0;
	if (enter)
		enter(ctx, 0);
	for (;;) {
		uint32_t next = model_nodes(m)[cur].first_child;
		uint32_t want_parent = cur;
		if (next == MODEL_NONE) {
			for (;;) {
				if (leave)
					leave(ctx, cur);
				if (cur == 0)
					return STATUS_OK;
				next = model_nodes(m)[cur].next_sibling;
				want_parent = model_nodes(m)[cur].parent;
				if (next != MODEL_NONE)
					break;
				cur = want_parent;
			}
		}
		/* the builder makes a tree; check anyway, so that a model
		 * from elsewhere cannot make the walk loop */
		if (next >= model_n_nodes(m) || model_nodes(m)[next].parent != want_parent ||
		    ++visits > model_n_nodes(m))
			goto corrupt;
		cur = next;
		if (enter)
			enter(ctx, cur);
	}
corrupt:
	return error_set(err, STATUS_CORRUPT, model_path(m),
			 "the context tree links do not form a tree");
}
