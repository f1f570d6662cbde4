/* model_values: one node's values -- a statistic asked of the reader's
 * value provider (or of model_inclusive.c for a derived one), a column
 * evaluated through its formula, the per-profile values -- and the column
 * lookups: a column's single statistic, its total, a column named on the
 * command line.  Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

struct leaf_ctx {
	const struct model *m;
	uint32_t node;
};

static bool stat_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct leaf_ctx *lc = ctx;
	return model_stat_value(lc->m, lc->node, leaf, out);
}

bool model_stat_value(const struct model *m, uint32_t node, uint32_t stat,
		      double *out)
{
	if (node >= m->n_nodes || stat >= m->n_stats)
		return false;
	if (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE)
		return model_inclusive_value(m, node, stat, out);
	if (!m->priv->value_ops || !m->priv->value_ops->summary)
		return false;
	return m->priv->value_ops->summary(m->priv->value_impl,
					   m->nodes[node].ctx_id,
					   m->stats[stat].stat_id, out);
}

bool model_combine_profiles(const struct model *m, uint32_t stat,
			    const double *vals, size_t n, double *out)
{
	if (stat >= m->n_stats || (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE) ||
	    !m->priv->value_ops || !m->priv->value_ops->combine_profiles)
		return false;
	return m->priv->value_ops->combine_profiles(
		m->priv->value_impl, m->stats[stat].stat_id, vals, n, out);
}

bool model_combine_contexts(const struct model *m, uint32_t stat,
			    const uint32_t *nodes, const double *vals,
			    size_t n, double *out, bool *present)
{
	if (stat >= m->n_stats || (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE) ||
	    !m->priv->value_ops || !m->priv->value_ops->combine_contexts)
		return false;
	uint32_t *ctx = malloc((n + 1) * sizeof(*ctx));
	if (!ctx) {
		*present = false;
		return true; /* absent rather than a wrong sum */
	}
	for (size_t i = 0; i < n; i++)
		ctx[i] = nodes[i] < m->n_nodes ? m->nodes[nodes[i]].ctx_id : 0;
	bool own = m->priv->value_ops->combine_contexts(
		m->priv->value_impl, m->stats[stat].stat_id, ctx, vals, n, out,
		present);
	free(ctx);
	return own;
}

enum status model_value_text(const struct model *m, uint32_t node,
			     uint32_t column, uint32_t profile, char **out,
			     struct error *err)
{
	*out = NULL;
	uint32_t stat = column < m->n_columns ? model_column_stat(m, column)
					      : MODEL_NONE;
	if (node >= m->n_nodes || stat == MODEL_NONE ||
	    (m->stats[stat].flags & STAT_DERIVED_INCLUSIVE) ||
	    !m->priv->value_ops || !m->priv->value_ops->value_text)
		return STATUS_OK;
	return m->priv->value_ops->value_text(m->priv->value_impl,
					      m->nodes[node].ctx_id,
					      m->stats[stat].stat_id, profile,
					      out, err);
}

bool model_value(const struct model *m, uint32_t node, uint32_t column,
		 double *out)
{
	if (column >= m->n_columns || node >= m->n_nodes ||
	    !m->columns[column].expr)
		return false;
	struct leaf_ctx lc = {m, node};
	return formula_eval(m->columns[column].expr, stat_leaf, &lc, out);
}

bool model_value_standard(const struct model *m, uint32_t node,
			  uint32_t column, double *out)
{
	if (column >= m->n_columns || node >= m->n_nodes)
		return false;
	const struct formula *f = m->columns[column].expr_standard
					  ? m->columns[column].expr_standard
					  : m->columns[column].expr;
	if (!f)
		return false;
	struct leaf_ctx lc = {m, node};
	return formula_eval(f, stat_leaf, &lc, out);
}

uint32_t model_column_stat(const struct model *m, uint32_t column)
{
	uint32_t leaf;
	if (column < m->n_columns && m->columns[column].expr &&
	    formula_is_leaf(m->columns[column].expr, &leaf) &&
	    leaf < m->n_stats)
		return leaf;
	return MODEL_NONE;
}

bool model_column_total(const struct model *m, uint32_t column,
			double *out)
{
	if (column >= m->n_columns)
		return false;
	uint32_t c = column;
	if (m->columns[c].kind != COLUMN_INCLUSIVE)
		c = m->columns[c].pair;
	if (c == MODEL_NONE)
		c = column;
	double v;
	if (!model_value(m, 0, c, &v) || v == 0)
		return false;
	*out = v;
	return true;
}

uint32_t model_find_column(const struct model *m, const char *spec)
{
	if (!spec || !*spec)
		return MODEL_NONE;
	char *end;
	unsigned long idx = strtoul(spec, &end, 10);
	if (*end == '\0' && idx < m->n_columns)
		return (uint32_t)idx;
	size_t len = strlen(spec);
	int want_kind = -1;
	if (len > 4 && (strcmp(spec + len - 4, " (I)") == 0 ||
			strcmp(spec + len - 4, " (E)") == 0)) {
		want_kind = spec[len - 2] == 'I' ? COLUMN_INCLUSIVE
						 : COLUMN_EXCLUSIVE;
		len -= 4;
	}
	/* exact name (optionally NAME:VARIANT), inclusive first */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < m->n_columns; i++) {
			const struct model_column *c = &m->columns[i];
			if (want_kind >= 0 && c->kind != want_kind)
				continue;
			if (want_kind < 0 && pass == 0 &&
			    c->kind != COLUMN_INCLUSIVE)
				continue;
			size_t nl = strlen(c->name);
			if (nl == len && strncmp(c->name, spec, len) == 0)
				return i;
			if (nl < len && strncmp(c->name, spec, nl) == 0 &&
			    spec[nl] == ':' && c->variant &&
			    strlen(c->variant) == len - nl - 1 &&
			    strncmp(c->variant, spec + nl + 1, len - nl - 1) ==
				    0)
				return i;
		}
	}
	return MODEL_NONE;
}

bool model_has_per_profile(const struct model *m)
{
	return m && m->priv->value_ops && m->priv->value_ops->per_profile;
}

enum status model_per_profile(const struct model *m, uint32_t node,
			      uint32_t stat, struct profile_value **out,
			      size_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	if (node >= m->n_nodes || stat >= m->n_stats)
		return error_set(err, STATUS_USAGE, m->path,
				 "no such node or statistic");
	if (!m->priv->value_ops || !m->priv->value_ops->per_profile ||
	    m->stats[stat].prop_id == MODEL_NONE)
		return error_set(err, STATUS_UNSUPPORTED, m->path,
				 "the database has no per-thread values for "
				 "this metric");
	enum status st = m->priv->value_ops->per_profile(
	    m->priv->value_impl, m->nodes[node].ctx_id, m->stats[stat].prop_id,
	    out, n, err);
	/* the provider's contract (struct value_ops): on success an array
	 * (NULL only when empty) sorted by profile, one value per profile */
	CHECK(st != STATUS_OK || *n == 0 || *out != NULL);
	for (size_t i = 1; st == STATUS_OK && i < *n; i++)
		CHECK((*out)[i - 1].profile < (*out)[i].profile);
	return st;
}
