/* view_fixture: models for the view tests and the view benchmark, built
 * with the model builder and a fake value provider whose summary values
 * come from an array indexed by context id and stat id (looked up one at a
 * time, or all of one stat at once through summary_all).  Three stats and
 * three columns: 0 inclusive (stat 0), 1 exclusive (stat 1), 2 inclusive
 * whose custom formula reads stat 2 and whose standard formula reads stat 0
 * (so top-down and the aggregated views read different values).  Random
 * trees use a fixed-seed generator and contain recursion, inlined calls,
 * loops, lines, instructions, anonymous functions and entry points. */
#ifndef CALLSCOPE_TESTS_VIEW_FIXTURE_H
#define CALLSCOPE_TESTS_VIEW_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_internal.h" /* white-box: the providers */
#include "model/formula.h"

#define FX_STATS 3

struct fx_values {
	uint32_t n_ctx;  /* contexts ids 0 .. n_ctx - 1 */
	double *value;   /* [ctx * FX_STATS + stat] */
	uint8_t *present;
};

static bool fx_summary(void *impl, uint32_t ctx, uint32_t stat, double *out)
{
	const struct fx_values *fv = impl;
	if (ctx >= fv->n_ctx || stat >= FX_STATS ||
	    !fv->present[(size_t)ctx * FX_STATS + stat])
		return false;
	*out = fv->value[(size_t)ctx * FX_STATS + stat];
	return true;
}

/* Every value of one stat, in increasing context order. */
static enum status fx_summary_all(void *impl, uint32_t stat,
				  void (*emit)(void *ctx, uint32_t ctx_id,
					       double value),
				  void *ctx, struct error *err)
{
	const struct fx_values *fv = impl;
	(void)err;
	if (stat >= FX_STATS)
		return STATUS_OK;
	for (uint32_t c = 0; c < fv->n_ctx; c++)
		if (fv->present[(size_t)c * FX_STATS + stat])
			emit(ctx, c, fv->value[(size_t)c * FX_STATS + stat]);
	return STATUS_OK;
}

static void fx_close(void *impl)
{
	struct fx_values *fv = impl;
	free(fv->value);
	free(fv->present);
	free(fv);
}

static const struct value_ops fx_value_ops = {
	.summary = fx_summary,
	.per_profile = NULL,
	.close = fx_close,
	.summary_all = fx_summary_all,
};

static inline struct fx_values *fx_values_new(uint32_t n_ctx)
{
	struct fx_values *fv = calloc(1, sizeof(*fv));
	if (!fv)
		abort();
	fv->n_ctx = n_ctx;
	fv->value = calloc((size_t)n_ctx * FX_STATS + 1, sizeof(double));
	fv->present = calloc((size_t)n_ctx * FX_STATS + 1, 1);
	if (!fv->value || !fv->present)
		abort();
	return fv;
}

static inline void fx_set(struct fx_values *fv, uint32_t ctx, uint32_t stat,
			  double v)
{
	fv->value[(size_t)ctx * FX_STATS + stat] = v;
	fv->present[(size_t)ctx * FX_STATS + stat] = 1;
}

static inline void fx_add_columns(struct model_builder *b)
{
	static const char *const scope[FX_STATS] = {"execution", "function",
						      "point"};
	for (uint32_t s = 0; s < FX_STATS; s++) {
		struct model_stat st = {
			.metric = model_builder_intern(b, "TIME", 4),
			.scope = model_builder_intern(b, scope[s],
						      strlen(scope[s])),
			.formula = model_builder_intern(b, "$$", 2),
			.combine = COMBINE_SUM,
			.stat_id = s,
			.prop_id = MODEL_NONE,
		};
		model_builder_add_stat(b, &st);
	}
	for (uint32_t c = 0; c < 3; c++) {
		struct model_column col = {
			.name = strdup(c == 2 ? "CUSTOM" : "TIME"),
			.variant = strdup("Sum"),
			.format = strdup("%g"),
			.kind = c == 1 ? COLUMN_EXCLUSIVE : COLUMN_INCLUSIVE,
			.render = RENDER_NUMBER,
			.visible = true,
			.pair = MODEL_NONE,
			.parent = MODEL_NONE,
			.expr = formula_leaf(c),
			.expr_standard = c == 2 ? formula_leaf(0) : NULL,
		};
		model_builder_add_column(b, &col);
	}
}

/* A builder of a fixture model: the fixture's columns, no node yet. */
static inline struct model_builder *fx_builder(const char *path)
{
	struct model_builder *b = model_builder_new("fixture", path);
	fx_add_columns(b);
	return b;
}

/* Tests stop at once when a fixture cannot be built. */
static inline struct model *fx_need(struct model *m)
{
	if (!m)
		abort();
	return m;
}

/* Deterministic generator (xorshift64*). */
static inline uint64_t fx_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline uint32_t fx_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(fx_rand(s) % n);
}

/* The context id of node i in random models: not the node index. */
static inline uint32_t fx_ctx_of(uint32_t i)
{
	return i ? i * 2 + 5 : 0;
}

/* A random model of `n_nodes` nodes (root included).  `n_funcs` function
 * records; about one in eight function nodes is anonymous (no function
 * index, grouped by name and module).  Values are small integers so that
 * sums are exact; about one value in ten is absent.  With `no_values` the
 * provider is left out. */
static inline struct model *fx_random_model(uint32_t n_nodes, uint32_t n_funcs,
					    uint64_t seed, bool no_values)
{
	static const char *const modules[] = {"/lib/liba.so", "/bin/app",
					      ""};
	static const char *const files[] = {"a.c", "b.c", "c.h", ""};
	static const char *const anon[] = {"anon1", "anon2", ""};
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
	struct model_builder *b = model_builder_new("fixture", "fixture.db");
	struct fx_values *fv = NULL;
	uint32_t *can_parent = NULL;
	uint32_t n_parents = 0;
	struct error err = {0};
	if (!b)
		return NULL;
	fx_add_columns(b);
	for (uint32_t f = 0; f < n_funcs; f++) {
		char name[32];
		int len = snprintf(name, sizeof(name), "f%u", (unsigned)f);
		const char *mod = modules[fx_below(&s, 3)];
		const char *file = files[fx_below(&s, 4)];
		struct model_function fn = {
			.name = model_builder_intern(b, name, (size_t)len),
			.module = model_builder_intern(b, mod, strlen(mod)),
			.file = model_builder_intern(b, file, strlen(file)),
			.line = f + 1,
			.offset = 0x1000 + f,
		};
		model_builder_add_function(b, &fn);
	}
	can_parent = malloc((size_t)n_nodes * sizeof(*can_parent) + 4);
	if (!can_parent)
		goto fail;
	uint32_t n_entries = n_nodes > 3 ? 1 + fx_below(&s, 2) : 0;
	for (uint32_t i = 1; i < n_nodes; i++) {
		struct model_node nd = {
			.ctx_id = fx_ctx_of(i),
			.function = MODEL_NONE,
		};
		uint32_t parent;
		if (i <= n_entries) {
			const char *en = i == 1 ? "main thread"
						: "application thread";
			nd.kind = NODE_ENTRY;
			nd.relation = RELATION_NONE;
			nd.name = model_builder_intern(b, en, strlen(en));
			parent = 0;
		} else {
			/* recent nodes are likelier parents: deep trees */
			parent = 0;
			if (n_parents) {
				uint32_t back = n_parents < 8 ? n_parents : 8;
				uint32_t pick =
					fx_below(&s, 4) == 0
						? fx_below(&s, n_parents)
						: n_parents - 1 -
							  fx_below(&s, back);
				parent = can_parent[pick];
			}
			uint32_t r = fx_below(&s, 16);
			if (r < 6) {
				nd.kind = r == 5 ? NODE_KERNEL : NODE_FUNCTION;
				nd.relation = r == 4 ? RELATION_INLINED_CALL
						     : RELATION_CALL;
				if (fx_below(&s, 8) == 0 || n_funcs == 0) {
					const char *an = anon[fx_below(&s, 3)];
					const char *mod = modules[fx_below(&s, 3)];
					nd.name = model_builder_intern(
						b, an, strlen(an));
					nd.module = model_builder_intern(
						b, mod, strlen(mod));
					nd.file = model_builder_intern(
						b, files[i % 4],
						strlen(files[i % 4]));
				} else {
					nd.function = fx_below(&s, n_funcs);
					nd.name = model_builder_peek(b)
							  ->functions[nd.function]
							  .name;
				}
			} else if (r < 14) {
				/* a loop (lines 1-5) or a statement (1-6) */
				nd.kind = r < 8 ? NODE_LOOP : NODE_LINE;
				nd.relation = RELATION_LEXICAL;
				const char *file = files[fx_below(&s, 4)];
				nd.file = model_builder_intern(b, file,
							       strlen(file));
				nd.line = 1 + fx_below(&s, r < 8 ? 5 : 6);
			} else {
				nd.kind = NODE_INSTRUCTION;
				nd.relation = RELATION_LEXICAL;
				const char *mod = modules[fx_below(&s, 2)];
				nd.module = model_builder_intern(b, mod,
								 strlen(mod));
				nd.offset = 0x400 + 4 * fx_below(&s, 4);
			}
		}
		uint32_t id = model_builder_add_node(b, parent, &nd);
		if (id != i)
			goto fail;
		if (nd.kind != NODE_INSTRUCTION)
			can_parent[n_parents++] = i;
	}
	if (!no_values) {
		fv = fx_values_new(fx_ctx_of(n_nodes) + 1);
		if (!fv)
			goto fail;
		for (uint32_t i = 0; i < n_nodes; i++)
			for (uint32_t st = 0; st < FX_STATS; st++)
				if (fx_below(&s, 10) != 0)
					fx_set(fv, fx_ctx_of(i), st,
					       (double)fx_below(&s, 100));
		model_builder_set_values(b, &fx_value_ops, fv);
	}
	free(can_parent);
	struct model *m = model_builder_finish(b, &err);
	error_clear(&err);
	return m;
fail:
	free(can_parent);
	if (fv)
		fx_close(fv);
	model_builder_free(b);
	return NULL;
}

/* ---- brute-force helpers: direct definitions, for the view tests ---- */

static inline double *fx_value_ptr(const struct model *m, uint32_t node,
				   uint32_t stat)
{
	const struct fx_values *fv = m->priv->value_impl;
	uint32_t ctx = m->nodes[node].ctx_id;
	if (!fv || ctx >= fv->n_ctx || !fv->present[(size_t)ctx * FX_STATS + stat])
		return NULL;
	return &fv->value[(size_t)ctx * FX_STATS + stat];
}

/* The stat a column's standard formula reads in the fixture. */
static inline uint32_t fx_standard_stat(uint32_t column)
{
	return column == 2 ? 0 : column;
}

static inline bool fx_is_function_like(uint8_t kind)
{
	return kind == NODE_FUNCTION || kind == NODE_KERNEL ||
	       kind == NODE_REGION;
}

static inline bool fx_is_frame(uint8_t kind)
{
	return fx_is_function_like(kind) || kind == NODE_ENTRY;
}

/* Identity of a frame as a heap string: "F<index>" for a function record,
 * "G<kind>:<name>:<module>" otherwise. */
static inline char *fx_ident_key(const struct model *m, uint32_t node)
{
	const struct model_node *nd = &m->nodes[node];
	char *out = NULL;
	int r;
	if (fx_is_function_like(nd->kind) && nd->function < m->n_functions)
		r = asprintf(&out, "F%u", (unsigned)nd->function);
	else
		r = asprintf(&out, "G%u:%s:%s", (unsigned)nd->kind,
			     model_str(m, nd->name), model_str(m, nd->module));
	return r < 0 ? NULL : out;
}

/* Nearest frame strictly above `node` (root excluded), or MODEL_NONE. */
static inline uint32_t fx_frame_above(const struct model *m, uint32_t node)
{
	for (uint32_t p = m->nodes[node].parent; p != MODEL_NONE && p != 0;
	     p = m->nodes[p].parent)
		if (fx_is_frame(m->nodes[p].kind))
			return p;
	return MODEL_NONE;
}

#ifdef cmocka_unit_test /* the tests only: it asserts */
/* The model of builder b, its values from fv (without `values`, none: fv
 * is freed). */
static inline struct model *fx_finish(struct model_builder *b,
				      struct fx_values *fv, bool values)
{
	struct error err = {0};
	if (values)
		model_builder_set_values(b, &fx_value_ops, fv);
	else
		fx_close(fv);
	struct model *m = fx_need(model_builder_finish(b, &err));
	assert_non_null(m);
	return m;
}

/* Adds nd under `parent`, asserted to become node `want`, with its
 * inclusive and exclusive values (stats 0 and 1; < 0: absent) in fv. */
static inline void fx_add_node(struct model_builder *b, struct fx_values *fv,
			       uint32_t parent, const struct model_node *nd,
			       uint32_t want, double incl, double excl)
{
	assert_int_equal(model_builder_add_node(b, parent, nd), want);
	if (incl >= 0)
		fx_set(fv, nd->ctx_id, 0, incl);
	if (excl >= 0)
		fx_set(fv, nd->ctx_id, 1, excl);
}

/* A model of functions "n0", "n1", ... from a parent list (node i + 1's
 * parent is parent[i]) and inclusive values of column 0 (< 0: absent;
 * `root` the root's); the context id of node i + 1 is ctx[i] (NULL:
 * i + 1).  Without `values` the model has no value provider.  Uses
 * cmocka's asserts. */
static inline struct model *fx_parent_model(const uint32_t *parent, const double *incl,
			   const uint32_t *ctx, uint32_t n, double root,
			   bool values)
{
	struct model_builder *b = fx_builder("parents.db");
	struct fx_values *fv = fx_values_new(1000);
	if (root >= 0)
		fx_set(fv, 0, 0, root);
	for (uint32_t i = 0; i < n; i++) {
		char name[16];
		int len = snprintf(name, sizeof(name), "n%u", (unsigned)i);
		struct model_node nd = {
			.ctx_id = ctx ? ctx[i] : i + 1,
			.kind = NODE_FUNCTION,
			.function = MODEL_NONE,
			.name = model_builder_intern(b, name, (size_t)len),
		};
		fx_add_node(b, fv, parent[i], &nd, i + 1, incl[i], -1);
	}
	return fx_finish(b, fv, values);
}


#endif /* cmocka_unit_test */

#endif
