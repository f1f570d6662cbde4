/* view_bottom_up: hpcviewer's "callers view".  The top level has one row
 * per function (model function index; function-like nodes without one are
 * grouped by kind, name and module); the children of a row are the callers
 * of the instances it stands for -- the nearest enclosing frame (function,
 * inlined function, kernel, region or entry point) above each instance's
 * current frame -- recursively up to the entry point.  A row's values are
 * sums of the standard formula values of the callee instances it stands
 * for, or, for a column that is not such a sum (a mean, a minimum, a
 * ratio: view_stat.c), the formula over its statistics combined over the
 * same instances, blank when they cannot be; inclusive columns count only
 * instances without an ancestor of the same function, so recursion is not
 * counted twice.
 *
 * The top level is built by one pass over the model at the first request
 * that needs it (identities, recursion flags, instances grouped by
 * function); the callers of a row are computed when its children are first
 * requested, and kept as (instance, frame) pairs.  Must not depend on
 * curses, on ui/ or on any reader; never modifies the model. */
#include "config.h"

#include "views/view_internal.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

/* Most (instance, frame) pair words kept for computed caller rows: 512
 * MiB, or 32 words per model node for larger models.  A deep recursive
 * chain has callers quadratic in its depth: past this, expanding more
 * callers is refused with STATUS_LIMIT instead of exhausting memory. */
#define BU_PAIRS_MIN_LIMIT ((uint64_t)1 << 27)
#define BU_PAIRS_PER_NODE 32

struct bu_row {
	uint32_t parent;
	uint32_t depth;
	uint32_t ident;       /* function identity; MODEL_NONE for the root */
	uint32_t model_node;  /* representative frame node */
	uint32_t first;       /* depth 1: into inst[]; deeper: pair index */
	uint32_t count;       /* instances */
	uint32_t child_first; /* MODEL_NONE until the callers are computed */
	uint32_t n_children;
};

struct bottom_up {
	bool built;
	struct view_idents ids;
	uint8_t *outer;  /* bit per model node while building, then per
			    slot of inst[]: no ancestor of its function */
	uint32_t *inst;  /* top-level instances, grouped by row (and by
			    node within a row); an index into it is a slot */
	uint32_t n_inst;
	uint32_t *active; /* walk scratch: open instances per identity */
	struct bu_row *rows;
	uint32_t n_rows, rows_cap;
	uint32_t *pairs; /* (callee instance slot, current frame) pairs */
	uint32_t n_pairs, pairs_cap; /* in uint32 units */
};

static bool outer_get(const uint8_t *bits, uint32_t i)
{
	return bits[i >> 3] >> (i & 7) & 1;
}

static void enter_node(void *ctx, uint32_t node)
{
	struct bottom_up *bu = ctx;
	uint32_t id = bu->ids.of_node[node];
	if (id == MODEL_NONE)
		return;
	if (bu->active[id]++ == 0)
		bu->outer[node >> 3] |= (uint8_t)(1u << (node & 7));
}

static void leave_node(void *ctx, uint32_t node)
{
	struct bottom_up *bu = ctx;
	uint32_t id = bu->ids.of_node[node];
	if (id == MODEL_NONE)
		return;
	CHECK(bu->active[id] > 0); /* the walk leaves what it entered */
	bu->active[id]--;
}

static enum status bu_open(struct view *v, struct error *err)
{
	struct bottom_up *bu = calloc(1, sizeof(*bu));
	if (!bu)
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	if (!array_grow_u32((void **)&bu->rows, &bu->rows_cap, 1,
		       sizeof(*bu->rows))) {
		free(bu);
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	}
	bu->rows[0] = (struct bu_row){
		.parent = MODEL_NONE,
		.ident = MODEL_NONE,
		.model_node = 0,
		.child_first = MODEL_NONE,
	};
	bu->n_rows = 1;
	v->impl = bu;
	return STATUS_OK;
}

static void bu_close(struct view *v)
{
	struct bottom_up *bu = v->impl;
	if (!bu)
		return;
	view_idents_free(&bu->ids);
	free(bu->outer);
	free(bu->inst);
	free(bu->active);
	free(bu->rows);
	free(bu->pairs);
	free(bu);
}

/* The one pass: identities, recursion flags, top-level rows. */
static enum status bu_build(struct view *v, struct error *err)
{
	struct bottom_up *bu = v->impl;
	const struct model *m = v->m;
	uint32_t *count = NULL;
	enum status st = STATUS_OK;
	if (bu->built)
		return STATUS_OK;
	st = view_idents_build(m, false, &bu->ids, err);
	if (st != STATUS_OK)
		return st;
	uint32_t n_ids = bu->ids.n;
	bu->outer = calloc((size_t)model_n_nodes(m) / 8 + 1, 1);
	bu->active = calloc((size_t)n_ids + 1, sizeof(*bu->active));
	count = calloc((size_t)n_ids + 1, sizeof(*count));
	if (!bu->outer || !bu->active || !count)
		goto nomem;
	st = view_walk(m, enter_node, leave_node, bu, err);
	FREE_AND_NULL(bu->active);
	if (st != STATUS_OK)
		goto out;
	/* instances per identity; entry points are callers only */
	uint64_t n_inst = 0;
	for (uint32_t i = 0; i < model_n_nodes(m); i++) {
		uint32_t id = bu->ids.of_node[i];
		if (id != MODEL_NONE && model_nodes(m)[i].kind != NODE_ENTRY) {
			count[id]++;
			n_inst++;
		}
	}
	uint32_t n_top = 0;
	for (uint32_t id = 0; id < n_ids; id++)
		n_top += count[id] != 0;
	bu->inst = malloc((size_t)(n_inst ? n_inst : 1) * sizeof(*bu->inst));
	if (!bu->inst || !array_grow_u32((void **)&bu->rows, &bu->rows_cap,
				    (uint64_t)n_top + 1, sizeof(*bu->rows)))
		goto nomem;
	/* count[id] becomes the row of identity id; rows in identity order */
	uint32_t off = 0;
	for (uint32_t id = 0; id < n_ids; id++) {
		if (!count[id])
			continue;
		uint32_t r = bu->n_rows++;
		bu->rows[r] = (struct bu_row){
			.parent = 0,
			.depth = 1,
			.ident = id,
			.model_node = MODEL_NONE,
			.first = off,
			.count = 0,
			.child_first = MODEL_NONE,
		};
		off += count[id];
		count[id] = r;
	}
	for (uint32_t i = 0; i < model_n_nodes(m); i++) {
		uint32_t id = bu->ids.of_node[i];
		if (id == MODEL_NONE || model_nodes(m)[i].kind == NODE_ENTRY)
			continue;
		struct bu_row *r = &bu->rows[count[id]];
		if (r->model_node == MODEL_NONE)
			r->model_node = i;
		bu->inst[r->first + r->count++] = i;
	}
	/* the recursion bits by slot: a row's sum reads runs of them (and
	 * of the view's dense values, stored in slot order) */
	bu->n_inst = (uint32_t)n_inst;
	uint8_t *bits = calloc((size_t)n_inst / 8 + 1, 1);
	if (!bits)
		goto nomem;
	for (uint32_t k = 0; k < bu->n_inst; k++)
		if (outer_get(bu->outer, bu->inst[k]))
			bits[k >> 3] |= (uint8_t)(1u << (k & 7));
	free(bu->outer);
	bu->outer = bits;
	bu->rows[0].child_first = 1;
	bu->rows[0].n_children = n_top;
	bu->built = true;
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(m),
		       "out of memory building the bottom-up view");
out:
	if (!bu->built) {
		view_idents_free(&bu->ids);
		free(bu->outer);
		free(bu->inst);
		bu->outer = NULL;
		bu->inst = NULL;
		bu->n_rows = 1;
	}
	free(count);
	return st;
}

static bool bu_exists(const struct view *v, uint32_t node)
{
	const struct bottom_up *bu = v->impl;
	return node < bu->n_rows;
}

/* Instance k of row r: the callee instance's slot and its current
 * frame. */
static void instance(const struct bottom_up *bu, const struct bu_row *r,
		     uint32_t k, uint32_t *slot, uint32_t *frame)
{
	if (r->depth == 1) {
		*slot = r->first + k;
		*frame = bu->inst[*slot];
	} else {
		*slot = bu->pairs[2 * ((size_t)r->first + k)];
		*frame = bu->pairs[2 * ((size_t)r->first + k) + 1];
	}
}

/* The nearest frame strictly above `frame`, or MODEL_NONE. */
static uint32_t caller_of(const struct model *m, const struct bottom_up *bu,
			  uint32_t frame)
{
	uint32_t p = model_nodes(m)[frame].parent;
	for (uint32_t steps = 0; p != MODEL_NONE && steps <= model_max_depth(m);
	     steps++) {
		if (p >= model_n_nodes(m))
			return MODEL_NONE;
		if (bu->ids.of_node[p] != MODEL_NONE)
			return p;
		p = model_nodes(m)[p].parent;
	}
	return MODEL_NONE;
}

struct caller_item {
	uint32_t ident, slot, frame;
};

/* By caller, then by callee: the slots of one row are those of one
 * function, whose slots follow its nodes' order. */
static int cmp_caller(const void *a, const void *b)
{
	const struct caller_item *x = a, *y = b;
	if (x->ident != y->ident)
		return x->ident < y->ident ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Compute the caller rows of row `rid`. */
static enum status expand(struct view *v, uint32_t rid, struct error *err)
{
	struct bottom_up *bu = v->impl;
	const struct model *m = v->m;
	struct caller_item *items = NULL;
	size_t n = 0;
	enum status st = STATUS_OK;
	struct bu_row row = bu->rows[rid];
	if (row.count) {
		items = malloc((size_t)row.count * sizeof(*items));
		if (!items)
			goto nomem;
	}
	for (uint32_t k = 0; k < row.count; k++) {
		uint32_t slot, frame;
		instance(bu, &row, k, &slot, &frame);
		uint32_t c = caller_of(m, bu, frame);
		if (c != MODEL_NONE)
			items[n++] = (struct caller_item){
				.ident = bu->ids.of_node[c],
				.slot = slot,
				.frame = c,
			};
	}
	if (n > 1)
		qsort(items, n, sizeof(*items), cmp_caller);
	uint32_t groups = 0;
	for (size_t i = 0; i < n; i++)
		groups += i == 0 || items[i].ident != items[i - 1].ident;
	uint64_t limit = (uint64_t)model_n_nodes(m) * BU_PAIRS_PER_NODE;
	if (limit < BU_PAIRS_MIN_LIMIT)
		limit = BU_PAIRS_MIN_LIMIT;
	if ((uint64_t)bu->n_pairs + 2 * (uint64_t)n > limit) {
		st = error_set(err, STATUS_LIMIT, model_path(m),
			       "the callers computed so far fill the "
			       "bottom-up view's limit (%llu instances): "
			       "callers of this row are not shown",
			       (unsigned long long)(limit / 2));
		goto out;
	}
	if (!array_grow_u32((void **)&bu->rows, &bu->rows_cap,
		       (uint64_t)bu->n_rows + groups, sizeof(*bu->rows)) ||
	    !array_grow_u32((void **)&bu->pairs, &bu->pairs_cap,
		       (uint64_t)bu->n_pairs + 2 * (uint64_t)n,
		       sizeof(*bu->pairs)))
		goto nomem;
	uint32_t first_child = bu->n_rows;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || items[i].ident != items[i - 1].ident)
			bu->rows[bu->n_rows++] = (struct bu_row){
				.parent = rid,
				.depth = row.depth + 1,
				.ident = items[i].ident,
				.model_node = items[i].frame,
				.first = bu->n_pairs / 2,
				.count = 0,
				.child_first = MODEL_NONE,
			};
		bu->rows[bu->n_rows - 1].count++;
		bu->pairs[bu->n_pairs++] = items[i].slot;
		bu->pairs[bu->n_pairs++] = items[i].frame;
	}
	/* one row per group of callers, within what was grown */
	CHECK(bu->n_rows == first_child + groups && bu->n_rows <= bu->rows_cap);
	CHECK(bu->n_pairs <= bu->pairs_cap);
	bu->rows[rid].child_first = first_child;
	bu->rows[rid].n_children = groups;
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, model_path(m),
		       "out of memory computing callers");
out:
	free(items);
	return st;
}

static enum status bu_children(struct view *v, uint32_t node, uint32_t **out,
			       size_t *n, struct error *err)
{
	struct bottom_up *bu = v->impl;
	enum status st = bu_build(v, err);
	if (st != STATUS_OK)
		return st;
	CHECK(node < bu->n_rows); /* view.c asked ops->exists */
	if (bu->rows[node].child_first == MODEL_NONE) {
		st = expand(v, node, err);
		if (st != STATUS_OK)
			return st;
	}
	const struct bu_row *r = &bu->rows[node];
	*n = r->n_children;
	*out = NULL;
	if (!r->n_children)
		return STATUS_OK;
	*out = malloc((size_t)r->n_children * sizeof(**out));
	if (!*out)
		return error_set(err, STATUS_NOMEM, model_path(v->m),
				 "out of memory");
	for (uint32_t i = 0; i < r->n_children; i++)
		(*out)[i] = r->child_first + i;
	return STATUS_OK;
}

static bool bu_value(struct view *v, uint32_t node, uint32_t column,
		     double *out)
{
	const struct bottom_up *bu = v->impl;
	const struct model *m = v->m;
	if (node == 0)
		return model_value_standard(m, 0, column, out);
	const struct bu_row *r = &bu->rows[node];
	bool inclusive = model_columns(m)[column].kind == COLUMN_INCLUSIVE;
	struct view_leaves leaves;
	if (view_rule_of(v, column) == VIEW_RULE_BLANK)
		return false;
	if (view_leaves_begin(&leaves, v, node, column, bu->inst,
			      bu->n_inst)) {
		for (uint32_t k = 0; k < r->count; k++) {
			uint32_t slot, frame;
			instance(bu, r, k, &slot, &frame);
			if (!inclusive || outer_get(bu->outer, slot))
				view_leaves_add(&leaves, slot, bu->inst[slot]);
		}
		return view_leaves_value(&leaves, out);
	}
	const struct view_dense *d =
		view_dense_column(v, column, bu->inst, bu->n_inst);
	struct view_sum sum = {0};
	for (uint32_t k = 0; k < r->count; k++) {
		uint32_t slot, frame;
		instance(bu, r, k, &slot, &frame);
		if (inclusive && !outer_get(bu->outer, slot))
			continue;
		double x;
		bool present = view_dense_value(v, d, slot, bu->inst[slot],
						column, &x);
		view_sum_add(&sum, present, x);
	}
	*out = sum.value;
	return sum.present;
}

static void bu_node_get(const struct view *v, uint32_t node,
			struct view_node *out)
{
	const struct bottom_up *bu = v->impl;
	const struct bu_row *r = &bu->rows[node];
	*out = (struct view_node){
		.parent = r->parent,
		.depth = r->depth,
		.kind = model_nodes(v->m)[r->model_node].kind,
		.model_node = r->model_node,
		.id = node,
	};
}

static char *bu_label(const struct view *v, uint32_t node)
{
	const struct bottom_up *bu = v->impl;
	return model_node_label(v->m, bu->rows[node].model_node);
}

const struct view_ops view_bottom_up_ops = {
	.kind = VIEW_BOTTOM_UP,
	.name = "bottom-up",
	.open = bu_open,
	.close = bu_close,
	.exists = bu_exists,
	.children = bu_children,
	.value = bu_value,
	.node_get = bu_node_get,
	.label = bu_label,
	.cache_values = true,
};
