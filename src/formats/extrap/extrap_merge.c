/* extrap_merge: Extra-P's unification of a Cube set's call trees
 * (cube_file_reader2.py, "Unify calltrees"; notes 5.5): a (callpath,
 * metric) measured at fewer points than the set has is merged, in the
 * order the pairs were first measured, into the nearest ancestor callpath
 * (cut at the last "->", again and again) that still has measurements of
 * that metric: at a point where the ancestor has a measurement, the two
 * are added as Extra-P's Measurement.merge adds them (mean, median,
 * minimum and maximum summed, std the root of the summed squares, the
 * repetitions kept); at a point where it has none, the measurement moves
 * up.  Without such an ancestor it is dropped (Extra-P warns: "Some call
 * paths could not be integrated into the common call tree").  Must not
 * depend on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap_set.h"
#include "formats/extrap/extrap_set_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pair {
	uint32_t n;     /* cells (points) of the pair */
	uint32_t first; /* its first cell: the order of merging */
	bool gone;      /* merged away */
};

static int cmp_first(const void *a, const void *b, void *ctx)
{
	const struct pair *p = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return p[x].first < p[y].first ? -1 : p[x].first > p[y].first;
}

bool extrap_merge_incomplete(struct extrap_set *s, struct model_measure *ms,
			     bool *keep, bool *cp_used)
{
	uint32_t nm = s->metrics.n, np = s->n_points;
	uint64_t n_pairs = (uint64_t)s->cps.n * nm;
	if (n_pairs == 0 || n_pairs > UINT32_MAX ||
	    n_pairs * np > SIZE_MAX / sizeof(uint32_t))
		return n_pairs == 0;
	struct pair *pair = calloc((size_t)n_pairs, sizeof(*pair));
	/* (pair, point) -> cell + 1 */
	uint32_t *at = calloc((size_t)(n_pairs * np), sizeof(*at));
	uint32_t *todo = malloc((size_t)n_pairs * sizeof(*todo));
	if (!pair || !at || !todo) {
		free(pair);
		free(at);
		free(todo);
		return false;
	}
	for (uint32_t i = 0; i < s->n_cells; i++) {
		const struct cell *c = &s->cells[i];
		uint64_t k = (uint64_t)c->cp * nm + c->metric;
		if (keep[i]) {
			if (pair[k].n++ == 0)
				pair[k].first = i;
			at[k * np + c->point] = i + 1;
		}
	}
	uint32_t n_todo = 0;
	for (uint64_t k = 0; k < n_pairs; k++)
		if (pair[k].n && pair[k].n < np)
			todo[n_todo++] = (uint32_t)k;
	qsort_r(todo, n_todo, sizeof(*todo), cmp_first, pair);
	bool lost = false;
	for (uint32_t t = 0; t < n_todo; t++) {
		uint64_t k = todo[t];
		uint32_t cp = (uint32_t)(k / nm), metric = (uint32_t)(k % nm);
		/* the nearest ancestor with measurements of the metric */
		const char *name = s->cps.v[cp];
		size_t len = s->cps.len[cp];
		uint64_t up = n_pairs;
		while (up == n_pairs) {
			size_t cut = len;
			while (cut >= 2 && !(name[cut - 2] == '-' &&
					     name[cut - 1] == '>'))
				cut--;
			if (cut < 2)
				break;
			len = cut - 2;
			uint32_t a = extrap_names_find(&s->cps, name, len);
			uint64_t ak = a == MODEL_NONE
					      ? n_pairs
					      : (uint64_t)a * nm + metric;
			if (ak < n_pairs && pair[ak].n && !pair[ak].gone)
				up = ak;
		}
		for (uint32_t p = 0; p < np; p++) {
			uint32_t ci = at[k * np + p];
			if (!ci)
				continue;
			ci--;
			if (up == n_pairs) {
				keep[ci] = false;
				continue;
			}
			uint32_t ui = at[up * np + p];
			if (ui) {
				struct model_measure *a = &ms[ui - 1];
				const struct model_measure *b = &ms[ci];
				a->mean += b->mean;
				a->median += b->median;
				a->minimum += b->minimum;
				a->maximum += b->maximum;
				a->std = sqrt(a->std * a->std + b->std * b->std);
				keep[ci] = false;
			} else {
				/* the measurement moves up */
				s->cells[ci].cp = (uint32_t)(up / nm);
				at[up * np + p] = ci + 1;
				pair[up].n++;
			}
			at[k * np + p] = 0;
		}
		lost |= up == n_pairs;
		pair[k].gone = true;
		pair[k].n = 0;
	}
	memset(cp_used, 0, s->cps.n * sizeof(*cp_used));
	for (uint32_t i = 0; i < s->n_cells; i++)
		if (keep[i])
			cp_used[s->cells[i].cp] = true;
	free(pair);
	free(at);
	free(todo);
	if (lost)
		extrap_set_warn(s, "some callpaths could not be integrated "
				   "into the common call tree (no ancestor "
				   "with their metric)");
	return true;
}
