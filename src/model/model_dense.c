/* model_dense: the values of every node at once, for the derived
 * structures that need them all (flat and bottom-up sums, inclusive
 * statistics): a statistic through the provider's summary_all when it has
 * one (context ids mapped to nodes by galloping over the sorted index),
 * else node by node; a column by evaluating its formula over the dense
 * values of the statistics it reads.  Must not depend on curses, on ui/ or
 * on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include "core/array.h"

#include <stdlib.h>
#include <string.h>

struct dense_fill {
	const struct model *m;
	double *values;
	uint8_t *present;
	size_t cursor; /* ctx_sorted: where the last context id was found */
};

/* model_node_of_ctx, galloping forward from the previous answer when the
 * context ids come in increasing order (as providers emit them). */
static uint32_t dense_node_of(struct dense_fill *d, uint32_t ctx_id)
{
	const struct model *m = d->m;
	if (!m->priv->ctx_sorted)
		return model_node_of_ctx(m, ctx_id);
	size_t n = m->n_nodes, lo = 0, hi = n;
	/* the cursor is a lower bound: everything before it is smaller */
	if (d->cursor < n && (m->priv->ctx_sorted[d->cursor] >> 32) <= ctx_id) {
		size_t step = 1;
		lo = d->cursor;
		hi = lo + 1;
		while (hi < n && (m->priv->ctx_sorted[hi] >> 32) < ctx_id) {
			lo = hi + 1;
			hi = lo + step;
			step *= 2;
		}
		if (hi > n)
			hi = n;
	}
	lo = array_pairs_lower_bound(m->priv->ctx_sorted, lo, hi, ctx_id);
	d->cursor = lo;
	if (lo < n && (m->priv->ctx_sorted[lo] >> 32) == ctx_id)
		return (uint32_t)m->priv->ctx_sorted[lo];
	return MODEL_NONE;
}

static void dense_emit(void *ctx, uint32_t ctx_id, double value)
{
	struct dense_fill *d = ctx;
	uint32_t node = dense_node_of(d, ctx_id);
	if (node == MODEL_NONE)
		return;
	d->values[node] = value;
	if (d->present)
		d->present[node] = 1;
}

static void dense_clear(const struct model *m, double *values,
			uint8_t *present)
{
	for (uint32_t i = 0; i < m->n_nodes; i++)
		values[i] = 0;
	if (present)
		memset(present, 0, m->n_nodes);
}

enum status model_stat_dense(const struct model *m, uint32_t stat,
			     double *values, uint8_t *present,
			     struct error *err)
{
	dense_clear(m, values, present);
	if (stat >= m->n_stats)
		return error_set(err, STATUS_USAGE, m->path,
				 "no statistic %u", (unsigned)stat);
	if (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE) {
		model_inclusive_dense(m, stat, values, present);
		return STATUS_OK;
	}
	if (!m->priv->value_ops)
		return STATUS_OK;
	if (m->priv->value_ops->summary_all) {
		struct dense_fill d = {
			.m = m,
			.values = values,
			.present = present,
		};
		struct error sub = {0};
		enum status st = m->priv->value_ops->summary_all(
		    m->priv->value_impl, m->stats[stat].stat_id, dense_emit, &d,
		    &sub);
		if (st == STATUS_OK) {
			error_clear(&sub);
			/* the provider gave the first node of each context
			 * id; the others with the same id read the same */
			for (uint32_t i = 0;
			     !m->priv->ctx_unique && i < m->n_nodes; i++) {
				uint32_t first = model_node_of_ctx(
					m, m->nodes[i].ctx_id);
				if (first == i || first >= m->n_nodes)
					continue;
				values[i] = values[first];
				if (present)
					present[i] = present[first];
			}
			return STATUS_OK;
		}
		if (st != STATUS_UNSUPPORTED) {
			/* the provider's detail is the caller's */
			if (err) {
				error_clear(err);
				*err = sub;
			} else {
				error_clear(&sub);
			}
			dense_clear(m, values, present);
			return st;
		}
		error_clear(&sub);
		dense_clear(m, values, present);
	}
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		double v;
		if (!model_stat_value(m, i, stat, &v))
			continue;
		values[i] = v;
		if (present)
			present[i] = 1;
	}
	return STATUS_OK;
}

/* The distinct statistics a formula reads (leaves < n_stats), appended to
 * *stats.  Formulas come from parsers that bound their depth. */
static bool formula_stats(const struct model *m, const struct formula *f,
			  uint32_t **stats, uint32_t *n, uint32_t *cap)
{
	uint32_t leaf;
	if (formula_is_leaf(f, &leaf)) {
		if (leaf >= m->n_stats)
			return true;
		for (uint32_t i = 0; i < *n; i++)
			if ((*stats)[i] == leaf)
				return true;
		if (!array_grow_u32((void **)stats, cap, *n + 1, sizeof(**stats)))
			return false;
		(*stats)[(*n)++] = leaf;
		return true;
	}
	for (size_t i = 0; i < f->nargs; i++)
		if (!formula_stats(m, f->args[i], stats, n, cap))
			return false;
	return true;
}

struct dense_leaves {
	const uint32_t *stats;
	uint32_t n;
	double **values;   /* per entry of stats: per node */
	uint8_t **present;
	uint32_t node;
};

static bool dense_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct dense_leaves *dl = ctx;
	for (uint32_t i = 0; i < dl->n; i++) {
		if (dl->stats[i] != leaf)
			continue;
		if (!dl->present[i][dl->node])
			return false;
		*out = dl->values[i][dl->node];
		return true;
	}
	return false;
}

enum status model_column_dense(const struct model *m, uint32_t column,
			       bool standard, double *values, uint8_t *present,
			       struct error *err)
{
	uint32_t *stats = NULL;
	uint32_t n_stats = 0, cap = 0;
	struct dense_leaves dl = {0};
	enum status st = STATUS_OK;
	dense_clear(m, values, present);
	if (column >= m->n_columns)
		return error_set(err, STATUS_USAGE, m->path, "no column %u",
				 (unsigned)column);
	const struct model_column *c = &m->columns[column];
	const struct formula *f =
		standard && c->expr_standard ? c->expr_standard : c->expr;
	uint32_t leaf;
	if (!f)
		return STATUS_OK;
	if (formula_is_leaf(f, &leaf))
		return leaf < m->n_stats
			       ? model_stat_dense(m, leaf, values, present, err)
			       : STATUS_OK;
	if (!formula_stats(m, f, &stats, &n_stats, &cap))
		goto nomem;
	dl.stats = stats;
	dl.values = calloc((size_t)n_stats + 1, sizeof(*dl.values));
	dl.present = calloc((size_t)n_stats + 1, sizeof(*dl.present));
	if (!dl.values || !dl.present)
		goto nomem;
	for (uint32_t i = 0; i < n_stats; i++) {
		dl.values[i] = malloc((size_t)m->n_nodes * sizeof(double));
		dl.present[i] = malloc(m->n_nodes);
		dl.n = i + 1;
		if (!dl.values[i] || !dl.present[i])
			goto nomem;
		st = model_stat_dense(m, stats[i], dl.values[i],
				      dl.present[i], err);
		if (st != STATUS_OK)
			goto out;
	}
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		double v;
		dl.node = i;
		if (!formula_eval(f, dense_leaf, &dl, &v))
			continue;
		values[i] = v;
		if (present)
			present[i] = 1;
	}
	goto out;
nomem:
	st = error_set(err, STATUS_NOMEM, m->path, "out of memory");
out:
	for (uint32_t i = 0; i < dl.n; i++) {
		free(dl.values[i]);
		free(dl.present[i]);
	}
	free(dl.values);
	free(dl.present);
	free(stats);
	if (st != STATUS_OK)
		dense_clear(m, values, present);
	return st;
}
