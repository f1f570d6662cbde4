/* view_internal: what view.c shares with the per-kind view files
 * (view_top_down.c, view_bottom_up.c, view_flat.c): the ops table each kind
 * exports, the view handle, the per-row value cache and the function
 * identity every aggregated view groups by.  Not for use outside the view
 * files.  Must not depend on curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_VIEW_INTERNAL_H
#define CALLSCOPE_VIEW_INTERNAL_H

#include "core/array.h"
#include "views/view.h"

/* What one kind of view does.  Every function gets a row id already
 * checked to exist, except `exists`. */
struct view_ops {
	enum view_kind kind;
	const char *name;
	/* Set up v->impl; must be O(1)-ish (no pass over the model). */
	enum status (*open)(struct view *v, struct error *err);
	void (*close)(struct view *v);
	bool (*exists)(const struct view *v, uint32_t node);
	/* Children of `node` in the view's natural order, malloc'd. */
	enum status (*children)(struct view *v, uint32_t node, uint32_t **out,
				size_t *n, struct error *err);
	/* Value without caching (view.c caches for aggregated kinds). */
	bool (*value)(struct view *v, uint32_t node, uint32_t column,
		      double *out);
	void (*node_get)(const struct view *v, uint32_t node,
			 struct view_node *out);
	char *(*label)(const struct view *v, uint32_t node);
	bool cache_values; /* aggregated values: cache them per row */
};

/* Per column: row -> value state (0 unknown, 1 absent, 2 present). */
struct view_cache_column {
	double *value;
	uint8_t *state;
	uint32_t cap;
};

/* Per column: the standard formula values of the model nodes an
 * aggregated view sums, in the view's own order of them (slot k stands for
 * model node order[k]), read in one pass at the first use. */
struct view_dense {
	double *value;    /* per slot, 0 where absent; NULL until built */
	uint8_t *present; /* per slot */
	bool failed;      /* could not be built: ask the model per node */
};

struct view {
	const struct model *m;
	const struct view_ops *ops;
	void *impl;
	struct view_cache_column *cache; /* m->n_columns entries, or NULL */
	struct view_dense *dense;        /* m->n_columns entries, or NULL */
};

extern const struct view_ops view_top_down_ops;
extern const struct view_ops view_bottom_up_ops;
extern const struct view_ops view_flat_ops;

/* A running sum of values where "absent" is kept apart from 0. */
struct view_sum {
	double value;
	bool present;
};

static inline void view_sum_add(struct view_sum *s, bool present, double v)
{
	if (present) {
		s->value += v;
		s->present = true;
	}
}

/* The statistics of a column whose `combine_leaves` is set, combined over
 * the contexts of a row (each by its statistic's `combine`), then the
 * column's standard formula over them (model.h, struct model_column). */
#define VIEW_LEAVES_MAX 8
struct view_leaves {
	const struct model *m;
	const struct formula *f;
	uint32_t n;
	uint32_t stat[VIEW_LEAVES_MAX];
	double value[VIEW_LEAVES_MAX];
	bool present[VIEW_LEAVES_MAX];
};

/* Start combining for column `column`: false when the column does not
 * combine its leaves (or reads more than VIEW_LEAVES_MAX statistics): the
 * caller then adds the formula's values. */
bool view_leaves_begin(struct view_leaves *l, const struct model *m,
		       uint32_t column);
/* Combine the statistics' values at model node `node` into `l`. */
void view_leaves_add(struct view_leaves *l, uint32_t node);
/* The formula over the combined values; false when absent. */
bool view_leaves_value(struct view_leaves *l, double *out);

/* Function identities: one per model function index, then one per
 * (kind, name, module) of function-like nodes without a function index and
 * of entry points and the root.  Built in one pass over the model. */
struct view_idents {
	uint32_t *of_node; /* per model node: identity, or MODEL_NONE when the
			      node is not a frame */
	uint32_t n;        /* identities in use (n_functions + grouped) */
	uint32_t *first_node; /* per identity: first node with it */
};

/* True for the node kinds that are frames (a function-like context or an
 * entry point; the root is one only when `with_root`). */
bool view_is_frame(uint8_t kind, bool with_root);

/* Fill `ids` for every model node whose kind is a frame (root included
 * when `with_root`).  Frees nothing on failure beyond what it allocated. */
enum status view_idents_build(const struct model *m, bool with_root,
			      struct view_idents *ids, struct error *err);
void view_idents_free(struct view_idents *ids);

/* The standard values of column `column` (model_column_dense) at the
 * model nodes order[0 .. n), stored in that order: slot k is node
 * order[k].  `order` is the view's grouping of nodes by row, so that a row
 * sums a run of slots.  Built at the first call for the column (one pass
 * over the database's values, 9 bytes per model node while it runs) and
 * kept until view_free (9 bytes per slot); every call for one view must
 * pass the same order.  NULL when it cannot be built (out of memory, a
 * provider error): the caller then asks model_value_standard per node,
 * which gives the same values. */
const struct view_dense *view_dense_column(struct view *v, uint32_t column,
					   const uint32_t *order, uint32_t n);

/* Standard value of column `column` at slot `slot` of `d` (from
 * view_dense_column), which stands for model node `node`; through the
 * model when `d` is NULL. */
static inline bool view_dense_value(const struct view *v,
				    const struct view_dense *d, uint32_t slot,
				    uint32_t node, uint32_t column,
				    double *out)
{
	if (!d)
		return model_value_standard(v->m, node, column, out);
	*out = d->value[slot];
	return d->present[slot];
}

/* Iterative depth-first visit of the whole model tree: `enter` is called
 * on the way down, `leave` on the way up (either may be NULL).  Stops with
 * STATUS_CORRUPT when the sibling/child links do not form a tree (more
 * visits than nodes). */
enum status view_walk(const struct model *m,
		      void (*enter)(void *ctx, uint32_t node),
		      void (*leave)(void *ctx, uint32_t node), void *ctx,
		      struct error *err);

#endif
