/* model_params: the parameter space of parametric measurement sets
 * (Extra-P): named parameters, measurement points with one real coordinate
 * per parameter, and profiles placed at a point with a repetition index, so
 * that a set is profiles x call paths and a plot is a per-profile series.
 * The builder calls that declare them, the point -> profiles index made at
 * finish, and the accessors.  Must not depend on curses, on ui/ or on any
 * reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include "core/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t model_builder_add_param(struct model_builder *b, const char *name)
{
	if (!b || b->failed || !name || b->m->n_points > 0 ||
	    model_find_param(b->m, name) != MODEL_NONE ||
	    b->m->n_params == MODEL_NONE - 1)
		return MODEL_NONE;
	uint32_t h = model_builder_intern(b, name, strlen(name));
	if (h == MODEL_NONE)
		return MODEL_NONE;
	if (!array_grow_u32((void **)&b->m->params, &b->params_cap,
			    (uint64_t)b->m->n_params + 1,
			    sizeof(*b->m->params))) {
		b->failed = true;
		return MODEL_NONE;
	}
	b->m->params[b->m->n_params] = (struct model_param){.name = h};
	return b->m->n_params++;
}

uint32_t model_builder_add_point(struct model_builder *b,
				 const double *coords, uint32_t n)
{
	if (!b || b->failed || !coords || n == 0 || n != b->m->n_params ||
	    b->m->n_points == MODEL_NONE - 1)
		return MODEL_NONE;
	for (uint32_t i = 0; i < n; i++)
		if (isnan(coords[i]))
			return MODEL_NONE;
	/* the array counts doubles: points x params */
	uint64_t need = ((uint64_t)b->m->n_points + 1) * n;
	if (need > UINT32_MAX ||
	    !array_grow_u32((void **)&b->m->point_coords, &b->points_cap,
			    need, sizeof(double))) {
		b->failed = true;
		return MODEL_NONE;
	}
	memcpy(b->m->point_coords + (size_t)b->m->n_points * n, coords,
	       (size_t)n * sizeof(double));
	return b->m->n_points++;
}

bool model_builder_set_profile_point(struct model_builder *b,
				     uint32_t profile, uint32_t point,
				     uint32_t repetition)
{
	if (!b || b->failed || profile >= b->m->n_profiles ||
	    point >= b->m->n_points || repetition == MODEL_NONE)
		return false;
	b->m->profiles[profile].point = point;
	b->m->profiles[profile].repetition = repetition;
	return true;
}

bool model_params_finish(struct model *m)
{
	if (m->n_points == 0)
		return true;
	m->priv->point_first =
	    calloc((size_t)m->n_points + 1, sizeof(uint32_t));
	if (!m->priv->point_first)
		return false;
	/* counting sort by point, then each point's run by repetition */
	for (uint32_t p = 0; p < m->n_profiles; p++)
		if (m->profiles[p].point < m->n_points)
			m->priv->point_first[m->profiles[p].point + 1]++;
	for (uint32_t i = 0; i < m->n_points; i++)
		m->priv->point_first[i + 1] += m->priv->point_first[i];
	uint32_t total = m->priv->point_first[m->n_points];
	if (total == 0)
		return true;
	m->priv->point_profiles = malloc((size_t)total * sizeof(uint32_t));
	uint32_t *fill = malloc((size_t)m->n_points * sizeof(uint32_t));
	if (!m->priv->point_profiles || !fill) {
		free(fill);
		return false;
	}
	memcpy(fill, m->priv->point_first,
	       (size_t)m->n_points * sizeof(uint32_t));
	/* (repetition << 32 | profile) in each point's run, sorted, then
	 * the profile kept */
	uint64_t *keys = malloc((size_t)total * sizeof(uint64_t));
	if (!keys) {
		free(fill);
		return false;
	}
	for (uint32_t p = 0; p < m->n_profiles; p++) {
		const struct model_profile *pr = &m->profiles[p];
		if (pr->point < m->n_points)
			keys[fill[pr->point]++] =
				(uint64_t)pr->repetition << 32 | p;
	}
	free(fill);
	for (uint32_t i = 0; i < m->n_points; i++)
		qsort(keys + m->priv->point_first[i],
		      m->priv->point_first[i + 1] - m->priv->point_first[i],
		      sizeof(uint64_t), array_cmp_u64);
	for (uint32_t i = 0; i < total; i++)
		m->priv->point_profiles[i] = (uint32_t)keys[i];
	free(keys);
	return true;
}

uint32_t model_find_param(const struct model *m, const char *name)
{
	if (!m || !name)
		return MODEL_NONE;
	for (uint32_t i = 0; i < m->n_params; i++)
		if (strcmp(model_str(m, m->params[i].name), name) == 0)
			return i;
	return MODEL_NONE;
}

const double *model_point_coords(const struct model *m, uint32_t point)
{
	if (!m || point >= m->n_points)
		return NULL;
	return m->point_coords + (size_t)point * m->n_params;
}

uint32_t model_point_profiles(const struct model *m, uint32_t point,
			      const uint32_t **profiles)
{
	*profiles = NULL;
	if (!m || point >= m->n_points || !m->priv->point_first)
		return 0;
	uint32_t n =
	    m->priv->point_first[point + 1] - m->priv->point_first[point];
	if (n)
		*profiles =
		    m->priv->point_profiles + m->priv->point_first[point];
	return n;
}

struct series_item {
	double x;
	uint32_t point;
};

static int cmp_series(const void *a, const void *b)
{
	const struct series_item *x = a, *y = b;
	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	return x->point < y->point ? -1 : x->point > y->point;
}

enum status model_param_series(const struct model *m, uint32_t param,
			       uint32_t through, uint32_t **points, size_t *n,
			       struct error *err)
{
	*points = NULL;
	*n = 0;
	if (!m || param >= m->n_params || through >= m->n_points)
		return error_set(err, STATUS_USAGE, m ? m->path : NULL,
				 "no parameter %u or point %u",
				 (unsigned)param, (unsigned)through);
	const double *base = model_point_coords(m, through);
	struct series_item *items = NULL;
	size_t k = 0, cap = 0;
	for (uint32_t p = 0; p < m->n_points; p++) {
		const double *c = model_point_coords(m, p);
		bool same = true;
		for (uint32_t i = 0; same && i < m->n_params; i++)
			same = i == param || c[i] == base[i];
		if (!same)
			continue;
		if (!array_grow((void **)&items, &cap, k + 1, sizeof(*items)))
			goto nomem;
		items[k++] = (struct series_item){.x = c[param], .point = p};
	}
	/* `through` itself is always there: k >= 1 */
	qsort(items, k, sizeof(*items), cmp_series);
	uint32_t *out = malloc(k * sizeof(*out));
	if (!out)
		goto nomem;
	for (size_t i = 0; i < k; i++)
		out[i] = items[i].point;
	free(items);
	*points = out;
	*n = k;
	return STATUS_OK;
nomem:
	free(items);
	return error_set(err, STATUS_NOMEM, m->path, "out of memory");
}
