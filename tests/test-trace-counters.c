/* Tests for trace_view's counter tracks: cells, levels, ranges, value
 * text, the grid's value rows, the cursor and next/previous change on a
 * hand-built model whose expected values are written out by hand or
 * recounted by a linear scan. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "views/trace_index.h"
#include "views/trace_view.h"
#include "case_tables.h"

#include "trace_fake.h"

/* ---- counter tracks ------------------------------------------------------
 * A hand-built model: line 0 samples, line 1 an empty counter, line 2 one
 * value, line 3 steps (two values at time 200: the later one is in force),
 * line 4 a flat counter.  Expected values are written out by hand for a
 * window [0, 800) of 8 columns (cells start at 0, 100, ..., 700) and
 * compared with a linear scan for a window of many columns. */
#define N_CLINES 5
static const uint64_t ct_n[N_CLINES] = {0, 0, 1, 5, 3};
static const uint64_t ct_time[N_CLINES][5] = {
	{0}, {0}, {500}, {100, 200, 200, 400, 700}, {100, 300, 600}};
static const double ct_value[N_CLINES][5] = {
	{0}, {0}, {3}, {1, 5, 2, 2, 9}, {4, 4, 4}};
static const struct trace_sample ct_samples[2] = {{.time = 0, .ctx_id = 1},
						  {.time = 400, .ctx_id = 5}};

static bool ct_sample(void *impl, uint32_t line, uint64_t i,
		      struct trace_sample *out)
{
	(void)impl;
	if (line != 0 || i >= 2)
		return false;
	*out = ct_samples[i];
	return true;
}

static bool ct_counter(void *impl, uint32_t line, uint64_t i, uint64_t *t,
		       double *v)
{
	uint64_t *reads = impl;
	if (line >= N_CLINES || i >= ct_n[line])
		return false;
	(*reads)++;
	*t = ct_time[line][i];
	*v = ct_value[line][i];
	return true;
}

static const struct trace_ops ct_ops = {.sample = ct_sample,
					.counter = ct_counter};

static struct model *make_counter_model(uint64_t *reads)
{
	struct model_builder *b = main_child_builder("counters", NODE_FUNCTION,
						     "io");
	struct model_timeline tl = {.profile = MODEL_NONE,
				    .kind = TIMELINE_SAMPLES, .count = 2};
	assert_int_equal(model_builder_add_timeline(b, &tl), 0);
	static const char *const labels[N_CLINES] = {"", "empty", "one",
						     "steps", "flat"};
	for (uint32_t l = 1; l < N_CLINES; l++)
		assert_int_equal(model_builder_add_counter(
					 b, MODEL_NONE, labels[l],
					 l == 3 ? "W" : NULL, ct_n[l]),
				 l);
	model_builder_set_time_range(b, 0, 799);
	model_builder_set_trace(b, &ct_ops, reads);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

/* brute force: the value of counter line l in force at t (NaN: none) */
static double brute_value(uint32_t l, uint64_t t)
{
	double v = NAN;
	for (uint64_t i = 0; i < ct_n[l]; i++)
		if (ct_time[l][i] <= t)
			v = ct_value[l][i];
	return v;
}

static void assert_value(double got, double want)
{
	if (isnan(want))
		assert_true(isnan(got));
	else
		assert_true(got == want);
}

static void test_counter_degenerate(void **state)
{
	(void)state;
	double v[4];
	uint64_t idx[4];
	/* no model, no columns */
	trace_counter_cells(NULL, 0, 0, 10, 4, v, idx);
	for (int k = 0; k < 4; k++) {
		assert_true(isnan(v[k]));
		assert_true(idx[k] == UINT64_MAX);
	}
	trace_counter_cells(NULL, 0, 0, 10, 0, v, NULL);
	/* levels: nothing, the ends, the middle, a flat track */
	assert_int_equal(trace_counter_level(NAN, 0, 1), 0);
	assert_int_equal(trace_counter_level(0, 0, 14), 1);
	assert_int_equal(trace_counter_level(14, 0, 14), 8);
	assert_int_equal(trace_counter_level(7, 0, 14), 5); /* 1 + 3.5 */
	assert_int_equal(trace_counter_level(2, 0, 14), 2); /* 1 + 1 */
	assert_int_equal(trace_counter_level(4, 4, 4), 8);
	assert_int_equal(trace_counter_level(0, 0, 0), 1);
	assert_int_equal(trace_counter_level(-3, -3, -3), 8);
	/* ranges: none, NaN skipped */
	double lo = 0, hi = 0;
	assert_false(trace_counter_range(v, 4, &lo, &hi));
	assert_false(trace_counter_range(v, 0, &lo, &hi));
	double some[4] = {NAN, 3, -1, NAN};
	assert_true(trace_counter_range(some, 4, &lo, &hi));
	assert_true(lo == -1 && hi == 3);
	/* value text */
	static const struct format_case texts[] = {
		{NAN, "-"},
		{1595, "1595"},
		{0, "0"},
		{0.1, "0.1"},
		{-2.5, "-2.5"},
		{1.5e20, "1.5e+20"},
		{123456789012.0, "123456789012"},
	};
	assert_formats("trace_format_value", trace_format_value, texts,
		       sizeof(texts) / sizeof(texts[0]));
}

static void test_counter_cells(void **state)
{
	(void)state;
	uint64_t reads = 0;
	struct model *m = make_counter_model(&reads);
	double v[8];
	uint64_t idx[8];
	/* the sample line and the empty counter: nothing */
	for (uint32_t l = 0; l < 2; l++) {
		trace_counter_cells(m, l, 0, 800, 8, v, idx);
		for (int k = 0; k < 8; k++)
			assert_true(isnan(v[k]) && idx[k] == UINT64_MAX);
	}
	/* one value at 500 */
	trace_counter_cells(m, 2, 0, 800, 8, v, idx);
	for (int k = 0; k < 8; k++)
		assert_value(v[k], k < 5 ? (double)NAN : 3);
	/* steps: before the first, the later of two at 200, held, 9 */
	static const double steps[8] = {(double)NAN, 1, 2, 2, 2, 2, 2, 9};
	static const uint64_t steps_i[8] = {UINT64_MAX, 0, 2, 2, 3, 3, 3, 4};
	trace_counter_cells(m, 3, 0, 800, 8, v, idx);
	for (int k = 0; k < 8; k++) {
		assert_value(v[k], steps[k]);
		assert_true(idx[k] == steps_i[k]);
	}
	/* flat */
	trace_counter_cells(m, 4, 0, 800, 8, v, NULL);
	for (int k = 0; k < 8; k++)
		assert_value(v[k], k == 0 ? (double)NAN : 4);
	double lo, hi;
	assert_true(trace_counter_range(v, 8, &lo, &hi));
	assert_true(lo == 4 && hi == 4);
	/* many columns against a linear scan; the cost stays a search per
	 * cell at most (log2 5 + 1 reads and a look at the next value) */
	enum { W = 997 };
	double big[W];
	for (uint32_t l = 0; l < N_CLINES; l++) {
		reads = 0;
		trace_counter_cells(m, l, 37, 911, W, big, NULL);
		for (uint32_t k = 0; k < W; k++)
			assert_value(big[k],
				     brute_value(l, cell_t(37, 911, W, k)));
		assert_true(reads <= (uint64_t)W * 6);
	}
	model_free(m);
}

static void test_counter_view(void **state)
{
	(void)state;
	uint64_t reads = 0;
	struct model *m = make_counter_model(&reads);
	struct trace_view *v = NULL;
	struct error err = {0};
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	assert_int_equal(trace_view_line_count(v), N_CLINES);
	assert_int_equal(trace_view_counters_in(v, 0, N_CLINES), 4);
	assert_int_equal(trace_view_counters_in(v, 0, 1), 0);
	assert_int_equal(trace_view_counters_in(v, 3, 4), 1);
	assert_int_equal(trace_view_counters_in(v, 4, 2), 0);
	assert_int_equal(trace_view_counters_in(v, 2, 99), 3);
	/* the grid: counter rows carry values, the sample row contexts (at
	 * depth 1: main, then io) */
	assert_true(trace_view_set_depth(v, 1));
	struct trace_grid g = {0};
	assert_int_equal(trace_view_compute(v, N_CLINES, 8, &g, &err),
			 STATUS_OK);
	for (uint32_t r = 0; r < N_CLINES; r++)
		for (uint32_t k = 0; k < 8; k++) {
			double want = r == 0 ? (double)NAN : brute_value(r, k * 100);
			assert_value(g.values[r * 8 + k], want);
			if (r)
				assert_int_equal(g.cells[r * 8 + k], 0);
		}
	/* shares count the sample line's 8 cells only: main 4, io 4 */
	struct trace_share *s = NULL;
	size_t n = 0;
	assert_int_equal(trace_grid_shares(m, &g, 6, &s, &n, &err),
			 STATUS_OK);
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].cells;
	assert_int_equal(total, 8);
	assert_int_equal(n, 2);
	free(s);
	assert_int_equal(trace_grid_column_shares(m, &g, 7, 6, &s, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].ctx, 5);
	assert_int_equal(s[0].cells, 1);
	free(s);
	/* the cursor: before the first value, then on the later of two */
	uint32_t line;
	uint64_t index, time;
	double value;
	trace_view_set_cursor(v, 50, 3);
	assert_false(trace_view_cursor_counter(v, &line, &index, &time, &value));
	trace_view_set_cursor(v, 250, 3);
	assert_true(trace_view_cursor_counter(v, &line, &index, &time, &value));
	assert_int_equal(line, 3);
	assert_int_equal(index, 2);
	assert_int_equal(time, 200);
	assert_true(value == 2);
	assert_string_equal(model_str(m, model_timelines(m)[3].unit), "W");
	trace_view_set_cursor(v, 250, 0); /* not a counter line */
	assert_false(trace_view_cursor_counter(v, &line, &index, &time, &value));
	trace_view_set_cursor(v, 250, 1); /* empty */
	assert_false(trace_view_cursor_counter(v, &line, &index, &time, &value));
	/* next / previous change of value: 1 @100, 2 @200 (5 hidden), 2 @400,
	 * 9 @700 */
	trace_view_set_cursor(v, 250, 3);
	assert_true(trace_view_next_change(v, true));
	assert_int_equal(trace_view_cursor_time(v), 700);
	assert_false(trace_view_next_change(v, true));
	assert_true(trace_view_next_change(v, false));
	assert_int_equal(trace_view_cursor_time(v), 200);
	assert_true(trace_view_next_change(v, false));
	assert_int_equal(trace_view_cursor_time(v), 100);
	assert_false(trace_view_next_change(v, false));
	trace_view_set_cursor(v, 50, 3); /* before the first: the first */
	assert_true(trace_view_next_change(v, true));
	assert_int_equal(trace_view_cursor_time(v), 100);
	trace_view_set_cursor(v, 150, 4); /* flat: no change */
	assert_false(trace_view_next_change(v, true));
	assert_true(trace_view_next_change(v, false));
	assert_int_equal(trace_view_cursor_time(v), 100);
	trace_view_set_cursor(v, 150, 1); /* empty */
	assert_false(trace_view_next_change(v, true));
	assert_false(trace_view_next_change(v, false));
	/* links: a counter track has no interval */
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_IDLE);
	/* line zoom and hide-empty keep counting counters */
	trace_view_set_cursor(v, 150, 3);
	assert_true(trace_view_zoom_lines(v, 1, 2));
	const struct trace_window *w = trace_view_window(v);
	assert_true(w->line_lo <= 3 && 3 < w->line_hi);
	assert_int_equal(trace_view_set_filter(v, NULL, true, &err), STATUS_OK);
	assert_int_equal(trace_view_line_count(v), N_CLINES - 1);
	assert_int_equal(trace_view_counters_in(v, 0, N_CLINES - 1), 3);
	assert_int_equal(trace_view_line(v, 1), 2);
	trace_grid_free(&g);
	trace_view_free(v);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_degenerate),
		cmocka_unit_test(test_counter_cells),
		cmocka_unit_test(test_counter_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
