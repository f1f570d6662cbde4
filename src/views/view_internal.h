/* view_internal: what view.c shares with the per-kind view files
 * (view_top_down.c, view_bottom_up.c, view_flat.c): the ops table each kind
 * exports, the view handle, the per-row value cache and the function
 * identity every aggregated view groups by.  Not for use outside the view
 * files.  Must not depend on curses, on ui/ or on any reader. */
#ifndef CALLSCOPE_VIEW_INTERNAL_H
#define CALLSCOPE_VIEW_INTERNAL_H

#include "core/array.h"
#include "core/check.h"
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

/* The per-profile sums of a few recent (row, prop_id) pairs: the columns
 * of one metric (Mean, StdDev, CfVar, Min, Max) read the same ones. */
#define VIEW_THREADS_KEPT 4
struct view_threads_kept {
	uint32_t row, prop;
	double *x; /* NULL: unused */
};

struct view {
	const struct model *m;
	const struct view_ops *ops;
	void *impl;
	struct view_cache_column *cache; /* m->n_columns entries, or NULL */
	struct view_dense *dense;        /* m->n_columns entries, or NULL */
	struct view_dense *stat_dense;   /* m->n_stats entries, or NULL:
					    statistics a row combines */
	uint8_t *rule;                   /* per column: enum view_rule + 1,
					    0 until worked out; or NULL */
	struct view_threads_kept kept[VIEW_THREADS_KEPT];
	uint32_t kept_next;
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

/* How an aggregated row (one that stands for several contexts) gets a
 * column's value (doc/views.md, "Rows of several contexts"). */
enum view_rule {
	/* the sum of the standard formula's values at the contexts: the
	 * formula is linear in statistics that add up over contexts */
	VIEW_RULE_SUM,
	/* the formula evaluated once over the row's statistics, each
	 * combined over the row's contexts as it is defined (view_leaves) */
	VIEW_RULE_LEAVES,
	/* no value: a statistic needs per-thread values the database does
	 * not have (or the formula reads too many statistics) */
	VIEW_RULE_BLANK,
};

/* The rule of column `column` of `m` (O(formula size)). */
enum view_rule view_column_rule(const struct model *m, uint32_t column);

/* The rule of column `column` in view `v`, worked out once per column. */
enum view_rule view_rule_of(struct view *v, uint32_t column);

/* How one statistic of a VIEW_RULE_LEAVES column is combined over the
 * contexts of a row. */
enum view_leaf_how {
	LEAF_SUM,     /* the sum of its values at the contexts */
	LEAF_COMBINE, /* its `combine` over the contexts' values */
	LEAF_ANY,     /* STAT_CONSTANT: its value at any of them */
	LEAF_THREADS, /* its formula and combine over the profiles, of each
			 profile's sum over the contexts */
	LEAF_OWN,     /* as the reader combines contexts
			 (model_combine_contexts: Cube's own aggr, a
			 POSTDERIVED expression over the contexts) */
};

#define VIEW_LEAVES_MAX 16

/* Per distinct per-profile metric (prop_id) of a row being computed: each
 * profile's sum over the row's contexts. */
struct view_leaf_threads {
	uint32_t prop;
	uint32_t stat;   /* a statistic with that prop_id */
	double *x;       /* per profile; owned unless `cached` */
	bool cached;     /* x is the view's (read before, not to add to) */
	bool failed;     /* a read failed: the statistics are absent */
};

/* A row's statistics being combined over its contexts. */
struct view_leaves {
	struct view *v;
	const struct model *m;
	const struct formula *f;
	uint32_t row;
	uint32_t n;
	uint32_t stat[VIEW_LEAVES_MAX];
	double value[VIEW_LEAVES_MAX];
	bool present[VIEW_LEAVES_MAX];
	uint8_t how[VIEW_LEAVES_MAX];       /* enum view_leaf_how */
	uint8_t threads_of[VIEW_LEAVES_MAX]; /* LEAF_THREADS: index in t[] */
	struct formula *unary[VIEW_LEAVES_MAX]; /* LEAF_THREADS: owned */
	const struct view_dense *d[VIEW_LEAVES_MAX]; /* other leaves: their
							values in the view's
							order, or NULL */
	uint32_t n_t;
	struct view_leaf_threads t[VIEW_LEAVES_MAX];
	/* LEAF_OWN leaves: the counted contexts' slots and nodes (owned) */
	uint32_t *own_slot, *own_node;
	size_t own_n, own_cap;
	bool own, own_failed;
};

/* Start the value of row `row` for column `column`, whose contexts are
 * slots of `order` (n slots: the view's grouping, as view_dense_column):
 * true when the column's rule is VIEW_RULE_LEAVES (then call view_leaves_add for each counted
 * context and view_leaves_value once, which releases `l`); false for the
 * other rules (nothing to release). */
bool view_leaves_begin(struct view_leaves *l, struct view *v, uint32_t row,
		       uint32_t column, const uint32_t *order, uint32_t n);
/* Combine the statistics' values at model node `node`, slot `slot` of the
 * view's `order` (as view_dense_column), into `l`. */
void view_leaves_add(struct view_leaves *l, uint32_t slot, uint32_t node);
/* The formula over the combined values; false when absent.  Releases
 * `l`, keeping the per-profile sums it read for the next columns of the
 * same row. */
bool view_leaves_value(struct view_leaves *l, double *out);

/* Free what `v` keeps of per-profile sums (view_free). */
void view_threads_free(struct view *v);

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

/* The same for statistic `stat` (model_stat_dense): what view_leaves
 * combines over a row's contexts. */
const struct view_dense *view_dense_stat(struct view *v, uint32_t stat,
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
