/* metrics_yaml: reads an HPCToolkit METRICS.yaml taxonomy (the
 * metrics/default.yaml of a v4 database; ../shared/specs/
 * hpctoolkit-METRICS.yaml) into metric columns over the statistics a
 * reader already added to a model builder.
 *
 * The file is loaded with libyaml's document API, which turns every alias
 * into a reference to its anchored node, so the loaded document is a graph
 * no larger than the file; a hostile file can make that graph cyclic
 * (`&a [*a]`) or exponentially wide when unfolded (alias bombs).  Every
 * walk here therefore carries a depth bound, and all walks share one step
 * budget and one formula-node budget.  The whole taxonomy is built in
 * memory first; columns are added to the builder only when the file was
 * read without error, so a bad file adds nothing.  Must not depend on
 * curses or on a particular reader. */
#include "config.h"

#include "formats/hpctoolkit_v4/metrics_yaml.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_v4/metrics_yaml_internal.h"
#include "io/blob.h"

/* Largest METRICS.yaml read (the largest real one is ~90 KiB). */
#define METRICS_YAML_MAX_SIZE (32u << 20)

/* ---- first / sum: formulas from the children ------------------------ */

static const char *child_variant_name(struct ctx *c, const struct variant *v,
				      size_t child)
{
	yaml_node_t *cv = v->child_variant;
	if (is_null(cv))
		return v->name;
	if (cv->type == YAML_SEQUENCE_NODE) {
		size_t n = (size_t)(cv->data.sequence.items.top -
				    cv->data.sequence.items.start);
		if (child >= n)
			return NULL;
		cv = node_at(c, cv->data.sequence.items.start[child]);
	}
	return is_scalar(cv) ? (const char *)cv->data.scalar.value : NULL;
}

static const struct variant *find_variant(const struct metric *m,
					  const char *name)
{
	for (size_t i = 0; name && i < m->n_variants; i++)
		if (!m->variants[i].skip && strcmp(m->variants[i].name,
						   name) == 0)
			return &m->variants[i];
	return NULL;
}

/* Post-order: children first, so that a `sum` of sums works. */
static bool resolve(struct ctx *c, struct metric *m, unsigned depth)
{
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, NULL, "taxonomy too deep");
	for (size_t i = 0; i < m->n_children; i++)
		if (!resolve(c, &m->children[i], depth + 1))
			return false;
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		if (v->rule != RULE_FIRST && v->rule != RULE_SUM)
			continue;
		size_t n = v->rule == RULE_FIRST ? (m->n_children ? 1 : 0)
						 : m->n_children;
		for (int k = 0; k < KIND_COUNT; k++) {
			struct formula **e = calloc(n ? n : 1, sizeof(*e));
			struct formula **s = calloc(n ? n : 1, sizeof(*s));
			size_t got = 0;
			bool ok = e && s;
			if (!ok)
				my_nomem(c);
			for (size_t j = 0; ok && j < n; j++) {
				const struct variant *cv = find_variant(
					&m->children[j],
					child_variant_name(c, v, j));
				if (!cv || !cv->expr[k])
					continue;
				const struct formula *cs = cv->standard[k]
					? cv->standard[k] : cv->expr[k];
				e[got] = my_clone(c, cv->expr[k], 0);
				s[got] = e[got] ? my_clone(c, cs, 0) : NULL;
				if (!s[got]) {
					formula_free(e[got]);
					ok = false;
					break;
				}
				got++;
			}
			if (ok && got == 1) {
				v->expr[k] = e[0];
				v->standard[k] = s[0];
				free(e);
				free(s);
			} else if (ok && got > 1) {
				v->expr[k] =
				    my_make_node(c, NULL, FORMULA_ADD, e, got);
				v->standard[k] =
				    my_make_node(c, NULL, FORMULA_ADD, s, got);
				ok = v->expr[k] && v->standard[k];
			} else {
				for (size_t j = 0; j < got; j++) {
					formula_free(e[j]);
					formula_free(s[j]);
				}
				free(e);
				free(s);
			}
			if (!ok)
				return false;
			if (v->standard[k] &&
			    my_same_formula(v->expr[k], v->standard[k])) {
				formula_free(v->standard[k]);
				v->standard[k] = NULL;
			}
		}
		if (!v->expr[KIND_INCL] && !v->expr[KIND_EXCL])
			v->skip = true;
	}
	return true;
}

/* ---- columns -------------------------------------------------------- */

static uint32_t parent_column(const struct metric *parent,
			      const struct variant *v, int kind)
{
	if (!parent)
		return MODEL_NONE;
	for (size_t i = 0; i < parent->n_variants; i++)
		if (strcmp(parent->variants[i].name, v->name) == 0 &&
		    parent->variants[i].column[kind] != MODEL_NONE)
			return parent->variants[i].column[kind];
	for (size_t i = 0; i < parent->n_variants; i++)
		if (parent->variants[i].column[kind] != MODEL_NONE)
			return parent->variants[i].column[kind];
	return MODEL_NONE;
}

static bool push_column(struct ctx *c, const struct metric *m,
			const struct metric *parent, struct variant *v,
			int kind)
{
	if (c->n_pending == c->cap_pending) {
		size_t ncap = c->cap_pending ? c->cap_pending * 2 : 16;
		struct model_column *np = realloc(c->pending,
						  ncap * sizeof(*np));
		if (!np)
			return my_nomem(c);
		c->pending = np;
		c->cap_pending = ncap;
	}
	const char *format = v->format ? v->format
			     : m->format ? m->format : "%.2e";
	struct model_column col = {
		.name = strdup(m->name),
		.variant = strdup(v->name),
		.description = m->description ? strdup(m->description) : NULL,
		.format = strdup(format),
		.kind = (uint8_t)(kind == KIND_INCL ? COLUMN_INCLUSIVE
						    : COLUMN_EXCLUSIVE),
		.render = v->render,
		.visible = m->visible,
		.pair = MODEL_NONE,
		.parent = parent_column(parent, v, kind),
		.expr = v->expr[kind],
		.expr_standard = v->standard[kind],
	};
	v->expr[kind] = v->standard[kind] = NULL;
	v->column[kind] = c->base + (uint32_t)c->n_pending;
	c->pending[c->n_pending++] = col;
	if (!col.name || !col.variant || !col.format ||
	    (m->description && !col.description))
		return my_nomem(c);
	return true;
}

/* Pre-order: a metric's columns, variants in file order, inclusive before
 * exclusive, then its children's. */
static bool emit(struct ctx *c, struct metric *m, const struct metric *parent,
		 unsigned depth)
{
	if (depth > TAXONOMY_MAX_DEPTH)
		return my_fail(c, STATUS_LIMIT, NULL, "taxonomy too deep");
	if (c->n_pending + 2 * m->n_variants > UINT32_MAX / 2 - c->base)
		return my_fail(c, STATUS_LIMIT, NULL, "too many columns");
	for (size_t i = 0; i < m->n_variants; i++) {
		struct variant *v = &m->variants[i];
		if (v->skip)
			continue;
		for (int k = 0; k < KIND_COUNT; k++) {
			/* a formula-less variant is a header for children */
			bool header = v->rule == RULE_NONE && m->n_children;
			if ((v->expr[k] || header) &&
			    !push_column(c, m, parent, v, k))
				return false;
		}
	}
	for (size_t i = 0; i < m->n_children; i++)
		if (!emit(c, &m->children[i], m, depth + 1))
			return false;
	return true;
}

static void pending_free(struct ctx *c)
{
	for (size_t i = 0; i < c->n_pending; i++) {
		struct model_column *col = &c->pending[i];
		model_column_release(col);
	}
	FREE_AND_NULL(c->pending);
	c->n_pending = 0;
}

/* The canonical formula text of every statistic of the model, which
 * `inputs:` entries are matched by. */
static bool canonical_stats(struct ctx *c)
{
	c->stat_formula = calloc(model_n_stats(c->m) ? model_n_stats(c->m) : 1,
				 sizeof(*c->stat_formula));
	if (!c->stat_formula)
		return my_nomem(c);
	for (uint32_t s = 0; s < model_n_stats(c->m); s++)
		if (!(c->stat_formula[s] = my_canonical_formula(
			      model_str(c->m, model_stats(c->m)[s].formula))))
			return my_nomem(c);
	return true;
}

/* The taxonomy read (`roots`) into columns of `b`: formulas of first/sum
 * variants resolved, the columns built, then added, all or none (none
 * when no column has a formula). */
static bool add_columns(struct ctx *c, struct model_builder *b,
			struct metric *roots, size_t n_roots,
			uint32_t *n_columns)
{
	c->base = model_n_columns(c->m);
	for (size_t i = 0; i < n_roots; i++)
		if (!resolve(c, &roots[i], 0))
			return false;
	for (size_t i = 0; i < n_roots; i++)
		if (!emit(c, &roots[i], NULL, 0))
			return false;
	bool any = false;
	for (size_t i = 0; i < c->n_pending && !any; i++)
		any = c->pending[i].expr != NULL;
	if (!any)
		return true;
	for (size_t i = 0; i < c->n_pending; i++) {
		uint32_t idx = model_builder_add_column(b, &c->pending[i]);
		memset(&c->pending[i], 0, sizeof(c->pending[i]));
		if (idx != c->base + i)
			return my_nomem(c);
		(*n_columns)++;
	}
	return true;
}

enum status metrics_yaml_add_columns_mem(struct model_builder *b,
					 const char *name, const void *data,
					 size_t len, uint32_t *n_columns,
					 struct error *err)
{
	*n_columns = 0;
	struct ctx c = {
		.m = model_builder_peek(b),
		.name = name ? name : "METRICS.yaml",
		.err = err,
		.status = STATUS_OK,
	};
	yaml_parser_t parser;
	bool have_parser = false, have_doc = false;
	struct metric *roots = NULL;
	size_t n_roots = 0;
	if (!c.m)
		return error_set(err, STATUS_NOMEM, name, "out of memory");
	if (len > METRICS_YAML_MAX_SIZE) {
		my_fail(&c, STATUS_LIMIT, NULL, "file larger than %u MiB",
			METRICS_YAML_MAX_SIZE >> 20);
		goto out;
	}
	if (len == 0) {
		my_fail(&c, STATUS_CORRUPT, NULL, "empty file");
		goto out;
	}
	if (!canonical_stats(&c))
		goto out;
	if (!yaml_parser_initialize(&parser)) {
		my_nomem(&c);
		goto out;
	}
	have_parser = true;
	yaml_parser_set_input_string(&parser, data, len);
	if (!yaml_parser_load(&parser, &c.doc)) {
		if (parser.error == YAML_MEMORY_ERROR)
			my_nomem(&c);
		else
			my_fail(&c, STATUS_CORRUPT, NULL,
				"not YAML: %s%s%s "
				"(line %zu)",
				parser.problem ? parser.problem
					       : "syntax error",
				parser.context ? " " : "",
				parser.context ? parser.context : "",
				parser.problem_mark.line + 1);
		goto out;
	}
	have_doc = true;
	c.n_nodes = (size_t)(c.doc.nodes.top - c.doc.nodes.start);
	c.is_input = calloc(c.n_nodes ? c.n_nodes : 1, sizeof(*c.is_input));
	c.input_stat = calloc(c.n_nodes ? c.n_nodes : 1,
			      sizeof(*c.input_stat));
	if (!c.is_input || !c.input_stat) {
		my_nomem(&c);
		goto out;
	}
	if (my_read_document(&c, &roots, &n_roots))
		add_columns(&c, b, roots, n_roots, n_columns);
out:
	pending_free(&c);
	for (size_t i = 0; i < n_roots; i++)
		my_metric_release(&roots[i]);
	free(roots);
	if (have_doc)
		yaml_document_delete(&c.doc);
	if (have_parser)
		yaml_parser_delete(&parser);
	for (uint32_t s = 0; c.stat_formula && s < model_n_stats(c.m); s++)
		free(c.stat_formula[s]);
	free(c.stat_formula);
	free(c.is_input);
	free(c.input_stat);
	return c.status;
}

enum status metrics_yaml_add_columns(struct model_builder *b,
				     const char *path, uint32_t *n_columns,
				     struct error *err)
{
	*n_columns = 0;
	struct blob *blob = NULL;
	struct span all;
	enum status st = blob_open_file(path, &blob, err);
	if (st != STATUS_OK)
		return st;
	if (blob_size(blob) > METRICS_YAML_MAX_SIZE) {
		st = error_set(err, STATUS_LIMIT, path, "file larger than %u "
			       "MiB", METRICS_YAML_MAX_SIZE >> 20);
		goto out;
	}
	st = blob_map_all(blob, &all, err);
	if (st == STATUS_OK)
		st = metrics_yaml_add_columns_mem(b, path, all.data,
						  (size_t)all.len, n_columns,
						  err);
out:
	blob_close(blob);
	return st;
}
