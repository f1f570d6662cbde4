/* Tests for trace_view's GPU runs: lines grouped by queue or by stream,
 * instants in the grid and under the cursor, GPU lines showing their own
 * kernels at every depth, on a hand-built model of intervals. */
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

/* ---- GPU line groupings and instants -------------------------------------
 * Line 0 samples (no grouping), lines 1-2 by queue, lines 3-4 by stream,
 * line 5 by queue again (after the stream lines: the first grouped line
 * decides what shows first); each interval line has the same two
 * intervals, line 1 instants at 100, 150, 150 and 900. */
#define N_GLINES 6
static const uint8_t g_group[N_GLINES] = {
	TIMELINE_GROUP_NONE,   TIMELINE_GROUP_QUEUE,  TIMELINE_GROUP_QUEUE,
	TIMELINE_GROUP_STREAM, TIMELINE_GROUP_STREAM, TIMELINE_GROUP_QUEUE};
static const struct trace_interval g_iv[2] = {
	{.begin = 100, .end = 400, .ctx_id = 1},
	{.begin = 500, .end = 700, .ctx_id = 5}};
static const uint64_t g_inst[4] = {100, 150, 150, 900};

static bool g_sample(void *impl, uint32_t line, uint64_t i,
		     struct trace_sample *out)
{
	(void)impl;
	if (line != 0 || i > 0)
		return false;
	*out = (struct trace_sample){.time = 0, .ctx_id = 1};
	return true;
}

static bool g_interval(void *impl, uint32_t line, uint64_t i,
		       struct trace_interval *out)
{
	(void)impl;
	if (line == 0 || line >= N_GLINES || i >= 2)
		return false;
	*out = g_iv[i];
	return true;
}

static bool g_instant(void *impl, uint32_t line, uint64_t i,
		      struct trace_instant *out)
{
	(void)impl;
	if (line != 1 || i >= 4)
		return false;
	*out = (struct trace_instant){.time = g_inst[i], .event = i,
				      .name = (uint32_t)i};
	return true;
}

static const struct trace_ops g_ops = {.sample = g_sample,
				       .interval = g_interval,
				       .instant = g_instant};

static struct model *make_group_model(bool grouped)
{
	struct model_builder *b = main_child_builder("groups", NODE_KERNEL, "k");
	for (uint32_t l = 0; l < N_GLINES; l++) {
		struct model_timeline tl = {
			.profile = MODEL_NONE,
			.kind = l ? TIMELINE_INTERVALS : TIMELINE_SAMPLES,
			.count = l ? 2 : 1,
			.n_instants = l == 1 ? 4 : 0,
			.group = grouped ? g_group[l] : TIMELINE_GROUP_NONE};
		assert_int_equal(model_builder_add_timeline(b, &tl), l);
	}
	model_builder_set_time_range(b, 0, 999);
	model_builder_set_trace(b, &g_ops, NULL);
	struct model *m = model_builder_finish(b, NULL);
	assert_non_null(m);
	return m;
}

static void assert_lines(const struct trace_view *v, const uint32_t *want,
			 uint32_t n)
{
	assert_int_equal(trace_view_line_count(v), n);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(trace_view_line(v, i), want[i]);
}

static void test_gpu_groups(void **state)
{
	(void)state;
	struct error err = {0};
	struct trace_view *v = NULL;
	/* no groupings: every line, nothing to switch to */
	struct model *m = make_group_model(false);
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	assert_int_equal(trace_view_gpu_lines(v), TIMELINE_GROUP_NONE);
	assert_false(trace_view_has_gpu_lines(v, TIMELINE_GROUP_QUEUE));
	assert_false(trace_view_has_gpu_lines(v, TIMELINE_GROUP_NONE));
	assert_int_equal(trace_view_line_count(v), N_GLINES);
	assert_int_equal(trace_view_set_gpu_lines(v, TIMELINE_GROUP_STREAM,
						  &err),
			 STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(trace_view_line_count(v), N_GLINES);
	trace_view_free(v);
	model_free(m);
	/* by queue first (line 1), then by stream and back */
	m = make_group_model(true);
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	assert_int_equal(trace_view_gpu_lines(v), TIMELINE_GROUP_QUEUE);
	assert_true(trace_view_has_gpu_lines(v, TIMELINE_GROUP_QUEUE));
	assert_true(trace_view_has_gpu_lines(v, TIMELINE_GROUP_STREAM));
	static const uint32_t queue[] = {0, 1, 2, 5}, stream[] = {0, 3, 4};
	assert_lines(v, queue, 4);
	trace_view_set_cursor(v, 200, 2); /* on queue line 2 */
	assert_int_equal(trace_view_set_gpu_lines(v, TIMELINE_GROUP_STREAM,
						  &err),
			 STATUS_OK);
	assert_lines(v, stream, 3);
	assert_int_equal(trace_view_line(v, trace_view_cursor_line(v)), 3);
	assert_int_equal(trace_view_window(v)->line_hi, 3);
	/* the same grouping again: nothing changes */
	assert_int_equal(trace_view_set_gpu_lines(v, TIMELINE_GROUP_STREAM,
						  &err),
			 STATUS_OK);
	assert_lines(v, stream, 3);
	/* a host cursor stays on its line */
	trace_view_set_cursor(v, 200, 0);
	assert_int_equal(trace_view_set_gpu_lines(v, TIMELINE_GROUP_QUEUE,
						  &err),
			 STATUS_OK);
	assert_lines(v, queue, 4);
	assert_int_equal(trace_view_cursor_line(v), 0);
	/* with the empty-line filter, switching keeps it */
	assert_int_equal(trace_view_set_filter(v, "", true, &err), STATUS_OK);
	assert_int_equal(trace_view_set_gpu_lines(v, TIMELINE_GROUP_STREAM,
						  &err),
			 STATUS_OK);
	assert_lines(v, stream, 3);
	trace_view_free(v);
	model_free(m);
}

static void test_grid_instants(void **state)
{
	(void)state;
	struct error err = {0};
	struct trace_view *v = NULL;
	struct model *m = make_group_model(true);
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	struct trace_grid g = {0};
	uint32_t cols = 20; /* cells of 50 ns over [0, 1000) */
	assert_int_equal(trace_view_compute(v, 4, cols, &g, &err), STATUS_OK);
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t k = 0; k < cols; k++) {
			uint64_t a = cell_t(0, 1000, cols, k), b = a + 50;
			uint64_t want = UINT64_MAX;
			for (uint64_t i = 0; r == 1 && i < 4 && want == UINT64_MAX;
			     i++)
				if (g_inst[i] >= a && g_inst[i] < b)
					want = i;
			assert_true(g.instants[(size_t)r * cols + k] == want);
			/* the intervals' cells are as without instants */
			uint32_t ctx = 0;
			for (int i = 0; r > 0 && i < 2; i++)
				if (g_iv[i].begin <= a && a < g_iv[i].end)
					ctx = g_iv[i].ctx_id;
			if (r > 0)
				assert_int_equal(g.raw[(size_t)r * cols + k],
						 ctx);
		}
	/* the cursor's cell: at 150 two instants, at 120 one in [100, 150),
	 * none at 600 or on another line */
	uint32_t line;
	uint64_t index, count;
	struct trace_instant in;
	trace_view_set_cursor(v, 150, 1);
	assert_true(trace_view_cursor_instant(v, cols, &line, &index, &count,
					      &in));
	assert_int_equal(line, 1);
	assert_true(index == 1 && count == 2 && in.time == 150);
	trace_view_set_cursor(v, 120, 1);
	assert_true(trace_view_cursor_instant(v, cols, &line, &index, &count,
					      &in));
	assert_true(index == 0 && count == 1 && in.time == 100);
	trace_view_set_cursor(v, 600, 1);
	assert_false(trace_view_cursor_instant(v, cols, &line, &index, &count,
					       &in));
	trace_view_set_cursor(v, 150, 2);
	assert_false(trace_view_cursor_instant(v, cols, &line, &index, &count,
					       &in));
	/* a depth view has none */
	assert_int_equal(trace_view_compute_depth(v, 3, cols, &g, &err),
			 STATUS_OK);
	for (size_t i = 0; i < (size_t)3 * cols; i++)
		assert_true(g.instants[i] == UINT64_MAX);
	trace_grid_free(&g);
	trace_view_free(v);
	model_free(m);
}

/* A GPU run (lines grouped by queue or stream): GPU lines show their own
 * kernels at every depth, in the shares and in trace_cells (critique b8:
 * one colour per process at depth 0), and the view opens at the depth
 * below the entries (host lines show their calls). */
static void test_gpu_own_context(void **state)
{
	(void)state;
	struct error err = {0};
	struct trace_view *v = NULL;
	struct model *m = make_group_model(true);
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	/* "main" is an entry node one deep: the first depth is 1 */
	assert_int_equal(trace_view_window(v)->depth, 1);
	assert_true(trace_line_own_context(m, 1));
	assert_false(trace_line_own_context(m, 0));
	assert_false(trace_line_own_context(m, N_GLINES));
	for (uint32_t d = 0; d < 2; d++) {
		trace_view_set_depth(v, d);
		struct trace_share *s = NULL;
		size_t n = 0;
		uint32_t counted = 0, lines = 0;
		assert_int_equal(trace_view_shares(v, 24, &s, &n, &counted,
						   &lines, &err),
				 STATUS_OK);
		/* lines 0 (host: ctx 1 from 0 on), 1, 2, 5 (queues: ctx 1
		 * in [100, 400), kernel 5 in [500, 700)) over [0, 1000) */
		assert_int_equal(lines, 4);
		assert_int_equal(counted, 4);
		uint64_t want[6] = {[0] = 3 * 500, [1] = 1000 + 3 * 300,
				    [5] = 3 * 200};
		assert_int_equal(n, 3);
		for (size_t i = 0; i < n; i++) {
			assert_true(s[i].ctx < 6);
			assert_int_equal(s[i].cells, want[s[i].ctx]);
		}
		free(s);
		uint32_t cells[10];
		trace_cells(m, 1, 0, 1000, 10, d, cells);
		assert_int_equal(cells[5], 5);
		assert_int_equal(cells[1], 1);
		assert_int_equal(cells[4], 0);
	}
	trace_view_free(v);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_groups),
		cmocka_unit_test(test_grid_instants),
		cmocka_unit_test(test_gpu_own_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
