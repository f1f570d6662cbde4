/* Tests of the flat view: degenerate models first, a hand-built recursive
 * model, then random models whose whole flat tree is compared with a
 * brute-force recomputation: every context's row paths built as strings
 * from the definitions, values summed over the contexts of each path with
 * an ancestor walk for the recursion rule. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/view.h"
#include "view_assert.h"
#include "view_fixture.h"

static void test_degenerate(void **state)
{
	(void)state;
	struct model_builder *b = fx_builder("flat.db");
	struct fx_values *fv = fx_values_new(10);
	fx_set(fv, 0, 0, 9);
	fx_set(fv, 0, 1, 2);
	fx_set(fv, 3, 0, 4);
	struct model_node line = {
		.ctx_id = 3,
		.kind = NODE_LINE,
		.function = MODEL_NONE,
		.file = model_builder_intern(b, "a.c", 3),
		.line = 3,
	};
	assert_int_equal(model_builder_add_node(b, 0, &line), 1);
	struct model *m = fx_finish(b, fv, true);
	struct view *v = view_of(m, VIEW_FLAT);
	/* before the first request only the root exists */
	struct view_node vn;
	assert_false(view_node_get(v, 1, &vn));
	assert_value(v, 0, 0, 9);
	/* a statement outside any function: under a row for the root */
	uint32_t mod = only_child(v, 0, "<unknown module>");
	assert_true(view_node_get(v, mod, &vn));
	assert_int_equal(vn.kind, VIEW_ROW_MODULE);
	assert_int_equal(vn.depth, 1);
	uint32_t file = only_child(v, mod, "<unknown file>");
	assert_true(view_node_get(v, file, &vn));
	assert_int_equal(vn.kind, VIEW_ROW_FILE);
	assert_int_equal(vn.parent, mod);
	uint32_t fn = only_child(v, file, "<program root>");
	uint32_t ln = only_child(v, fn, "a.c:3");
	assert_true(view_node_get(v, ln, &vn));
	assert_int_equal(vn.kind, NODE_LINE);
	assert_int_equal(vn.model_node, 1);
	assert_int_equal(vn.depth, 4);
	assert_value(v, fn, 0, 9);
	assert_value(v, fn, 1, 2);
	assert_value(v, mod, 0, 9);
	assert_value(v, ln, 0, 4);
	assert_value(v, ln, 1, -1);
	view_free(v);
	model_free(m);
}

/* main thread -> f0 -> loop a.c:4 -> line a.c:5 -> f0 -> line a.c:5
 *                   \-> f1 (other module) -> instruction */
static void test_recursion(void **state)
{
	(void)state;
	struct model_builder *b = fx_builder("flat.db");
	struct model_function fns[2] = {
		{.name = model_builder_intern(b, "f0", 2),
		 .module = model_builder_intern(b, "/bin/app", 8),
		 .file = model_builder_intern(b, "a.c", 3)},
		{.name = model_builder_intern(b, "f1", 2),
		 .module = model_builder_intern(b, "/lib/x.so", 9)},
	};
	model_builder_add_function(b, &fns[0]);
	model_builder_add_function(b, &fns[1]);
	struct {
		uint32_t parent;
		uint8_t kind;
		uint32_t function;
		uint32_t line;
		double incl, excl;
	} spec[] = {
		/* 1 */ {0, NODE_ENTRY, MODEL_NONE, 0, 100, 0},
		/* 2 */ {1, NODE_FUNCTION, 0, 0, 100, 10},
		/* 3 */ {2, NODE_LOOP, MODEL_NONE, 4, 80, 0},
		/* 4 */ {3, NODE_LINE, MODEL_NONE, 5, 80, 6},
		/* 5 */ {4, NODE_FUNCTION, 0, 0, 74, 20},
		/* 6 */ {5, NODE_LINE, MODEL_NONE, 5, 54, 7},
		/* 7 */ {2, NODE_FUNCTION, 1, 0, 10, 10},
		/* 8 */ {7, NODE_INSTRUCTION, MODEL_NONE, 0, 10, 10},
	};
	struct fx_values *fv = fx_values_new(20);
	for (uint32_t i = 0; i < 8; i++) {
		struct model_node nd = {
			.ctx_id = i + 11,
			.kind = spec[i].kind,
			.function = spec[i].function,
			.name = spec[i].kind == NODE_ENTRY
					? model_builder_intern(b, "main thread",
							       11)
				: spec[i].function < 2
					? fns[spec[i].function].name
					: 0,
			.file = spec[i].line ? model_builder_intern(b, "a.c", 3)
					     : 0,
			.line = spec[i].line,
			.module = spec[i].kind == NODE_INSTRUCTION
					  ? model_builder_intern(b, "/lib/x.so",
								 9)
					  : 0,
			.offset = 0x40,
		};
		fx_add_node(b, fv, spec[i].parent, &nd, i + 1, spec[i].incl,
			    spec[i].excl);
	}
	struct model *m = fx_finish(b, fv, true);
	struct view *v = view_of(m, VIEW_FLAT);
	uint32_t mods[2];
	assert_children(v, 0, 0, 2, (const char *[]){"/bin/app", "/lib/x.so"},
			mods);
	/* /bin/app: only the outer f0 counts for inclusive */
	assert_value(v, mods[0], 0, 100);
	assert_value(v, mods[0], 1, 30);
	assert_value(v, mods[1], 0, 10);
	uint32_t file = only_child(v, mods[0], "a.c");
	assert_value(v, file, 0, 100);
	uint32_t f0 = only_child(v, file, "f0");
	assert_value(v, f0, 0, 100);
	assert_value(v, f0, 1, 30);
	/* the loop (in the outer f0) and the line in the inner f0 */
	uint32_t kids[2];
	assert_children(v, f0, 0, 2, (const char *[]){"loop at a.c:4", "a.c:5"},
			kids);
	assert_value(v, kids[0], 0, 80);
	assert_value(v, kids[1], 0, 54);
	assert_value(v, kids[1], 1, 7);
	uint32_t loop = kids[0];
	uint32_t line = only_child(v, loop, "a.c:5");
	assert_value(v, line, 0, 80);
	assert_value(v, line, 1, 6);
	uint32_t x_file = only_child(v, mods[1], "<unknown file>");
	uint32_t f1 = only_child(v, x_file, "f1");
	uint32_t ins = only_child(v, f1, "/lib/x.so@0x40");
	struct view_node vn;
	assert_true(view_node_get(v, ins, &vn));
	assert_int_equal(vn.kind, NODE_INSTRUCTION);
	assert_int_equal(vn.model_node, 8);
	view_free(v);
	model_free(m);
}

/* main thread -> f0 (a.c) -> g inlined (b.h), marked as already counted
 *                           \   in f0's exclusive value -> line b.h:2
 *                           \-> h inlined (a.c), not marked
 * All in /bin/app.  Module and file rows leave g out of exclusive sums;
 * g's own row and its line keep their values. */
static void test_inlined(void **state)
{
	(void)state;
	struct model_builder *b = fx_builder("flat.db");
	uint32_t app = model_builder_intern(b, "/bin/app", 8);
	uint32_t ac = model_builder_intern(b, "a.c", 3);
	uint32_t bh = model_builder_intern(b, "b.h", 3);
	struct model_function fns[3] = {
		{.name = model_builder_intern(b, "f0", 2), .module = app,
		 .file = ac},
		{.name = model_builder_intern(b, "g", 1), .module = app,
		 .file = bh},
		{.name = model_builder_intern(b, "h", 1), .module = app,
		 .file = ac},
	};
	for (uint32_t k = 0; k < 3; k++)
		model_builder_add_function(b, &fns[k]);
	struct {
		uint32_t parent;
		uint8_t kind, relation, traits;
		uint32_t function, file, line;
		double incl, excl;
	} spec[] = {
		/* 1 */ {0, NODE_ENTRY, RELATION_NONE, 0, MODEL_NONE, 0, 0,
			 20, 0},
		/* 2 */ {1, NODE_FUNCTION, RELATION_CALL, 0, 0, ac, 0, 20, 13},
		/* 3 */ {2, NODE_FUNCTION, RELATION_INLINED_CALL,
			 NODE_TRAIT_EXCL_IN_FRAME, 1, bh, 0, 4, 4},
		/* 4 */ {3, NODE_LINE, RELATION_LEXICAL, 0, MODEL_NONE, bh, 2,
			 4, 4},
		/* 5 */ {2, NODE_FUNCTION, RELATION_INLINED_CALL, 0, 2, ac, 0,
			 3, 3},
	};
	struct fx_values *fv = fx_values_new(20);
	for (uint32_t i = 0; i < 5; i++) {
		struct model_node nd = {
			.ctx_id = i + 1,
			.kind = spec[i].kind,
			.relation = spec[i].relation,
			.traits = spec[i].traits,
			.function = spec[i].function,
			.name = spec[i].function < 3
					? fns[spec[i].function].name
					: model_builder_intern(b, "main thread",
							       11),
			.file = spec[i].file,
			.line = spec[i].line,
		};
		fx_add_node(b, fv, spec[i].parent, &nd, i + 1, spec[i].incl,
			    spec[i].excl);
	}
	struct model *m = fx_finish(b, fv, true);
	struct view *v = view_of(m, VIEW_FLAT);
	uint32_t mod = only_child(v, 0, "/bin/app");
	/* f0's 13 already holds g's 4; h's 3 is not inside f0's */
	assert_value(v, mod, 0, 20);
	assert_value(v, mod, 1, 16);
	uint32_t files[2];
	assert_children(v, mod, 0, 2, (const char *[]){"a.c", "b.h"}, files);
	assert_value(v, files[0], 0, 20);
	assert_value(v, files[0], 1, 16);
	/* only inlined code: inclusive as usual, no exclusive of its own */
	assert_value(v, files[1], 0, 4);
	assert_value(v, files[1], 1, -1);
	uint32_t g = only_child(v, files[1], "g");
	assert_value(v, g, 0, 4);
	assert_value(v, g, 1, 4);
	uint32_t line = only_child(v, g, "b.h:2");
	assert_value(v, line, 1, 4);
	uint32_t fns_a[2];
	assert_children(v, files[0], 0, 2, (const char *[]){"f0", "h"}, fns_a);
	assert_value(v, fns_a[0], 1, 13);
	assert_value(v, fns_a[1], 1, 3);
	view_free(v);
	model_free(m);
}

/* ---- brute force over random models --------------------------------- */

struct brute {
	const struct model *m;
	char **own, **file, **module; /* row paths each context counts in */
};

static void frame_strings(const struct model *m, uint32_t y,
			  const char **module, const char **file)
{
	const struct model_node *nd = &m->nodes[y];
	uint32_t mod = nd->module, fil = nd->file;
	if (fx_is_function_like(nd->kind) && nd->function < m->n_functions) {
		const struct model_function *fn = &m->functions[nd->function];
		if (fn->module)
			mod = fn->module;
		if (fn->file)
			fil = fn->file;
	}
	*module = model_str(m, mod);
	*file = model_str(m, fil);
}

static void map_frame(struct brute *br, uint32_t y)
{
	const struct model *m = br->m;
	const char *mod, *fil;
	frame_strings(m, y, &mod, &fil);
	char *id = fx_ident_key(m, y);
	assert_true(asprintf(&br->module[y], "M%s", mod) > 0);
	assert_true(asprintf(&br->file[y], "M%s|F%s", mod, fil) > 0);
	assert_true(asprintf(&br->own[y], "M%s|F%s|N%s", mod, fil, id) > 0);
	free(id);
}

static void brute_build(struct brute *br)
{
	const struct model *m = br->m;
	br->own = calloc(m->n_nodes, sizeof(char *));
	br->file = calloc(m->n_nodes, sizeof(char *));
	br->module = calloc(m->n_nodes, sizeof(char *));
	for (uint32_t x = 1; x < m->n_nodes; x++) {
		const struct model_node *nd = &m->nodes[x];
		if (fx_is_function_like(nd->kind)) {
			map_frame(br, x);
			continue;
		}
		if (nd->kind == NODE_ENTRY)
			continue;
		uint32_t c = nd->parent;
		while (c != 0 && nd->kind != NODE_ROOT &&
		       !fx_is_frame(m->nodes[c].kind) &&
		       m->nodes[c].kind != NODE_LOOP)
			c = m->nodes[c].parent;
		if (!br->own[c])
			map_frame(br, c);
		int r;
		if (nd->kind == NODE_LOOP)
			r = asprintf(&br->own[x], "%s|L%s:%u", br->own[c],
				     model_str(m, nd->file), (unsigned)nd->line);
		else if (nd->kind == NODE_INSTRUCTION ||
			 nd->kind == NODE_ADDRESS)
			r = asprintf(&br->own[x], "%s|I%s@%llx", br->own[c],
				     model_str(m, nd->module),
				     (unsigned long long)nd->offset);
		else
			r = asprintf(&br->own[x], "%s|S%s:%u", br->own[c],
				     model_str(m, nd->file), (unsigned)nd->line);
		assert_true(r > 0);
	}
}

static bool counts_in(const struct brute *br, uint32_t x, const char *path)
{
	return (br->own[x] && strcmp(br->own[x], path) == 0) ||
	       (br->file[x] && strcmp(br->file[x], path) == 0) ||
	       (br->module[x] && strcmp(br->module[x], path) == 0);
}

static void brute_value(const struct brute *br, const char *path,
			uint32_t col, bool *present, double *sum)
{
	const struct model *m = br->m;
	bool inclusive = m->columns[col].kind == COLUMN_INCLUSIVE;
	*present = false;
	*sum = 0;
	for (uint32_t x = 0; x < m->n_nodes; x++) {
		if (!counts_in(br, x, path))
			continue;
		if (inclusive) {
			bool nested = false;
			for (uint32_t a = m->nodes[x].parent; a != MODEL_NONE;
			     a = m->nodes[a].parent)
				nested |= counts_in(br, a, path);
			if (nested)
				continue;
		}
		const double *v = fx_value_ptr(m, x, fx_standard_stat(col));
		if (v) {
			*present = true;
			*sum += *v;
		}
	}
}

/* The path of a view row, from its representative model nodes. */
static char *view_path(struct view *v, uint32_t row)
{
	const struct model *m = view_model(v);
	char *path = strdup("");
	while (row != 0) {
		struct view_node vn;
		assert_true(view_node_get(v, row, &vn));
		const struct model_node *nd = &m->nodes[vn.model_node];
		const char *mod, *fil;
		frame_strings(m, vn.model_node, &mod, &fil);
		char *part = NULL;
		int r;
		if (vn.kind == VIEW_ROW_MODULE)
			r = asprintf(&part, "M%s", mod);
		else if (vn.kind == VIEW_ROW_FILE)
			r = asprintf(&part, "F%s", fil);
		else if (nd->kind == NODE_LOOP)
			r = asprintf(&part, "L%s:%u", model_str(m, nd->file),
				     (unsigned)nd->line);
		else if (nd->kind == NODE_LINE)
			r = asprintf(&part, "S%s:%u", model_str(m, nd->file),
				     (unsigned)nd->line);
		else if (nd->kind == NODE_INSTRUCTION ||
			 nd->kind == NODE_ADDRESS)
			r = asprintf(&part, "I%s@%llx", model_str(m, nd->module),
				     (unsigned long long)nd->offset);
		else {
			char *id = fx_ident_key(m, vn.model_node);
			r = asprintf(&part, "N%s", id);
			free(id);
		}
		assert_true(r > 0);
		char *joined = NULL;
		assert_true(asprintf(&joined, "%s%s%s", part, *path ? "|" : "",
				     path) > 0);
		free(part);
		free(path);
		path = joined;
		row = vn.parent;
	}
	return path;
}

static void check_random(uint64_t seed, uint32_t n_nodes)
{
	struct model *m = fx_need(fx_random_model(n_nodes, 8, seed, false));
	assert_non_null(m);
	struct brute br = {.m = m};
	brute_build(&br);
	/* distinct brute-force paths */
	size_t n_paths = 0;
	for (uint32_t x = 0; x < m->n_nodes; x++) {
		char *mine[3] = {br.own[x], br.file[x], br.module[x]};
		for (int k = 0; k < 3; k++) {
			if (!mine[k])
				continue;
			bool first = true;
			for (uint32_t y = 0; y < x && first; y++)
				first = !counts_in(&br, y, mine[k]);
			n_paths += first;
		}
	}
	struct view *v = view_of(m, VIEW_FLAT);
	uint32_t *queue = calloc(1, sizeof(uint32_t));
	char **seen = NULL;
	size_t q_len = 1, q_head = 0;
	while (q_head < q_len) {
		uint32_t row = queue[q_head++];
		size_t n = 0;
		uint32_t *kids = children(v, row, (uint32_t)(row % 3), &n);
		if (row != 0) {
			char *path = view_path(v, row);
			for (size_t i = 0; i + 1 < q_head - 1; i++)
				assert_string_not_equal(seen[i], path);
			seen = realloc(seen, (q_head - 1) * sizeof(char *));
			seen[q_head - 2] = path;
			bool any = false;
			for (uint32_t x = 0; x < m->n_nodes && !any; x++)
				any = counts_in(&br, x, path);
			assert_true(any);
			for (uint32_t col = 0; col < 3; col++) {
				bool present;
				double sum, x = 0;
				brute_value(&br, path, col, &present, &sum);
				assert_int_equal(view_value(v, row, col, &x),
						 present);
				if (present)
					assert_true(x == sum);
			}
		}
		queue = realloc(queue, (q_len + n) * sizeof(uint32_t));
		if (n)
			memcpy(queue + q_len, kids, n * sizeof(uint32_t));
		q_len += n;
		free(kids);
	}
	/* every path is a row: as many rows as distinct paths */
	assert_int_equal(q_len - 1, n_paths);
	for (size_t i = 0; i + 1 < q_len; i++)
		free(seen[i]);
	free(seen);
	free(queue);
	view_free(v);
	for (uint32_t x = 0; x < m->n_nodes; x++) {
		free(br.own[x]);
		free(br.file[x]);
		free(br.module[x]);
	}
	free(br.own);
	free(br.file);
	free(br.module);
	model_free(m);
}

static void test_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++)
		check_random(seed, seed < 4 ? 40 : 250);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_inlined),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
