/* model_profile_column: a column's per-profile values (the threads pane)
 * when the column is a formula over several statistics -- a Cube metric's
 * own column (model_column.own: a parent less its sub-metrics, or the
 * minimum / maximum of them) -- by evaluating the formula at each profile
 * over the statistics' per-profile values.  Must not depend on curses, on
 * ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include <stdlib.h>
#include <string.h>

struct leaf_rows {
	uint32_t stat;
	struct profile_value *v; /* sorted by profile */
	size_t n;
};

struct profile_ctx {
	const struct leaf_rows *rows;
	size_t n_rows;
	uint32_t profile;
};

static bool add_leaves(const struct formula *f, uint32_t *stats, size_t *n,
		       size_t cap)
{
	if (f->op == FORMULA_LEAF) {
		for (size_t i = 0; i < *n; i++)
			if (stats[i] == f->leaf)
				return true;
		if (*n == cap)
			return false;
		stats[(*n)++] = f->leaf;
		return true;
	}
	for (size_t i = 0; i < f->nargs; i++)
		if (!add_leaves(f->args[i], stats, n, cap))
			return false;
	return true;
}

static size_t count_leaves(const struct formula *f)
{
	size_t n = f->op == FORMULA_LEAF;
	for (size_t i = 0; i < f->nargs; i++)
		n += count_leaves(f->args[i]);
	return n;
}

static bool profile_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct profile_ctx *pc = ctx;
	for (size_t r = 0; r < pc->n_rows; r++) {
		if (pc->rows[r].stat != leaf)
			continue;
		size_t lo = 0, hi = pc->rows[r].n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (pc->rows[r].v[mid].profile < pc->profile)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < pc->rows[r].n &&
		    pc->rows[r].v[lo].profile == pc->profile) {
			*out = pc->rows[r].v[lo].value;
			return true;
		}
		return false;
	}
	return false;
}

/* The profiles of every leaf's rows, in order, each once, evaluated. */
static enum status evaluate(const struct model *m, const struct formula *f,
			    const struct leaf_rows *rows, size_t n_rows,
			    struct profile_value **out, size_t *n,
			    struct error *err)
{
	uint8_t *seen = calloc(model_n_profiles(m) ? model_n_profiles(m) : 1, 1);
	if (!seen)
		return error_set(err, STATUS_NOMEM, m->path, "out of memory");
	size_t count = 0;
	for (size_t r = 0; r < n_rows; r++)
		for (size_t i = 0; i < rows[r].n; i++)
			if (rows[r].v[i].profile < model_n_profiles(m) &&
			    !seen[rows[r].v[i].profile]) {
				seen[rows[r].v[i].profile] = 1;
				count++;
			}
	*out = count ? malloc(count * sizeof(**out)) : NULL;
	if (count && !*out) {
		free(seen);
		return error_set(err, STATUS_NOMEM, m->path, "out of memory");
	}
	for (uint32_t p = 0; p < model_n_profiles(m) && *n < count; p++) {
		if (!seen[p])
			continue;
		struct profile_ctx pc = {
			.rows = rows, .n_rows = n_rows, .profile = p};
		double v = 0;
		if (!formula_eval(f, profile_leaf, &pc, &v))
			v = 0;
		(*out)[(*n)++] = (struct profile_value){.profile = p, .value = v};
	}
	free(seen);
	return STATUS_OK;
}

enum status model_per_profile_column(const struct model *m, uint32_t node,
				     uint32_t column, struct profile_value **out,
				     size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	if (column >= model_n_columns(m) || !model_columns(m)[column].expr)
		return error_set(err, STATUS_USAGE, m->path, "no such column");
	uint32_t stat = model_column_stat(m, column);
	if (stat != MODEL_NONE)
		return model_per_profile(m, node, stat, out, n, err);
	const struct formula *f = model_columns(m)[column].expr;
	size_t cap = count_leaves(f);
	uint32_t *stats = malloc((cap ? cap : 1) * sizeof(*stats));
	struct leaf_rows *rows = calloc(cap ? cap : 1, sizeof(*rows));
	size_t n_rows = 0;
	enum status st = STATUS_OK;
	if (!stats || !rows || !add_leaves(f, stats, &n_rows, cap))
		st = error_set(err, STATUS_NOMEM, m->path, "out of memory");
	for (size_t r = 0; st == STATUS_OK && r < n_rows; r++) {
		rows[r].stat = stats[r];
		st = model_per_profile(m, node, stats[r], &rows[r].v, &rows[r].n,
				       err);
	}
	if (st == STATUS_OK)
		st = evaluate(m, f, rows, n_rows, out, n, err);
	for (size_t r = 0; rows && r < n_rows; r++)
		free(rows[r].v);
	free(rows);
	free(stats);
	return st;
}
