/* diff_metric: which columns of two runs are one metric compared
 * (diff.h): by the names given (--metric NAME or BASE=NEW) or by default
 * the first visible metric both runs have, each with its other-scope
 * pair; units checked and converted (present_column_kind); and a
 * metric column's values at every node of a run (diff_column_each). */
#include "config.h"

#include "compare/diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/present_value.h"
#include "views/view.h"

/* *why = the text printed from `fmt` (NULL when out of memory); false,
 * for the caller to return. */
static bool say_why(char **why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool say_why(char **why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(why, fmt, ap) < 0)
		*why = NULL;
	va_end(ap);
	return false;
}

static const char *unit_name(enum present_unit u)
{
	switch (u) {
	case PRESENT_TIME:
		return "a time";
	case PRESENT_BYTES:
		return "a byte count";
	case PRESENT_COUNT:
		return "a count";
	default:
		return "a plain number";
	}
}

/* A time pairs with a time (in any unit), bytes with bytes; counts and
 * plain numbers with each other. */
static bool units_match(enum present_unit a, enum present_unit b)
{
	bool ma = a == PRESENT_TIME || a == PRESENT_BYTES;
	bool mb = b == PRESENT_TIME || b == PRESENT_BYTES;
	return ma || mb ? a == b : true;
}

static bool pair_columns(const struct model *base, uint32_t cb,
			 const struct model *nw, uint32_t cn,
			 struct diff_metric *out, char **why)
{
	const struct model *m[2] = {base, nw};
	uint32_t c[2] = {cb, cn};
	struct present_kind k[2];
	for (int r = 0; r < 2; r++) {
		const struct model_column *col = &model_columns(m[r])[c[r]];
		int s = col->kind == COLUMN_INCLUSIVE ? DIFF_INCLUSIVE
						      : DIFF_EXCLUSIVE;
		out->col[r][s] = c[r];
		out->col[r][1 - s] = col->pair;
		k[r] = present_column_kind(m[r], c[r]);
	}
	if (!units_match(k[0].unit, k[1].unit)) {
		return say_why(why, "cannot compare: '%s' in the base run is "
			       "%s, '%s' in the new run is %s",
			       model_columns(base)[cb].name,
			       unit_name(k[0].unit),
			       model_columns(nw)[cn].name,
			       unit_name(k[1].unit));
	}
	out->scale_new = k[0].unit == PRESENT_TIME && k[0].scale > 0
			     ? k[1].scale / k[0].scale
			     : 1;
	for (int s = 0; s < 2; s++)
		if ((out->col[0][s] == MODEL_NONE) !=
		    (out->col[1][s] == MODEL_NONE))
			out->col[0][s] = out->col[1][s] = MODEL_NONE;
	return true;
}

bool diff_pair_metric(const struct model *base, const char *base_spec,
		      const struct model *nw, const char *new_spec,
		      struct diff_metric *out, char **why)
{
	uint32_t cb = model_find_column(base, base_spec);
	uint32_t cn = model_find_column(nw, new_spec);
	*why = NULL;
	if (cb == MODEL_NONE || cn == MODEL_NONE) {
		return say_why(why, "cannot compare: the %s run has no metric "
			       "'%s' (see `callscope info`)",
			       cb == MODEL_NONE ? "base" : "new",
			       cb == MODEL_NONE ? base_spec : new_spec);
	}
	return pair_columns(base, cb, nw, cn, out, why);
}

/* The column of `nw` with the metric, variant and scope of `base`'s
 * column `c`, or MODEL_NONE. */
static uint32_t same_column(const struct model *base, uint32_t c,
			    const struct model *nw)
{
	const struct model_column *a = &model_columns(base)[c];
	for (uint32_t i = 0; i < model_n_columns(nw); i++) {
		const struct model_column *b = &model_columns(nw)[i];
		if (b->kind == a->kind && strcmp(a->name, b->name) == 0 &&
		    strcmp(a->variant ? a->variant : "",
			   b->variant ? b->variant : "") == 0)
			return i;
	}
	return MODEL_NONE;
}

bool diff_pair_default(const struct model *base, const struct model *nw,
		       struct diff_metric *out, char **why)
{
	*why = NULL;
	/* the column a run opens sorted by (its first inclusive time:
	 * Cube's "time", not its first column "visits") */
	uint32_t nc = model_n_columns(base), k = 0;
	uint32_t *shown = malloc((nc ? nc : 1) * sizeof(*shown));
	for (uint32_t c = 0; shown && c < nc; c++)
		if (model_columns(base)[c].visible)
			shown[k++] = c;
	uint32_t pick = shown ? view_default_column(base, VIEW_TOP_DOWN,
						    shown, k)
			      : MODEL_NONE;
	free(shown);
	uint32_t pn = pick != MODEL_NONE ? same_column(base, pick, nw)
					 : MODEL_NONE;
	if (pn != MODEL_NONE && pair_columns(base, pick, nw, pn, out, why))
		return true;
	free(*why);
	*why = NULL;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t c = 0; c < model_n_columns(base); c++) {
			if (pass == 0 && !model_columns(base)[c].visible)
				continue;
			uint32_t n = same_column(base, c, nw);
			if (n != MODEL_NONE &&
			    pair_columns(base, c, nw, n, out, why))
				return true;
			free(*why);
			*why = NULL;
		}
	return say_why(why, "cannot compare: the runs share no metric by "
		       "name (name one in each with --metric BASE=NEW)");
}

enum status diff_column_each(const struct model *m, uint32_t column,
			     bool skip,
			     void (*add)(void *ctx, uint32_t node, double v),
			     void *ctx, struct error *err)
{
	uint32_t n_nodes = model_n_nodes(m);
	double *vals = malloc((n_nodes ? n_nodes : 1) * sizeof(*vals));
	uint8_t *pres = malloc(n_nodes ? n_nodes : 1);
	enum status st = STATUS_OK;
	if (!vals || !pres)
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
	else
		st = model_column_dense(m, column, false, vals, pres, err);
	for (uint32_t n = 0; st == STATUS_OK && n < n_nodes; n++)
		if (pres[n] && !(skip && model_nodes(m)[n].parent == 0 &&
				 model_nodes(m)[n].kind == NODE_ENTRY))
			add(ctx, n, vals[n]);
	free(vals);
	free(pres);
	return st;
}
