/* trace_match: which trace contexts a tree row stands for (the tree
 * selection's highlight in the trace pane): a node, or every context of a
 * function, a source line, a file or a module, matched on the context's
 * call path.  Depends on the model only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"

bool trace_ctx_under(const struct model *m, uint32_t ctx, uint32_t node)
{
	struct trace_match t = trace_match_make(m, node, TRACE_MATCH_NODE);
	return trace_ctx_matches(m, ctx, &t);
}

struct trace_match trace_match_make(const struct model *m, uint32_t node,
				    enum trace_match_kind how)
{
	struct trace_match t = {.kind = TRACE_MATCH_NONE,
				.function = MODEL_NONE};
	if (node == MODEL_NONE || node >= model_n_nodes(m) || node == 0)
		return t;
	const struct model_node *n = &model_nodes(m)[node];
	const struct model_function *f =
		n->function < model_n_functions(m) ? &model_functions(m)[n->function] : NULL;
	t.kind = how;
	t.node = node;
	t.function = n->function < model_n_functions(m) ? n->function : MODEL_NONE;
	t.name = n->name;
	t.node_kind = n->kind;
	t.file = n->file ? n->file : f ? f->file : 0;
	t.line = n->line;
	t.module = n->module ? n->module : f ? f->module : 0;
	if ((how == TRACE_MATCH_FILE && !t.file) ||
	    (how == TRACE_MATCH_MODULE && !t.module))
		t.kind = TRACE_MATCH_NONE;
	return t;
}

static bool node_matches(const struct model *m, uint32_t id,
			 const struct trace_match *t)
{
	const struct model_node *n = &model_nodes(m)[id];
	switch (t->kind) {
	case TRACE_MATCH_NODE:
		return id == t->node;
	case TRACE_MATCH_FUNCTION:
		if (!model_kind_is_frame(n->kind))
			return false;
		if (t->function != MODEL_NONE)
			return n->function == t->function;
		return n->function == MODEL_NONE && n->name == t->name &&
		       n->kind == model_nodes(m)[t->node].kind;
	case TRACE_MATCH_LINE:
		return n->kind == t->node_kind && n->file == t->file &&
		       n->line == t->line;
	case TRACE_MATCH_FILE:
	case TRACE_MATCH_MODULE: {
		const struct model_function *f =
			n->function < model_n_functions(m) ? &model_functions(m)[n->function]
						     : NULL;
		if (t->kind == TRACE_MATCH_FILE)
			return (n->file ? n->file : f ? f->file : 0) == t->file;
		return (n->module ? n->module : f ? f->module : 0) == t->module;
	}
	case TRACE_MATCH_NONE:
		break;
	}
	return false;
}

bool trace_ctx_matches(const struct model *m, uint32_t ctx,
		       const struct trace_match *match)
{
	if (ctx == 0 || !match || match->kind == TRACE_MATCH_NONE)
		return false;
	uint32_t n = model_node_of_ctx(m, ctx);
	for (uint32_t steps = 0;
	     n != MODEL_NONE && n != 0 && steps <= model_max_depth(m) + 1; steps++) {
		if (node_matches(m, n, match))
			return true;
		n = model_nodes(m)[n].parent;
	}
	return false;
}
