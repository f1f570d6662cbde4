/* threads_func: the threads pane (pane_threads.c) of a column whose
 * values are codes (model_column_is_code: Cube's SCALE_FUNC ranking
 * codes): each context's row shows its code, its label and the text its
 * code stands for (model_value_text: the scaling function), and the sums
 * line the function over every context instead of a sum of codes, which
 * is none. */
#ifndef CALLSCOPE_UI_THREADS_FUNC_H
#define CALLSCOPE_UI_THREADS_FUNC_H

#include <stdbool.h>
#include <stdint.h>

#include "pane.h"
#include "screen.h"

/* Whether column `column` is shown this way. */
bool threads_func_shown(const struct model *m, uint32_t column);

/* The width of the rows' labels in a pane `w` columns wide: the widest
 * context label, at most a third of what the code leaves. */
int threads_func_label_width(const struct model *m, int w);

/* One row at (y, x), `w` columns wide, in `a`: profile `profile`'s code
 * `value` at model node `node` in the column's form, its label in
 * `label_w` columns, then the function ("?" where its read failed, "-"
 * where it has none). */
void threads_func_draw_row(const struct model *m, uint32_t node,
			   uint32_t column, uint32_t profile, double value,
			   int label_w, int y, int x, int w, attr_t a);

/* " ranking codes, not summed; all contexts: CODE = FUNCTION" (the
 * column's value at `node` and its text); malloc'd, or NULL. */
char *threads_func_sums_line(const struct model *m, uint32_t node,
			     uint32_t column);

#endif
