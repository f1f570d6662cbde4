/* bench_model: the model the engine benchmarks run on, generated in
 * memory with the builder and the test fixture's value provider (so no
 * database file is needed): the root has 1000 children, depth stays under
 * 80, 20000 functions over 50 modules and 2000 files.  Shared by
 * bench-views and bench-outline.  Not part of the library. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_model.h"
#include "../tests/view_fixture.h"

/* CPU time of the process: the machine may be shared */
double bench_cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The root has 1000 children, depth stays under 80, 20000 functions over
 * 50 modules and 2000 files.  With `preorder` the nodes are numbered in
 * depth-first order, as a reader of a real database adds them; otherwise
 * each node picks a parent among recent nodes or at random (children
 * scattered over the node array: the worst case for memory access). */
struct model *bench_model_generate(uint32_t n_nodes, bool preorder)
{
	uint64_t s = 42;
	struct model_builder *b = model_builder_new("bench", "bench.db");
	struct error err = {0};
	uint32_t *depth = malloc((size_t)n_nodes * sizeof(*depth));
	struct fx_values *fv = fx_values_new(n_nodes + 1);
	char text[64];
	if (!b || !depth || !fv)
		return NULL;
	fx_add_columns(b);
	uint32_t mods[50], files[2000];
	for (uint32_t i = 0; i < 50; i++)
		mods[i] = model_builder_intern(
			b, text, (size_t)snprintf(text, sizeof(text),
						  "/lib/lib%u.so", (unsigned)i));
	for (uint32_t i = 0; i < 2000; i++)
		files[i] = model_builder_intern(
			b, text, (size_t)snprintf(text, sizeof(text),
						  "src/file%u.c", (unsigned)i));
	for (uint32_t f = 0; f < 20000; f++) {
		struct model_function fn = {
			.name = model_builder_intern(
				b, text,
				(size_t)snprintf(text, sizeof(text), "func%u",
						 (unsigned)f)),
			.module = mods[f % 50],
			.file = files[f % 2000],
			.line = f,
		};
		model_builder_add_function(b, &fn);
	}
	depth[0] = 0;
	uint32_t *stack = malloc(96 * sizeof(*stack));
	uint32_t sp = 0, per_top = (n_nodes - 1 + 999) / 1000, in_top = 0;
	if (!stack)
		return NULL;
	for (uint32_t i = 1; i < n_nodes; i++) {
		uint32_t parent = 0;
		if (preorder) {
			/* a new top-level subtree every per_top nodes */
			if (in_top == 0 || in_top >= per_top) {
				sp = 0;
				in_top = 0;
			} else {
				while (sp > 1 && fx_below(&s, 10) < 3)
					sp--;
				parent = stack[sp - 1];
			}
			in_top++;
		} else if (i > 1000) {
			parent = fx_below(&s, 4) == 0
					 ? 1 + fx_below(&s, i - 1)
					 : i - 1 - fx_below(&s, i - 1 < 50 ? i - 1
									   : 50);
			while (depth[parent] >= 80)
				parent = 1 + fx_below(&s, i - 1);
		}
		struct model_node nd = {
			.ctx_id = i,
			.function = MODEL_NONE,
		};
		uint32_t r = fx_below(&s, 8);
		if (parent == 0 || r < 3) {
			nd.kind = NODE_FUNCTION;
			nd.relation = RELATION_CALL;
			/* a few hot functions, many cold ones */
			nd.function = fx_below(&s, 3) == 0 ? fx_below(&s, 100)
							   : fx_below(&s, 20000);
		} else if (r < 4) {
			nd.kind = NODE_LOOP;
			nd.file = files[fx_below(&s, 2000)];
			nd.line = fx_below(&s, 500);
		} else {
			nd.kind = NODE_LINE;
			nd.file = files[fx_below(&s, 2000)];
			nd.line = fx_below(&s, 500);
		}
		/* named like their function, so that searches find them */
		if (nd.function != MODEL_NONE)
			nd.name = model_builder_peek(b)->functions[nd.function].name;
		if (model_builder_add_node(b, parent, &nd) != i)
			return NULL;
		depth[i] = depth[parent] + 1;
		if (preorder && depth[i] < 80)
			stack[sp++] = i;
		for (uint32_t st = 0; st < FX_STATS; st++)
			fx_set(fv, i, st, (double)fx_below(&s, 1000));
	}
	free(depth);
	free(stack);
	model_builder_set_values(b, &fx_value_ops, fv);
	return model_builder_finish(b, &err);
}

