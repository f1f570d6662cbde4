/* present_rows: text, CSV and JSON rendering of view rows and the
 * report's streamed walk, for the batch commands and the viewer's
 * :export.  No curses here. */
#include "config.h"

#include "present/present_rows.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/decimal.h"
#include "core/sanitize.h"
#include "present/present_column.h"
#include "present/present_value.h"
#include "present/present_write.h"

#define VALUE_WIDTH 10
/* Deepest indentation of text rows, in levels; deeper rows show "[DEPTH] ". */
#define PRESENT_ROWS_INDENT_MAX 64
#define PERCENT_WIDTH 7

/* Whether selected column `i` is a derived one. */
static bool is_derived(const struct present_rows *r, size_t i)
{
	return r->columns[i] >= model_n_columns(r->model);
}

bool present_rows_init(struct present_rows *r, struct view *view,
		       const uint32_t *columns, size_t n_columns,
		       const struct derived_column *derived, size_t n_derived,
		       enum present_format format, FILE *out)
{
	memset(r, 0, sizeof(*r));
	r->view = view;
	r->model = view_model(view);
	r->columns = columns;
	r->n_columns = n_columns;
	r->derived = derived;
	r->n_derived = n_derived;
	r->format = format;
	r->out = out;
	r->totals = calloc(n_columns ? n_columns : 1, sizeof(*r->totals));
	r->has_total = calloc(n_columns ? n_columns : 1, sizeof(*r->has_total));
	r->value_width = calloc(n_columns ? n_columns : 1,
				sizeof(*r->value_width));
	r->percent_width = calloc(n_columns ? n_columns : 1,
				  sizeof(*r->percent_width));
	if (!r->totals || !r->has_total || !r->value_width ||
	    !r->percent_width)
		return false;
	for (size_t i = 0; i < n_columns; i++) {
		r->value_width[i] = VALUE_WIDTH;
		r->percent_width[i] = PERCENT_WIDTH - 1;
	}
	for (size_t i = 0; i < n_columns; i++)
		r->has_total[i] = !is_derived(r, i) &&
				  model_column_total(r->model, columns[i],
						     &r->totals[i]);
	return true;
}

void present_rows_fini(struct present_rows *r)
{
	FREE_AND_NULL(r->totals);
	FREE_AND_NULL(r->has_total);
	FREE_AND_NULL(r->value_width);
	FREE_AND_NULL(r->percent_width);
}

bool present_rows_value(const struct present_rows *r, size_t i, uint32_t node,
			double *out)
{
	return present_column_value(r->view, r->derived, r->n_derived,
				    r->columns[i], node, out);
}

/* The derived column behind selected column `i` (NULL when there is
 * none of that index). */
static const struct derived_column *derived_of(const struct present_rows *r,
					       size_t i)
{
	size_t d = r->columns[i] - model_n_columns(r->model);
	return d < r->n_derived ? &r->derived[d] : NULL;
}

/* The title of selected column `i`: a model column's, or a derived
 * column's name.  Malloc'd; NULL when out of memory. */
static char *title_of(const struct present_rows *r, size_t i)
{
	if (!is_derived(r, i))
		return present_column_title(r->model, r->columns[i]);
	const struct derived_column *d = derived_of(r, i);
	return strdup(d && d->name ? d->name : "?");
}

json_t *present_rows_columns_json(const struct present_rows *r)
{
	const struct model *m = r->model;
	json_t *arr = json_array();
	for (size_t i = 0; i < r->n_columns && arr; i++) {
		uint32_t c = r->columns[i];
		if (is_derived(r, i)) {
			const struct derived_column *d = derived_of(r, i);
			const char *name = d && d->name ? d->name : "?";
			json_array_append_new(
				arr,
				json_pack("{s:o, s:o, s:s, s:n, s:n, s:o}",
					  "name", present_json_text(name),
					  "metric", present_json_text(name),
					  "kind", "derived", "variant",
					  "source", "formula",
					  present_json_text(d ? d->text
							      : NULL)));
			continue;
		}
		const struct model_column *col = &model_columns(m)[c];
		char *title = present_column_title(m, c);
		/* null for a formula column */
		json_t *source = present_stat_json(m, model_column_stat(m, c));
		json_array_append_new(
			arr,
			json_pack("{s:o, s:o, s:s, s:o, s:o}", "name",
				  present_json_text(title ? title : col->name),
				  "metric", present_json_text(col->name),
				  "kind",
				  col->kind == COLUMN_INCLUSIVE ? "inclusive"
								: "exclusive",
				  "variant", present_json_text(col->variant),
				  "source", source));
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
	if (mnode >= model_n_nodes(m))
		return p;
	const struct model_node *n = &model_nodes(m)[mnode];
	p.file = n->file ? model_str(m, n->file) : NULL;
	p.line = n->line;
	p.module = n->module ? model_str(m, n->module) : NULL;
	if (n->function < model_n_functions(m)) {
		const struct model_function *f = &model_functions(m)[n->function];
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
static int64_t row_id(const struct present_rows *r, const struct view_node *vn)
{
	const struct model *m = r->model;
	if (view_kind_of(r->view) == VIEW_TOP_DOWN &&
	    vn->model_node < model_n_nodes(m) &&
	    (model_nodes(m)[vn->model_node].traits & NODE_TRAIT_ALIAS_ID))
		return -(int64_t)vn->id;
	return vn->id;
}

json_t *present_rows_node_json(const struct present_rows *r, uint32_t node)
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
		json_array_append_new(values, present_rows_value(r, i, node, &v)
						      ? present_json_number(v)
						      : json_null());
	}
	/* MODEL_NONE: a node without an id of its own (model.h
	 * ctx_id_base) */
	json_t *obj = json_pack(
		"{s:o, s:o, s:I, s:s, s:o, s:o, s:o, s:o, s:o}", "id",
		vn.id == MODEL_NONE ? json_null()
				    : json_integer(row_id(r, &vn)),
		"parent", jparent, "depth", (json_int_t)vn.depth, "kind",
		present_kind_name(vn.kind), "name",
		present_json_text(label ? label : ""), "file",
		present_json_text(p.file), "line",
		p.line ? json_integer(p.line) : json_null(), "module",
		present_json_text(p.module), "values", values);
	free(label);
	return obj ? obj : json_null();
}

/* "%" PRId64 of `v` (fprintf's parsing was a tenth of the JSON report). */
static void put_int(FILE *out, int64_t v)
{
	char tmp[21];
	size_t k = 0;
	if (v < 0)
		tmp[k++] = '-';
	k += decimal_u64(v < 0 ? -(uint64_t)v : (uint64_t)v, tmp + k);
	fwrite(tmp, 1, k, out);
}

/* present_rows_node_json's object written as present_put_json writes it
 * (the same bytes), without building it: the full JSON report's rows. */
static void put_node_json(const struct present_rows *r, uint32_t node,
			  bool first)
{
	FILE *out = r->out;
	struct view_node vn;
	fputs(first ? "\n" : ",\n", out);
	if (!view_node_get(r->view, node, &vn)) {
		fputs("null", out);
		return;
	}
	const struct model *m = r->model;
	struct view_node parent;
	fputs("{\"id\":", out);
	if (vn.id == MODEL_NONE)
		fputs("null", out);
	else
		put_int(out, row_id(r, &vn));
	fputs(",\"parent\":", out);
	if (vn.parent != MODEL_NONE &&
	    view_node_get(r->view, vn.parent, &parent) &&
	    parent.id != MODEL_NONE)
		put_int(out, row_id(r, &parent));
	else
		fputs("null", out);
	fputs(",\"depth\":", out);
	put_int(out, vn.depth);
	fputs(",\"kind\":", out);
	present_put_json_string(out, present_kind_name(vn.kind));
	char *label = view_node_label(r->view, node);
	struct row_place p = row_place(m, vn.model_node);
	fputs(",\"name\":", out);
	present_put_json_string(out, label ? label : "");
	free(label);
	fputs(",\"file\":", out);
	present_put_json_string(out, p.file);
	fputs(",\"line\":", out);
	if (p.line)
		put_int(out, p.line);
	else
		fputs("null", out);
	fputs(",\"module\":", out);
	present_put_json_string(out, p.module);
	fputs(",\"values\":[", out);
	bool any = false;
	for (size_t i = 0; i < r->n_columns; i++) {
		double v;
		char buf[40];
		size_t n = 0;
		if (present_rows_value(r, i, node, &v)) {
			/* JSON has no number for NaN or an infinity: the
			 * strings of present_json_number, so that the array
			 * keeps one value per column */
			n = present_json_real_text(v, buf, sizeof(buf));
			if (n == 0) {
				const char *s = isnan(v) ? "\"nan\""
					       : v > 0	 ? "\"inf\""
							 : "\"-inf\"";
				n = strlen(s);
				memcpy(buf, s, n);
			}
		} else {
			memcpy(buf, "null", n = 4);
		}
		if (any)
			fputc(',', out);
		fwrite(buf, 1, n, out);
		any = true;
	}
	fputs("]}", out);
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

/* Whether selected column `i` shows a percentage in text. */
static bool shows_percent(const struct present_rows *r, size_t i)
{
	return !is_derived(r, i) &&
	       (model_columns(r->model)[r->columns[i]].render & RENDER_PERCENT) &&
	       r->has_total[i];
}

void present_rows_header(const struct present_rows *r)
{
	const struct model *m = r->model;
	if (r->format == PRESENT_FORMAT_CSV) {
		fputs("id,parent,depth,kind,name,file,line,module", r->out);
		for (size_t i = 0; i < r->n_columns; i++) {
			char *t = title_of(r, i);
			fputc(',', r->out);
			present_put_csv(r->out, t ? t : "");
			free(t);
		}
		fputc('\n', r->out);
		return;
	}
	for (size_t i = 0; i < r->n_columns; i++) {
		bool pct = shows_percent(r, i);
		int width = r->value_width[i] +
			    (pct ? r->percent_width[i] + 2 : 0);
		char *t = is_derived(r, i)
				  ? title_of(r, i)
				  : present_column_title_fit(m, r->columns[i],
							     (size_t)width);
		char *safe = sanitize_text(t ? t : "", SANITIZE_TERMINAL);
		put_fitted(r->out, safe ? safe : "", (size_t)width);
		fputs("  ", r->out);
		free(safe);
		free(t);
	}
	fputs("Name\n", r->out);
}

/* The text of selected column `i`'s value `v`: the column's own format, a
 * derived column's %.2e.  Malloc'd; NULL when out of memory. */
static char *value_text(const struct present_rows *r, size_t i, double v)
{
	if (!is_derived(r, i))
		return present_value_raw(r->model, r->columns[i], v);
	char *s = NULL;
	return asprintf(&s, "%.2e", v) < 0 ? NULL : s;
}

/* Characters (not bytes) of UTF-8 text `s`. */
static int text_chars(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* `s` right-aligned in `width` characters (never cut). */
static void put_padded(FILE *out, const char *s, int width)
{
	for (int i = text_chars(s); i < width; i++)
		fputc(' ', out);
	fputs(s, out);
}

void present_rows_measure(const struct present_rows *r, uint32_t node)
{
	for (size_t i = 0; i < r->n_columns; i++) {
		double v;
		if (!present_rows_value(r, i, node, &v))
			continue;
		char *text = value_text(r, i, v);
		int w = text ? text_chars(text) : 1;
		free(text);
		if (w > r->value_width[i])
			r->value_width[i] = w;
		double share;
		if (shows_percent(r, i) &&
		    present_share(v, r->totals[i], &share)) {
			char pct[64];
			int pw = snprintf(pct, sizeof(pct), "%.1f", share);
			if (pw > r->percent_width[i])
				r->percent_width[i] = pw;
		}
	}
}

void present_rows_print(const struct present_rows *r, uint32_t node)
{
	struct view_node vn;
	if (!view_node_get(r->view, node, &vn))
		return;
	const struct model *m = r->model;
	char *label = view_node_label(r->view, node);
	if (r->format == PRESENT_FORMAT_CSV) {
		struct view_node parent;
		if (vn.id != MODEL_NONE)
			fprintf(r->out, "%" PRId64, row_id(r, &vn));
		fputc(',', r->out);
		if (vn.parent != MODEL_NONE &&
		    view_node_get(r->view, vn.parent, &parent) &&
		    parent.id != MODEL_NONE)
			fprintf(r->out, "%" PRId64, row_id(r, &parent));
		fprintf(r->out, ",%u,%s,", vn.depth, present_kind_name(vn.kind));
		present_put_csv(r->out, label ? label : "");
		struct row_place p = row_place(m, vn.model_node);
		fputc(',', r->out);
		present_put_csv(r->out, p.file ? p.file : "");
		fputc(',', r->out);
		if (p.line)
			fprintf(r->out, "%u", p.line);
		fputc(',', r->out);
		present_put_csv(r->out, p.module ? p.module : "");
		for (size_t i = 0; i < r->n_columns; i++) {
			double v;
			fputc(',', r->out);
			if (present_rows_value(r, i, node, &v))
				present_put_number(r->out, v);
		}
		fputc('\n', r->out);
		free(label);
		return;
	}
	for (size_t i = 0; i < r->n_columns; i++) {
		bool pct = shows_percent(r, i);
		double v;
		int vw = r->value_width[i], pw = r->percent_width[i];
		double share;
		if (present_rows_value(r, i, node, &v)) {
			char *text = value_text(r, i, v);
			put_padded(r->out, text ? text : "?", vw);
			free(text);
			if (pct && present_share(v, r->totals[i], &share))
				fprintf(r->out, " %*.1f%%", pw, share);
			else if (pct)
				fprintf(r->out, " %*s", pw + 1, "");
		} else {
			fprintf(r->out, "%*s", vw, "");
			if (pct)
				fprintf(r->out, " %*s", pw + 1, "");
		}
		fputs("  ", r->out);
	}
	uint32_t indent = vn.depth > r->base_depth ? vn.depth - r->base_depth : 0;
	/* deep trees: the indentation stops growing (the output stays
	 * linear in the number of rows) and the row shows its depth */
	for (uint32_t i = 0; i < indent && i < PRESENT_ROWS_INDENT_MAX; i++)
		fputs("  ", r->out);
	if (indent > PRESENT_ROWS_INDENT_MAX)
		fprintf(r->out, "[%u] ", indent);
	present_put_text(r->out, label ? label : "");
	fputc('\n', r->out);
	free(label);
}

void present_rows_json_open(const struct present_rows *r, const char *format)
{
	json_t *cj = present_rows_columns_json(r);
	fputs("{\"format\":", r->out);
	json_t *fj = present_json_text(format);
	if (!present_put_json(r->out, fj, JSON_ENCODE_ANY))
		fputs("null", r->out);
	json_decref(fj);
	fprintf(r->out, ",\"view\":\"%s\",\"columns\":",
		view_kind_name(view_kind_of(r->view)));
	if (!cj || !present_put_json(r->out, cj, JSON_COMPACT))
		fputs("[]", r->out);
	fputs(",\"nodes\":[", r->out);
	json_decref(cj);
}

void present_rows_json_node(const struct present_rows *r, const json_t *j,
			    bool first)
{
	fputs(first ? "\n" : ",\n", r->out);
	if (!present_put_json(r->out, j, JSON_COMPACT | JSON_REAL_PRECISION(17)))
		fputs("null", r->out);
}

void present_rows_json_close(const struct present_rows *r)
{
	fputs("\n]}\n", r->out);
}

void present_rows_put(const struct present_rows *r, uint32_t node, bool first)
{
	if (r->format != PRESENT_FORMAT_JSON) {
		present_rows_print(r, node);
		return;
	}
	put_node_json(r, node, first);
}

enum status present_rows_walk(struct present_rows *r,
			      const struct present_walk *w, struct error *err)
{
	uint32_t sort_column = r->n_columns ? r->columns[0] : MODEL_NONE;
	bool have_total = r->n_columns && r->has_total[0];
	double total = have_total ? r->totals[0] : 0;
	double threshold = have_total ? total * w->min_percent / 100.0 : 0;
	enum status st = STATUS_OK;
	bool first = true;
	size_t n = 0, cap = 1;
	uint32_t *stack = malloc(sizeof(*stack));
	if (!stack)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	stack[n++] = view_root(r->view);
	while (n > 0) {
		uint32_t node = stack[--n];
		struct view_node vn;
		if (!view_node_get(r->view, node, &vn))
			continue;
		if (w->measure) {
			present_rows_measure(r, node);
		} else if (r->format == PRESENT_FORMAT_JSON && !w->row) {
			put_node_json(r, node, first);
		} else if (r->format == PRESENT_FORMAT_JSON) {
			json_t *j = present_rows_node_json(r, node);
			if (w->row)
				w->row(w->ctx, node, j);
			present_rows_json_node(r, j, first);
			json_decref(j);
		} else {
			if (w->row)
				w->row(w->ctx, node, NULL);
			present_rows_print(r, node);
		}
		first = false;
		if (w->depth != UINT32_MAX && vn.depth >= w->depth)
			continue;
		uint32_t *kids = NULL;
		size_t nk = 0;
		st = view_children(r->view, node, sort_column, false, &kids,
				   &nk, err);
		if (st != STATUS_OK)
			break;
		/* children are sorted descending: cut at the threshold */
		size_t keep = nk;
		if (w->min_percent > 0 && have_total) {
			for (keep = 0; keep < nk; keep++) {
				double v;
				if (!view_value(r->view, kids[keep],
						sort_column, &v) ||
				    v < threshold)
					break;
			}
		}
		bool pushed = array_push_reversed_u32(&stack, &n, &cap, kids,
						      keep);
		free(kids);
		if (!pushed) {
			st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
			break;
		}
	}
	free(stack);
	return st;
}
