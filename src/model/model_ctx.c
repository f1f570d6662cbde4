/* model_ctx: the context id -> node index behind model_node_of_ctx, made
 * at finish over every node and extended when deferred subtrees are
 * appended (model_deferred.c): a dense table when the ids are compact
 * enough (at most four times the nodes, plus 1,024), else the (id, node)
 * pairs sorted for bisection.  The first node with an id answers for it;
 * ctx_unique says whether any id is shared.  Must not depend on curses, on
 * ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "core/array.h"
#include "core/check.h"

#include <stdlib.h>
#include <string.h>

bool model_ctx_index_build(struct model *m)
{
	free(m->priv->ctx_index);
	free(m->priv->ctx_sorted);
	m->priv->ctx_index = NULL;
	m->priv->ctx_sorted = NULL;
	m->priv->ctx_index_len = 0;
	uint32_t max_id = 0;
	for (uint32_t i = 1; i < m->n_nodes; i++)
		if (m->nodes[i].ctx_id > max_id)
			max_id = m->nodes[i].ctx_id;
	if ((uint64_t)max_id <= (uint64_t)m->n_nodes * 4 + 1024) {
		m->priv->ctx_index_len = max_id + 1;
		m->priv->ctx_index = malloc((size_t)m->priv->ctx_index_len *
					    sizeof(*m->priv->ctx_index));
		if (!m->priv->ctx_index)
			return false;
		memset(m->priv->ctx_index, 0xff,
		       (size_t)m->priv->ctx_index_len *
			   sizeof(*m->priv->ctx_index));
		/* reverse order so the first node with an id wins */
		bool shared = false;
		for (uint32_t i = m->n_nodes; i-- > 0;) {
			uint32_t *slot =
			    &m->priv->ctx_index[m->nodes[i].ctx_id];
			shared |= *slot != MODEL_NONE;
			*slot = i;
		}
		m->priv->ctx_index[0] = 0;
		m->priv->ctx_unique = !shared;
		return true;
	}
	m->priv->ctx_sorted =
	    malloc((size_t)m->n_nodes * sizeof(*m->priv->ctx_sorted));
	if (!m->priv->ctx_sorted)
		return false;
	for (uint32_t i = 0; i < m->n_nodes; i++)
		m->priv->ctx_sorted[i] = (uint64_t)m->nodes[i].ctx_id << 32 | i;
	qsort(m->priv->ctx_sorted, m->n_nodes, sizeof(*m->priv->ctx_sorted),
	      array_cmp_u64);
	m->priv->ctx_unique = true;
	for (uint32_t i = 1; i < m->n_nodes; i++)
		if (m->priv->ctx_sorted[i] >> 32 ==
		    m->priv->ctx_sorted[i - 1] >> 32)
			m->priv->ctx_unique = false;
	return true;
}

bool model_ctx_index_extend(struct model *m, uint32_t from)
{
	if (!m->priv->ctx_index)
		return model_ctx_index_build(m);
	uint32_t max_id = 0;
	for (uint32_t i = from; i < m->n_nodes; i++)
		if (m->nodes[i].ctx_id > max_id)
			max_id = m->nodes[i].ctx_id;
	if ((uint64_t)max_id > (uint64_t)m->n_nodes * 4 + 1024)
		return model_ctx_index_build(m);
	if (max_id >= m->priv->ctx_index_len) {
		/* geometric: loads one after another stay linear */
		uint64_t len = (uint64_t)m->priv->ctx_index_len * 2;
		if (len <= max_id)
			len = (uint64_t)max_id + 1;
		if (len > UINT32_MAX)
			len = UINT32_MAX;
		uint32_t *t =
		    realloc(m->priv->ctx_index, (size_t)len * sizeof(*t));
		if (!t)
			return false;
		memset(t + m->priv->ctx_index_len, 0xff,
		       (size_t)(len - m->priv->ctx_index_len) * sizeof(*t));
		m->priv->ctx_index = t;
		m->priv->ctx_index_len = (uint32_t)len;
	}
	/* the first node with an id wins, as in the build */
	for (uint32_t i = from; i < m->n_nodes; i++) {
		uint32_t *slot = &m->priv->ctx_index[m->nodes[i].ctx_id];
		if (*slot == MODEL_NONE)
			*slot = i;
		else
			m->priv->ctx_unique = false;
	}
	return true;
}

static uint32_t node_of_ctx(const struct model *m, uint32_t ctx_id)
{
	const struct model_private *p = m->priv;
	if (p->ctx_index)
		return ctx_id < p->ctx_index_len ? p->ctx_index[ctx_id]
						 : MODEL_NONE;
	if (!p->ctx_sorted)
		return MODEL_NONE;
	return array_pairs_find(p->ctx_sorted, m->n_nodes, ctx_id, MODEL_NONE);
}

uint32_t model_node_of_ctx(const struct model *m, uint32_t ctx_id)
{
	uint32_t node = node_of_ctx(m, ctx_id);
	CHECK(node == MODEL_NONE ||
	      (node < m->n_nodes && m->nodes[node].ctx_id == ctx_id));
	return node;
}
