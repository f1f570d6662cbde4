/* threads_tree: the tree mode of the threads pane (pane_threads.c): the
 * execution contexts grouped as the system tree (src/views/system_tree.h:
 * machine > node > process > thread as the identifier tuples give them),
 * each group showing its contexts' values combined as the statistic
 * combines them (sum, min, max), expanded and collapsed with the tree
 * pane's keys, siblings by value or in tuple order. */
#ifndef CALLSCOPE_UI_THREADS_TREE_H
#define CALLSCOPE_UI_THREADS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actions.h"
#include "pane.h"
#include "pane_list.h"
#include "views/system_tree.h"

struct threads_tree {
	struct systree t;
	double *values;    /* per node of t */
	uint8_t *expanded; /* per node of t */
	uint32_t *rows;    /* the visible nodes */
	struct list_cursor list;
	bool by_value;     /* siblings by value, else in tuple order */
	enum stat_combine combine;
};

/* The tree of `m`'s contexts with values by_profile[0..n_profiles) (a
 * dense array: 0 where a context has none), groups combined by `combine`
 * (or as the reader combines statistic `stat`'s: systree_aggregate_own);
 * the top level shown, or the one group there opened.  NULL (with `err`)
 * when out of memory. */
struct threads_tree *threads_tree_new(const struct model *m,
				      const double *by_profile,
				      uint32_t n_profiles,
				      enum stat_combine combine, uint32_t stat,
				      bool by_value, struct error *err);
void threads_tree_free(struct threads_tree *tt);

/* Siblings by value or in tuple order; the cursor stays on its node. */
void threads_tree_order(struct threads_tree *tt, bool by_value);

/* Apply a key: movement, toggle, expand, collapse (or go to the parent),
 * expand all, collapse all.  False when it is none of those. */
bool threads_tree_action(struct threads_tree *tt, enum action a);

/* The visible rows from row y (`rows` of them) of rect r: the value in
 * column `column`'s form, its percent of `total`, the label indented by
 * level behind an expand mark. */
void threads_tree_draw(const struct model *m, struct threads_tree *tt,
		       uint32_t column, double total, struct rect r, int y,
		       int rows);

/* The selected node (SYSTREE_NONE when the tree is empty). */
uint32_t threads_tree_selected(const struct threads_tree *tt);

#endif
