/* model_deferred: subtrees a reader adds when they are first needed, so that
 * a database too large to build whole (DCPI: 1,000 images of 100,000 sampled
 * addresses each) opens with its top rows alone.  A reader marks such nodes
 * NODE_TRAIT_DEFERRED and gives a loader (struct deferred_ops); the model
 * keeps its builder after finish as its growth handle (struct
 * model_growth, the one writable view of a finished model), and
 * model_growth_load appends the node's subtree at the end of the node
 * array.  Nothing already there changes but the loaded node's first child
 * and trait: indices, values and
 * derived sums stay, so views and outlines keyed by node index stay valid
 * (the top-down view reads the node count afresh; the outline's bitsets
 * grow as for the bottom-up view's rows).  The context index is made again
 * and the derived inclusive sums forgotten (made again when asked, equal
 * for the old nodes because a deferred node's total is its children's
 * sum).  A deferred node marked NODE_TRAIT_DEFERRED_LEAVES holds rows of
 * its own procedure only: model_load_all leaves it (its totals stand for
 * them in the aggregated views), expanding it loads it.  Must not depend on
 * curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"
#include "core/check.h"

void model_builder_set_deferred(struct model_builder *b,
				const struct deferred_ops *ops, void *impl)
{
	if (!b || !b->m)
		return;
	b->m->priv->deferred_ops = ops;
	b->m->priv->deferred_impl = impl;
}

/* The deferred nodes from `from` on; *leaves: those of them marked
 * NODE_TRAIT_DEFERRED_LEAVES too. */
static uint32_t count_deferred(const struct model *m, uint32_t from,
			       uint32_t *leaves)
{
	uint32_t n = 0;
	*leaves = 0;
	for (uint32_t i = from; i < m->n_nodes; i++) {
		uint8_t t = m->nodes[i].traits;
		n += (t & NODE_TRAIT_DEFERRED) != 0;
		*leaves += (t & NODE_TRAIT_DEFERRED) &&
			   (t & NODE_TRAIT_DEFERRED_LEAVES);
	}
	return n;
}

uint32_t model_deferred_pending(const struct model *m)
{
	return m && m->n_deferred > m->priv->n_deferred_leaves
		   ? m->n_deferred - m->priv->n_deferred_leaves
		   : 0;
}

bool model_deferred_finish(struct model *m)
{
	m->n_deferred = count_deferred(m, 0, &m->priv->n_deferred_leaves);
	if (m->n_deferred &&
	    (!m->priv->deferred_ops || !m->priv->deferred_ops->load ||
	     !m->priv->deferred_ops->total))
		return false;
	return true;
}

bool model_node_has_children(const struct model *m, uint32_t node)
{
	return node < m->n_nodes &&
	       (m->nodes[node].first_child != MODEL_NONE ||
		(m->nodes[node].traits & NODE_TRAIT_DEFERRED));
}

struct model_growth *model_growth(const struct model *m)
{
	return m ? m->priv->growth : NULL;
}

enum status model_load_children(const struct model *m, uint32_t node,
				struct error *err)
{
	if (node >= m->n_nodes ||
	    !(m->nodes[node].traits & NODE_TRAIT_DEFERRED))
		return STATUS_OK;
	if (!model_growth(m))
		return error_set(err, STATUS_USAGE, m->path,
				 "node %u is deferred but the model cannot "
				 "grow",
				 (unsigned)node);
	return model_growth_load(model_growth(m), node, err);
}

enum status model_growth_load(struct model_growth *g, uint32_t node,
			      struct error *err)
{
	if (!g)
		return error_set(err, STATUS_USAGE, NULL,
				 "the model cannot grow");
	/* the one sanctioned change to a finished model: it grows, through
	 * the builder kept from finish, whose model is writable */
	struct model_builder *b = &g->b;
	struct model *m = b->m;
	CHECK(m && m->priv->growth == g); /* the handle of its own model */
	if (node >= m->n_nodes ||
	    !(m->nodes[node].traits & NODE_TRAIT_DEFERRED))
		return STATUS_OK;
	uint32_t old_nodes = m->n_nodes, old_functions = m->n_functions;
	uint32_t old_depth = m->max_depth;
	uint8_t old_traits = m->nodes[node].traits;
	m->nodes[node].traits &= (uint8_t)~(NODE_TRAIT_DEFERRED |
					    NODE_TRAIT_DEFERRED_LEAVES);
	const struct model_private *p = m->priv;
	enum status st = p->deferred_ops->load(p->deferred_impl, b, node, err);
	if (st == STATUS_OK && b->failed)
		st = error_set(err, STATUS_NOMEM, m->path,
			       "out of memory loading a subtree");
	if (st == STATUS_OK && !model_ctx_index_extend(m, old_nodes))
		st = error_set(err, STATUS_NOMEM, m->path,
			       "out of memory loading a subtree");
	if (st != STATUS_OK) {
		/* back to the model as it was */
		m->n_nodes = old_nodes;
		m->n_functions = old_functions;
		m->max_depth = old_depth;
		m->nodes[node].first_child = MODEL_NONE;
		m->nodes[node].traits = old_traits;
		b->last_child[node] = MODEL_NONE;
		b->failed = false;
		if (!model_ctx_index_build(m))
			b->failed = true;
		return st;
	}
	uint32_t leaves;
	m->n_deferred = m->n_deferred - 1 + count_deferred(m, old_nodes, &leaves);
	m->priv->n_deferred_leaves =
	    m->priv->n_deferred_leaves -
	    ((old_traits & NODE_TRAIT_DEFERRED_LEAVES) != 0) + leaves;
	model_inclusive_reset(m);
	CHECK(m->nodes[node].first_child == MODEL_NONE ||
	      m->nodes[node].first_child >= old_nodes);
	model_check_links(m, old_nodes);
	return STATUS_OK;
}

enum status model_load_all_progress(const struct model *m,
				    bool (*progress)(void *ctx, uint32_t left),
				    void *ctx, struct error *err)
{
	/* loaded subtrees are appended: one pass reaches them too; rows of
	 * a procedure's own (NODE_TRAIT_DEFERRED_LEAVES) stay unread */
	for (uint32_t i = 0; model_deferred_pending(m) && i < m->n_nodes;
	     i++) {
		uint8_t t = m->nodes[i].traits;
		if (!(t & NODE_TRAIT_DEFERRED) ||
		    (t & NODE_TRAIT_DEFERRED_LEAVES))
			continue;
		enum status st = model_load_children(m, i, err);
		if (st != STATUS_OK)
			return st;
		uint32_t left = model_deferred_pending(m);
		if (progress && left && !progress(ctx, left))
			return error_set(err, STATUS_LIMIT, m->path,
					 "stopped reading (%u parts not read)",
					 (unsigned)left);
	}
	return STATUS_OK;
}

enum status model_load_all(const struct model *m, struct error *err)
{
	return model_load_all_progress(m, NULL, NULL, err);
}
