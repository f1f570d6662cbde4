/* view_path: rows named by their path from the root (see view_path.h). */
#include "config.h"

#include "views/view_path.h"

#include <stdlib.h>
#include <string.h>

void view_path_free(struct view_path *p)
{
	for (size_t i = 0; p->labels && i < p->n; i++)
		free(p->labels[i]);
	free(p->labels);
	free(p->kinds);
	memset(p, 0, sizeof(*p));
}

enum status view_path_of(const struct view *v, uint32_t node,
			 struct view_path *out, struct error *err)
{
	memset(out, 0, sizeof(*out));
	struct view_node vn;
	if (!v || !view_node_get(v, node, &vn))
		return error_set(err, STATUS_USAGE, NULL, "no such row");
	size_t n = vn.depth;
	if (n == 0)
		return STATUS_OK;
	out->labels = calloc(n, sizeof(*out->labels));
	out->kinds = calloc(n, sizeof(*out->kinds));
	out->n = n;
	if (!out->labels || !out->kinds) {
		view_path_free(out);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t i = n; i-- > 0;) {
		out->labels[i] = view_node_label(v, node);
		out->kinds[i] = vn.kind;
		if (!out->labels[i]) {
			view_path_free(out);
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
		node = vn.parent;
		if (i > 0 && !view_node_get(v, node, &vn)) {
			view_path_free(out);
			return error_set(err, STATUS_USAGE, NULL,
					 "no such row");
		}
	}
	return STATUS_OK;
}

/* The child of `parent` labelled `label` of kind `kind`, or MODEL_NONE. */
static uint32_t child_named(struct view *v, uint32_t parent,
			    const char *label, uint8_t kind)
{
	uint32_t *kids = NULL, found = MODEL_NONE;
	size_t n = 0;
	struct error err = {0};
	if (view_children(v, parent, MODEL_NONE, false, &kids, &n, &err) !=
	    STATUS_OK) {
		error_clear(&err);
		return MODEL_NONE;
	}
	for (size_t i = 0; i < n && found == MODEL_NONE; i++) {
		struct view_node vn;
		if (!view_node_get(v, kids[i], &vn) || vn.kind != kind)
			continue;
		char *l = view_node_label(v, kids[i]);
		if (l && strcmp(l, label) == 0)
			found = kids[i];
		free(l);
	}
	free(kids);
	return found;
}

uint32_t view_path_find(struct view *v, const struct view_path *p)
{
	if (!v)
		return MODEL_NONE;
	uint32_t node = view_root(v);
	for (size_t i = 0; i < p->n && node != MODEL_NONE; i++)
		node = child_named(v, node, p->labels[i], p->kinds[i]);
	return node;
}
