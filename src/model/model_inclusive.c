/* model_inclusive: inclusive values the engine derives for statistics a
 * format stores exclusive-only (STAT_EXCLUSIVE_ONLY: DCPI, rocpd, Cube
 * metrics stored exclusive), so that no reader sums subtrees.  A derived
 * statistic (STAT_DERIVED_INCLUSIVE) is computed the first time one of its
 * values is asked for: the source's values of every node (model_stat_dense),
 * then one pass from the last node to the first combining each node into
 * its parent, which is correct because the builder gives a child a larger
 * index than its parent, and needs no recursion (trees 100,000 deep).  The
 * dense result (9 bytes per node) stays with the model, behind a mutex, so
 * that the model is immutable to its users and safe to read from several
 * threads.  Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct inclusive_stat {
	bool tried;       /* the pass ran (values NULL when it failed) */
	double *values;   /* per node, 0 where absent */
	uint8_t *present; /* per node */
};

struct model_inclusive {
	pthread_mutex_t lock;
	uint32_t n_stats;
	struct inclusive_stat *stats; /* indexed by stat */
	struct error error;           /* first failed pass not yet taken */
};

uint32_t model_builder_add_inclusive_stat(struct model_builder *b,
					  uint32_t exclusive)
{
	if (!b || b->failed || exclusive >= b->m->n_stats ||
	    !(b->m->stats[exclusive].flags & STAT_EXCLUSIVE_ONLY) ||
	    (b->m->stats[exclusive].flags & STAT_DERIVED_INCLUSIVE))
		return MODEL_NONE;
	/* interned first: it may move the statistics */
	uint32_t inclusive = model_builder_intern(b, "inclusive", 9);
	if (inclusive == MODEL_NONE)
		return MODEL_NONE;
	const struct model_stat *src = &b->m->stats[exclusive];
	struct model_stat st = {
		.metric = src->metric,
		.scope = inclusive,
		.formula = src->formula,
		.combine = src->combine,
		.stat_id = MODEL_NONE,
		.prop_id = MODEL_NONE,
		.flags = STAT_DERIVED_INCLUSIVE,
		.source = exclusive,
	};
	return model_builder_add_stat(b, &st);
}

bool model_builder_set_stat_prop_id(struct model_builder *b, uint32_t stat,
				    uint32_t prop_id)
{
	if (!b || stat >= b->m->n_stats)
		return false;
	b->m->stats[stat].prop_id = prop_id;
	return true;
}

bool model_inclusive_init(struct model *m)
{
	bool any = false;
	for (uint32_t i = 0; i < m->n_stats; i++)
		any |= (m->stats[i].flags & STAT_DERIVED_INCLUSIVE) != 0;
	if (!any)
		return true;
	struct model_inclusive *inc = calloc(1, sizeof(*inc));
	if (!inc)
		return false;
	inc->stats = calloc(m->n_stats, sizeof(*inc->stats));
	if (!inc->stats || pthread_mutex_init(&inc->lock, NULL) != 0) {
		free(inc->stats);
		free(inc);
		return false;
	}
	inc->n_stats = m->n_stats;
	m->priv->inclusive = inc;
	return true;
}

void model_inclusive_free(struct model *m)
{
	struct model_inclusive *inc = m->priv->inclusive;
	if (!inc)
		return;
	for (uint32_t i = 0; i < inc->n_stats; i++) {
		free(inc->stats[i].values);
		free(inc->stats[i].present);
	}
	free(inc->stats);
	error_clear(&inc->error);
	pthread_mutex_destroy(&inc->lock);
	free(inc);
	m->priv->inclusive = NULL;
}

static void combine_into(uint8_t how, double *to, uint8_t *to_present,
			 double v)
{
	if (!*to_present)
		*to = v;
	else if (how == COMBINE_MIN)
		*to = v < *to ? v : *to;
	else if (how == COMBINE_MAX)
		*to = v > *to ? v : *to;
	else
		*to += v;
	*to_present = 1;
}

/* The pass for `stat`, under the lock. */
static void inclusive_compute(const struct model *m, uint32_t stat,
			      struct inclusive_stat *is,
			      struct model_inclusive *inc)
{
	struct error err = {.status = STATUS_OK};
	is->tried = true;
	double *v = malloc((size_t)m->n_nodes * sizeof(*v));
	uint8_t *pr = malloc(m->n_nodes);
	if (!v || !pr) {
		error_set(&err, STATUS_NOMEM, m->path, "out of memory");
		goto fail;
	}
	uint32_t src = m->stats[stat].source;
	if (model_stat_dense(m, src, v, pr, &err) != STATUS_OK)
		goto fail;
	uint8_t how = m->stats[stat].combine;
	/* a deferred node holds its subtree's values until it is loaded */
	for (uint32_t i = 0; m->n_deferred && i < m->n_nodes; i++) {
		double t;
		if ((m->nodes[i].traits & NODE_TRAIT_DEFERRED) &&
		    m->priv->deferred_ops->total(m->priv->deferred_impl, i,
						 m->stats[src].stat_id, &t))
			combine_into(how, &v[i], &pr[i], t);
	}
	/* children have larger indices than their parents */
	for (uint32_t i = m->n_nodes; i-- > 1;) {
		uint32_t p = m->nodes[i].parent;
		if (pr[i] && p < i)
			combine_into(how, &v[p], &pr[p], v[i]);
	}
	is->values = v;
	is->present = pr;
	return;
fail:
	free(v);
	free(pr);
	if (inc->error.status == STATUS_OK)
		inc->error = err;
	else
		error_clear(&err);
}

/* The derived arrays of `stat`, computed if not yet; false when the pass
 * failed. */
static bool inclusive_get(const struct model *m, uint32_t stat,
			  const double **values, const uint8_t **present)
{
	struct model_inclusive *inc = m->priv->inclusive;
	if (!inc || stat >= inc->n_stats)
		return false;
	struct inclusive_stat *is = &inc->stats[stat];
	pthread_mutex_lock(&inc->lock);
	if (!is->tried)
		inclusive_compute(m, stat, is, inc);
	*values = is->values;
	*present = is->present;
	pthread_mutex_unlock(&inc->lock);
	return *values != NULL;
}

bool model_inclusive_value(const struct model *m, uint32_t node,
			   uint32_t stat, double *out)
{
	const double *v;
	const uint8_t *pr;
	if (node >= m->n_nodes || !inclusive_get(m, stat, &v, &pr) ||
	    !pr[node])
		return false;
	*out = v[node];
	return true;
}

void model_inclusive_dense(const struct model *m, uint32_t stat,
			   double *values, uint8_t *present)
{
	const double *v;
	const uint8_t *pr;
	if (!inclusive_get(m, stat, &v, &pr))
		return;
	memcpy(values, v, (size_t)m->n_nodes * sizeof(*values));
	if (present)
		memcpy(present, pr, m->n_nodes);
}

void model_inclusive_reset(struct model *m)
{
	struct model_inclusive *inc = m->priv->inclusive;
	if (!inc)
		return;
	pthread_mutex_lock(&inc->lock);
	for (uint32_t i = 0; i < inc->n_stats; i++) {
		free(inc->stats[i].values);
		free(inc->stats[i].present);
		inc->stats[i] = (struct inclusive_stat){0};
	}
	pthread_mutex_unlock(&inc->lock);
}

bool model_inclusive_take_error(const struct model *m, struct error *err)
{
	struct model_inclusive *inc = m->priv->inclusive;
	if (!inc)
		return false;
	pthread_mutex_lock(&inc->lock);
	bool failed = inc->error.status != STATUS_OK;
	if (failed) {
		if (err) {
			error_clear(err);
			*err = inc->error;
		} else {
			error_clear(&inc->error);
		}
		inc->error = (struct error){.status = STATUS_OK};
	}
	pthread_mutex_unlock(&inc->lock);
	return failed;
}
