/* metrics_default: the default metric columns for a database without a
 * usable METRICS.yaml.  For every metric name, in the order the stats were
 * added: an inclusive column over the "execution" scope and an exclusive
 * column over the "function" scope, both Sum ($$ combined with sum).  A
 * metric without an "execution" Sum statistic falls back to "point"; one
 * without any Sum statistic gets no column.  Must not depend on curses or
 * on a particular reader. */
#include "config.h"

#include "formats/hpctoolkit_v4/metrics.h"

#include <stdlib.h>
#include <string.h>

static bool formula_is_identity(const char *f)
{
	/* "$$" possibly written with spaces or parentheses */
	size_t dollars = 0;
	for (; *f; f++) {
		if (*f == '$')
			dollars++;
		else if (*f != ' ' && *f != '(' && *f != ')')
			return false;
	}
	return dollars == 2;
}

static uint32_t find_sum_stat(const struct model *m, uint32_t metric,
			      const char *scope)
{
	for (uint32_t i = 0; i < model_n_stats(m); i++) {
		const struct model_stat *s = &model_stats(m)[i];
		if (s->metric == metric && s->combine == COMBINE_SUM &&
		    strcmp(model_str(m, s->scope), scope) == 0 &&
		    formula_is_identity(model_str(m, s->formula)))
			return i;
	}
	return MODEL_NONE;
}

static enum status add_column(struct model_builder *b, uint32_t metric,
			      uint32_t stat, enum column_kind kind,
			      struct error *err)
{
	const struct model *m = model_builder_peek(b);
	struct model_column c = {
		.name = strdup(model_str(m, metric)),
		.variant = strdup("Sum"),
		.format = strdup("%.2e"),
		.kind = (uint8_t)kind,
		.render = RENDER_NUMBER | RENDER_PERCENT,
		.visible = true,
		.pair = MODEL_NONE,
		.parent = MODEL_NONE,
		.expr = formula_leaf(stat),
	};
	if (!c.name || !c.variant || !c.format || !c.expr ||
	    model_builder_add_column(b, &c) == MODEL_NONE) {
		free(c.name);
		free(c.variant);
		free(c.format);
		formula_free(c.expr);
		return error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
	}
	return STATUS_OK;
}

enum status metrics_add_default_columns(struct model_builder *b,
					struct error *err)
{
	const struct model *m = model_builder_peek(b);
	for (uint32_t i = 0; i < model_n_stats(m); i++) {
		uint32_t metric = model_stats(m)[i].metric;
		bool seen = false;
		for (uint32_t j = 0; j < i && !seen; j++)
			seen = model_stats(m)[j].metric == metric;
		if (seen)
			continue;
		uint32_t incl = find_sum_stat(m, metric, "execution");
		if (incl == MODEL_NONE)
			incl = find_sum_stat(m, metric, "point");
		uint32_t excl = find_sum_stat(m, metric, "function");
		enum status st = STATUS_OK;
		if (incl != MODEL_NONE)
			st = add_column(b, metric, incl, COLUMN_INCLUSIVE, err);
		if (st == STATUS_OK && excl != MODEL_NONE)
			st = add_column(b, metric, excl, COLUMN_EXCLUSIVE, err);
		if (st != STATUS_OK)
			return st;
		m = model_builder_peek(b);
	}
	return STATUS_OK;
}
