/* diff_view: senses, marks and regressions of a diff (diff_view.h). */
#include "config.h"

#include "compare/diff_view.h"

#include <math.h>
#include <stdlib.h>

enum diff_sense diff_view_sense(const struct diff *d, uint32_t c, double v)
{
	size_t k;
	enum diff_scope scope;
	enum diff_role role;
	if (!diff_model_column_of(d, c, &k, &scope, &role))
		return DIFF_SENSE_NONE;
	double even = role == DIFF_ROLE_RATIO ? 1.0 : 0.0;
	if (role < DIFF_ROLE_DELTA || v == even || v != v)
		return DIFF_SENSE_NONE;
	return v > even ? DIFF_SENSE_WORSE : DIFF_SENSE_BETTER;
}

bool diff_view_signed(const struct diff *d, uint32_t c)
{
	size_t k;
	enum diff_scope scope;
	enum diff_role role;
	return diff_model_column_of(d, c, &k, &scope, &role) &&
	       (role == DIFF_ROLE_DELTA || role == DIFF_ROLE_PERCENT);
}

const char *diff_view_mark(const struct diff *d, uint32_t node)
{
	if (node >= d->n_nodes)
		return NULL;
	switch (d->nodes[node].status) {
	case DIFF_NEW:
		return DIFF_MARK_NEW;
	case DIFF_GONE:
		return DIFF_MARK_GONE;
	default:
		return NULL;
	}
}

uint32_t diff_view_matched(const struct diff *d)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < d->n_nodes; i++)
		n += d->nodes[i].status == DIFF_BOTH;
	return n;
}

uint32_t diff_view_delta_column(const struct diff *d)
{
	enum diff_scope s = diff_has_scope(d, 0, DIFF_INCLUSIVE)
				    ? DIFF_INCLUSIVE
				    : DIFF_EXCLUSIVE;
	return diff_model_column(d, 0, s, DIFF_ROLE_DELTA);
}

/* The growth in each node itself (see diff_view_regressions), a heap
 * array of d->n_nodes; NULL when out of memory. */
static double *own_growth(const struct diff *d, size_t k)
{
	double *g = calloc(d->n_nodes ? d->n_nodes : 1, sizeof(*g));
	if (!g)
		return NULL;
	bool excl = !diff_has_scope(d, k, DIFF_INCLUSIVE);
	enum diff_scope s = excl ? DIFF_EXCLUSIVE : DIFF_INCLUSIVE;
	for (uint32_t i = 0; i < d->n_nodes; i++) {
		double v;
		if (!diff_role_value(d, i, k, s, DIFF_ROLE_DELTA, &v))
			continue;
		g[i] += v;
		/* inclusive: less the children's (a parent's own part) */
		uint32_t p = d->nodes[i].parent;
		if (!excl && p < d->n_nodes)
			g[p] -= v;
	}
	return g;
}

static int by_growth(const void *a, const void *b)
{
	const struct diff_regression *x = a, *y = b;
	if (x->growth != y->growth)
		return x->growth > y->growth ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

bool diff_view_regressions(const struct diff *d, size_t k,
			   struct diff_regression **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (k >= d->n_metrics || d->n_nodes == 0)
		return true;
	double *g = own_growth(d, k);
	if (!g)
		return false;
	/* above rounding: children's deltas summed leave crumbs */
	double eps = d->has_total[k] ? 1e-12 * fabs(d->base_total[k]) : 0;
	size_t count = 0;
	for (uint32_t i = 0; i < d->n_nodes; i++)
		count += g[i] > eps;
	struct diff_regression *r =
		count ? malloc(count * sizeof(*r)) : NULL;
	if (count && !r) {
		free(g);
		return false;
	}
	size_t j = 0;
	for (uint32_t i = 0; i < d->n_nodes && r; i++)
		if (g[i] > eps)
			r[j++] = (struct diff_regression){i, g[i]};
	free(g);
	if (r)
		qsort(r, count, sizeof(*r), by_growth);
	*out = r;
	*n = count;
	return true;
}
