/* view_top_down: the calling-context tree as the model holds it.  A row is
 * a model node (row id == node index), its values are model_value(), and
 * nothing is built: opening the view is O(1) and the children of a row are
 * read from the model's sibling links (a deferred node's loaded first).  Must not depend on curses, on ui/
 * or on any reader. */
#include "config.h"

#include "views/view_internal.h"

#include <stdlib.h>

static enum status td_open(struct view *v, struct error *err)
{
	(void)err;
	v->impl = NULL;
	return STATUS_OK;
}

static void td_close(struct view *v)
{
	(void)v;
}

static bool td_exists(const struct view *v, uint32_t node)
{
	return node < model_n_nodes(v->m);
}

static enum status td_children(struct view *v, uint32_t node, uint32_t **out,
			       size_t *n, struct error *err)
{
	const struct model *m = v->m;
	uint32_t *kids = NULL;
	uint32_t cap = 0, count = 0;
	CHECK(node < model_n_nodes(m)); /* view.c asked ops->exists */
	/* a deferred subtree is loaded when its children are first asked
	 * for (model.h: the model grows at the end) */
	enum status st = model_load_children(m, node, err);
	if (st != STATUS_OK)
		return st;
	for (uint32_t c = model_nodes(m)[node].first_child; c != MODEL_NONE;
	     c = model_nodes(m)[c].next_sibling) {
		/* siblings are distinct nodes: more than n_nodes is a cycle */
		if (c >= model_n_nodes(m) || model_nodes(m)[c].parent != node ||
		    count >= model_n_nodes(m)) {
			free(kids);
			return error_set(err, STATUS_CORRUPT, model_path(m),
					 "bad child links under node %u",
					 (unsigned)node);
		}
		if (!array_grow_u32((void **)&kids, &cap, (uint64_t)count + 1,
			       sizeof(*kids))) {
			free(kids);
			return error_set(err, STATUS_NOMEM, model_path(m),
					 "out of memory");
		}
		kids[count++] = c;
	}
	*out = kids;
	*n = count;
	return STATUS_OK;
}

static bool td_value(struct view *v, uint32_t node, uint32_t column,
		     double *out)
{
	return model_value(v->m, node, column, out);
}

static void td_node_get(const struct view *v, uint32_t node,
			struct view_node *out)
{
	CHECK(node < model_n_nodes(v->m));
	const struct model_node *nd = &model_nodes(v->m)[node];
	*out = (struct view_node){
		.parent = nd->parent,
		.depth = nd->depth,
		.kind = nd->kind,
		.model_node = node,
		.id = nd->ctx_id,
	};
	/* formats whose own ids start at 0 (model.h ctx_id_base) */
	if (model_ctx_id_base(v->m))
		out->id = node == 0 || nd->ctx_id < model_ctx_id_base(v->m)
				  ? MODEL_NONE
				  : nd->ctx_id - model_ctx_id_base(v->m);
}

static char *td_label(const struct view *v, uint32_t node)
{
	return model_node_label(v->m, node);
}

const struct view_ops view_top_down_ops = {
	.kind = VIEW_TOP_DOWN,
	.name = "top-down",
	.open = td_open,
	.close = td_close,
	.exists = td_exists,
	.children = td_children,
	.value = td_value,
	.node_get = td_node_get,
	.label = td_label,
	.cache_values = false,
};
