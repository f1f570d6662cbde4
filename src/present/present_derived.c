/* present_derived: derived-column evaluation over a view, shared by the
 * tree pane, :export and the row writer.  No curses here. */
#include "config.h"

#include "present/present_derived.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "model/model_column.h"
#include "model/model_data.h"
#include "present/present_column.h"
#include "views/view.h"

struct leaf_ctx {
	struct view *view;
	uint32_t node;
};

/* A formula leaf: model column `leaf` at the row. */
static bool leaf_value(void *ctx, uint32_t leaf, double *out)
{
	struct leaf_ctx *d = ctx;
	if (leaf >= model_n_columns(view_model(d->view)))
		return false;
	return view_value(d->view, d->node, leaf, out);
}

bool present_column_value(struct view *v, const struct derived_column *derived,
			  size_t n_derived, uint32_t column, uint32_t node,
			  double *out)
{
	uint32_t nc = model_n_columns(view_model(v));
	if (column < nc)
		return view_value(v, node, column, out);
	size_t d = column - nc;
	if (d >= n_derived || !derived[d].expr)
		return false;
	struct leaf_ctx ctx = {v, node};
	return formula_eval(derived[d].expr, leaf_value, &ctx, out);
}

/* The end of the quoted title that starts at `p` (after $"), its
 * unescaped text in *title (heap); NULL when unterminated or out of
 * memory. */
static const char *read_title(const char *p, char **title)
{
	struct strbuf t = {0};
	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++;
		strbuf_addn(&t, p, 1);
	}
	if (*p != '"') {
		free(t.s);
		*title = NULL;
		return NULL;
	}
	*title = strbuf_take(&t);
	return *title ? p + 1 : NULL;
}

char *present_derived_numbered(const struct model *m, const char *text,
			       char **missing)
{
	struct strbuf out = {0};
	*missing = NULL;
	const char *p = text;
	while (*p) {
		if (p[0] == '$' && p[1] >= '0' && p[1] <= '9') {
			/* $N: one of the model's columns, or none */
			char *end;
			unsigned long n = strtoul(p + 1, &end, 10);
			if (n < 1 || n > model_n_columns(m)) {
				if (asprintf(missing, "%.*s", (int)(end - p),
					     p) < 0)
					*missing = NULL;
				free(out.s);
				return NULL;
			}
			strbuf_addn(&out, p, (size_t)(end - p));
			p = end;
			continue;
		}
		if (p[0] != '$' || p[1] != '"') {
			strbuf_addn(&out, p++, 1);
			continue;
		}
		char *title = NULL;
		const char *end = read_title(p + 2, &title);
		if (!end) { /* unterminated: formula_parse says where */
			free(title);
			strbuf_addn(&out, p, strlen(p));
			break;
		}
		uint32_t c = model_find_column(m, title);
		if (c == MODEL_NONE) {
			*missing = title;
			free(out.s);
			return NULL;
		}
		free(title);
		char num[16];
		int n = snprintf(num, sizeof(num), "$%u", c + 1);
		strbuf_addn(&out, num, (size_t)n);
		p = end;
	}
	return strbuf_take(&out);
}

/* A title of column `c` that model_find_column finds again, heap; NULL
 * when there is none (or out of memory). */
static char *findable_title(const struct model *m, uint32_t c)
{
	char *t = present_column_title(m, c);
	if (t && model_find_column(m, t) == c)
		return t;
	free(t);
	const struct model_column *col = &model_columns(m)[c];
	t = NULL;
	if (col->variant &&
	    asprintf(&t, "%s:%s (%s)", col->name, col->variant,
		     col->kind == COLUMN_INCLUSIVE ? "I" : "E") < 0)
		t = NULL;
	if (t && model_find_column(m, t) == c)
		return t;
	free(t);
	return NULL;
}

char *present_derived_named(const struct model *m, const char *text)
{
	struct strbuf out = {0};
	const char *p = text;
	while (*p) {
		if (p[0] == '$' && p[1] == '"') { /* already a title */
			char *title = NULL;
			const char *end = read_title(p + 2, &title);
			free(title);
			if (!end)
				end = p + strlen(p);
			strbuf_addn(&out, p, (size_t)(end - p));
			p = end;
			continue;
		}
		if (p[0] != '$' || p[1] < '0' || p[1] > '9') {
			strbuf_addn(&out, p++, 1);
			continue;
		}
		char *end;
		unsigned long n = strtoul(p + 1, &end, 10);
		char *title = n >= 1 && n <= model_n_columns(m)
				      ? findable_title(m, (uint32_t)(n - 1))
				      : NULL;
		if (!title) {
			strbuf_addn(&out, p, (size_t)(end - p));
			p = end;
			continue;
		}
		strbuf_addn(&out, "$\"", 2);
		for (const char *t = title; *t; t++) {
			if (*t == '"' || *t == '\\')
				strbuf_addn(&out, "\\", 1);
			strbuf_addn(&out, t, 1);
		}
		strbuf_addn(&out, "\"", 1);
		free(title);
		p = end;
	}
	return strbuf_take(&out);
}
