/* hotpath: the message after the hot-path key (H) in the tree: how far the
 * path went and why it stopped where it did. */
#ifndef CALLSCOPE_UI_HOTPATH_H
#define CALLSCOPE_UI_HOTPATH_H

#include <stdint.h>

#include "pane.h"

/* Post the status-line message for a hot path followed from view row
 * `start` to `stop` (its last row, expanded) over the sort column at
 * env->cols->threshold: the levels gone down and the reason it stopped
 * (a leaf; no child with a value; the largest child's share of the row
 * below the threshold, with the :threshold that goes on; the filter). */
void hotpath_say(struct pane_env *env, uint32_t start, uint32_t stop);

#endif
