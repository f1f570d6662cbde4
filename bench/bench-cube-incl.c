/* bench-cube-incl: the per-location inclusive values (thread pane) of a
 * metric stored exclusive in a Cube file, at the root call node and at a
 * few others, each asked three times: wall-clock milliseconds per request
 * (bench/bench-cube.sh; doc/PERFORMANCE.md).  The first request of the
 * root reads every row; with the reader's cache (cube_inclusive.c) the
 * later ones read none.
 * usage: bench-cube-incl FILE.cubex METRIC */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/reader.h"
#include "model/model.h"

extern const struct reader reader_cube;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench-cube-incl FILE.cubex METRIC\n");
		return 64;
	}
	struct model *m = NULL;
	struct error err = {0};
	double t0 = now_ms();
	if (reader_open_path(&reader_cube, argv[1], &m, &err) != STATUS_OK) {
		char *line = error_format(&err);
		fprintf(stderr, "%s\n", line ? line : "error");
		free(line);
		return 2;
	}
	printf("open: %.1f ms\n", now_ms() - t0);
	uint32_t stat = MODEL_NONE;
	for (uint32_t c = 0; c < model_n_columns(m); c++)
		if (model_columns(m)[c].kind == COLUMN_INCLUSIVE &&
		    strcmp(model_columns(m)[c].name, argv[2]) == 0)
			stat = model_column_stat(m, c);
	if (stat == MODEL_NONE) {
		fprintf(stderr, "no inclusive column %s\n", argv[2]);
		return 2;
	}
	/* node 1: the first root; then nodes a little deeper */
	uint32_t nodes[] = {1, 2, 3, model_n_nodes(m) > 100 ? 100 : 1};
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		for (int rep = 0; rep < 3; rep++) {
			struct profile_value *pv = NULL;
			size_t n = 0;
			double t = now_ms();
			if (model_per_profile(m, nodes[i], stat, &pv, &n, &err) !=
			    STATUS_OK) {
				fprintf(stderr, "per-profile failed\n");
				return 2;
			}
			double sum = 0;
			for (size_t k = 0; k < n; k++)
				sum += pv[k].value;
			printf("node %u request %d: %.3f ms (%zu locations, sum "
			       "%.17g)\n",
			       (unsigned)nodes[i], rep + 1, now_ms() - t, n, sum);
			free(pv);
		}
	}
	model_free(m);
	return 0;
}
