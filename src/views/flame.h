/* flame: the layout of a flame graph (an icicle: the root on top, callees
 * below) of a view's subtree, for the viewer's flame pane.  The root spans
 * the whole width; each row's boxes are the children of the boxes above,
 * side by side in the view's order for the column (largest first), each as
 * wide as its share of its parent's value, so the room a parent leaves
 * free is its own (self) part.  Positions are kept in fractions of a cell
 * and rounded once, so boxes never drift; a child narrower than one cell
 * is not laid out (nor its subtree).  Only what fits is computed: at most
 * `width` boxes a row and `rows` rows, O(boxes) view requests, whatever
 * the size of the tree.  Values must add up (view_column_adds_up) and be
 * inclusive.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_FLAME_H
#define CALLSCOPE_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "views/view.h"

struct flame_box {
	uint32_t node;  /* view row */
	uint32_t depth; /* 0: the root's row */
	int x0, x1;     /* cells [x0, x1) */
	double value;   /* the column's value at the row */
	uint32_t parent; /* index of the box above, UINT32_MAX for the root */
};

/* Lay out `root`'s subtree of view `v` for column `column` in `width`
 * cells and at most `rows` rows: *out (malloc'd, caller frees) holds the
 * boxes row by row, left to right.  A root without a positive value gives
 * its box alone.  STATUS_USAGE for a width or rows below 1, STATUS_NOMEM,
 * or the view's error. */
enum status flame_layout(struct view *v, uint32_t root, uint32_t column,
			 int width, int rows, struct flame_box **out,
			 size_t *n, struct error *err);

/* The box of row `depth` that covers cell `x`, else the nearest box of
 * that row; SIZE_MAX when the row has none.  `boxes` as flame_layout
 * made them. */
size_t flame_box_at(const struct flame_box *boxes, size_t n, uint32_t depth,
		    int x);



/* A box of a merged layout: several view rows drawn as one (the callees
 * of every instance of a function, a sandwich's lower half), merged by
 * their short label (view_node_short_label) under one parent. */
struct flame_merged {
	char *label;     /* heap string, not sanitized */
	uint32_t depth;  /* 0: the roots' box */
	int x0, x1;      /* cells [x0, x1) */
	double value;    /* the sum of the members' values */
	uint32_t parent; /* index of the box above, UINT32_MAX for the top */
	uint32_t first, n; /* its members: rows[first .. first + n) */
};

struct flame_merge {
	struct flame_merged *boxes;
	size_t n_boxes;
	uint32_t *rows; /* the members of every box */
	size_t n_rows;
};

/* Lay out the subtrees of view rows `roots` (n_roots >= 1, drawn as one
 * box spanning `width`, named `label`) merged: each box's children are
 * the children of all its members grouped by short label, their values
 * summed, largest first, as wide as their share (flame_layout's rules
 * otherwise).  At most `rows` rows.  STATUS_USAGE for sizes below 1 or no
 * roots, STATUS_NOMEM, or the view's error. */
enum status flame_layout_merged(struct view *v, const uint32_t *roots,
				size_t n_roots, const char *label,
				uint32_t column, int width, int rows,
				struct flame_merge *out, struct error *err);
void flame_merge_free(struct flame_merge *fm);

#endif
