/* cli_rows: text, CSV and JSON rendering of view rows for the batch
 * commands.  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cli_rows.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"

#define VALUE_WIDTH 10
/* Deepest indentation of text rows, in levels; deeper rows show "[DEPTH] ". */
#define CLI_ROWS_INDENT_MAX 64
#define PERCENT_WIDTH 7


bool cli_rows_init(struct cli_rows *r, struct view *view,
		   const uint32_t *columns, size_t n_columns,
		   enum cli_format format, FILE *out)
{
	memset(r, 0, sizeof(*r));
	r->view = view;
	r->model = view_model(view);
	r->columns = columns;
	r->n_columns = n_columns;
	r->format = format;
	r->out = out;
	r->totals = calloc(n_columns ? n_columns : 1, sizeof(*r->totals));
	r->has_total = calloc(n_columns ? n_columns : 1, sizeof(*r->has_total));
	if (!r->totals || !r->has_total)
		return false;
	for (size_t i = 0; i < n_columns; i++)
		r->has_total[i] =
			model_column_total(r->model, columns[i], &r->totals[i]);
	return true;
}

void cli_rows_fini(struct cli_rows *r)
{
	free(r->totals);
	free(r->has_total);
	r->totals = NULL;
	r->has_total = NULL;
}


json_t *cli_rows_columns_json(const struct cli_rows *r)
{
	const struct model *m = r->model;
	json_t *arr = json_array();
	for (size_t i = 0; i < r->n_columns && arr; i++) {
		uint32_t c = r->columns[i];
		const struct model_column *col = &m->columns[c];
		char *title = cli_column_title(m, c);
		uint32_t stat = model_column_stat(m, c);
		json_t *source = stat != MODEL_NONE ? cli_stat_json(m, stat)
						    : json_null();
		json_array_append_new(
			arr,
			json_pack("{s:o, s:o, s:s, s:o, s:o}", "name",
				  cli_json_text(title ? title : col->name),
				  "metric", cli_json_text(col->name), "kind",
				  col->kind == COLUMN_INCLUSIVE ? "inclusive"
								: "exclusive",
				  "variant", cli_json_text(col->variant), "source",
				  source ? source : json_null()));
		free(title);
	}
	return arr;
}

/* name/file/line/module of a row, with the function table as fallback */
struct row_place {
	const char *file;
	uint32_t line;
	const char *module;
};

static struct row_place row_place(const struct model *m, uint32_t mnode)
{
	struct row_place p = {NULL, 0, NULL};
	if (mnode >= m->n_nodes)
		return p;
	const struct model_node *n = &m->nodes[mnode];
	p.file = n->file ? model_str(m, n->file) : NULL;
	p.line = n->line;
	p.module = n->module ? model_str(m, n->module) : NULL;
	if (n->function < m->n_functions) {
		const struct model_function *f = &m->functions[n->function];
		if (!p.file && f->file) {
			p.file = model_str(m, f->file);
			p.line = f->line;
		}
		if (!p.module && f->module)
			p.module = model_str(m, f->module);
	}
	return p;
}

/* The id a report shows for a row: the view's id, except a top-down
 * context that shares its context id N with another (NODE_TRAIT_ALIAS_ID:
 * experiment.xml 4.0's i="-N"), shown as -N so that ids stay unique. */
static int64_t row_id(const struct cli_rows *r, const struct view_node *vn)
{
	const struct model *m = r->model;
	if (view_kind_of(r->view) == VIEW_TOP_DOWN &&
	    vn->model_node < m->n_nodes &&
	    (m->nodes[vn->model_node].traits & NODE_TRAIT_ALIAS_ID))
		return -(int64_t)vn->id;
	return vn->id;
}

json_t *cli_rows_node_json(const struct cli_rows *r, uint32_t node)
{
	struct view_node vn;
	if (!view_node_get(r->view, node, &vn))
		return json_null();
	const struct model *m = r->model;
	struct view_node parent;
	json_t *jparent = json_null();
	if (vn.parent != MODEL_NONE &&
	    view_node_get(r->view, vn.parent, &parent) &&
	    parent.id != MODEL_NONE)
		jparent = json_integer(row_id(r, &parent));
	char *label = view_node_label(r->view, node);
	struct row_place p = row_place(m, vn.model_node);
	json_t *values = json_array();
	for (size_t i = 0; i < r->n_columns; i++) {
		double v;
		json_array_append_new(values,
				      view_value(r->view, node, r->columns[i], &v)
					      ? json_real(v)
					      : json_null());
	}
	/* MODEL_NONE: a node without an id of its own (model.h
	 * ctx_id_base) */
	json_t *obj = json_pack(
		"{s:o, s:o, s:I, s:s, s:o, s:o, s:o, s:o, s:o}", "id",
		vn.id == MODEL_NONE ? json_null()
				    : json_integer(row_id(r, &vn)),
		"parent", jparent, "depth",
		(json_int_t)vn.depth, "kind", cli_kind_name(vn.kind), "name",
		cli_json_text(label ? label : ""), "file", cli_json_text(p.file),
		"line", p.line ? json_integer(p.line) : json_null(), "module",
		cli_json_text(p.module), "values", values);
	free(label);
	return obj ? obj : json_null();
}

/* `s` (valid UTF-8) right-aligned in `width` characters, cut after
 * `width` characters (never inside one). */
static void put_fitted(FILE *out, const char *s, size_t width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), bytes = 0, chars = 0;
	while (bytes < len && chars < width) {
		size_t n = sanitize_utf8_len(p + bytes, len - bytes);
		bytes += n ? n : 1;
		chars++;
	}
	for (size_t i = chars; i < width; i++)
		fputc(' ', out);
	fwrite(s, 1, bytes, out);
}

void cli_rows_header(const struct cli_rows *r)
{
	const struct model *m = r->model;
	if (r->format == CLI_FORMAT_CSV) {
		fputs("id,parent,depth,kind,name,file,line,module", r->out);
		for (size_t i = 0; i < r->n_columns; i++) {
			char *t = cli_column_title(m, r->columns[i]);
			fputc(',', r->out);
			cli_put_csv(r->out, t ? t : "");
			free(t);
		}
		fputc('\n', r->out);
		return;
	}
	for (size_t i = 0; i < r->n_columns; i++) {
		bool pct = (m->columns[r->columns[i]].render & RENDER_PERCENT) &&
			   r->has_total[i];
		int width = VALUE_WIDTH + (pct ? PERCENT_WIDTH + 1 : 0);
		char *t = cli_column_title_fit(m, r->columns[i], (size_t)width);
		char *safe = sanitize_text(t ? t : "", SANITIZE_TERMINAL);
		put_fitted(r->out, safe ? safe : "", (size_t)width);
		fputs("  ", r->out);
		free(safe);
		free(t);
	}
	fputs("Name\n", r->out);
}

void cli_rows_print(const struct cli_rows *r, uint32_t node)
{
	struct view_node vn;
	if (!view_node_get(r->view, node, &vn))
		return;
	const struct model *m = r->model;
	char *label = view_node_label(r->view, node);
	if (r->format == CLI_FORMAT_CSV) {
		struct view_node parent;
		if (vn.id != MODEL_NONE)
			fprintf(r->out, "%" PRId64, row_id(r, &vn));
		fputc(',', r->out);
		if (vn.parent != MODEL_NONE &&
		    view_node_get(r->view, vn.parent, &parent) &&
		    parent.id != MODEL_NONE)
			fprintf(r->out, "%" PRId64, row_id(r, &parent));
		fprintf(r->out, ",%u,%s,", vn.depth, cli_kind_name(vn.kind));
		cli_put_csv(r->out, label ? label : "");
		struct row_place p = row_place(m, vn.model_node);
		fputc(',', r->out);
		cli_put_csv(r->out, p.file ? p.file : "");
		fputc(',', r->out);
		if (p.line)
			fprintf(r->out, "%u", p.line);
		fputc(',', r->out);
		cli_put_csv(r->out, p.module ? p.module : "");
		for (size_t i = 0; i < r->n_columns; i++) {
			double v;
			fputc(',', r->out);
			if (view_value(r->view, node, r->columns[i], &v))
				fprintf(r->out, "%.17g", v);
		}
		fputc('\n', r->out);
		free(label);
		return;
	}
	for (size_t i = 0; i < r->n_columns; i++) {
		uint32_t c = r->columns[i];
		bool pct = (m->columns[c].render & RENDER_PERCENT) &&
			   r->has_total[i];
		double v;
		if (view_value(r->view, node, c, &v)) {
			char *text = cli_format_value(m, c, v);
			fprintf(r->out, "%*s", VALUE_WIDTH, text ? text : "?");
			free(text);
			if (pct)
				fprintf(r->out, " %*.1f%%", PERCENT_WIDTH - 1,
					v / r->totals[i] * 100.0);
		} else {
			fprintf(r->out, "%*s", VALUE_WIDTH, "");
			if (pct)
				fprintf(r->out, " %*s", PERCENT_WIDTH, "");
		}
		fputs("  ", r->out);
	}
	uint32_t indent = vn.depth > r->base_depth ? vn.depth - r->base_depth : 0;
	/* deep trees: the indentation stops growing (the output stays
	 * linear in the number of rows) and the row shows its depth */
	for (uint32_t i = 0; i < indent && i < CLI_ROWS_INDENT_MAX; i++)
		fputs("  ", r->out);
	if (indent > CLI_ROWS_INDENT_MAX)
		fprintf(r->out, "[%u] ", indent);
	cli_put_text(r->out, label ? label : "");
	fputc('\n', r->out);
	free(label);
}
