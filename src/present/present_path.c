/* present_path: one root-to-node path builder for the model's tree and a
 * view's rows: the names are collected leaf first into an array, then
 * joined from the end in one buffer (linear in the path's bytes).  No
 * curses here. */
#include "config.h"

#include "core/array.h"
#include "present/present_path.h"

#include <stdlib.h>
#include <string.h>

#include "model/model_node.h"
#include "model/model_data.h"
#include "views/view.h"

/* A growing array of heap strings, filled leaf first. */
struct parts {
	char **s;
	size_t n, cap;
	bool failed;
};

static void parts_push(struct parts *p, char *s)
{
	if (!s)
		p->failed = true;
	if (p->failed) {
		free(s);
		return;
	}
	if (!array_grow((void **)&p->s, &p->cap, p->n + 1, sizeof(*p->s))) {
		free(s);
		p->failed = true;
		return;
	}
	p->s[p->n++] = s;
}

/* Reverse the array in place (outermost first); NULL after a failure. */
static char **parts_take(struct parts *p, size_t *n)
{
	if (p->failed || (!p->s && !(p->s = malloc(sizeof(*p->s))))) {
		present_path_free(p->s, p->n);
		*n = 0;
		return NULL;
	}
	for (size_t i = 0, j = p->n; i + 1 < j; i++, j--) {
		char *t = p->s[i];
		p->s[i] = p->s[j - 1];
		p->s[j - 1] = t;
	}
	*n = p->n;
	return p->s;
}

void present_path_free(char **parts, size_t n)
{
	for (size_t i = 0; parts && i < n; i++)
		free(parts[i]);
	free(parts);
}

char **present_node_parts(const struct model *m, uint32_t node,
			  enum present_path_names names, size_t *n)
{
	struct parts p = {0};
	/* at most n_nodes steps: a damaged parent chain cannot loop */
	for (uint32_t k = 0; node != 0 && node < model_n_nodes(m) && k < model_n_nodes(m);
	     k++, node = model_nodes(m)[node].parent)
		parts_push(&p, names == PRESENT_PATH_NAMES
				       ? strdup(model_str(m, model_nodes(m)[node].name))
				       : model_node_label(m, node));
	return parts_take(&p, n);
}

/* `parts` (n) joined by `sep`. */
static char *join(char *const *parts, size_t n, const char *sep)
{
	size_t sl = strlen(sep), len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(parts[i]) + (i ? sl : 0);
	char *out = malloc(len), *w = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (i) {
			memcpy(w, sep, sl);
			w += sl;
		}
		size_t l = strlen(parts[i]);
		memcpy(w, parts[i], l);
		w += l;
	}
	*w = '\0';
	return out;
}

char *present_node_path(const struct model *m, uint32_t node, const char *sep,
			enum present_path_names names)
{
	size_t n;
	char **parts = present_node_parts(m, node, names, &n);
	char *out = parts ? join(parts, n, sep) : NULL;
	present_path_free(parts, n);
	return out;
}

char *present_view_path(const struct view *v, uint32_t node, const char *sep,
			size_t max_bytes)
{
	struct parts p = {0};
	struct view_node vn;
	size_t bytes = 0;
	while ((!max_bytes || bytes < max_bytes) &&
	       view_node_get(v, node, &vn) && vn.parent != MODEL_NONE) {
		char *label = view_node_label(v, node);
		bytes += (label ? strlen(label) : 1) + strlen(sep);
		parts_push(&p, label ? label : strdup("?"));
		node = vn.parent;
	}
	size_t n;
	char **parts = parts_take(&p, &n);
	char *out = parts ? join(parts, n, sep) : NULL;
	present_path_free(parts, n);
	return out;
}

bool present_v4_copied(const struct model *m, const char *file)
{
	return strcmp(model_format(m), "hpctoolkit-v4") == 0 &&
	       strncmp(file, "src/", 4) == 0 && file[4] && file[4] != '/' &&
	       file[4] != ' ';
}

char *present_built_paths(const struct model *m, const char *text)
{
	char *out = strdup(text ? text : "");
	if (!out || strcmp(model_format(m), "hpctoolkit-v4") != 0)
		return out;
	char *w = out;
	for (const char *r = out; *r;) {
		if ((r == out || r[-1] == ' ') && present_v4_copied(m, r))
			r += 3; /* keep the '/' */
		*w++ = *r++;
	}
	*w = '\0';
	return out;
}
