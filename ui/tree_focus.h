/* tree_focus: the tree pane's values over part of the system (the threads
 * pane's z: a thread, a rank, a node; views/system_focus.h): a column's
 * value at a row read from the focus's contexts, blank (with the reason
 * on the status line) where that cannot be (a column of several
 * statistics or a derived one, a statistic without per-profile values, a
 * view other than top-down, whose rows stand for several contexts), the
 * header's words for it, and the key back to every context. */
#ifndef CALLSCOPE_UI_TREE_FOCUS_H
#define CALLSCOPE_UI_TREE_FOCUS_H

#include <stdbool.h>
#include <stdint.h>

#include "pane.h"

/* Column `col`'s value at view row `node` over env->sys_focus (which must
 * be set).  False when blank. */
bool tree_focus_value(struct pane_env *env, uint32_t col, uint32_t node,
		      double *out);

/* The total column `col`'s percentages are of: its value at the root. */
bool tree_focus_total(struct pane_env *env, uint32_t col, double *out);

/* Why column `col` is blank under the focus, NULL when it is not. */
const char *tree_focus_blank(const struct pane_env *env, uint32_t col);

/* "system: RANK 3, 1 context; ~: all" for the header; heap string or
 * NULL. */
char *tree_focus_words(const struct pane_env *env);

/* The system-all key: every context again. */
struct reaction tree_focus_clear(struct pane_env *env);

#endif
