/* Tests of the bottom-up (callers) view: degenerate models first, a
 * hand-built recursive model, then random models whose whole bottom-up tree
 * is compared with a brute-force recomputation from the definitions (for
 * each row's identity path, walk every node and its ancestors). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "views/view.h"
#include "view_assert.h"
#include "view_fixture.h"

struct spec_node {
	uint32_t parent;
	uint8_t kind;
	uint32_t function; /* MODEL_NONE: named by `name` */
	const char *name;
	double incl, excl; /* < 0: absent */
};

static struct model *build(const struct spec_node *spec, uint32_t n,
			   uint32_t n_funcs, bool values)
{
	struct model_builder *b = fx_builder("bu.db");
	for (uint32_t f = 0; f < n_funcs; f++) {
		char name[16];
		int len = snprintf(name, sizeof(name), "f%u", (unsigned)f);
		struct model_function fn = {
			.name = model_builder_intern(b, name, (size_t)len),
		};
		model_builder_add_function(b, &fn);
	}
	struct fx_values *fv = fx_values_new(n + 10);
	for (uint32_t i = 0; i < n; i++) {
		const char *name = spec[i].name ? spec[i].name : "";
		struct model_node nd = {
			.ctx_id = i + 1 + 3,
			.kind = spec[i].kind,
			.function = spec[i].function,
			.name = spec[i].function < n_funcs
					? model_builder_peek(b)
						  ->functions[spec[i].function]
						  .name
					: model_builder_intern(b, name,
							       strlen(name)),
			.file = model_builder_intern(b, "x.c", 3),
			.line = 10 + i,
		};
		fx_add_node(b, fv, spec[i].parent, &nd, i + 1, spec[i].incl,
			    spec[i].excl);
	}
	return fx_finish(b, fv, values);
}

static void test_degenerate(void **state)
{
	(void)state;
	/* entry and lines only: no function, an empty top level */
	const struct spec_node spec[] = {
		{.parent = 0, .kind = NODE_ENTRY, .function = MODEL_NONE,
		 .name = "main thread", .incl = 5, .excl = 0},
		{.parent = 1, .kind = NODE_LINE, .function = MODEL_NONE,
		 .incl = 5, .excl = 5},
	};
	struct model *m = build(spec, 2, 0, true);
	struct view *v = view_of(m, VIEW_BOTTOM_UP);
	size_t n = 9;
	uint32_t *kids = children(v, 0, 0, &n);
	assert_int_equal(n, 0);
	assert_null(kids);
	/* the root shows the model's root values: absent here */
	assert_value(v, 0, 0, -1);
	view_free(v);
	model_free(m);

	/* a function without values */
	const struct spec_node spec2[] = {
		{.parent = 0, .kind = NODE_FUNCTION, .function = 0,
		 .incl = -1, .excl = -1},
	};
	m = build(spec2, 1, 1, false);
	v = view_of(m, VIEW_BOTTOM_UP);
	uint32_t top = only_child(v, 0, "f0");
	assert_value(v, top, 0, -1);
	/* no frame above it: no callers */
	kids = children(v, top, 0, &n);
	assert_int_equal(n, 0);
	view_free(v);
	model_free(m);
}

/* main thread -> f0 -> line -> f1 -> f1 -> f2 ; f0 -> f2 (inlined) ;
 * anonymous "x" under the inner f1 */
static void test_recursion(void **state)
{
	(void)state;
	const struct spec_node spec[] = {
		/* 1 */ {.parent = 0, .kind = NODE_ENTRY, .function = MODEL_NONE,
			 .name = "main thread", .incl = 100, .excl = 0},
		/* 2 */ {.parent = 1, .kind = NODE_FUNCTION, .function = 0,
			 .incl = 100, .excl = 10},
		/* 3 */ {.parent = 2, .kind = NODE_LINE, .function = MODEL_NONE,
			 .incl = 70, .excl = 3},
		/* 4 */ {.parent = 3, .kind = NODE_FUNCTION, .function = 1,
			 .incl = 67, .excl = 20},
		/* 5 */ {.parent = 4, .kind = NODE_FUNCTION, .function = 1,
			 .incl = 47, .excl = 30},
		/* 6 */ {.parent = 5, .kind = NODE_FUNCTION, .function = 2,
			 .incl = 12, .excl = 12},
		/* 7 */ {.parent = 2, .kind = NODE_FUNCTION, .function = 2,
			 .incl = 20, .excl = -1},
		/* 8 */ {.parent = 5, .kind = NODE_FUNCTION,
			 .function = MODEL_NONE, .name = "x", .incl = 5,
			 .excl = 5},
	};
	struct model *m = build(spec, 8, 3, true);
	struct view *v = view_of(m, VIEW_BOTTOM_UP);
	/* inclusive: f0 100, f1 67 (outer only), f2 12 + 20, x 5 */
	uint32_t top[4];
	assert_children(v, 0, 0, 4, (const char *[]){"f0", "f1", "f2", "x"},
			top);
	assert_value(v, top[0], 0, 100);
	assert_value(v, top[1], 0, 67);
	assert_value(v, top[2], 0, 32);
	assert_value(v, top[3], 0, 5);
	assert_value(v, top[1], 1, 50);
	assert_value(v, top[2], 1, 12);
	assert_value(v, top[0], 2, 100); /* standard formula reads stat 0 */
	struct view_node vn;
	assert_true(view_node_get(v, top[1], &vn));
	assert_int_equal(vn.parent, 0);
	assert_int_equal(vn.depth, 1);
	assert_int_equal(vn.kind, NODE_FUNCTION);
	assert_int_equal(vn.model_node, 4);

	/* callers of f1: f0 (outer instance) and f1 (inner) */
	uint32_t f1 = top[1];
	uint32_t c[2];
	/* by exclusive value: f1 30, f0 20 */
	assert_children(v, f1, 1, 2, (const char *[]){"f1", "f0"}, c);
	assert_value(v, c[0], 1, 30);
	assert_value(v, c[1], 1, 20);
	assert_value(v, c[0], 0, -1); /* inner instance: not inclusive */
	assert_value(v, c[1], 0, 67);
	assert_true(view_node_get(v, c[0], &vn));
	assert_int_equal(vn.parent, f1);
	assert_int_equal(vn.depth, 2);
	assert_int_equal(vn.model_node, 4); /* the calling frame */
	/* [f1, f1] -> f0 -> main thread -> (nothing) */
	uint32_t f0 = only_child(v, c[0], "f0");
	assert_value(v, f0, 1, 30);
	uint32_t entry = only_child(v, f0, "main thread");
	assert_true(view_node_get(v, entry, &vn));
	assert_int_equal(vn.kind, NODE_ENTRY);
	assert_int_equal(vn.depth, 4);
	size_t n = 9;
	uint32_t *none = children(v, entry, 0, &n);
	assert_int_equal(n, 0);
	free(none);

	/* f2: called by f1 (12) and inlined in f0 (20, no exclusive) */
	assert_children(v, top[2], 0, 2, (const char *[]){"f0", "f1"}, c);
	assert_value(v, c[0], 0, 20);
	assert_value(v, c[0], 1, -1);
	view_free(v);
	model_free(m);
}

/* ---- brute force over random models --------------------------------- */

struct brute {
	const struct model *m;
	char **key; /* identity key per node, NULL when not a frame */
};

/* Instances of `path` (identity keys, path[0] the function): sums and the
 * set of caller identities, from the definitions. */
static void brute_row(const struct brute *br, char **path, size_t depth,
		      uint32_t col, bool *present, double *sum,
		      char ***callers, size_t *n_callers)
{
	const struct model *m = br->m;
	bool inclusive = m->columns[col].kind == COLUMN_INCLUSIVE;
	uint32_t stat = fx_standard_stat(col);
	*present = false;
	*sum = 0;
	*n_callers = 0;
	*callers = NULL;
	for (uint32_t x = 1; x < m->n_nodes; x++) {
		if (!br->key[x] || m->nodes[x].kind == NODE_ENTRY ||
		    strcmp(br->key[x], path[0]) != 0)
			continue;
		uint32_t cur = x;
		bool ok = true;
		for (size_t d = 1; d < depth && ok; d++) {
			cur = fx_frame_above(m, cur);
			ok = cur != MODEL_NONE &&
			     strcmp(br->key[cur], path[d]) == 0;
		}
		if (!ok)
			continue;
		uint32_t up = fx_frame_above(m, cur);
		if (up != MODEL_NONE) {
			bool seen = false;
			for (size_t i = 0; i < *n_callers; i++)
				seen |= strcmp((*callers)[i], br->key[up]) == 0;
			if (!seen) {
				*callers = realloc(*callers,
						   (*n_callers + 1) *
							   sizeof(char *));
				(*callers)[(*n_callers)++] = br->key[up];
			}
		}
		if (inclusive) {
			bool nested = false;
			for (uint32_t a = m->nodes[x].parent; a != MODEL_NONE;
			     a = m->nodes[a].parent)
				nested |= br->key[a] &&
					  strcmp(br->key[a], path[0]) == 0;
			if (nested)
				continue;
		}
		const double *v = fx_value_ptr(m, x, stat);
		if (v) {
			*present = true;
			*sum += *v;
		}
	}
}

static void check_random(uint64_t seed, uint32_t n_nodes)
{
	struct model *m = fx_need(fx_random_model(n_nodes, 8, seed, false));
	assert_non_null(m);
	struct brute br = {.m = m};
	br.key = calloc(m->n_nodes, sizeof(char *));
	for (uint32_t i = 1; i < m->n_nodes; i++)
		if (fx_is_frame(m->nodes[i].kind))
			br.key[i] = fx_ident_key(m, i);
	struct view *v = view_of(m, VIEW_BOTTOM_UP);

	/* top level: one row per identity of a non-entry frame */
	size_t n_top = 0;
	uint32_t *top = children(v, 0, (uint32_t)(seed % 3), &n_top);
	size_t want_top = 0;
	for (uint32_t i = 1; i < m->n_nodes; i++) {
		if (!br.key[i] || m->nodes[i].kind == NODE_ENTRY)
			continue;
		bool first = true;
		for (uint32_t j = 1; j < i && first; j++)
			first = !(br.key[j] && m->nodes[j].kind != NODE_ENTRY &&
				  strcmp(br.key[j], br.key[i]) == 0);
		want_top += first;
	}
	assert_int_equal(n_top, want_top);
	free(top);

	/* breadth-first over the whole tree, every row checked */
	uint32_t *queue = malloc(sizeof(uint32_t));
	size_t q_len = 1, q_head = 0, checked = 0;
	queue[0] = 0;
	while (q_head < q_len && checked < 4000) {
		uint32_t row = queue[q_head++];
		size_t n = 0;
		uint32_t *kids = children(v, row, (uint32_t)(row % 3), &n);
		struct view_node vn;
		assert_true(view_node_get(v, row, &vn));
		/* the identity path of this row, callee first */
		size_t depth = vn.depth;
		char **path = calloc(depth + 1, sizeof(char *));
		for (uint32_t r = row, d = (uint32_t)depth; d > 0; d--) {
			struct view_node rn;
			assert_true(view_node_get(v, r, &rn));
			assert_int_equal(rn.depth, d);
			path[d - 1] = br.key[rn.model_node];
			assert_non_null(path[d - 1]);
			r = rn.parent;
		}
		/* no two siblings stand for the same identity */
		for (size_t k = 0; k < n; k++) {
			struct view_node kn, ln;
			assert_true(view_node_get(v, kids[k], &kn));
			assert_int_equal(kn.parent, row);
			for (size_t l = 0; l < k; l++) {
				assert_true(view_node_get(v, kids[l], &ln));
				assert_string_not_equal(br.key[kn.model_node],
							br.key[ln.model_node]);
			}
		}
		if (depth > 0) {
			for (uint32_t col = 0; col < 3; col++) {
				bool present;
				double sum, x = 0;
				char **callers;
				size_t n_callers;
				brute_row(&br, path, depth, col, &present, &sum,
					  &callers, &n_callers);
				assert_int_equal(view_value(v, row, col, &x),
						 present);
				if (present)
					assert_true(x == sum);
				assert_int_equal(n, n_callers);
				for (size_t k = 0; k < n; k++) {
					struct view_node kn;
					assert_true(
						view_node_get(v, kids[k], &kn));
					const char *key = br.key[kn.model_node];
					bool found = false;
					for (size_t i = 0; i < n_callers; i++)
						found |= strcmp(callers[i],
								key) == 0;
					assert_true(found);
				}
				free(callers);
			}
		}
		free(path);
		queue = realloc(queue, (q_len + n) * sizeof(uint32_t));
		if (n)
			memcpy(queue + q_len, kids, n * sizeof(uint32_t));
		q_len += n;
		free(kids);
		checked++;
	}
	assert_true(checked > 10);
	free(queue);
	view_free(v);
	for (uint32_t i = 0; i < m->n_nodes; i++)
		free(br.key[i]);
	free(br.key);
	model_free(m);
}

static void test_random(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++)
		check_random(seed, seed < 4 ? 60 : 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
