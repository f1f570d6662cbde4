/* Tests for trace_view's shares: of a grid and of one of its columns, the
 * merge of contexts by name, the legend's shares over every line's time
 * and the summary view's columns, sampled past a budget; over the fake
 * trace provider (tests/trace_fake.h), each against a nanosecond by
 * nanosecond recount from the fixture arrays. */
#include "config.h"

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

#include "trace_fake.h"

static void test_shares_and_summary(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_grid g = {0};
	trace_view_set_depth(v, 1);
	/* 12 rows for 10 lines: two rows without a line are not counted */
	assert_int_equal(trace_view_compute(v, 12, 64, &g, &err), STATUS_OK);
	struct trace_share *s = NULL;
	size_t n = 0;
	assert_int_equal(trace_grid_shares(m, &g, 24, &s, &n, &err),
			 STATUS_OK);
	uint64_t count[8] = {0}, total = 0;
	const struct trace_window *w = trace_view_window(v);
	for (uint32_t l = 0; l < N_LINES; l++)
		for (uint32_t k = 0; k < 64; k++) {
			uint32_t c = brute_depth(
				brute_ctx(f, l, cell_t(w->from, w->to, 64, k)), 1);
			count[c]++;
			total++;
		}
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s[i].cells, count[s[i].ctx]);
		if (i)
			assert_true(s[i - 1].cells >= s[i].cells);
		sum += s[i].cells;
	}
	assert_int_equal(sum, total);
	free(s);
	/* one column: the shares of the rows */
	assert_int_equal(trace_grid_column_shares(m, &g, 5, 24, &s, &n, &err),
			 STATUS_OK);
	uint64_t col[8] = {0};
	for (uint32_t l = 0; l < N_LINES; l++)
		col[brute_depth(brute_ctx(f, l, cell_t(w->from, w->to, 64, 5)), 1)]++;
	sum = 0;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s[i].cells, col[s[i].ctx]);
		sum += s[i].cells;
	}
	assert_int_equal(sum, N_LINES);
	free(s);
	assert_int_equal(trace_grid_column_shares(m, &g, 64, 24, &s, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	free(s);
	trace_grid_free(&g);
}

static void test_shares_merge_names(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	struct error err = {0};
	/* degenerate: no list, empty list, one entry */
	size_t n = 0;
	assert_int_equal(trace_shares_merge_names(m, NULL, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	struct trace_share one = {.ctx = 7, .color = 3, .cells = 9};
	n = 1;
	assert_int_equal(trace_shares_merge_names(m, &one, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	assert_int_equal(one.cells, 9);
	/* by hand: ctx 2 and ctx 7 are both "solve" (a function and an
	 * entry: two contexts, one colour); idle and the unnamed loop (3)
	 * and line (4) stay apart */
	struct trace_share list[] = {
		{.ctx = 1, .cells = 40}, {.ctx = 2, .cells = 30},
		{.ctx = 7, .cells = 25}, {.ctx = 0, .cells = 5},
		{.ctx = 3, .cells = 4},  {.ctx = 4, .cells = 4},
	};
	n = 6;
	assert_int_equal(trace_shares_merge_names(m, list, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 5);
	assert_int_equal(list[0].ctx, 2); /* solve: 30 + 25 = 55 */
	assert_int_equal(list[0].cells, 55);
	assert_int_equal(list[1].ctx, 1);
	assert_int_equal(list[1].cells, 40);
	assert_int_equal(list[2].ctx, 0);
	assert_int_equal(list[2].cells, 5);
	assert_int_equal(list[3].ctx, 3);
	assert_int_equal(list[4].ctx, 4);
	/* the grid at depth 1: the legend has one "solve" entry whose cells
	 * are those of ctx 2 and ctx 7 counted by brute force */
	struct trace_grid g = {0};
	trace_view_set_depth(v, 1);
	assert_int_equal(trace_view_compute(v, 10, 64, &g, &err), STATUS_OK);
	const struct trace_window *w = trace_view_window(v);
	uint64_t count[8] = {0};
	for (uint32_t l = 0; l < N_LINES; l++)
		for (uint32_t k = 0; k < 64; k++)
			count[brute_depth(
				brute_ctx(f, l, cell_t(w->from, w->to, 64, k)),
				1)]++;
	assert_true(count[2] > 0 && count[7] > 0);
	struct trace_share *s = NULL;
	assert_int_equal(trace_grid_shares(m, &g, 24, &s, &n, &err),
			 STATUS_OK);
	assert_int_equal(trace_shares_merge_names(m, s, &n, &err), STATUS_OK);
	uint64_t sum = 0;
	size_t solve = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(s[i - 1].cells >= s[i].cells);
		sum += s[i].cells;
		if (s[i].ctx == 2 || s[i].ctx == 7) {
			solve++;
			assert_int_equal(s[i].cells, count[2] + count[7]);
			assert_int_equal(s[i].ctx,
					 count[7] > count[2] ? 7 : 2);
			assert_int_equal(s[i].color,
					 trace_view_color(m, 2, 24));
		} else {
			assert_int_equal(s[i].cells, count[s[i].ctx]);
		}
	}
	assert_int_equal(solve, 1);
	assert_int_equal(sum, (uint64_t)N_LINES * 64);
	free(s);
	trace_grid_free(&g);
}

/* brute force: the time of each context at depth d over [from, to) on
 * every line, nanosecond by nanosecond; idle in [0] */
static void brute_shares(const struct fake *f, uint64_t from, uint64_t to,
			 uint32_t d, uint64_t out[8])
{
	memset(out, 0, 8 * sizeof(*out));
	for (uint32_t l = 0; l < N_LINES; l++)
		for (uint64_t t = from; t < to; t++)
			out[brute_depth(brute_ctx(f, l, t), d)]++;
}

/* The total of a share list's cells. */
static uint64_t share_sum(const struct trace_share *s, size_t n)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i].cells;
	return sum;
}

/* A share list against a recount: each context's time as counted, the
 * largest first, every context with time there; returns the total. */
static uint64_t check_share_list(const struct trace_share *s, size_t n,
				 const uint64_t want[8])
{
	for (size_t i = 0; i < n; i++) {
		assert_true(s[i].ctx < 8);
		assert_int_equal(s[i].cells, want[s[i].ctx]);
		if (i)
			assert_true(s[i - 1].cells >= s[i].cells);
	}
	for (uint32_t c = 0; c < 8; c++) {
		bool seen = false;
		for (size_t i = 0; i < n; i++)
			seen |= s[i].ctx == c;
		assert_true(seen == (want[c] > 0));
	}
	return share_sum(s, n);
}

static void assert_shares(const struct fixture *x)
{
	struct trace_view *v = x->v;
	struct trace_share *s = NULL;
	size_t n = 0;
	uint32_t counted = 0, lines = 0;
	struct error err = {0};
	const struct trace_window *w = trace_view_window(v);
	assert_int_equal(trace_view_shares(v, 24, &s, &n, &counted, &lines,
					   &err),
			 STATUS_OK);
	assert_int_equal(lines, N_LINES);
	assert_int_equal(counted, N_LINES);
	uint64_t want[8];
	brute_shares(x->f, w->from, w->to, w->depth, want);
	assert_int_equal(check_share_list(s, n, want),
			 (uint64_t)N_LINES * (w->to - w->from));
	free(s);
}

/* The legend's shares are over every line's time, not the rows drawn
 * (critique a2): the same at any grid size, equal to a nanosecond by
 * nanosecond recount, at any depth, zoomed and panned, with and without
 * an interval track (two fixtures); the maximum depth is over every line
 * too. */
static void test_window_shares(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_grid g = {0};
	for (uint32_t d = 0; d < 3; d++) {
		trace_view_set_depth(v, d);
		assert_shares(x);
	}
	/* a grid of 2 rows does not change them */
	assert_int_equal(trace_view_compute(v, 2, 7, &g, &err), STATUS_OK);
	assert_shares(x);
	/* the deepest context over every line: ctx 6, 3 frames, even when
	 * the 2 rows drawn do not show it */
	assert_int_equal(trace_view_max_depth(v), 2);
	trace_view_set_cursor(v, model_time_min(x->m) + 700, 5);
	assert_true(trace_view_zoom_time(v, 1, 3));
	assert_shares(x);
	assert_true(trace_view_pan_time(v, 1, 2));
	assert_shares(x);
	trace_view_set_depth(v, 0);
	assert_shares(x);
	trace_grid_free(&g);
}

/* Past the element budget lines are sampled and said so; what is counted
 * is whole lines' time. */
static void test_window_shares_sampled(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	trace_view_set_share_budget(v, 3 * N_SAMPLES);
	struct trace_share *s = NULL;
	size_t n = 0;
	uint32_t counted = 0, lines = 0;
	assert_int_equal(trace_view_shares(v, 24, &s, &n, &counted, &lines,
					   &err),
			 STATUS_OK);
	assert_int_equal(lines, N_LINES);
	assert_true(counted >= 1 && counted < N_LINES);
	const struct trace_window *w = trace_view_window(v);
	assert_int_equal(share_sum(s, n), (uint64_t)counted * (w->to - w->from));
	free(s);
	/* no budget: every line */
	trace_view_set_share_budget(v, 0);
	assert_shares(x);
}

/* Column k of `cols` of the summary view against a nanosecond by
 * nanosecond recount of its span over every line. */
static void assert_column_shares(const struct fixture *x, uint32_t cols)
{
	struct trace_view *v = x->v;
	const struct trace_window *w = trace_view_window(v);
	for (uint32_t k = 0; k < cols; k++) {
		struct trace_share *s = NULL;
		size_t n = 0;
		uint32_t counted = 0, lines = 0;
		struct error err = {0};
		assert_int_equal(trace_view_column_shares(v, cols, k, 24, &s,
							  &n, &counted, &lines,
							  &err),
				 STATUS_OK);
		assert_int_equal(lines, N_LINES);
		assert_int_equal(counted, N_LINES);
		uint64_t a = cell_t(w->from, w->to, cols, k);
		uint64_t b = k + 1 == cols ? w->to
					   : cell_t(w->from, w->to, cols, k + 1);
		uint64_t want[8];
		brute_shares(x->f, a, b, w->depth, want);
		assert_int_equal(check_share_list(s, n, want),
				 (uint64_t)N_LINES * (b - a));
		free(s);
	}
}

/* The summary view's columns are each column's time over every line, not
 * the rows drawn (issue 26): refused without columns; equal to a recount
 * of the column's span at any number of columns, depth, grid height,
 * zoomed and panned, with and without an interval track (two fixtures). */
static void test_column_shares(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_share *s = NULL;
	size_t n = 0;
	struct trace_grid g = {0};
	assert_int_equal(trace_view_column_shares(v, 0, 0, 24, &s, &n, NULL,
						  NULL, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(trace_view_column_shares(v, 4, 4, 24, &s, &n, NULL,
						  NULL, &err),
			 STATUS_USAGE);
	error_clear(&err);
	assert_null(s);
	static const uint32_t widths[] = {1, 7, 13, 64};
	for (uint32_t d = 0; d < 3; d++) {
		trace_view_set_depth(v, d);
		for (size_t i = 0; i < 4; i++)
			assert_column_shares(x, widths[i]);
	}
	/* grids of 2 and 9 rows do not change them */
	assert_int_equal(trace_view_compute(v, 2, 13, &g, &err), STATUS_OK);
	assert_column_shares(x, 13);
	assert_int_equal(trace_view_compute(v, 9, 13, &g, &err), STATUS_OK);
	assert_column_shares(x, 13);
	trace_view_set_cursor(v, model_time_min(x->m) + 700, 5);
	assert_true(trace_view_zoom_time(v, 1, 3));
	assert_column_shares(x, 13);
	assert_true(trace_view_pan_time(v, 1, 2));
	assert_column_shares(x, 7);
	trace_view_set_depth(v, 1);
	assert_column_shares(x, 7);
	trace_grid_free(&g);
}

/* Past the budget the summary view's columns are sampled as the legend
 * is: the legend's lines, each column whole lines' time. */
static void test_column_shares_sampled(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_share *s = NULL;
	size_t n = 0;
	uint32_t counted = 0, lines = 0;
	trace_view_set_share_budget(v, 3 * N_SAMPLES);
	uint32_t want_counted = 0;
	assert_int_equal(trace_view_shares(v, 24, &s, &n, &want_counted,
					   &lines, &err),
			 STATUS_OK);
	free(s);
	const struct trace_window *w = trace_view_window(v);
	for (uint32_t k = 0; k < 5; k++) {
		assert_int_equal(trace_view_column_shares(v, 5, k, 24, &s, &n,
							  &counted, &lines,
							  &err),
				 STATUS_OK);
		assert_int_equal(lines, N_LINES);
		assert_int_equal(counted, want_counted);
		assert_true(counted >= 1 && counted < N_LINES);
		uint64_t a = cell_t(w->from, w->to, 5, k);
		uint64_t b = k == 4 ? w->to : cell_t(w->from, w->to, 5, k + 1);
		assert_int_equal(share_sum(s, n), (uint64_t)counted * (b - a));
		free(s);
	}
	trace_view_set_share_budget(v, 0);
	assert_column_shares(x, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE(test_shares_and_summary, setup_samples),
		FIXTURE(test_shares_merge_names, setup_samples),
		FIXTURE(test_window_shares, setup_samples),
		FIXTURE(test_window_shares, setup_intervals),
		FIXTURE(test_window_shares_sampled, setup_samples),
		FIXTURE(test_column_shares, setup_samples),
		FIXTURE(test_column_shares, setup_intervals),
		FIXTURE(test_column_shares_sampled, setup_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
