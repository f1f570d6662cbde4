/* bench-fit: the fitter alone (scaling_fit), on per-point values prepared
 * apart from callscope's readers (bench/extrap-means.py writes them):
 *   P N S
 *   NAME_1 .. NAME_P
 *   N lines of P coordinates
 *   S lines: LABEL V_1 .. V_N
 * Fits every series with one fitter (the cached route) and prints the time;
 * with --direct, with dgelsd for every least-squares problem instead; with
 * --print, each model's text ("LABEL<TAB>MODEL<TAB>RSS SMAPE AR2 RE") so that
 * the two routes can be compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/scaling.h"
#include "analysis/scaling_fit.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	bool direct = false, print = false;
	const char *path = NULL;
	FILE *in;
	unsigned np, n, ns;
	char names[SCALING_MAX_PARAMS][64], label[512];
	const char *nm[SCALING_MAX_PARAMS];
	double *coords, *vals, t0, t1;
	struct scaling_fitter *f;
	struct error err = {0};
	unsigned long n_terms = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--direct"))
			direct = true;
		else if (!strcmp(argv[i], "--print"))
			print = true;
		else
			path = argv[i];
	}
	if (!path || !(in = fopen(path, "r"))) {
		fprintf(stderr, "usage: bench-fit [--direct] [--print] MEANS\n");
		return 2;
	}
	if (fscanf(in, "%u %u %u", &np, &n, &ns) != 3 || np == 0 ||
	    np > SCALING_MAX_PARAMS || n == 0) {
		fprintf(stderr, "bench-fit: %s: bad header\n", path);
		return 2;
	}
	for (unsigned p = 0; p < np; p++) {
		if (fscanf(in, "%63s", names[p]) != 1)
			return 2;
		nm[p] = names[p];
	}
	coords = malloc((size_t)n * np * sizeof *coords);
	vals = malloc((size_t)n * ns * sizeof *vals);
	char (*labels)[512] = malloc((size_t)ns * sizeof *labels);
	if (!coords || !vals || !labels)
		return 2;
	for (size_t i = 0; i < (size_t)n * np; i++)
		if (fscanf(in, "%lf", &coords[i]) != 1)
			return 2;
	for (unsigned s = 0; s < ns; s++) {
		if (fscanf(in, "%511s", label) != 1)
			return 2;
		memcpy(labels[s], label, sizeof label);
		for (unsigned i = 0; i < n; i++)
			if (fscanf(in, "%lf", &vals[(size_t)s * n + i]) != 1)
				return 2;
	}
	fclose(in);
	f = scaling_fitter_new(np, &err);
	if (!f)
		return 2;
	scaling_fitter_set_direct(f, direct);
	t0 = now();
	for (unsigned s = 0; s < ns; s++) {
		struct scaling_model m = {0};

		if (scaling_fit(f, coords, vals + (size_t)s * n, n, &m, NULL,
				&err) != STATUS_OK) {
			fprintf(stderr, "bench-fit: %s: %s\n", labels[s],
				err.message ? err.message : "failed");
			return 1;
		}
		n_terms += m.n_terms;
		if (print) {
			char *t = scaling_text(&m, nm, np);

			printf("%s\t%s\t%.17g %.17g %.17g %.17g\n", labels[s],
			       t ? t : "?", m.rss, m.smape, m.ar2, m.re);
			free(t);
		}
		scaling_model_clear(&m);
	}
	t1 = now();
	fprintf(stderr, "bench-fit: %u series of %u points, %u parameters%s: "
		"%.3f s (%.1f us per model), %lu terms\n",
		ns, n, np, direct ? " (direct dgelsd)" : "", t1 - t0,
		(t1 - t0) * 1e6 / (ns ? ns : 1), n_terms);
	scaling_fitter_free(f);
	free(coords);
	free(vals);
	free(labels);
	return 0;
}
