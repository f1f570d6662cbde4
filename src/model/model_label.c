/* model_label: the text of a node for display -- its name, or for a
 * function without one its load module and entry offset as hpcviewer
 * shows them, "loop at FILE:LINE", "FILE:LINE", "MODULE@0xOFFSET" -- and
 * the short form that shows file and module names without their
 * directories.  Must not depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "model/model.h"
#include "model/model_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

static bool is_place(uint8_t kind)
{
	return kind == NODE_LOOP || kind == NODE_LINE ||
	       kind == NODE_INSTRUCTION || kind == NODE_ADDRESS;
}

/* The label of a place (is_place): "loop at FILE:LINE", "FILE:LINE",
 * "MODULE@0xOFFSET", with the file and module names given (whole or
 * short).  Heap string, NULL when out of memory. */
static char *place_label(const struct model_node *n, const char *file,
			 const char *module)
{
	char *out = NULL;
	int r;
	if (n->kind == NODE_LOOP)
		r = asprintf(&out, "loop at %s:%" PRIu32, *file ? file : "?",
			     n->line);
	else if (n->kind == NODE_LINE)
		r = asprintf(&out, "%s:%" PRIu32, *file ? file : "?", n->line);
	else
		r = asprintf(&out, "%s@0x%" PRIx64, *module ? module : "?",
			     n->offset);
	return r < 0 ? NULL : out;
}

char *model_node_short_label(const struct model *m, uint32_t node)
{
	if (node >= m->n_nodes || !is_place(m->nodes[node].kind))
		return model_node_label(m, node);
	const struct model_node *n = &m->nodes[node];
	return place_label(n, last_component(model_str(m, n->file)),
			   last_component(model_str(m, n->module)));
}

char *model_node_label(const struct model *m, uint32_t node)
{
	if (node >= m->n_nodes)
		return strdup("");
	const struct model_node *n = &m->nodes[node];
	const char *name = model_str(m, n->name);
	const char *file = model_str(m, n->file);
	const char *module = model_str(m, n->module);
	char *out = NULL;
	int r = -1;
	switch ((enum node_kind)n->kind) {
	case NODE_ROOT:
		r = asprintf(&out, "%s", *name ? name : "<program root>");
		break;
	case NODE_ENTRY:
	case NODE_FUNCTION:
	case NODE_KERNEL:
	case NODE_REGION:
		if (*name) {
			r = asprintf(&out, "%s", name);
			break;
		}
		/* no name: the function's load module and entry offset, as
		 * hpcviewer shows them ("<unknown function> [libfoo.so @
		 * 0x1234]"); a context without a function shows its module
		 * only (the bottom-up and flat views group such contexts by
		 * name and module, whatever their offsets) */
		uint64_t offset = 0;
		if (n->function < m->n_functions &&
		    m->functions[n->function].module) {
			module = model_str(m, m->functions[n->function].module);
			offset = m->functions[n->function].offset;
		}
		if (*module && offset)
			r = asprintf(&out, "<unknown function> [%s @ 0x%" PRIx64
					   "]",
				     last_component(module), offset);
		else if (*module)
			r = asprintf(&out, "<unknown function> [%s]",
				     last_component(module));
		else
			r = asprintf(&out, "<unknown function>");
		break;
	case NODE_LOOP:
	case NODE_LINE:
	case NODE_INSTRUCTION:
	case NODE_ADDRESS:
		return place_label(n, file, module);
	}
	return r < 0 ? NULL : out;
}
