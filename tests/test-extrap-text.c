/* Tests of the Extra-P text reader and the common set model
 * (extrap_text.c, extrap_set.c, extrap_build.c): degenerate and broken
 * files first (empty, comments only, no parameters, DATA before
 * PARAMETER, too many DATA lines, an unknown field, a bad number, a point
 * with the wrong coordinate count), each refused with a message naming
 * the line; then files generated here with a fixed seed (two parameters,
 * points written in shuffled order, nested callpaths whose prefix has no
 * data, a varying number of repetitions) whose answers are computed apart
 * from the reader: the points sorted, the tree, every measurement's
 * statistics (numpy's pairwise mean written again here), the column value
 * (the mean at the last point) and the per-profile values (the means at
 * each point). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/extrap/extrap.h"
#include "measure_fixture.h"

static enum status parse(const char *text, struct model **m, struct error *e)
{
	return extrap_text_parse(text, strlen(text), "t.txt", m, e);
}

static void expect_error(const char *text, const char *needle)
{
	struct model *m = NULL;
	struct error e = {0};
	assert_int_not_equal(parse(text, &m, &e), STATUS_OK);
	assert_null(m);
	assert_non_null(e.message);
	if (!strstr(e.message, needle))
		fail_msg("message \"%s\" lacks \"%s\"", e.message, needle);
	error_clear(&e);
}

static void test_degenerate(void **state)
{
	(void)state;
	expect_error("", "no data");
	expect_error("# only a comment\n\n", "no data");
	expect_error("POINTS 1 2\n", "line 1");
	expect_error("PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\nDATA 2\n"
		     "DATA 3\n",
		     "line 6: too many DATA");
	expect_error("PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1\n",
		     "1 of the 2 points");
	expect_error("PARAMETER p\nPOINTS 1 2\nREGON r\n", "line 3: unknown");
	expect_error("PARAMETER p\nPOINTS 1 2\nREGION r\nDATA 1 x\nDATA 2\n",
		     "line 4");
	expect_error("PARAMETER p q\nPOINTS 1 2\n", "1 coordinates for 2");
	expect_error("PARAMETER p\nPOINTS (1 2)\n", "more than 1");
	expect_error("PARAMETER p\nPARAMETER p\n", "twice");
	expect_error("PARAMETER p\nPOINTS 1 2\nREGION r\nDATA\nDATA 2\n",
		     "without values");
}

enum { NP = 6, NREG = 3, MAXREP = 40 };

static uint32_t child(const struct model *m, uint32_t parent,
		      const char *name)
{
	for (uint32_t c = model_nodes(m)[parent].first_child; c != MODEL_NONE;
	     c = model_nodes(m)[c].next_sibling)
		if (strcmp(model_str(m, model_nodes(m)[c].name), name) == 0)
			return c;
	return MODEL_NONE;
}

static void test_generated(void **state)
{
	(void)state;
	srand(42);
	/* points (x, y): x in {1, 2, 4}, y in {10, 20}, written shuffled */
	double px[NP], py[NP];
	int order[NP] = {4, 1, 5, 0, 3, 2};
	for (int i = 0; i < NP; i++) {
		px[i] = (double)(1 << (order[i] / 2));
		py[i] = order[i] % 2 ? 20 : 10;
	}
	static const char *const regions[NREG] = {"main", "main->a->b",
						  "side (x)"};
	double vals[NREG][NP][MAXREP];
	int nrep[NREG][NP];
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
				"# generated\nPARAMETER x\nPARAMETER y\nPOINTS");
	for (int i = 0; i < NP; i++)
		len += (size_t)snprintf(text + len, cap - len, " ( %g %g )",
					px[i], py[i]);
	len += (size_t)snprintf(text + len, cap - len, "\nMETRIC time\n");
	for (int r = 0; r < NREG; r++) {
		len += (size_t)snprintf(text + len, cap - len, "REGION %s\n",
					regions[r]);
		for (int i = 0; i < NP; i++) {
			nrep[r][i] = 1 + rand() % MAXREP;
			len += (size_t)snprintf(text + len, cap - len, "DATA");
			for (int k = 0; k < nrep[r][i]; k++) {
				vals[r][i][k] = (double)rand() / RAND_MAX * 100;
				len += (size_t)snprintf(text + len, cap - len,
							"\t%.17g",
							vals[r][i][k]);
			}
			len += (size_t)snprintf(text + len, cap - len, "\n");
		}
	}
	struct model *m = NULL;
	struct error e = {0};
	assert_int_equal(extrap_text_parse(text, len, "gen.txt", &m, &e),
			 STATUS_OK);
	free(text);
	assert_int_equal(model_n_params(m), 2);
	assert_int_equal(model_n_points(m), NP);
	assert_int_equal(model_n_profiles(m), NP);
	assert_int_equal(model_n_measured(m), 1);
	for (uint32_t p = 1; p < NP; p++) {
		const double *a = model_point_coords(m, p - 1),
			     *b = model_point_coords(m, p);
		assert_true(a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]));
	}
	assert_string_equal(model_str(m, model_profiles(m)[NP - 1].label),
			    "x=4 y=20");
	uint32_t main_ = child(m, 0, "main"), a = child(m, main_, "a");
	uint32_t nodes[NREG] = {main_, child(m, a, "b"), child(m, 0, "side (x)")};
	assert_int_not_equal(a, MODEL_NONE);
	for (uint32_t p = 0; p < NP; p++)
		assert_null(model_measure_at(m, a, 0, p)); /* prefix only */
	uint32_t col = model_measured_column(m, 0);
	for (int r = 0; r < NREG; r++) {
		assert_int_not_equal(nodes[r], MODEL_NONE);
		double last_mean = (double)NAN;
		for (int i = 0; i < NP; i++) {
			/* the model point of file point i */
			uint32_t p = 0;
			while (p < NP && !(model_point_coords(m, p)[0] == px[i] &&
					   model_point_coords(m, p)[1] == py[i]))
				p++;
			assert_true(p < NP);
			const struct model_measure *ms =
				model_measure_at(m, nodes[r], 0, p);
			assert_non_null(ms);
			int n = nrep[r][i];
			double mean = ref_sum(vals[r][i], (size_t)n) / n;
			assert_true(ms->mean == mean);
			assert_int_equal(ms->repetitions, n);
			double lo = (double)INFINITY, hi = -(double)INFINITY;
			for (int k = 0; k < n; k++) {
				lo = fmin(lo, vals[r][i][k]);
				hi = fmax(hi, vals[r][i][k]);
			}
			assert_true(ms->minimum == lo && ms->maximum == hi);
			if (p == NP - 1)
				last_mean = mean;
		}
		double v;
		assert_true(model_value(m, nodes[r], col, &v));
		assert_true(v == last_mean);
		struct profile_value *pv = NULL;
		size_t n = 0;
		assert_int_equal(model_per_profile(m, nodes[r],
						   model_column_stat(m, col),
						   &pv, &n, &e),
				 STATUS_OK);
		assert_int_equal(n, NP);
		for (size_t k = 0; k < n; k++)
			assert_true(pv[k].value ==
				    model_measure_at(m, nodes[r], 0,
						     pv[k].profile)->mean);
		free(pv);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_generated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
