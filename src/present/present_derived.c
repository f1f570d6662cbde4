/* present_derived: derived-column evaluation over a view, shared by the
 * tree pane, :export and the row writer.  No curses here. */
#include "config.h"

#include "present/present_derived.h"

#include "model/formula.h"
#include "model/model.h"
#include "views/view.h"

struct leaf_ctx {
	struct view *view;
	uint32_t node;
};

/* A formula leaf: model column `leaf` at the row. */
static bool leaf_value(void *ctx, uint32_t leaf, double *out)
{
	struct leaf_ctx *d = ctx;
	if (leaf >= view_model(d->view)->n_columns)
		return false;
	return view_value(d->view, d->node, leaf, out);
}

bool present_column_value(struct view *v, const struct derived_column *derived,
			  size_t n_derived, uint32_t column, uint32_t node,
			  double *out)
{
	uint32_t nc = view_model(v)->n_columns;
	if (column < nc)
		return view_value(v, node, column, out);
	size_t d = column - nc;
	if (d >= n_derived || !derived[d].expr)
		return false;
	struct leaf_ctx ctx = {v, node};
	return formula_eval(derived[d].expr, leaf_value, &ctx, out);
}
