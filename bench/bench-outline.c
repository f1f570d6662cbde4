/* bench-outline: times the outline on a generated model (3 million nodes
 * by default, or argv[1]) numbered depth-first as a reader adds them: the
 * root with 1000 children, depth under 80, values from the fixture
 * provider.  For each operation it reports the median and 99th percentile
 * of process CPU time over repeated runs: expand and collapse of the root,
 * the hot path from the root, a sort change with about 100 expanded rows,
 * the one-time search pattern pass, search steps, zoom in and out.  Not
 * run by make check.  Usage: bench-outline [NODES [VIEW [PATTERN]]] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "views/outline.h"
#include "views/view.h"
#include "bench_model.h"
#include "../tests/view_fixture.h"


struct samples {
	double t[512];
	int n;
};

static void add(struct samples *s, double t)
{
	if (s->n < 512)
		s->t[s->n++] = t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, struct samples *s)
{
	if (!s->n)
		return;
	qsort(s->t, (size_t)s->n, sizeof(double), cmp_double);
	int p99 = (s->n * 99 + 99) / 100 - 1;
	printf("%-44s n=%3d  p50 %9.3f ms  p99 %9.3f ms\n", what, s->n,
	       s->t[s->n / 2] * 1e3, s->t[p99 < s->n ? p99 : s->n - 1] * 1e3);
}

static int fail(const char *what, struct error *err)
{
	fprintf(stderr, "bench-outline: %s: %s\n", what,
		err->message ? err->message : "failed");
	return 1;
}

int main(int argc, char **argv)
{
	uint32_t n_nodes = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10)
				    : 3000000;
	enum view_kind kind = VIEW_TOP_DOWN;
	if (argc > 2 && !view_kind_parse(argv[2], &kind)) {
		fprintf(stderr, "bench-outline: unknown view %s\n", argv[2]);
		return 2;
	}
	if (n_nodes < 2000)
		n_nodes = 2000;
	struct error err = {0};
	struct view *v = NULL;
	struct outline *o = NULL;
	struct samples s = {0};
	double t0 = bench_cpu_seconds();
	struct model *m = bench_model_generate(n_nodes, true);
	if (!m) {
		fprintf(stderr, "bench-outline: cannot build the model\n");
		return 1;
	}
	printf("model: %u nodes (depth-first order), depth %u, built in "
	       "%.2f s; %s view\n",
	       (unsigned)m->n_nodes, (unsigned)m->max_depth, bench_cpu_seconds() - t0,
	       view_kind_name(kind));
	if (view_new(m, kind, &v, &err) != STATUS_OK)
		return fail("view", &err);
	t0 = bench_cpu_seconds();
	if (outline_new(v, 0, false, &o, &err) != STATUS_OK)
		return fail("outline", &err);
	printf("%-44s %.3f ms (%zu rows)\n", "outline_new (first level built)",
	       (bench_cpu_seconds() - t0) * 1e3, outline_count(o));

	/* expand / collapse the root */
	struct samples sc = {0};
	for (int i = 0; i < 200; i++) {
		t0 = bench_cpu_seconds();
		outline_collapse(o, 0);
		add(&sc, bench_cpu_seconds() - t0);
		t0 = bench_cpu_seconds();
		if (outline_expand(o, 0, &err) != STATUS_OK)
			return fail("expand", &err);
		add(&s, bench_cpu_seconds() - t0);
	}
	report("expand root", &s);
	report("collapse root", &sc);

	/* hot path from the root, from a collapsed tree each time */
	s.n = 0;
	uint32_t leaf = 0;
	for (int i = 0; i < 103; i++) {
		outline_collapse_all(o, 0);
		if (outline_expand(o, 0, &err) != STATUS_OK)
			return fail("expand", &err);
		t0 = bench_cpu_seconds();
		if (outline_hotpath(o, 0, i % 3, 0, &leaf, &err) != STATUS_OK)
			return fail("hotpath", &err);
		/* the first run per column computes the view's values */
		if (i < 3)
			printf("%-44s %.3f ms\n",
			       "hot path, first run for a column (cold)",
			       (bench_cpu_seconds() - t0) * 1e3);
		else
			add(&s, bench_cpu_seconds() - t0);
	}
	report("hot path from the root (collapsed tree)", &s);

	/* about 100 expanded rows: the hot path plus the first children of
	 * the first rows */
	outline_collapse_all(o, 0);
	if (outline_expand(o, 0, &err) != STATUS_OK ||
	    outline_hotpath(o, 0, 0, 0, &leaf, &err) != STATUS_OK)
		return fail("setup", &err);
	size_t expanded = 0;
	for (size_t i = 0; i < outline_count(o) && expanded < 100; i++) {
		struct outline_row r;
		if (!outline_row_get(o, i, &r))
			break;
		if (!r.has_children)
			continue;
		if (!r.expanded && outline_expand(o, r.node, &err) != STATUS_OK)
			return fail("expand", &err);
		expanded++;
	}
	s.n = 0;
	for (int i = 0; i < 60; i++) {
		t0 = bench_cpu_seconds();
		if (outline_set_sort(o, (uint32_t)(i % 3), i & 1, &err) !=
		    STATUS_OK)
			return fail("sort", &err);
		add(&s, bench_cpu_seconds() - t0);
	}
	char what[80];
	snprintf(what, sizeof(what), "sort change (%zu expanded, %zu rows)",
		 expanded, outline_count(o));
	report(what, &s);

	/* row access: one screen of 60 rows */
	s.n = 0;
	for (int i = 0; i < 200; i++) {
		size_t first = (size_t)i * 37 % outline_count(o);
		t0 = bench_cpu_seconds();
		for (size_t k = first; k < first + 60; k++) {
			struct outline_row r;
			outline_row_get(o, k % outline_count(o), &r);
		}
		add(&s, bench_cpu_seconds() - t0);
	}
	report("draw a screen (60 outline_row_get)", &s);

	/* search: the one-time pass, then steps */
	const char *pattern = argc > 3 ? argv[3]
			      : kind == VIEW_BOTTOM_UP ? "^func1[0-9]{2}$"
						       : "file1[0-9][0-9]\\.c:";
	s.n = 0;
	for (int i = 0; i < 3; i++) {
		t0 = bench_cpu_seconds();
		if (outline_search_set(o, pattern, &err) != STATUS_OK)
			return fail("search", &err);
		add(&s, bench_cpu_seconds() - t0);
	}
	snprintf(what, sizeof(what), "search set (one pass, %zu matches)",
		 outline_search_count(o));
	report(what, &s);
	if (outline_search_count(o) == 0) {
		fprintf(stderr, "bench-outline: nothing matches %s\n", pattern);
		return 1;
	}
	/* 100 steps forward, then 100 back */
	uint32_t at = MODEL_NONE;
	for (int forward = 1; forward >= 0; forward--) {
		s.n = 0;
		for (int i = 0; i < 100; i++) {
			t0 = bench_cpu_seconds();
			if (outline_search_next(o, at, forward, &at, &err) !=
			    STATUS_OK)
				return fail("search step", &err);
			add(&s, bench_cpu_seconds() - t0);
		}
		report(forward ? "search step forward (reveals the match)"
			       : "search step backward",
		       &s);
	}
	s.n = 0;
	for (int i = 0; i < 50; i++) {
		if (outline_set_sort(o, (uint32_t)(i % 3), i & 1, &err) !=
		    STATUS_OK)
			return fail("sort", &err);
		t0 = bench_cpu_seconds();
		if (outline_search_next(o, at, true, &at, &err) != STATUS_OK)
			return fail("search step", &err);
		add(&s, bench_cpu_seconds() - t0);
	}
	report("search step right after a sort change", &s);
	outline_search_set(o, NULL, &err);
	printf("%-44s %zu rows\n", "visible after the search steps",
	       outline_count(o));

	/* zoom into a row of the hot path and out again */
	uint32_t *path = NULL;
	size_t np = 0;
	if (view_hotpath(v, 0, 0, 0, &path, &np, &err) != STATUS_OK ||
	    np < 2)
		return fail("hotpath", &err);
	struct samples so = {0};
	s.n = 0;
	for (int i = 0; i < 100; i++) {
		t0 = bench_cpu_seconds();
		if (outline_zoom(o, path[1 + (size_t)i % (np - 1 < 3 ? np - 1 : 3)],
				 &err) != STATUS_OK)
			return fail("zoom", &err);
		add(&s, bench_cpu_seconds() - t0);
		t0 = bench_cpu_seconds();
		outline_zoom_out(o);
		add(&so, bench_cpu_seconds() - t0);
	}
	free(path);
	snprintf(what, sizeof(what), "zoom in (list of %zu rows at the top)",
		 outline_count(o));
	report(what, &s);
	report("zoom out", &so);

	/* expand all: refused at the cap on a big subtree */
	outline_collapse_all(o, 0);
	t0 = bench_cpu_seconds();
	enum status st = outline_expand_all(o, 0, &err);
	printf("%-44s %s in %.3f s (%zu rows)\n", "expand all from the root",
	       status_message(st), bench_cpu_seconds() - t0, outline_count(o));
	error_clear(&err);
	outline_free(o);
	view_free(v);
	model_free(m);
	return 0;
}
