/* Tests of the presentation layer (src/present/): the node path (empty
 * model, node 0, out of range, a 10,000-deep chain in linear time, a
 * view's path cut to its end), derived columns (evaluation, absent
 * leaves, titles for numbers and back, a title the model lacks), the row
 * writer (CSV, JSON columns of a derived column, text columns as wide as
 * their widest cell) and the safe writers.  Expected values come from the
 * fixture's value array, never from the code under test. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "present/present_derived.h"
#include "present/present_path.h"
#include "present/present_rows.h"
#include "present/present_write.h"
#include "views/view.h"
#include "view_assert.h"
#include "view_fixture.h"

/* A model of the fixture's columns: root, then a chain of `depth` nodes
 * named n1, n2, ... (ctx ids 1..depth), TIME (I) = 1000 * i + 1 at node i
 * when `values`, the root 123456789012 (11 characters in %g). */
static struct model *chain(uint32_t depth, bool values)
{
	struct model_builder *b = fx_builder("chain.db");
	struct fx_values *fv = fx_values_new(depth + 1);
	fx_set(fv, 0, 0, 123456789012.0);
	for (uint32_t i = 1; i <= depth; i++) {
		char name[32];
		int n = snprintf(name, sizeof(name), "n%u", i);
		struct model_node nd = {
			.ctx_id = i,
			.kind = NODE_FUNCTION,
			.name = model_builder_intern(b, name, (size_t)n),
			.function = MODEL_NONE,
		};
		assert_int_equal(model_builder_add_node(b, i - 1, &nd), i);
		fx_set(fv, i, 0, 1000.0 * i + 1);
	}
	return fx_finish(b, fv, values);
}

/* What `write` wrote to a stream, as a heap string. */
struct captured {
	char *buf;
	size_t len;
};

static char *capture(void (*write)(FILE *f, void *ctx), void *ctx)
{
	struct captured *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	FILE *f = open_memstream(&c->buf, &c->len);
	assert_non_null(f);
	write(f, ctx);
	assert_int_equal(fclose(f), 0);
	char *out = c->buf;
	free(c);
	return out;
}

static void test_path_degenerate(void **state)
{
	(void)state;
	struct model *m = chain(0, false);
	size_t n = 99;
	char **parts = present_node_parts(m, 0, PRESENT_PATH_LABELS, &n);
	assert_non_null(parts);
	assert_int_equal(n, 0);
	present_path_free(parts, n);
	present_path_free(NULL, 0);
	const uint32_t nodes[] = {0, 1, 99, MODEL_NONE};
	for (size_t i = 0; i < 4; i++) {
		char *p = present_node_path(m, nodes[i], " > ",
					    PRESENT_PATH_LABELS);
		assert_string_equal(p, "");
		free(p);
	}
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	char *p = present_view_path(v, view_root(v), " > ", 0);
	assert_string_equal(p, "");
	free(p);
	p = present_view_path(v, 12345, " > ", 0); /* no such row */
	assert_string_equal(p, "");
	free(p);
	view_free(v);
	model_free(m);
}

static void test_path_deep(void **state)
{
	(void)state;
	enum { DEPTH = 10000 };
	struct model *m = chain(DEPTH, false);
	size_t n = 0;
	char **parts = present_node_parts(m, DEPTH, PRESENT_PATH_NAMES, &n);
	assert_non_null(parts);
	assert_int_equal(n, DEPTH);
	assert_string_equal(parts[0], "n1");
	assert_string_equal(parts[DEPTH - 1], "n10000");
	present_path_free(parts, n);
	char *p = present_node_path(m, 3, "->", PRESENT_PATH_NAMES);
	assert_string_equal(p, "n1->n2->n3");
	free(p);
	p = present_node_path(m, DEPTH, " > ", PRESENT_PATH_LABELS);
	/* "n1" .. "n10000": digits 9*1 + 90*2 + 900*3 + 9000*4 + 5, plus
	 * one 'n' each, plus 3 per separator */
	size_t digits = 9 * 1 + 90 * 2 + 900 * 3 + 9000 * 4 + 5;
	assert_int_equal(strlen(p), digits + DEPTH + 3 * (DEPTH - 1));
	assert_memory_equal(p, "n1 > n2 > ", 10);
	assert_string_equal(p + strlen(p) - 14, "n9999 > n10000");
	free(p);
	/* the view's path, cut to the nearest ancestors */
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	uint32_t row = view_root(v);
	for (uint32_t d = 0; d < 20; d++) { /* down to n20 */
		size_t nk = 0;
		uint32_t *kids = children(v, row, 0, &nk);
		assert_int_equal(nk, 1);
		row = kids[0];
		free(kids);
	}
	p = present_view_path(v, row, "/", 0);
	assert_memory_equal(p, "n1/n2/", 6);
	assert_string_equal(p + strlen(p) - 7, "n19/n20");
	free(p);
	p = present_view_path(v, row, "/", 10); /* about 10 bytes: n18/n19/n20 */
	assert_string_equal(p, "n18/n19/n20");
	free(p);
	view_free(v);
	model_free(m);
}

static struct derived_column derived(const char *name, const char *text)
{
	struct derived_column d = {strdup(name), strdup(text), NULL};
	struct error err = {0};
	assert_int_equal(formula_parse(text, &d.expr, &err), STATUS_OK);
	return d;
}

static void derived_free(struct derived_column *d)
{
	free(d->name);
	free(d->text);
	formula_free(d->expr);
}

static void test_derived_values(void **state)
{
	(void)state;
	struct model *m = chain(3, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct derived_column d[2] = {derived("twice", "2 * $1"),
				      derived("far", "$9 + 1")};
	uint32_t nc = m->n_columns;
	double x = 0;
	/* the root: 2 * 123456789012 */
	assert_true(present_column_value(v, d, 2, nc, view_root(v), &x));
	assert_true(x == 2 * 123456789012.0);
	/* a model column reads as the view does */
	assert_true(present_column_value(v, d, 2, 0, view_root(v), &x));
	assert_true(x == 123456789012.0);
	/* no leaf with a value: absent; beyond the derived columns: absent */
	assert_false(present_column_value(v, d, 2, nc + 1, view_root(v), &x));
	assert_false(present_column_value(v, d, 2, nc + 2, view_root(v), &x));
	assert_false(present_column_value(v, NULL, 0, nc, view_root(v), &x));
	/* column 1 (exclusive) has no values: absent there too */
	struct derived_column e = derived("e", "$2 * 3");
	assert_false(present_column_value(v, &e, 1, nc, view_root(v), &x));
	derived_free(&e);
	derived_free(&d[0]);
	derived_free(&d[1]);
	view_free(v);
	model_free(m);
}

static void test_derived_names(void **state)
{
	(void)state;
	struct model *m = chain(0, false);
	char *missing = (char *)1;
	char *s = present_derived_named(m, "");
	assert_string_equal(s, "");
	free(s);
	s = present_derived_numbered(m, "", &missing);
	assert_string_equal(s, "");
	assert_null(missing);
	free(s);
	/* numbers become titles; $9 is no column and stays */
	s = present_derived_named(m, "$1 + $2/$3 * $9");
	assert_string_equal(s, "$\"TIME (I)\" + $\"TIME (E)\"/$\"CUSTOM (I)\" "
			       "* $9");
	/* back to numbers: $9 names no column, refused and named */
	char *back = present_derived_numbered(m, s, &missing);
	assert_null(back);
	assert_string_equal(missing, "$9");
	free(missing);
	char *known = present_derived_named(m, "$1 + $2/$3");
	back = present_derived_numbered(m, known, &missing);
	assert_string_equal(back, "$1 + $2/$3");
	assert_null(missing);
	free(back);
	free(known);
	/* a title stays a title */
	char *again = present_derived_named(m, s);
	assert_string_equal(again, s);
	free(again);
	free(s);
	/* a title the model lacks: NULL, and its name (escapes read) */
	s = present_derived_numbered(m, "2 * $\"CPU \\\"x\\\\y\\\" (I)\"",
				     &missing);
	assert_null(s);
	assert_string_equal(missing, "CPU \"x\\y\" (I)");
	free(missing);
	/* an unterminated title is left for formula_parse to refuse */
	s = present_derived_numbered(m, "$\"TIME (I)", &missing);
	assert_string_equal(s, "$\"TIME (I)");
	assert_null(missing);
	free(s);
	model_free(m);
}

struct rows_run {
	struct model *m;
	struct view *v;
	const uint32_t *cols;
	size_t n;
	const struct derived_column *d;
	size_t nd;
	enum present_format format;
	bool measure;
};

static void write_rows(FILE *f, void *ctx)
{
	struct rows_run *r = ctx;
	struct present_rows rows;
	assert_true(present_rows_init(&rows, r->v, r->cols, r->n, r->d, r->nd,
				      r->format, f));
	struct present_walk w = {.depth = UINT32_MAX, .measure = true};
	struct error err = {0};
	if (r->measure)
		assert_int_equal(present_rows_walk(&rows, &w, &err), STATUS_OK);
	w.measure = false;
	if (r->format == PRESENT_FORMAT_JSON)
		present_rows_json_open(&rows, "fixture");
	else
		present_rows_header(&rows);
	assert_int_equal(present_rows_walk(&rows, &w, &err), STATUS_OK);
	if (r->format == PRESENT_FORMAT_JSON)
		present_rows_json_close(&rows);
	present_rows_fini(&rows);
}

static void test_rows(void **state)
{
	(void)state;
	struct model *m = chain(2, true);
	struct view *v = view_of(m, VIEW_TOP_DOWN);
	struct derived_column d = derived("twice", "2 * $1");
	uint32_t cols[] = {0, m->n_columns};
	struct rows_run r = {m, v, cols, 2, &d, 1, PRESENT_FORMAT_CSV, false};
	char *out = capture(write_rows, &r);
	assert_string_equal(
		out, "id,parent,depth,kind,name,file,line,module,TIME (I),twice\n"
		     "0,,0,root,<program root>,,,,123456789012,246913578024\n"
		     "1,0,1,function,n1,,,,1001,2002\n"
		     "2,1,2,function,n2,,,,2001,4002\n");
	free(out);
	/* JSON: the derived column with its kind and formula */
	r.format = PRESENT_FORMAT_JSON;
	out = capture(write_rows, &r);
	assert_non_null(strstr(out, "{\"name\":\"twice\",\"metric\":\"twice\","
				    "\"kind\":\"derived\",\"variant\":null,"
				    "\"source\":null,\"formula\":\"2 * $1\"}"));
	assert_non_null(strstr(out, "\"values\":[2001.0,4002.0]"));
	json_error_t jerr;
	json_t *doc = json_loads(out, 0, &jerr);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "nodes")), 3);
	json_decref(doc);
	free(out);
	/* text: the root's 1.23457e+11 is 11 characters, one more than the
	 * column's default: the column widens, every row's cell ends where
	 * the title ends and every name starts under "Name" */
	r.format = PRESENT_FORMAT_TEXT;
	r.measure = true;
	r.n = 1;
	out = capture(write_rows, &r);
	assert_string_equal(out, "   TIME (I)  Name\n"
				 "1.23457e+11  <program root>\n"
				 "       1001    n1\n"
				 "       2001      n2\n");
	free(out);
	/* without measuring the cell is wider than its column (what report
	 * printed before) */
	r.measure = false;
	out = capture(write_rows, &r);
	assert_non_null(strstr(out, "\n1.23457e+11  <program root>\n"));
	assert_memory_equal(out, "  TIME (I)  Name\n", 17);
	free(out);
	derived_free(&d);
	view_free(v);
	model_free(m);
}

static void write_fields(FILE *f, void *ctx)
{
	(void)ctx;
	present_put_csv(f, "plain");
	fputc('|', f);
	present_put_csv(f, "a,\"b\"");
	fputc('|', f);
	present_put_csv(f, " lead");
	fputc('|', f);
	present_put_text(f, "esc\x1b[2Jx");
}

static void test_write(void **state)
{
	(void)state;
	char *out = capture(write_fields, NULL);
	assert_string_equal(out, "plain|\"a,\"\"b\"\"\"|\" lead\"|esc\\x1b[2Jx");
	free(out);
	json_t *j = present_json_number(NAN);
	assert_string_equal(json_string_value(j), "nan");
	json_decref(j);
	j = present_json_number(-INFINITY);
	assert_string_equal(json_string_value(j), "-inf");
	json_decref(j);
	j = present_json_text(NULL);
	assert_true(json_is_null(j));
	json_decref(j);
	char buf[32];
	present_format_bytes(buf, sizeof(buf), 512);
	assert_string_equal(buf, "512 B");
	present_format_bytes(buf, sizeof(buf), 1536);
	assert_string_equal(buf, "1.5 KiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_degenerate),
		cmocka_unit_test(test_path_deep),
		cmocka_unit_test(test_derived_values),
		cmocka_unit_test(test_derived_names),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
