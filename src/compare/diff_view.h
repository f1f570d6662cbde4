/* diff_view: what the viewer shows of two compared runs beyond the
 * merged tree's model (diff_model.h): which way a delta, delta% or ratio
 * column's value goes (worse: the new run costs more; better: less; the
 * viewer colours and signs them), a node's mark when one run only has it,
 * and the nodes that regressed, worst first (the viewer's
 * next-regression key).  Larger is worse: every metric compared is a
 * cost (time, counts of events, bytes).  No curses here. */
#ifndef CALLSCOPE_DIFF_VIEW_H
#define CALLSCOPE_DIFF_VIEW_H

#include "compare/diff_model.h"

enum diff_sense { DIFF_SENSE_NONE, DIFF_SENSE_WORSE, DIFF_SENSE_BETTER };

/* Value `v` of model column `c` (of the model diff_model_new made from
 * `d`): worse or better for a delta, delta% (v above or below 0) and a
 * ratio (above or below 1); NONE for an even value, a base or new column,
 * or a column that is none of the diff's. */
enum diff_sense diff_view_sense(const struct diff *d, uint32_t c, double v);

/* Whether column `c` is a delta or a delta% (its values signed). */
bool diff_view_signed(const struct diff *d, uint32_t c);

/* The mark of merged node `node` when one run only has it
 * (DIFF_MARK_NEW, DIFF_MARK_GONE), else NULL. */
const char *diff_view_mark(const struct diff *d, uint32_t node);

/* How many merged nodes both runs have (the root always). */
uint32_t diff_view_matched(const struct diff *d);

/* The column the compare view sorts by and the hot path follows: the
 * first metric's inclusive delta (exclusive when the runs have no
 * inclusive values). */
uint32_t diff_view_delta_column(const struct diff *d);

/* The growth of metric `k` in each merged node itself: its inclusive
 * delta less its children's (not the exclusive delta: with HPCToolkit's
 * function-scope exclusive values a function and its lines would both
 * count the lines' growth), its exclusive delta where the runs have no
 * inclusive values.  The nodes whose growth is above 0 (above rounding:
 * 1e-12 of the base run's total), largest first (ties by node), into *out
 * (a heap array; NULL when none), their number in *n.  False when out of
 * memory. */
struct diff_regression {
	uint32_t node;
	double growth;
};
bool diff_view_regressions(const struct diff *d, size_t k,
			   struct diff_regression **out, size_t *n);

#endif
