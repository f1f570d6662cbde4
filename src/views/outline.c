/* outline: the state of a tree pane over a view (expanded set, sort, zoom
 * stack, search, filter) and its flattened list of visible rows: making
 * and freeing the outline, reading its rows, expand and collapse, zoom,
 * flatten, reveal and the hot path.  The other parts live beside it and
 * share outline_internal.h: outline_kids.c (the sorted-children memo),
 * outline_sort.c (sort columns and keys), outline_list.c (the visible
 * list), outline_match.c (patterns and the filter) and outline_search.c
 * (search and filter).  Everything is iterative (trees can be 100,000
 * deep).  Must not depend on curses or on ui/; never modifies the view's
 * model. */
#include "config.h"

#include "views/outline_internal.h"

#include "core/array.h"

#include <stdlib.h>
#include <string.h>

/* ---- public: construction and access ----------------------------------- */

static enum status check_row(const struct outline *o, uint32_t node,
			     struct error *err)
{
	struct view_node vn;
	if (!view_node_get(o->v, node, &vn))
		return error_set(err, STATUS_USAGE, model_path(o->m),
				 "no row %u in the %s view", (unsigned)node,
				 view_kind_name(view_kind_of(o->v)));
	return STATUS_OK;
}

enum status outline_new(struct view *v, uint32_t sort_column, bool ascending,
			struct outline **out, struct error *err)
{
	struct outline *o = NULL;
	enum status st = STATUS_OK;
	*out = NULL;
	if (!v)
		return error_set(err, STATUS_USAGE, NULL, "no view");
	const struct model *m = view_model(v);
	if (sort_column != MODEL_NONE && sort_column >= model_n_columns(m))
		return error_set(err, STATUS_USAGE, model_path(m), "no column %u",
				 (unsigned)sort_column);
	o = calloc(1, sizeof(*o));
	if (!o)
		return error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
	*o = (struct outline){
		.v = v,
		.m = m,
		.top_down = view_kind_of(v) == VIEW_TOP_DOWN,
		.col = sort_column,
		.asc = ascending,
		.max_rows = OUTLINE_MAX_ROWS,
		.root = view_root(v),
	};
	struct kids k;
	st = ol_get_kids(o, o->root, &k, err);
	if (st != STATUS_OK)
		goto out;
	if (k.n && !ol_bits_set(&o->expanded, o->root)) {
		st = ol_nomem(o, err);
		goto out;
	}
	st = ol_rebuild(o, err);
	if (st != STATUS_OK)
		goto out;
	*out = o;
	o = NULL;
out:
	outline_free(o);
	return st;
}

void outline_free(struct outline *o)
{
	if (!o)
		return;
	ol_kt_clear(&o->kt);
	ol_bits_free(&o->expanded);
	ol_bits_free(&o->flat);
	free(o->fstack);
	ol_bits_free(&o->smatch);
	ol_bits_free(&o->sbelow);
	ol_bits_free(&o->fmatch);
	ol_bits_free(&o->fbelow);
	ol_pattern_free(&o->search);
	ol_pattern_free(&o->filter);
	free(o->haskids);
	free(o->rank);
	free(o->waiting);
	free(o->pos);
	free(o->e);
	free(o->zstack);
	free(o);
}

struct view *outline_view(const struct outline *o)
{
	return o->v;
}

size_t outline_count(const struct outline *o)
{
	return o ? o->n : 0;
}

void outline_set_max_rows(struct outline *o, size_t max_rows)
{
	o->max_rows = max_rows ? max_rows : OUTLINE_MAX_ROWS;
}

bool outline_row_get(struct outline *o, size_t index,
		     struct outline_row *out)
{
	if (!o || index >= o->n)
		return false;
	ol_memo_trim(o);
	const struct entry *e = &o->e[index];
	struct error err = {0};
	if (o->scanned <= e->node)
		ol_sync_rows(o, &err);
	error_clear(&err);
	uint32_t node = o->e[index].node;
	*out = (struct outline_row){
		.node = node,
		.depth = e->depth,
		.expanded = ol_bits_get(&o->expanded, node),
		.last_sibling = e->last,
		.guides = e->guides,
		.match = ol_bits_get(&o->smatch, node),
	};
	out->has_children = ol_has_kids(o, node);
	return true;
}

size_t outline_find(const struct outline *o, uint32_t node)
{
	if (!o || node >= o->pos_cap)
		return OUTLINE_NONE;
	size_t i = o->pos[node];
	return i < o->n && o->e[i].node == node ? i : OUTLINE_NONE;
}

bool ol_inside(const struct outline *o, uint32_t node, uint32_t root)
{
	uint64_t steps = 0;
	for (uint32_t r = node; r != MODEL_NONE && steps++ <= ol_depth_cap(o);
	     r = ol_parent_of(o, r))
		if (r == root)
			return true;
	return false;
}

/* ---- public: expand and collapse --------------------------------------- */

enum status outline_expand(struct outline *o, uint32_t node,
			   struct error *err)
{
	struct list l = {0};
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK || ol_bits_get(&o->expanded, node))
		return st;
	st = ol_get_kids(o, node, &k, err);
	if (st != STATUS_OK || k.n == 0)
		goto out;
	if (!ol_bits_set(&o->expanded, node)) {
		st = ol_nomem(o, err);
		goto out;
	}
	size_t i = outline_find(o, node);
	if (i == OUTLINE_NONE)
		goto out;
	st = ol_collect(o, &o->e[i], ol_under_row(o, node), false, NULL,
			SIZE_MAX, &l, err);
	if (st == STATUS_OK)
		st = ol_splice(o, i + 1, i + 1, &l, err);
	if (st != STATUS_OK)
		ol_bits_clear(&o->expanded, node);
out:
	free(l.e);
	return ol_settle(o, st, err);
}

void outline_collapse(struct outline *o, uint32_t node)
{
	if (!o || !ol_bits_get(&o->expanded, node))
		return;
	ol_bits_clear(&o->expanded, node);
	/* its sorted children stay, unpinned, for a quick re-expand */
	size_t i = outline_find(o, node);
	if (i == OUTLINE_NONE)
		return;
	struct list none = {0};
	ol_splice(o, i + 1, ol_subtree_end(o, i), &none, NULL);
}

enum status outline_expand_all(struct outline *o, uint32_t node,
			       struct error *err)
{
	struct list l = {0};
	struct undo undo = {0};
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	size_t i = outline_find(o, node), end = i, limit = o->max_rows;
	struct entry top = {.node = node, .last = true};
	if (i != OUTLINE_NONE) {
		end = ol_subtree_end(o, i);
		top = o->e[i];
		size_t others = o->n - (end - i - 1);
		limit = others >= o->max_rows ? 0 : o->max_rows - others;
	}
	st = ol_collect(o, &top, ol_under_row(o, node), true, &undo, limit, &l,
		     err);
	if (st == STATUS_OK && i != OUTLINE_NONE)
		st = ol_splice(o, i + 1, end, &l, err);
	else if (st == STATUS_OK && (ol_inside(o, o->root, node) || o->fn))
		st = ol_rebuild(o, err); /* an ancestor of the zoom root, or
					 a flattened row */
	if (st != STATUS_OK)
		for (size_t u = 0; u < undo.n; u++) {
			ol_bits_clear(&o->expanded, undo.rows[u]);
			ol_kt_remove(&o->kt, undo.rows[u]);
		}
	free(undo.rows);
	free(l.e);
	return ol_settle(o, st, err);
}

void outline_collapse_all(struct outline *o, uint32_t node)
{
	uint32_t *stack = NULL;
	size_t sp = 0, scap = 0;
	if (!o || !ol_bits_get(&o->expanded, node))
		return;
	size_t i = outline_find(o, node);
	if (!array_grow((void **)&stack, &scap, 1, sizeof(*stack)))
		goto out;
	stack[sp++] = node;
	while (sp) {
		uint32_t r = stack[--sp];
		if (!ol_bits_get(&o->expanded, r))
			continue;
		ol_bits_clear(&o->expanded, r);
		const struct kids *k = ol_kt_find(&o->kt, r);
		uint32_t *rows = k ? k->rows : NULL;
		size_t n = k ? k->n : 0;
		bool owned = false;
		if (!k) {
			struct error err = {0};
			if (view_children(o->v, r, MODEL_NONE, false, &rows, &n,
					  &err) != STATUS_OK)
				n = 0;
			error_clear(&err);
			owned = true;
		}
		if (array_grow((void **)&stack, &scap, sp + n, sizeof(*stack))) {
			memcpy(stack + sp, rows, n * sizeof(*rows));
			sp += n;
		}
		if (owned)
			free(rows);
	}
	if (i != OUTLINE_NONE) {
		struct list none = {0};
		ol_splice(o, i + 1, ol_subtree_end(o, i), &none, NULL);
	} else if (ol_inside(o, o->root, node) || o->fn) {
		ol_rebuild(o, NULL); /* an ancestor of the zoom root, or a
				     flattened row */
	}
out:
	free(stack);
}

/* ---- public: zoom ------------------------------------------------------ */

enum status outline_zoom(struct outline *o, uint32_t node,
			 struct error *err)
{
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK || node == o->root)
		return st;
	st = ol_get_kids(o, node, &k, err);
	if (st != STATUS_OK)
		return st;
	size_t zcap = o->zcap;
	if (!array_grow((void **)&o->zstack, &zcap, (size_t)o->zn + 1,
		  sizeof(*o->zstack)) ||
	    zcap > UINT32_MAX || (k.n && !ol_bits_set(&o->expanded, node)))
		return ol_nomem(o, err);
	o->zcap = (uint32_t)zcap;
	o->zstack[o->zn++] = o->root;
	o->root = node;
	st = ol_rebuild(o, err);
	if (st != STATUS_OK)
		o->root = o->zstack[--o->zn];
	return st;
}

bool outline_zoom_out(struct outline *o)
{
	if (!o || o->zn == 0)
		return false;
	uint32_t inner = o->root;
	o->root = o->zstack[--o->zn];
	if (ol_rebuild(o, NULL) != STATUS_OK) {
		o->zstack[o->zn++] = o->root;
		o->root = inner;
		return false;
	}
	return true;
}

uint32_t outline_zoom_root(const struct outline *o)
{
	return o->root;
}

/* ---- public: flatten --------------------------------------------------- */

enum status outline_flatten(struct outline *o, uint32_t node,
			    struct error *err)
{
	if (!o)
		return error_set(err, STATUS_USAGE, NULL, "no outline");
	ol_memo_trim(o);
	struct kids k;
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	if (node == o->root || outline_find(o, node) == OUTLINE_NONE)
		return error_set(err, STATUS_USAGE, model_path(o->m),
				 "only a shown row below the top can be "
				 "flattened");
	st = ol_get_kids(o, node, &k, err);
	if (st != STATUS_OK)
		return st;
	if (k.n == 0)
		return error_set(err, STATUS_USAGE, model_path(o->m),
				 "a row without children cannot be flattened");
	bool was_expanded = ol_bits_get(&o->expanded, node);
	if (!array_grow((void **)&o->fstack, &o->fcap, o->fn + 1,
			sizeof(*o->fstack)) ||
	    !ol_bits_set(&o->flat, node) || !ol_bits_set(&o->expanded, node))
		return ol_nomem(o, err);
	o->fstack[o->fn++] = node;
	st = ol_rebuild(o, err);
	if (st != STATUS_OK) {
		o->fn--;
		ol_bits_clear(&o->flat, node);
		if (!was_expanded)
			ol_bits_clear(&o->expanded, node);
		ol_rebuild(o, NULL);
	}
	return st;
}

uint32_t outline_unflatten(struct outline *o)
{
	if (!o || o->fn == 0)
		return MODEL_NONE;
	uint32_t node = o->fstack[--o->fn];
	ol_bits_clear(&o->flat, node);
	if (ol_rebuild(o, NULL) != STATUS_OK) {
		ol_bits_set(&o->flat, node);
		o->fn++;
		return MODEL_NONE;
	}
	return node;
}

size_t outline_flattened(const struct outline *o)
{
	return o ? o->fn : 0;
}

/* ---- public: reveal and hot path --------------------------------------- */

enum status outline_reveal(struct outline *o, uint32_t node,
			   struct error *err)
{
	uint32_t *up = NULL;
	size_t n = 0, cap = 0;
	struct list l = {0};
	enum status st = check_row(o, node, err);
	if (st != STATUS_OK)
		return st;
	uint32_t zn = o->zn, root = o->root;
	while (zn && !ol_inside(o, node, root))
		root = o->zstack[--zn];
	if (!ol_inside(o, node, root)) {
		st = error_set(err, STATUS_USAGE, model_path(o->m),
			       "row %u is not under the root", (unsigned)node);
		goto out;
	}
	/* up = [node, parent, ..., zoom root] */
	for (uint32_t r = node;; r = ol_parent_of(o, r)) {
		if (!array_grow((void **)&up, &cap, n + 1, sizeof(*up))) {
			st = ol_nomem(o, err);
			goto out;
		}
		up[n++] = r;
		if (r == root)
			break;
	}
	bool under = ol_under_row(o, root);
	for (size_t k = n - 1; k-- > 0;) {
		if (!ol_shown(o, up[k], under)) {
			st = error_set(err, STATUS_NOT_FOUND, model_path(o->m),
				       "the filter hides row %u",
				       (unsigned)node);
			goto out;
		}
		under = ol_under_of(o, up[k], under);
	}
	bool zoomed = zn != o->zn;
	o->zn = zn;
	o->root = root;
	/* expand from the top; the first row that was collapsed is visible
	 * (unless the zoom changed), and inserting its subtree shows the
	 * rest */
	uint32_t first = MODEL_NONE;
	for (size_t k = n; k-- > 1;) {
		if (ol_bits_get(&o->expanded, up[k]))
			continue;
		if (!ol_bits_set(&o->expanded, up[k])) {
			st = ol_nomem(o, err);
			break;
		}
		if (first == MODEL_NONE)
			first = up[k];
	}
	if (zoomed || st != STATUS_OK) {
		enum status rs = ol_rebuild(o, st == STATUS_OK ? err : NULL);
		st = st == STATUS_OK ? rs : st;
	} else if (first != MODEL_NONE) {
		size_t i = outline_find(o, first);
		if (i != OUTLINE_NONE) {
			st = ol_collect(o, &o->e[i], ol_under_row(o, first),
					false, NULL, SIZE_MAX, &l, err);
			if (st == STATUS_OK)
				st = ol_splice(o, i + 1, ol_subtree_end(o, i),
					       &l, err);
		} else if (o->fn) { /* a flattened row: not in the list */
			st = ol_rebuild(o, err);
		}
	}
out:
	free(l.e);
	free(up);
	return ol_settle(o, st, err);
}

enum status outline_hotpath(struct outline *o, uint32_t start,
			    uint32_t column, double threshold_pct,
			    uint32_t *leaf, struct error *err)
{
	uint32_t *path = NULL;
	size_t n = 0;
	enum status st = outline_reveal(o, start, err);
	if (st != STATUS_OK)
		return st;
	st = view_hotpath(o->v, start, column, threshold_pct, &path, &n, err);
	if (st == STATUS_OK)
		st = ol_sync_rows(o, err);
	if (st != STATUS_OK)
		goto out;
	size_t cut = 0;
	bool under = ol_under_row(o, start);
	for (size_t k = 1; k < n && ol_shown(o, path[k], under); k++) {
		under = ol_under_of(o, path[k], under);
		cut = k;
	}
	st = outline_reveal(o, path[cut], err);
	/* the row where the path stops shows its children: why it stopped */
	if (st == STATUS_OK)
		st = outline_expand(o, path[cut], err);
	if (st == STATUS_OK)
		*leaf = path[cut];
out:
	free(path);
	return ol_settle(o, st, err);
}
