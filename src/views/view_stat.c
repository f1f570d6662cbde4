/* view_stat: how a row of an aggregated view (flat, bottom-up), which
 * stands for several contexts, gets a column's value.  A column whose
 * standard formula is linear in statistics that add up over contexts (a
 * Sum) is the sum of its values at the contexts (the views do that
 * themselves, from their dense values).  Any other column -- a mean, a
 * minimum, a maximum, a standard deviation, a ratio -- is its formula
 * evaluated once over the row's statistics, each combined over the row's
 * contexts as the database defines it: a sum adds up; a Cube minimum or
 * maximum (STAT_CONTEXTS_COMBINE) and the statistics of a column that
 * combines its leaves (rocpd, Nsight) combine by their own `combine`; an
 * HPCToolkit statistic over threads (a min, max, count or sum of squares
 * over threads) is recomputed from each thread's sum over the row's
 * contexts, read through model_per_profile; without per-thread values the
 * column is blank; a statistic the reader combines over contexts its own
 * way (model_combine_contexts) is what the reader makes of the counted
 * contexts, handed to it at once with their values (Cube: a metric's own
 * aggr folds the values, a POSTDERIVED expression runs over the
 * contexts).  Semantics in doc/views.md ("Rows of several
 * contexts").  Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "views/view_internal.h"
#include "core/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rule of a column --------------------------------------------- */

/* A statistic whose contexts the reader combines its own way (a Cube
 * metric's own aggr): a row's value is their fold (LEAF_OWN). */
static bool stat_own(const struct model *m, uint32_t stat)
{
	double x = 0;
	bool present = false;
	return model_combine_contexts(m, stat, NULL, NULL, 0, &x, &present);
}

/* A statistic whose row value is the sum of its values at the contexts:
 * "$$" summed over threads (a thread's value over several contexts is
 * their sum, so the sum over threads adds up too). */
static bool stat_additive(const struct model *m, uint32_t stat)
{
	const struct model_stat *s = &model_stats(m)[stat];
	return s->combine == COMBINE_SUM &&
	       !(s->flags & (STAT_CONSTANT | STAT_NO_AGGREGATE)) &&
	       strcmp(model_str(m, s->formula), "$$") == 0 &&
	       !stat_own(m, stat);
}

enum shape { SHAPE_CONST, SHAPE_LINEAR, SHAPE_OTHER };

/* Whether `f` is a constant, linear and homogeneous in additive
 * statistics (leaves, sums, differences, averages, products with and
 * quotients by constants: its sum over contexts is itself over the sums),
 * or anything else. */
static enum shape shape_of(const struct model *m, const struct formula *f,
			   unsigned depth)
{
	if (depth > 256)
		return SHAPE_OTHER;
	switch (f->op) {
	case FORMULA_NUMBER:
		return SHAPE_CONST;
	case FORMULA_LEAF:
		return f->leaf < model_n_stats(m) && stat_additive(m, f->leaf)
			       ? SHAPE_LINEAR
			       : SHAPE_OTHER;
	default:
		break;
	}
	size_t n_const = 0, n_linear = 0;
	for (size_t i = 0; i < f->nargs; i++) {
		enum shape s = shape_of(m, f->args[i], depth + 1);
		if (s == SHAPE_OTHER)
			return SHAPE_OTHER;
		if (s == SHAPE_CONST)
			n_const++;
		else
			n_linear++;
	}
	if (n_linear == 0)
		return SHAPE_CONST;
	switch (f->op) {
	case FORMULA_NEG:
		return SHAPE_LINEAR;
	case FORMULA_ADD:
	case FORMULA_SUB:
	case FORMULA_SUM:
	case FORMULA_AVG:
		/* a constant term would be added once per context */
		return n_const == 0 ? SHAPE_LINEAR : SHAPE_OTHER;
	case FORMULA_MUL:
	case FORMULA_PROD:
		return n_linear == 1 ? SHAPE_LINEAR : SHAPE_OTHER;
	case FORMULA_DIV:
		return f->nargs == 2 &&
				       shape_of(m, f->args[1], depth + 1) ==
					       SHAPE_CONST
			       ? SHAPE_LINEAR
			       : SHAPE_OTHER;
	default:
		return SHAPE_OTHER;
	}
}

static const struct formula *standard_formula(const struct model *m,
					      uint32_t column)
{
	const struct model_column *c = &model_columns(m)[column];
	return c->expr_standard ? c->expr_standard : c->expr;
}

/* The distinct statistics `f` reads into stat[] (at most `max`); false
 * when there are more. */
static bool collect_stats(const struct model *m, const struct formula *f,
			  uint32_t *stat, uint32_t *n, uint32_t max,
			  unsigned depth)
{
	uint32_t leaf;
	if (depth > 256)
		return false;
	if (formula_is_leaf(f, &leaf)) {
		if (leaf >= model_n_stats(m))
			return false;
		for (uint32_t i = 0; i < *n; i++)
			if (stat[i] == leaf)
				return true;
		if (*n == max)
			return false;
		stat[(*n)++] = leaf;
		return true;
	}
	for (size_t i = 0; i < f->nargs; i++)
		if (!collect_stats(m, f->args[i], stat, n, max, depth + 1))
			return false;
	return true;
}

/* How statistic `stat` of a column that does not combine its leaves is
 * combined over a row's contexts. */
static enum view_leaf_how leaf_how(const struct model *m, uint32_t stat)
{
	const struct model_stat *s = &model_stats(m)[stat];
	if (s->flags & STAT_CONSTANT)
		return LEAF_ANY;
	if (stat_additive(m, stat))
		return LEAF_SUM;
	if (stat_own(m, stat))
		return LEAF_OWN;
	if (s->flags & (STAT_CONTEXTS_COMBINE | STAT_DERIVED_INCLUSIVE) &&
	    strcmp(model_str(m, s->formula), "$$") == 0)
		return LEAF_COMBINE;
	return LEAF_THREADS;
}

static bool has_threads(const struct model *m, uint32_t stat)
{
	return model_has_per_profile(m) &&
	       model_stats(m)[stat].prop_id != MODEL_NONE &&
	       !(model_stats(m)[stat].flags &
		 (STAT_DERIVED_INCLUSIVE | STAT_NO_AGGREGATE));
}

enum view_rule view_column_rule(const struct model *m, uint32_t column)
{
	if (column >= model_n_columns(m))
		return VIEW_RULE_BLANK;
	const struct formula *f = standard_formula(m, column);
	if (!f)
		return VIEW_RULE_SUM; /* absent everywhere anyway */
	uint32_t stat[VIEW_LEAVES_MAX], n = 0;
	if (model_columns(m)[column].combine_leaves)
		return collect_stats(m, f, stat, &n, VIEW_LEAVES_MAX, 0)
			       ? VIEW_RULE_LEAVES
			       : VIEW_RULE_SUM;
	if (shape_of(m, f, 0) != SHAPE_OTHER)
		return VIEW_RULE_SUM;
	if (!collect_stats(m, f, stat, &n, VIEW_LEAVES_MAX, 0))
		return VIEW_RULE_BLANK;
	for (uint32_t i = 0; i < n; i++)
		if (leaf_how(m, stat[i]) == LEAF_THREADS &&
		    !has_threads(m, stat[i]))
			return VIEW_RULE_BLANK;
	return VIEW_RULE_LEAVES;
}

bool view_column_adds_up(const struct model *m, uint32_t column)
{
	if (column >= model_n_columns(m))
		return false;
	const struct formula *f = standard_formula(m, column);
	return !f || shape_of(m, f, 0) == SHAPE_LINEAR;
}

enum view_rule view_rule_of(struct view *v, uint32_t column)
{
	if (!v->rule)
		return view_column_rule(v->m, column);
	if (!v->rule[column])
		v->rule[column] =
			(uint8_t)(view_column_rule(v->m, column) + 1);
	return (enum view_rule)(v->rule[column] - 1);
}

/* ---- per-profile sums --------------------------------------------------- */

void view_threads_free(struct view *v)
{
	for (uint32_t i = 0; i < VIEW_THREADS_KEPT; i++) {
		FREE_AND_NULL(v->kept[i].x);
	}
}

static double *kept_find(struct view *v, uint32_t row, uint32_t prop)
{
	for (uint32_t i = 0; i < VIEW_THREADS_KEPT; i++)
		if (v->kept[i].x && v->kept[i].row == row &&
		    v->kept[i].prop == prop)
			return v->kept[i].x;
	return NULL;
}

/* Keep `x` (taking it) as the sums of (row, prop). */
static void kept_put(struct view *v, uint32_t row, uint32_t prop, double *x)
{
	struct view_threads_kept *k = &v->kept[v->kept_next];
	v->kept_next = (v->kept_next + 1) % VIEW_THREADS_KEPT;
	free(k->x);
	*k = (struct view_threads_kept){.row = row, .prop = prop, .x = x};
}

/* The statistic's own formula (METRICS.yaml `formula`: "$$", "1",
 * "($$^2)") as a formula over leaf 0, the profile's value.  "0 * $$" is
 * added so that a constant formula ("1") has a leaf and is not "absent"
 * (formula_eval's rule).  NULL when it does not parse. */
static struct formula *unary_parse(const char *text)
{
	size_t len = strlen(text);
	char *buf = malloc(len * 2 + 16);
	struct formula *f = NULL;
	struct error err = {0};
	if (!buf)
		return NULL;
	size_t k = 0;
	buf[k++] = '(';
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '$' && text[i + 1] == '$') {
			buf[k++] = '$';
			buf[k++] = '1';
			i++;
		} else if (text[i] == '$') {
			/* only "$$" names the value */
			free(buf);
			return NULL;
		} else {
			buf[k++] = text[i];
		}
	}
	memcpy(buf + k, ")+0*$1", 7);
	if (formula_parse(buf, &f, &err) != STATUS_OK)
		f = NULL;
	error_clear(&err);
	free(buf);
	return f;
}

/* ---- a row's statistics ------------------------------------------------- */

static void leaves_release(struct view_leaves *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		formula_free(l->unary[i]);
		l->unary[i] = NULL;
	}
	for (uint32_t i = 0; i < l->n_t; i++) {
		if (!l->t[i].cached)
			free(l->t[i].x);
		l->t[i].x = NULL;
	}
	l->n = l->n_t = 0;
	FREE_AND_NULL(l->own_slot);
	FREE_AND_NULL(l->own_node);
	l->own_n = l->own_cap = 0;
}

/* The index in l->t of the per-profile sums of statistic `stat`'s prop_id
 * (added when new); false when out of memory. */
static bool threads_slot(struct view_leaves *l, uint32_t stat, uint8_t *out)
{
	uint32_t prop = model_stats(l->m)[stat].prop_id;
	for (uint32_t i = 0; i < l->n_t; i++)
		if (l->t[i].prop == prop) {
			*out = (uint8_t)i;
			return true;
		}
	struct view_leaf_threads *t = &l->t[l->n_t];
	*t = (struct view_leaf_threads){.prop = prop, .stat = stat};
	t->x = kept_find(l->v, l->row, prop);
	t->cached = t->x != NULL;
	if (!t->x) {
		size_t np = model_n_profiles(l->m) ? model_n_profiles(l->m) : 1;
		t->x = calloc(np, sizeof(*t->x));
		if (!t->x)
			return false;
	}
	*out = (uint8_t)l->n_t++;
	return true;
}

bool view_leaves_begin(struct view_leaves *l, struct view *v, uint32_t row,
		       uint32_t column, const uint32_t *order, uint32_t n)
{
	const struct model *m = v->m;
	memset(l, 0, sizeof(*l));
	if (column >= model_n_columns(m) ||
	    view_rule_of(v, column) != VIEW_RULE_LEAVES)
		return false;
	l->v = v;
	l->m = m;
	l->row = row;
	l->f = standard_formula(m, column);
	bool combine = model_columns(m)[column].combine_leaves;
	if (!collect_stats(m, l->f, l->stat, &l->n, VIEW_LEAVES_MAX, 0))
		goto fail; /* the rule said it fits */
	bool threads = false;
	for (uint32_t i = 0; i < l->n; i++) {
		l->how[i] = combine ? LEAF_COMBINE : leaf_how(m, l->stat[i]);
		threads |= l->how[i] == LEAF_THREADS;
		l->own |= l->how[i] == LEAF_OWN;
	}
	/* when some statistic comes from the per-thread sums, the sums read
	 * from the same per-thread values come from them too: a standard
	 * deviation's sum and sum of squares then agree */
	for (uint32_t i = 0; i < l->n && threads; i++)
		if (l->how[i] == LEAF_SUM && has_threads(m, l->stat[i]))
			for (uint32_t j = 0; j < l->n; j++)
				if (l->how[j] == LEAF_THREADS &&
				    model_stats(m)[l->stat[j]].prop_id ==
					    model_stats(m)[l->stat[i]].prop_id) {
					l->how[i] = LEAF_THREADS;
					break;
				}
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->how[i] != LEAF_THREADS) {
			/* read in one pass at the first use, not per node */
			l->d[i] = view_dense_stat(v, l->stat[i], order, n);
			continue;
		}
		l->unary[i] =
			unary_parse(model_str(m, model_stats(m)[l->stat[i]].formula));
		if (!l->unary[i] || !threads_slot(l, l->stat[i],
						  &l->threads_of[i]))
			goto fail;
	}
	return true;
fail:
	/* absent: no statistic gets a value */
	leaves_release(l);
	l->f = NULL;
	return true;
}

static void threads_add(struct view_leaves *l, struct view_leaf_threads *t,
			uint32_t node)
{
	struct profile_value *pv = NULL;
	size_t n = 0;
	struct error err = {0};
	if (t->cached || t->failed)
		return;
	if (model_per_profile(l->m, node, t->stat, &pv, &n, &err) !=
	    STATUS_OK) {
		t->failed = true;
		error_clear(&err);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (pv[i].profile < model_n_profiles(l->m))
			t->x[pv[i].profile] += pv[i].value;
	free(pv);
}

/* Keep (slot, node) for the LEAF_OWN leaves. */
static void own_add(struct view_leaves *l, uint32_t slot, uint32_t node)
{
	if (l->own_failed)
		return;
	if (l->own_n == l->own_cap) {
		size_t cap = l->own_cap ? 2 * l->own_cap : 16;
		uint32_t *s = realloc(l->own_slot, cap * sizeof(*s));
		if (s)
			l->own_slot = s;
		uint32_t *n = s ? realloc(l->own_node, cap * sizeof(*n)) : NULL;
		if (n)
			l->own_node = n;
		if (!s || !n) {
			l->own_failed = true;
			return;
		}
		l->own_cap = cap;
	}
	l->own_slot[l->own_n] = slot;
	l->own_node[l->own_n++] = node;
}

/* Statistic `i` (LEAF_OWN) over the kept contexts, as the reader
 * combines them; absent when it has no value there. */
static void own_value(struct view_leaves *l, uint32_t i)
{
	size_t n = l->own_n;
	double *vals = malloc((n + 1) * sizeof(*vals));
	if (!vals || l->own_failed || !n) {
		free(vals);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		const struct view_dense *d = l->d[i];
		double x = 0;
		if (d && d->value)
			x = d->present[l->own_slot[k]] ? d->value[l->own_slot[k]]
						      : 0;
		else if (!model_stat_value(l->m, l->own_node[k], l->stat[i], &x))
			x = 0;
		vals[k] = x;
	}
	if (!model_combine_contexts(l->m, l->stat[i], l->own_node, vals, n,
				    &l->value[i], &l->present[i]))
		l->present[i] = false;
	free(vals);
}

void view_leaves_add(struct view_leaves *l, uint32_t slot, uint32_t node)
{
	if (!l->f)
		return;
	for (uint32_t i = 0; i < l->n_t; i++)
		threads_add(l, &l->t[i], node);
	if (l->own)
		own_add(l, slot, node);
	for (uint32_t i = 0; i < l->n; i++) {
		double x;
		if (l->how[i] == LEAF_THREADS || l->how[i] == LEAF_OWN ||
		    (l->how[i] == LEAF_ANY && l->present[i]))
			continue;
		if (l->d[i]) {
			if (!l->d[i]->present[slot])
				continue;
			x = l->d[i]->value[slot];
		} else if (!model_stat_value(l->m, node, l->stat[i], &x)) {
			continue;
		}
		double *to = &l->value[i];
		enum stat_combine how = l->how[i] == LEAF_COMBINE
						? model_stats(l->m)[l->stat[i]].combine
						: COMBINE_SUM;
		if (l->how[i] == LEAF_ANY)
			*to = x;
		else if (how == COMBINE_MIN)
			*to = !l->present[i] || x < *to ? x : *to;
		else if (how == COMBINE_MAX)
			*to = !l->present[i] || x > *to ? x : *to;
		else
			*to += x;
		l->present[i] = true;
	}
}

static bool profile_leaf(void *ctx, uint32_t leaf, double *out)
{
	(void)leaf;
	*out = *(const double *)ctx;
	return true;
}

/* Statistic `i` (LEAF_THREADS) from the per-profile sums: its formula at
 * each profile with a value (a non-zero sum; summary profiles left out),
 * combined by its `combine`; absent when no profile has a value. */
static void threads_value(struct view_leaves *l, uint32_t i)
{
	const struct view_leaf_threads *t = &l->t[l->threads_of[i]];
	const struct model *m = l->m;
	enum stat_combine how = model_stats(m)[l->stat[i]].combine;
	if (t->failed)
		return;
	for (uint32_t p = 0; p < model_n_profiles(m); p++) {
		double x = t->x[p], y;
		if (x == 0 || model_profiles(m)[p].is_summary ||
		    !formula_eval(l->unary[i], profile_leaf, &x, &y))
			continue;
		double *to = &l->value[i];
		if (!l->present[i])
			*to = y;
		else if (how == COMBINE_MIN)
			*to = y < *to ? y : *to;
		else if (how == COMBINE_MAX)
			*to = y > *to ? y : *to;
		else
			*to += y;
		l->present[i] = true;
	}
}

static bool combined_leaf(void *ctx, uint32_t leaf, double *out)
{
	const struct view_leaves *l = ctx;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->stat[i] == leaf) {
			*out = l->value[i];
			return l->present[i];
		}
	return false;
}

bool view_leaves_value(struct view_leaves *l, double *out)
{
	if (!l->f)
		return false;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->how[i] == LEAF_THREADS)
			threads_value(l, i);
		else if (l->how[i] == LEAF_OWN)
			own_value(l, i);
	bool ok = formula_eval(l->f, combined_leaf, l, out);
	/* keep the sums read for the row's next columns */
	for (uint32_t i = 0; i < l->n_t; i++)
		if (!l->t[i].cached && !l->t[i].failed) {
			kept_put(l->v, l->row, l->t[i].prop, l->t[i].x);
			l->t[i].cached = true;
		}
	leaves_release(l);
	return ok;
}
