/* flame: the flame graph's layout (see the header).  Rows are made one
 * after the other from the row above: for each box, its children in the
 * view's order, each given the fraction of the parent's span its value is
 * of the parent's value.  No curses here. */
#include "config.h"

#include "views/flame.h"

#include <math.h>
#include <stdlib.h>

#include "core/array.h"

struct layout {
	struct flame_box *boxes;
	double *left, *right; /* per box: its span in fractions of cells */
	size_t n, cap, cap_l, cap_r;
};

static bool add_box(struct layout *l, const struct flame_box *b, double left,
		    double right)
{
	if (!array_grow((void **)&l->boxes, &l->cap, l->n + 1,
			sizeof *l->boxes) ||
	    !array_grow((void **)&l->left, &l->cap_l, l->n + 1,
			sizeof *l->left) ||
	    !array_grow((void **)&l->right, &l->cap_r, l->n + 1,
			sizeof *l->right))
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
