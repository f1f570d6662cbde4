/* app_columns: the columns the tree shows at start (the hub's set-up,
 * app.c): the model's visible ones less those known to hold nothing.
 * Needs the model only, no curses and no hub state. */
#ifndef CALLSCOPE_UI_APP_COLUMNS_H
#define CALLSCOPE_UI_APP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Write the columns shown by default into `out` (room for every model
 * column) and return how many: the model's visible columns with a value,
 * less those whose root value (of their inclusive side) is absent or
 * zero, unless every one is.  `compared`: the model is a compare view's
 * merged tree (no column is called empty).  `totals` and `has_total` are
 * struct column_set's cache of the columns' totals, filled for the
 * columns this asks. */
size_t app_columns_default(const struct model *m, bool compared,
			   double *totals, uint8_t *has_total, uint32_t *out);

#endif
