/* flame: the flame graph's layout (see the header).  Rows are made one
 * after the other from the row above: for each box, its children in the
 * view's order, each given the fraction of the parent's span its value is
 * of the parent's value.  No curses here. */
#include "config.h"

#include "views/flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"

struct layout {
	struct flame_box *boxes;
	double *left, *right; /* per box: its span in fractions of cells */
	size_t n, cap; /* cap: of boxes, left and right */
};

static bool add_box(struct layout *l, const struct flame_box *b, double left,
		    double right)
{
	void **const arrays[] = {(void **)&l->boxes, (void **)&l->left,
				 (void **)&l->right};
	const size_t sizes[] = {sizeof *l->boxes, sizeof *l->left,
				sizeof *l->right};
	if (!array_grow_each(&l->cap, l->n + 1, 3, arrays, sizes))
		return false;
	l->boxes[l->n] = *b;
	l->left[l->n] = left;
	l->right[l->n] = right;
	l->n++;
	return true;
}

/* The children of box `i` into the next row. */
static enum status children(struct layout *l, size_t i, struct view *v,
			    uint32_t column, struct error *err)
{
	struct flame_box parent = l->boxes[i];
	double left = l->left[i], right = l->right[i];
	if (!(parent.value > 0))
		return STATUS_OK;
	uint32_t *kids = NULL;
	size_t n = 0;
	enum status st = view_children(v, parent.node, column, false, &kids,
				       &n, err);
	if (st != STATUS_OK)
		return st;
	double scale = (right - left) / parent.value, at = left;
	for (size_t k = 0; k < n; k++) {
		double value;
		if (!view_value(v, kids[k], column, &value) || !(value > 0))
			continue;
		double start = at, end = at + value * scale;
		if (end > right)
			end = right; /* children holding more than the parent */
		struct flame_box b = {.node = kids[k],
				      .depth = parent.depth + 1,
				      .x0 = (int)lround(at),
				      .x1 = (int)lround(end),
				      .value = value,
				      .parent = (uint32_t)i};
		at = end;
		if (b.x1 - b.x0 < 1)
			continue;
		if (!add_box(l, &b, start, end)) {
			free(kids);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
	}
	free(kids);
	return STATUS_OK;
}

enum status flame_layout(struct view *v, uint32_t root, uint32_t column,
			 int width, int rows, struct flame_box **out,
			 size_t *n, struct error *err)
{
	struct layout l = {0};
	*out = NULL;
	*n = 0;
	if (width < 1 || rows < 1)
		return error_set(err, STATUS_USAGE, NULL,
				 "a flame graph needs a row and a column");
	struct flame_box top = {.node = root, .x0 = 0, .x1 = width,
				.parent = UINT32_MAX};
	if (!view_value(v, root, column, &top.value))
		top.value = 0;
	if (!add_box(&l, &top, 0, width))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	size_t row_start = 0;
	for (int r = 1; r < rows; r++) {
		size_t row_end = l.n;
		for (size_t i = row_start; i < row_end; i++) {
			enum status st = children(&l, i, v, column, err);
			if (st != STATUS_OK) {
				free(l.boxes);
				free(l.left);
				free(l.right);
				return st;
			}
		}
		if (l.n == row_end)
			break;
		row_start = row_end;
	}
	free(l.left);
	free(l.right);
	*out = l.boxes;
	*n = l.n;
	return STATUS_OK;
}

size_t flame_box_at(const struct flame_box *boxes, size_t n, uint32_t depth,
		    int x)
{
	size_t best = SIZE_MAX;
	int best_d = 0;
	for (size_t i = 0; i < n; i++) {
		if (boxes[i].depth != depth)
			continue;
		if (x >= boxes[i].x0 && x < boxes[i].x1)
			return i;
		int d = x < boxes[i].x0 ? boxes[i].x0 - x : x - boxes[i].x1 + 1;
		if (best == SIZE_MAX || d < best_d)
			best = i, best_d = d;
	}
	return best;
}

/* ---- merged layouts (a sandwich's callees) ---------------------------- */

struct kid {
	char *label;
	uint32_t row;
	double value;
};

struct group {
	char *label;
	size_t first, n; /* kids[first .. first + n) */
	double value;
};

static int kid_by_label(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;
	int c = strcmp(x->label, y->label);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int group_by_value(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return strcmp(x->label, y->label);
}

struct merging {
	struct flame_merge *fm;
	size_t cap_boxes, cap_rows; /* cap_boxes: of fm->boxes, left, right */
	double *left, *right;
	struct kid *kids;
	size_t n_kids, cap_kids;
	struct group *groups;
	size_t cap_groups;
};

/* The children of every member of box `i`, with a value above 0. */
static enum status collect(struct merging *g, struct view *v, size_t i,
			   uint32_t column, struct error *err)
{
	const struct flame_merged *b = &g->fm->boxes[i];
	g->n_kids = 0;
	for (uint32_t k = 0; k < b->n; k++) {
		uint32_t *kids = NULL;
		size_t nk = 0;
		enum status st = view_children(v, g->fm->rows[b->first + k],
					       column, false, &kids, &nk, err);
		if (st != STATUS_OK)
			return st;
		for (size_t j = 0; j < nk; j++) {
			double value;
			if (!view_value(v, kids[j], column, &value) ||
			    !(value > 0))
				continue;
			char *label = view_node_short_label(v, kids[j]);
			if (!label ||
			    !array_grow((void **)&g->kids, &g->cap_kids,
					g->n_kids + 1, sizeof *g->kids)) {
				free(label);
				free(kids);
				return error_set(err, STATUS_NOMEM, NULL,
						 "out of memory");
			}
			g->kids[g->n_kids++] =
				(struct kid){label, kids[j], value};
		}
		free(kids);
	}
	return STATUS_OK;
}

static bool add_merged(struct merging *g, const struct flame_merged *b,
		       double left, double right, const struct kid *members,
		       size_t n)
{
	struct flame_merge *fm = g->fm;
	void **const arrays[] = {(void **)&fm->boxes, (void **)&g->left,
				 (void **)&g->right};
	const size_t sizes[] = {sizeof *fm->boxes, sizeof *g->left,
				sizeof *g->right};
	if (!array_grow_each(&g->cap_boxes, fm->n_boxes + 1, 3, arrays,
			     sizes) ||
	    !array_grow((void **)&fm->rows, &g->cap_rows, fm->n_rows + n,
			sizeof *fm->rows))
		return false;
	fm->boxes[fm->n_boxes] = *b;
	fm->boxes[fm->n_boxes].first = (uint32_t)fm->n_rows;
	fm->boxes[fm->n_boxes].n = (uint32_t)n;
	for (size_t k = 0; k < n; k++)
		fm->rows[fm->n_rows++] = members[k].row;
	g->left[fm->n_boxes] = left;
	g->right[fm->n_boxes] = right;
	fm->n_boxes++;
	return true;
}

/* Box `i`'s children: its members' children grouped by label. */
static enum status merged_children(struct merging *g, struct view *v,
				   size_t i, uint32_t column,
				   struct error *err)
{
	struct flame_merged parent = g->fm->boxes[i];
	double left = g->left[i], right = g->right[i];
	if (!(parent.value > 0))
		return STATUS_OK;
	enum status st = collect(g, v, i, column, err);
	size_t n_groups = 0;
	if (st == STATUS_OK && g->n_kids) {
		qsort(g->kids, g->n_kids, sizeof *g->kids, kid_by_label);
		if (!array_grow((void **)&g->groups, &g->cap_groups, g->n_kids,
				sizeof *g->groups))
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t k = 0; st == STATUS_OK && k < g->n_kids; k++) {
		if (n_groups &&
		    strcmp(g->groups[n_groups - 1].label, g->kids[k].label) == 0) {
			g->groups[n_groups - 1].n++;
			g->groups[n_groups - 1].value += g->kids[k].value;
		} else {
			g->groups[n_groups++] = (struct group){
				g->kids[k].label, k, 1, g->kids[k].value};
		}
	}
	if (n_groups)
		qsort(g->groups, n_groups, sizeof *g->groups, group_by_value);
	double scale = (right - left) / parent.value, at = left;
	for (size_t k = 0; st == STATUS_OK && k < n_groups; k++) {
		const struct group *gr = &g->groups[k];
		double start = at, end = fmin(at + gr->value * scale, right);
		at = end;
		struct flame_merged b = {.depth = parent.depth + 1,
					 .x0 = (int)lround(start),
					 .x1 = (int)lround(end),
					 .value = gr->value,
					 .parent = (uint32_t)i};
		if (b.x1 - b.x0 < 1)
			continue;
		if (!(b.label = strdup(gr->label)) ||
		    !add_merged(g, &b, start, end, &g->kids[gr->first], gr->n)) {
			free(b.label);
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		}
	}
	for (size_t k = 0; k < g->n_kids; k++)
		free(g->kids[k].label);
	g->n_kids = 0;
	return st;
}

enum status flame_layout_merged(struct view *v, const uint32_t *roots,
				size_t n_roots, const char *label,
				uint32_t column, int width, int rows,
				struct flame_merge *out, struct error *err)
{
	struct merging g = {.fm = out};
	*out = (struct flame_merge){0};
	if (width < 1 || rows < 1 || n_roots == 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "a merged flame graph needs roots, a row and "
				 "a column");
	struct flame_merged top = {.x0 = 0, .x1 = width,
				   .parent = UINT32_MAX,
				   .label = strdup(label ? label : "")};
	struct kid *members = calloc(n_roots, sizeof *members);
	enum status st = STATUS_OK;
	for (size_t r = 0; members && r < n_roots; r++) {
		double value = 0;
		if (view_value(v, roots[r], column, &value) && value > 0)
			top.value += value;
		members[r].row = roots[r];
	}
	if (!members || !top.label ||
	    !add_merged(&g, &top, 0, width, members, n_roots)) {
		free(top.label);
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	free(members);
	size_t row_start = 0;
	for (int r = 1; st == STATUS_OK && r < rows; r++) {
		size_t row_end = out->n_boxes;
		for (size_t i = row_start; st == STATUS_OK && i < row_end; i++)
			st = merged_children(&g, v, i, column, err);
		if (out->n_boxes == row_end)
			break;
		row_start = row_end;
	}
	free(g.left);
	free(g.right);
	free(g.kids);
	free(g.groups);
	if (st != STATUS_OK)
		flame_merge_free(out);
	return st;
}

void flame_merge_free(struct flame_merge *fm)
{
	for (size_t i = 0; i < fm->n_boxes; i++)
		free(fm->boxes[i].label);
	free(fm->boxes);
	free(fm->rows);
	*fm = (struct flame_merge){0};
}
