/* view_path: a row of a view named by its path -- the labels and kinds of
 * the rows from the root down to it -- so that a row found in one view is
 * found again in another view of the same kind over a different model
 * (the partial model of a GPU run shown while it is scanned, then the
 * complete one: their row ids differ, their paths do not).  Must not
 * depend on curses or on ui/. */
#ifndef CALLSCOPE_VIEW_PATH_H
#define CALLSCOPE_VIEW_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "views/view.h"

struct view_path {
	char **labels; /* labels[0] is the root's child on the way */
	uint8_t *kinds;
	size_t n;      /* 0: the root */
};

/* The path of row `node` of `v` (heap, free with view_path_free).
 * STATUS_USAGE for an unknown row, STATUS_NOMEM. */
enum status view_path_of(const struct view *v, uint32_t node,
			 struct view_path *out, struct error *err);

/* The row of `v` at path `p` (each step: the first child with the same
 * label and kind), or MODEL_NONE when `v` has no such row. */
uint32_t view_path_find(struct view *v, const struct view_path *p);

void view_path_free(struct view_path *p);

#endif
