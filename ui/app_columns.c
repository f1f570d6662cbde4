/* app_columns: which columns the tree shows when the viewer starts (the
 * hub's set-up in app.c asks it once): the model's visible columns, less
 * those known to hold nothing, judged by the root's value of a column's
 * inclusive side, which the percentages need anyway.  It reads the model
 * and fills the column set's totals cache; it knows nothing of curses,
 * the hub's state or the panes. */
#include "config.h"

#include "app_columns.h"

#include "model/model_column.h"

/* Whether column c is known to hold nothing: the root's value of its
 * inclusive column (c or its pair), a sum of one statistic, is absent or
 * zero.  That value is what
 * the column's percentages divide by (kept in the totals), so this costs
 * no more than the first frame; a column with no inclusive side, or a
 * formula over several statistics, is never called empty (the root's
 * value says nothing of the others), nor one whose inclusive values the
 * engine derives (the root's would cost a pass over the database), nor,
 * on compared runs, any (a delta whose root value is 0 has others). */
static bool column_is_empty(const struct model *m, bool compared,
			    double *totals, uint8_t *has_total, uint32_t c)
{
	if (compared)
		return false;
	uint32_t incl = model_columns(m)[c].kind == COLUMN_INCLUSIVE
				? c
				: model_columns(m)[c].pair;
	if (incl == MODEL_NONE || incl >= model_n_columns(m) ||
	    model_columns(m)[incl].kind != COLUMN_INCLUSIVE)
		return false;
	/* a sum: a minimum or maximum absent at the root may be there below
	 * it (Cube's min_time) */
	uint32_t st = model_column_stat(m, incl);
	if (st == MODEL_NONE || st >= model_n_stats(m) ||
	    model_stats(m)[st].combine != COMBINE_SUM)
		return false;
	/* an inclusive statistic the engine derives costs a pass over the
	 * tree for its first value: not at start for a column not drawn */
	if (model_stats(m)[st].flags & STAT_DERIVED_INCLUSIVE)
		return false;
	if (has_total[c] == 0)
		has_total[c] = model_column_total(m, c, &totals[c]) ? 1 : 2;
	return has_total[c] == 2;
}

/* The columns shown by default: the model's visible ones, less those that
 * hold nothing (critique b6: a CUDA database's empty GMEM, GMSET, GXCOPY,
 * GICOPY and GSYNC left the tree 60 columns at 200), unless every one is
 * empty.  The others stay in the column chooser (c). */
size_t app_columns_default(const struct model *m, bool compared,
			   double *totals, uint8_t *has_total, uint32_t *out)
{
	const struct model_column *cols = model_columns(m);
	size_t nonempty = 0, n = 0;
	for (uint32_t c = 0; c < model_n_columns(m); c++)
		if (cols[c].visible && cols[c].expr)
			nonempty += !column_is_empty(m, compared, totals,
						     has_total, c);
	for (uint32_t c = 0; c < model_n_columns(m); c++)
		if (cols[c].visible && cols[c].expr &&
		    (nonempty == 0 ||
		     !column_is_empty(m, compared, totals, has_total, c)))
			out[n++] = c;
	return n;
}
