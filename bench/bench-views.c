/* bench-views: times the views on a generated model (3 million nodes by
 * default, or argv[1]): top-down children of a root with 1000 children,
 * the first level of bottom-up and flat (the one pass plus the values of
 * the first level, sorted), and the callers of the largest function.  Times
 * are process CPU time.  Not run by make check; prints one line per
 * measurement.  Usage: bench-views [NODES [preorder|scattered [VIEW]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view.h"
#include "../tests/view_fixture.h"

/* CPU time of the process: the machine may be shared */
static double now(void)
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
static struct model *generate(uint32_t n_nodes, bool preorder)
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

static int first_level(struct model *m, enum view_kind kind)
{
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *kids = NULL;
	size_t n = 0;
	double t0 = now();
	if (view_new(m, kind, &v, &err) != STATUS_OK)
		return 1;
	double t1 = now();
	if (view_children(v, 0, MODEL_NONE, false, &kids, &n, &err) !=
	    STATUS_OK)
		return 1;
	double t2 = now();
	free(kids);
	if (view_children(v, 0, 0, false, &kids, &n, &err) != STATUS_OK)
		return 1;
	double t3 = now();
	printf("%-9s view_new %.6f s, first level: %zu rows, built and "
	       "sorted by label %.3f s, then values of column 0 and sorted "
	       "%.3f s, total %.3f s\n",
	       view_kind_name(kind), t1 - t0, n, t2 - t1, t3 - t2, t3 - t1);
	if (kind == VIEW_BOTTOM_UP && n) {
		uint32_t *callers = NULL;
		size_t nc = 0;
		t1 = now();
		if (view_children(v, kids[0], 0, false, &callers, &nc, &err) !=
		    STATUS_OK)
			return 1;
		t2 = now();
		printf("%-9s callers of the top function: %zu rows in %.3f s\n",
		       view_kind_name(kind), nc, t2 - t1);
		free(callers);
	}
	if (kind == VIEW_FLAT && n) {
		uint32_t *files = NULL;
		size_t nf = 0;
		t1 = now();
		if (view_children(v, kids[0], 0, false, &files, &nf, &err) !=
		    STATUS_OK)
			return 1;
		t2 = now();
		printf("%-9s files of the top module: %zu rows in %.3f s\n",
		       view_kind_name(kind), nf, t2 - t1);
		free(files);
	}
	uint32_t *path = NULL;
	size_t np = 0;
	t1 = now();
	if (view_hotpath(v, 0, 0, 0, &path, &np, &err) != STATUS_OK)
		return 1;
	t2 = now();
	printf("%-9s hot path from the root: %zu rows in %.3f s\n",
	       view_kind_name(kind), np, t2 - t1);
	free(path);
	free(kids);
	view_free(v);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t n_nodes = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10)
				    : 3000000;
	bool preorder = argc > 2 && strcmp(argv[2], "preorder") == 0;
	if (n_nodes < 2000)
		n_nodes = 2000;
	double t0 = now();
	struct model *m = generate(n_nodes, preorder);
	if (!m) {
		fprintf(stderr, "bench-views: cannot build the model\n");
		return 1;
	}
	printf("model: %u nodes (%s order), depth %u, built in %.2f s\n",
	       (unsigned)m->n_nodes, preorder ? "depth-first" : "scattered",
	       (unsigned)m->max_depth, now() - t0);
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *kids = NULL;
	size_t n = 0;
	if (view_new(m, VIEW_TOP_DOWN, &v, &err) != STATUS_OK)
		return 1;
	t0 = now();
	for (int rep = 0; rep < 100; rep++) {
		free(kids);
		if (view_children(v, 0, rep % 3, rep & 1, &kids, &n, &err) !=
		    STATUS_OK)
			return 1;
	}
	printf("top-down  children of the root (%zu rows, sorted): %.6f s "
	       "each\n",
	       n, (now() - t0) / 100);
	free(kids);
	view_free(v);
	const char *only = argc > 3 ? argv[3] : "";
	int rc = 0;
	if (strcmp(only, "flat") != 0)
		rc |= first_level(m, VIEW_BOTTOM_UP);
	if (strcmp(only, "bottom-up") != 0)
		rc |= first_level(m, VIEW_FLAT);
	model_free(m);
	return rc;
}
