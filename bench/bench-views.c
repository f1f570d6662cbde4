/* bench-views: times the views on a generated model (3 million nodes by
 * default, or argv[1]): top-down children of a root with 1000 children,
 * the first level of bottom-up and flat (the one pass plus the values of
 * the first level, sorted), and the callers of the largest function.  Times
 * are process CPU time.  Not run by make check; prints one line per
 * measurement.  Usage: bench-views [NODES [preorder|scattered [VIEW]]] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "views/view.h"
#include "bench_model.h"
#include "../tests/view_fixture.h"

/* Times the children of `row` (column 0), printed as WHAT; 1 on an error. */
static int time_children(struct view *v, uint32_t row, const char *what)
{
	uint32_t *kids = NULL;
	size_t n = 0;
	struct error err = {0};
	double t0 = bench_cpu_seconds();
	if (view_children(v, row, 0, false, &kids, &n, &err) != STATUS_OK)
		return 1;
	double t1 = bench_cpu_seconds();
	printf("%-9s %s: %zu rows in %.3f s\n", view_kind_name(view_kind_of(v)),
	       what, n, t1 - t0);
	free(kids);
	return 0;
}

static int first_level(struct model *m, enum view_kind kind)
{
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *kids = NULL;
	size_t n = 0;
	double t0 = bench_cpu_seconds();
	if (view_new(m, kind, &v, &err) != STATUS_OK)
		return 1;
	double t1 = bench_cpu_seconds();
	if (view_children(v, 0, MODEL_NONE, false, &kids, &n, &err) !=
	    STATUS_OK)
		return 1;
	double t2 = bench_cpu_seconds();
	free(kids);
	if (view_children(v, 0, 0, false, &kids, &n, &err) != STATUS_OK)
		return 1;
	double t3 = bench_cpu_seconds();
	printf("%-9s view_new %.6f s, first level: %zu rows, built and "
	       "sorted by label %.3f s, then values of column 0 and sorted "
	       "%.3f s, total %.3f s\n",
	       view_kind_name(kind), t1 - t0, n, t2 - t1, t3 - t2, t3 - t1);
	/* bottom-up: the callers of the top function; flat: the files of
	 * the top module */
	if (kind == VIEW_BOTTOM_UP && n &&
	    time_children(v, kids[0], "callers of the top function"))
		return 1;
	if (kind == VIEW_FLAT && n &&
	    time_children(v, kids[0], "files of the top module"))
		return 1;
	uint32_t *path = NULL;
	size_t np = 0;
	t1 = bench_cpu_seconds();
	if (view_hotpath(v, 0, 0, 0, &path, &np, &err) != STATUS_OK)
		return 1;
	t2 = bench_cpu_seconds();
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
	double t0 = bench_cpu_seconds();
	struct model *m = bench_model_generate(n_nodes, preorder);
	if (!m) {
		fprintf(stderr, "bench-views: cannot build the model\n");
		return 1;
	}
	printf("model: %u nodes (%s order), depth %u, built in %.2f s\n",
	       (unsigned)m->n_nodes, preorder ? "depth-first" : "scattered",
	       (unsigned)m->max_depth, bench_cpu_seconds() - t0);
	struct view *v = NULL;
	struct error err = {0};
	uint32_t *kids = NULL;
	size_t n = 0;
	if (view_new(m, VIEW_TOP_DOWN, &v, &err) != STATUS_OK)
		return 1;
	t0 = bench_cpu_seconds();
	for (int rep = 0; rep < 100; rep++) {
		free(kids);
		if (view_children(v, 0, rep % 3, rep & 1, &kids, &n, &err) !=
		    STATUS_OK)
			return 1;
	}
	printf("top-down  children of the root (%zu rows, sorted): %.6f s "
	       "each\n",
	       n, (bench_cpu_seconds() - t0) / 100);
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
