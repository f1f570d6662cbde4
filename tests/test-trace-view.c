/* Tests for trace_view: the grid, representatives, navigation, depth and
 * summary views, statistics, next/previous change, colours, the line
 * filter, interval tracks and counter tracks, GPU line groupings and
 * instants, over fake trace providers.  Every answer is
 * checked against a brute-force recomputation from the fixture arrays
 * (linear scans), never against the code's own output. */
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

#define N_LINES 10
#define N_SAMPLES 200

/* Contexts: root -> main(1, entry) -> solve(2, fn) -> loop(3) -> line(4);
 * main -> io(5, fn) -> write(6, fn); root -> other(7, entry, named
 * "solve" too: same name, same colour). */
struct fake {
	struct trace_sample samples[N_LINES][N_SAMPLES];
	uint64_t counts[N_LINES];
	struct trace_interval intervals[8];
	uint64_t n_intervals;
	uint32_t interval_line; /* which line is an interval track */
	uint64_t reads;
};

static bool fake_sample(void *impl, uint32_t line, uint64_t i,
			struct trace_sample *out)
{
	struct fake *f = impl;
	if (line >= N_LINES || i >= f->counts[line])
		return false;
	f->reads++;
	*out = f->samples[line][i];
	return true;
}

static bool fake_interval(void *impl, uint32_t line, uint64_t i,
			  struct trace_interval *out)
{
	struct fake *f = impl;
	if (line != f->interval_line || i >= f->n_intervals)
		return false;
	f->reads++;
	*out = f->intervals[i];
	return true;
}

static const struct trace_ops fake_ops = {.sample = fake_sample,
					  .interval = fake_interval};

static const uint32_t ctx_pool[] = {0, 1, 2, 3, 4, 5, 6, 7};
/* frames of each ctx from the outermost: (ctx -> chain of frame ctxs) */
static const uint32_t chains[8][3] = {
	{0}, {1}, {1, 2}, {1, 2}, {1, 2}, {1, 5}, {1, 5, 6}, {7},
};
static const uint32_t chain_len[8] = {0, 1, 2, 2, 2, 2, 3, 1};

static uint32_t brute_depth(uint32_t ctx, uint32_t d)
{
	if (ctx == 0)
		return 0;
	uint32_t n = chain_len[ctx];
	return chains[ctx][d < n ? d : n - 1];
}

static void fill(struct fake *f, bool with_intervals)
{
	memset(f, 0, sizeof(*f));
	uint32_t seed = 12345;
	for (uint32_t l = 0; l < N_LINES; l++) {
		/* line 3 is empty, line 4 has one sample, others many with
		 * equal consecutive timestamps now and then */
		f->counts[l] = l == 3 ? 0 : l == 4 ? 1 : N_SAMPLES;
		uint64_t t = 1000 + l * 7;
		for (uint64_t i = 0; i < f->counts[l]; i++) {
			seed = seed * 1103515245u + 12345u;
			uint32_t r = seed >> 16;
			if (r % 5 != 0)
				t += 1 + r % 23;
			f->samples[l][i] = (struct trace_sample){
				.time = t, .ctx_id = ctx_pool[r % 8]};
		}
	}
	f->interval_line = with_intervals ? 9 : UINT32_MAX;
	if (with_intervals) {
		/* kernels: [1100,1200) ctx 2, [1300,1310) ctx 6,
		 * [1310,1500) ctx 7, [2000,2001) ctx 5 */
		const struct trace_interval iv[] = {
			{.begin = 1100, .end = 1200, .ctx_id = 2},
			{.begin = 1300, .end = 1310, .ctx_id = 6},
			{.begin = 1310, .end = 1500, .ctx_id = 7},
			{.begin = 2000, .end = 2001, .ctx_id = 5}};
		memcpy(f->intervals, iv, sizeof(iv));
		f->n_intervals = 4;
	}
}

static bool reversed_ids;

static struct model *make_model(struct fake *f)
{
	struct model_builder *b = model_builder_new("fake", "fake");
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE};
	uint32_t name_main = model_builder_intern(b, "main", 4);
	uint32_t name_solve = model_builder_intern(b, "solve", 5);
	uint32_t name_io = model_builder_intern(b, "io", 2);
	uint32_t name_write = model_builder_intern(b, "write", 5);
	uint32_t rank = model_builder_intern(b, "RANK", 4);
	uint32_t thread = model_builder_intern(b, "THREAD", 6);
	n.kind = NODE_ENTRY, n.ctx_id = 1, n.name = name_main;
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 2, n.name = name_solve;
	uint32_t s = model_builder_add_node(b, e, &n);
	n.kind = NODE_LOOP, n.ctx_id = 3, n.name = 0;
	uint32_t lp = model_builder_add_node(b, s, &n);
	n.kind = NODE_LINE, n.ctx_id = 4;
	model_builder_add_node(b, lp, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 5, n.name = name_io;
	uint32_t io = model_builder_add_node(b, e, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 6, n.name = name_write;
	model_builder_add_node(b, io, &n);
	n.kind = NODE_ENTRY, n.ctx_id = 7, n.name = name_solve;
	model_builder_add_node(b, 0, &n);
	uint64_t tmin = UINT64_MAX, tmax = 0;
	for (uint32_t l = 0; l < N_LINES; l++) {
		/* RANK l/2 THREAD l%2 (reversed_ids: line l has line
		 * N_LINES-1-l's tuple, the model's order the reverse of the
		 * tuples') */
		uint32_t id = reversed_ids ? N_LINES - 1 - l : l;
		struct model_id ids[2] = {
			{.kind_name = rank, .logical_id = id / 2},
			{.kind_name = thread, .logical_id = id % 2},
		};
		uint32_t p = model_builder_add_profile(b, false, ids, 2, NULL);
		bool iv = l == f->interval_line;
		struct model_timeline tl = {
			.profile = p,
			.kind = iv ? TIMELINE_INTERVALS : TIMELINE_SAMPLES,
			.count = iv ? f->n_intervals : f->counts[l]};
		model_builder_add_timeline(b, &tl);
		for (uint64_t i = 0; i < tl.count; i++) {
			uint64_t t = iv ? f->intervals[i].begin
					: f->samples[l][i].time;
			tmin = t < tmin ? t : tmin;
			tmax = t > tmax ? t : tmax;
		}
	}
	model_builder_set_time_range(b, tmin, tmax);
	model_builder_set_trace(b, &fake_ops, f);
	struct error err = {0};
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	return m;
}

/* The fixture of most tests: the fake provider filled, its model and a
 * view over it, made by a setup and freed by the teardown. */
struct fixture {
	struct fake *f;
	struct model *m;
	struct trace_view *v;
};

static int fixture_open(void **state, bool with_intervals)
{
	struct fixture *x = calloc(1, sizeof(*x));
	assert_non_null(x);
	x->f = malloc(sizeof(*x->f));
	assert_non_null(x->f);
	fill(x->f, with_intervals);
	x->m = make_model(x->f);
	struct error err = {0};
	assert_int_equal(trace_view_new(x->m, &x->v, &err), STATUS_OK);
	*state = x;
	return 0;
}

static int setup_samples(void **state)
{
	return fixture_open(state, false);
}

static int setup_intervals(void **state)
{
	return fixture_open(state, true);
}

/* the model's order the reverse of the lines' identifier tuples */
static int setup_reversed(void **state)
{
	reversed_ids = true;
	int r = fixture_open(state, false);
	reversed_ids = false;
	return r;
}

static int teardown(void **state)
{
	struct fixture *x = *state;
	trace_view_free(x->v);
	model_free(x->m);
	free(x->f);
	free(x);
	return 0;
}

/* brute force: the context of line l at time t (raw) */
static uint32_t brute_ctx(const struct fake *f, uint32_t l, uint64_t t)
{
	if (l == f->interval_line) {
		uint32_t c = 0;
		for (uint64_t i = 0; i < f->n_intervals; i++)
			if (f->intervals[i].begin <= t)
				c = t < f->intervals[i].end
					    ? f->intervals[i].ctx_id
					    : 0;
		return c;
	}
	uint32_t c = 0;
	for (uint64_t i = 0; i < f->counts[l]; i++)
		if (f->samples[l][i].time <= t)
			c = f->samples[l][i].ctx_id;
	return c;
}

static uint64_t cell_t(uint64_t from, uint64_t to, uint32_t cols,
		       uint32_t k)
{
	return from + (to - from) * k / cols;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct trace_view *v = NULL;
	struct error err = {0};
	assert_int_equal(trace_view_new(NULL, &v, &err), STATUS_UNSUPPORTED);
	error_clear(&err);
	struct model_builder *b = model_builder_new("fake", "none");
	struct model *m = model_builder_finish(b, &err);
	assert_non_null(m);
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_UNSUPPORTED);
	assert_null(v);
	error_clear(&err);
	model_free(m);
	trace_view_free(NULL);
	trace_grid_free(NULL);
	char buf[32];
	trace_format_duration(0, true, buf, sizeof(buf));
	assert_string_equal(buf, "0 ns");
	trace_format_duration(1500000000, true, buf, sizeof(buf));
	assert_string_equal(buf, "1.5 s");
	trace_format_duration(250000000, false, buf, sizeof(buf));
	assert_string_equal(buf, "250 ms");
	trace_format_duration(12300, false, buf, sizeof(buf));
	assert_string_equal(buf, "12.3 us");
	trace_format_duration(12300, true, buf, sizeof(buf));
	assert_string_equal(buf, "12.3 \xc2\xb5s");
}

static void check_grid(const struct fake *f, const struct trace_view *v,
		       const struct trace_grid *g, uint32_t rows,
		       uint32_t cols)
{
	const struct trace_window *w = trace_view_window(v);
	uint32_t n = w->line_hi - w->line_lo;
	for (uint32_t r = 0; r < rows; r++) {
		/* representative: the first line of the row's range */
		uint32_t want_line =
			n <= rows ? (r < n ? w->line_lo + r : MODEL_NONE)
				  : w->line_lo + r * n / rows;
		uint32_t want_tl = want_line == MODEL_NONE
					   ? MODEL_NONE
					   : trace_view_line(v, want_line);
		assert_int_equal(g->row_line[r], want_tl);
		for (uint32_t k = 0; k < cols; k++) {
			uint64_t t = cell_t(w->from, w->to, cols, k);
			uint32_t raw = want_tl == MODEL_NONE
					       ? 0
					       : brute_ctx(f, want_tl, t);
			assert_int_equal(g->raw[r * cols + k], raw);
			assert_int_equal(g->cells[r * cols + k],
					 brute_depth(raw, w->depth));
		}
	}
}

static void test_grid_matches_brute_force(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_grid g = {0};
	/* rows fewer than, equal to and more than the lines; columns
	 * narrower than samples and wider than the range */
	const uint32_t rows[] = {1, 3, 10, 14};
	const uint32_t cols[] = {1, 7, 80, 5000};
	for (uint32_t depth = 0; depth < 4; depth++) {
		trace_view_set_depth(v, depth);
		for (size_t i = 0; i < 4; i++)
			for (size_t j = 0; j < 4; j++) {
				assert_int_equal(trace_view_compute(v, rows[i], cols[j], &g, &err), STATUS_OK);
				check_grid(f, v, &g, rows[i], cols[j]);
			}
	}
	/* zoomed in on a narrow slice and a line range */
	trace_view_set_cursor(v, 1300, 5);
	assert_true(trace_view_zoom_time(v, 1, 50));
	assert_true(trace_view_zoom_lines(v, 1, 2));
	assert_int_equal(trace_view_compute(v, 3, 40, &g, &err), STATUS_OK);
	check_grid(f, v, &g, 3, 40);
	assert_true(trace_view_window(v)->from <= 1300);
	assert_true(trace_view_window(v)->to > 1300);
	trace_grid_free(&g);
}

static void test_rows_and_lines(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	for (uint32_t rows = 1; rows <= 12; rows++)
		for (uint32_t line = 0; line < N_LINES; line++) {
			uint32_t r = trace_view_line_row(v, rows, line);
			assert_true(r < rows);
			/* the row's range holds the line */
			uint32_t first = trace_view_row_line(v, rows, r);
			assert_true(first <= line);
			uint32_t next = trace_view_row_line(v, rows, r + 1);
			if (next != MODEL_NONE)
				assert_true(line < next);
		}
	assert_int_equal(trace_view_row_line(v, 0, 0), MODEL_NONE);
	assert_int_equal(trace_view_row_line(v, 20, 10), MODEL_NONE);
}

static void test_navigation_and_undo(void **state)
{
	struct fixture *x = *state;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	struct trace_window home = *trace_view_window(v);
	assert_int_equal(home.from, model_time_min(m));
	assert_int_equal(home.to, model_time_max(m) + 1);
	assert_false(trace_view_home(v));     /* already home */
	assert_false(trace_view_undo(v));     /* nothing to undo */
	assert_false(trace_view_zoom_time(v, 2, 1)); /* cannot zoom out */
	uint64_t mid = (home.from + home.to) / 2;
	trace_view_set_cursor(v, mid, 0);
	assert_true(trace_view_zoom_time(v, 1, 2));
	struct trace_window z = *trace_view_window(v);
	assert_true(z.to - z.from == (home.to - home.from) / 2);
	/* the cursor keeps its relative place */
	assert_true(z.from <= mid && mid < z.to);
	assert_true(trace_view_pan_time(v, 1, 4));
	struct trace_window p = *trace_view_window(v);
	assert_int_equal(p.from, z.from + (z.to - z.from) / 4);
	assert_int_equal(p.to - p.from, z.to - z.from);
	/* pan far right clamps at the end */
	for (int i = 0; i < 20; i++)
		trace_view_pan_time(v, 1, 1);
	assert_int_equal(trace_view_window(v)->to, home.to);
	/* undo walks back, redo forward */
	while (trace_view_undo(v))
		;
	assert_int_equal(trace_view_window(v)->from, home.from);
	assert_int_equal(trace_view_window(v)->to, home.to);
	assert_true(trace_view_redo(v));
	assert_int_equal(trace_view_window(v)->to - trace_view_window(v)->from,
			 z.to - z.from);
	/* mark and zoom to it */
	trace_view_home(v);
	trace_view_set_cursor(v, 1100, 0);
	trace_view_mark(v);
	uint64_t mt;
	assert_true(trace_view_has_mark(v, &mt));
	assert_int_equal(mt, 1100);
	trace_view_set_cursor(v, 1500, 0);
	assert_true(trace_view_zoom_to_mark(v));
	assert_int_equal(trace_view_window(v)->from, 1100);
	assert_int_equal(trace_view_window(v)->to, 1501);
	assert_false(trace_view_has_mark(v, NULL));
	/* line zoom and pan */
	trace_view_home(v);
	trace_view_set_cursor(v, 1100, 8);
	assert_true(trace_view_zoom_lines(v, 1, 5));
	assert_int_equal(trace_view_window(v)->line_hi -
				 trace_view_window(v)->line_lo,
			 2);
	assert_true(trace_view_window(v)->line_lo <= 8 &&
		    8 < trace_view_window(v)->line_hi);
	assert_true(trace_view_pan_lines(v, -100));
	assert_int_equal(trace_view_window(v)->line_lo, 0);
	assert_int_equal(trace_view_cursor_line(v), 1);
	/* the undo stack is bounded */
	for (int i = 0; i < 3 * TRACE_VIEW_UNDO; i++)
		trace_view_set_depth(v, (uint32_t)(i % 7 + 1));
	int undos = 0;
	while (trace_view_undo(v))
		undos++;
	assert_int_equal(undos, TRACE_VIEW_UNDO);
	/* depth changes are undoable */
	trace_view_set_depth(v, 2);
	trace_view_set_depth(v, 3);
	assert_true(trace_view_undo(v));
	assert_int_equal(trace_view_window(v)->depth, 2);
}

static void test_next_change(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	for (uint32_t depth = 0; depth < 3; depth++) {
		trace_view_home(v);
		trace_view_set_depth(v, depth);
		/* forward from before the start to the end of line 0 */
		trace_view_set_cursor(v, model_time_min(m), 0);
		uint64_t t = model_time_min(m);
		for (;;) {
			/* brute force: the first element time after t at
			 * which the context shown differs from t's */
			uint32_t here = brute_depth(brute_ctx(f, 0, t), depth);
			uint64_t want = 0;
			bool have = false;
			for (uint64_t i = 0; i < f->counts[0]; i++) {
				const struct trace_sample *s = &f->samples[0][i];
				if (s->time > t &&
				    brute_depth(brute_ctx(f, 0, s->time), depth) != here) {
					want = s->time;
					have = true;
					break;
				}
			}
			bool got = trace_view_next_change(v, true);
			assert_int_equal(got, have);
			if (!got)
				break;
			t = trace_view_cursor_time(v);
			assert_int_equal(t, want);
		}
		/* and back: each step lands on the start of a run */
		int steps = 0;
		while (trace_view_next_change(v, false)) {
			uint64_t c = trace_view_cursor_time(v);
			/* brute force: the context shown just before c
			 * differs from the one shown at c */
			assert_int_not_equal(
				brute_depth(brute_ctx(f, 0, c - 1), depth),
				brute_depth(brute_ctx(f, 0, c), depth));
			/* and it is an element time */
			bool is_elem = false;
			for (uint64_t i = 0; i < f->counts[0]; i++)
				is_elem |= f->samples[0][i].time == c;
			assert_true(is_elem);
			steps++;
		}
		assert_true(steps > 0);
	}
	/* the empty line has no change */
	trace_view_set_cursor(v, model_time_min(m), 3);
	assert_false(trace_view_next_change(v, true));
}

static void test_depth_view(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_grid g = {0};
	trace_view_set_cursor(v, model_time_min(m), 6);
	assert_int_equal(trace_view_compute_depth(v, 4, 50, &g, &err),
			 STATUS_OK);
	const struct trace_window *w = trace_view_window(v);
	for (uint32_t d = 0; d < 4; d++)
		for (uint32_t k = 0; k < 50; k++) {
			uint32_t raw = brute_ctx(f, 6, cell_t(w->from, w->to, 50, k));
			uint32_t want = d < chain_len[raw] ? chains[raw][d] : 0;
			assert_int_equal(g.cells[d * 50 + k], want);
		}
	/* max depth seen: ctx 6 has three frames */
	assert_int_equal(trace_view_compute(v, 10, 200, &g, &err), STATUS_OK);
	assert_int_equal(trace_view_max_depth(v), 2);
	trace_grid_free(&g);
}

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

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void test_colors(void **state)
{
	struct model *m = ((struct fixture *)*state)->m;
	assert_int_equal(trace_view_color(m, 0, 24), 0);
	/* ctx 2 and ctx 7 are both named "solve" */
	assert_int_equal(trace_view_color(m, 2, 24), 1 + fnv("solve") % 24);
	assert_int_equal(trace_view_color(m, 7, 24), 1 + fnv("solve") % 24);
	assert_int_equal(trace_view_color(m, 1, 24), 1 + fnv("main") % 24);
	assert_int_equal(trace_view_color(m, 6, 7), 1 + fnv("write") % 7);
	for (uint32_t c = 1; c < 8; c++) {
		uint32_t k = trace_view_color(m, c, 24);
		assert_true(k >= 1 && k <= 24);
	}
	assert_true(trace_ctx_under(m, 4, model_node_of_ctx(m, 2)));
	assert_true(trace_ctx_under(m, 4, model_node_of_ctx(m, 4)));
	assert_false(trace_ctx_under(m, 6, model_node_of_ctx(m, 2)));
	assert_false(trace_ctx_under(m, 0, 0));
	/* the aggregated views' rows: every context of the row's function
	 * (by name here: the fixture's functions have no index), line, ... */
	for (uint32_t c = 0; c <= 8; c++) {
		struct trace_match t = trace_match_make(
			m, model_node_of_ctx(m, 2), TRACE_MATCH_NODE);
		assert_int_equal(trace_ctx_matches(m, c, &t),
				 trace_ctx_under(m, c, model_node_of_ctx(m, 2)));
	}
	struct trace_match fn = trace_match_make(m, model_node_of_ctx(m, 6),
						 TRACE_MATCH_FUNCTION);
	assert_true(trace_ctx_matches(m, 6, &fn));
	assert_false(trace_ctx_matches(m, 5, &fn));  /* io, above write */
	assert_false(trace_ctx_matches(m, 4, &fn));
	struct trace_match solve = trace_match_make(
		m, model_node_of_ctx(m, 2), TRACE_MATCH_FUNCTION);
	assert_true(trace_ctx_matches(m, 4, &solve)); /* under solve (2) */
	/* entry 7 is named solve too, but an entry is not the function */
	assert_false(trace_ctx_matches(m, 7, &solve));
	struct trace_match none = trace_match_make(m, MODEL_NONE,
						   TRACE_MATCH_FUNCTION);
	assert_false(trace_ctx_matches(m, 4, &none));
}

static void test_filter(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	assert_int_equal(trace_view_set_filter(v, "RANK 1-2 THREAD 0", false, &err), STATUS_OK);
	/* lines l with l/2 in 1..2 and l%2 == 0: 2, 4 */
	assert_int_equal(trace_view_line_count(v), 2);
	assert_int_equal(trace_view_line(v, 0), 2);
	assert_int_equal(trace_view_line(v, 1), 4);
	assert_int_equal(trace_view_set_filter(v, "thread 1", false, &err), STATUS_OK);
	assert_int_equal(trace_view_line_count(v), 5);
	assert_int_equal(trace_view_set_filter(v, "RANK 0-7", true, &err), STATUS_OK);
	/* line 3 is empty */
	assert_int_equal(trace_view_line_count(v), 9);
	for (uint32_t i = 0; i < 9; i++)
		assert_int_not_equal(trace_view_line(v, i), 3);
	assert_int_equal(trace_view_set_filter(v, "RANK", false, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(trace_view_set_filter(v, "RANK x", false, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(trace_view_set_filter(v, "RANK 3-1", false, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(trace_view_set_filter(v, "RANK 99", false, &err), STATUS_NOT_FOUND);
	error_clear(&err);
	assert_int_equal(trace_view_line_count(v), 9); /* unchanged */
	assert_int_equal(trace_view_set_filter(v, "", false, &err), STATUS_OK);
	assert_int_equal(trace_view_line_count(v), N_LINES);
}

static void test_intervals(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_sample s;
	uint64_t idx;
	assert_false(trace_sample_at(m, 9, 1099, &s, &idx));
	assert_true(trace_sample_at(m, 9, 1100, &s, &idx));
	assert_int_equal(s.ctx_id, 2);
	assert_true(trace_sample_at(m, 9, 1250, &s, &idx)); /* in a gap */
	assert_int_equal(s.ctx_id, 0);
	assert_int_equal(idx, 0);
	assert_true(trace_sample_at(m, 9, 1310, &s, &idx)); /* back to back */
	assert_int_equal(s.ctx_id, 7);
	assert_true(trace_sample_at(m, 9, 5000, &s, &idx)); /* after the end */
	assert_int_equal(s.ctx_id, 0);
	uint32_t cells[1000];
	trace_cells(m, 9, 1000, 2100, 1000, UINT32_MAX, cells);
	for (uint32_t k = 0; k < 1000; k++)
		assert_int_equal(cells[k],
				 brute_ctx(f, 9, cell_t(1000, 2100, 1000, k)));
	struct trace_bounds b;
	assert_true(trace_bounds_read(m, 9, &b));
	uint64_t t;
	assert_true(trace_next_change(m, 9, &b, 1150, UINT32_MAX, true, 100, &t));
	assert_int_equal(t, 1300);
}

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
	struct model_builder *b = model_builder_new("fake", "counters");
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_ENTRY,
			       .ctx_id = 1};
	n.name = model_builder_intern(b, "main", 4);
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = NODE_FUNCTION, n.ctx_id = 5;
	n.name = model_builder_intern(b, "io", 2);
	model_builder_add_node(b, e, &n);
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
	char buf[40];
	trace_format_value(NAN, buf, sizeof(buf));
	assert_string_equal(buf, "-");
	trace_format_value(1595, buf, sizeof(buf));
	assert_string_equal(buf, "1595");
	trace_format_value(0, buf, sizeof(buf));
	assert_string_equal(buf, "0");
	trace_format_value(0.1, buf, sizeof(buf));
	assert_string_equal(buf, "0.1");
	trace_format_value(-2.5, buf, sizeof(buf));
	assert_string_equal(buf, "-2.5");
	trace_format_value(1.5e20, buf, sizeof(buf));
	assert_string_equal(buf, "1.5e+20");
	trace_format_value(123456789012.0, buf, sizeof(buf));
	assert_string_equal(buf, "123456789012");
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
	struct model_builder *b = model_builder_new("fake", "groups");
	assert_non_null(b);
	struct model_node n = {.function = MODEL_NONE, .kind = NODE_ENTRY,
			       .ctx_id = 1};
	n.name = model_builder_intern(b, "main", 4);
	uint32_t e = model_builder_add_node(b, 0, &n);
	n.kind = NODE_KERNEL, n.ctx_id = 5;
	n.name = model_builder_intern(b, "k", 1);
	model_builder_add_node(b, e, &n);
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

static void assert_shares(struct trace_view *v, const struct fake *f)
{
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
	brute_shares(f, w->from, w->to, w->depth, want);
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
	const struct fake *f = x->f;
	struct model *m = x->m;
	struct trace_view *v = x->v;
	struct error err = {0};
	struct trace_grid g = {0};
	for (uint32_t d = 0; d < 3; d++) {
		trace_view_set_depth(v, d);
		assert_shares(v, f);
	}
	/* a grid of 2 rows does not change them */
	assert_int_equal(trace_view_compute(v, 2, 7, &g, &err), STATUS_OK);
	assert_shares(v, f);
	/* the deepest context over every line: ctx 6, 3 frames, even when
	 * the 2 rows drawn do not show it */
	assert_int_equal(trace_view_max_depth(v), 2);
	trace_view_set_cursor(v, model_time_min(m) + 700, 5);
	assert_true(trace_view_zoom_time(v, 1, 3));
	assert_shares(v, f);
	assert_true(trace_view_pan_time(v, 1, 2));
	assert_shares(v, f);
	trace_view_set_depth(v, 0);
	assert_shares(v, f);
	trace_grid_free(&g);
}

/* Past the element budget lines are sampled and said so; what is counted
 * is whole lines' time. */
static void test_window_shares_sampled(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
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
	assert_shares(v, f);
}

/* Column k of `cols` of the summary view against a nanosecond by
 * nanosecond recount of its span over every line. */
static void assert_column_shares(struct trace_view *v, const struct fake *f,
				 uint32_t cols)
{
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
		brute_shares(f, a, b, w->depth, want);
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
	const struct fake *f = x->f;
	struct model *m = x->m;
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
			assert_column_shares(v, f, widths[i]);
	}
	/* grids of 2 and 9 rows do not change them */
	assert_int_equal(trace_view_compute(v, 2, 13, &g, &err), STATUS_OK);
	assert_column_shares(v, f, 13);
	assert_int_equal(trace_view_compute(v, 9, 13, &g, &err), STATUS_OK);
	assert_column_shares(v, f, 13);
	trace_view_set_cursor(v, model_time_min(m) + 700, 5);
	assert_true(trace_view_zoom_time(v, 1, 3));
	assert_column_shares(v, f, 13);
	assert_true(trace_view_pan_time(v, 1, 2));
	assert_column_shares(v, f, 7);
	trace_view_set_depth(v, 1);
	assert_column_shares(v, f, 7);
	trace_grid_free(&g);
}

/* Past the budget the summary view's columns are sampled as the legend
 * is: the legend's lines, each column whole lines' time. */
static void test_column_shares_sampled(void **state)
{
	struct fixture *x = *state;
	const struct fake *f = x->f;
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
	assert_column_shares(v, f, 5);
}

/* Lines are shown in identifier tuple order, whatever the model's order
 * (critique a4: HPCToolkit stores ranks in no order): the fixture's
 * model is made with the tuples reversed. */
static void test_line_order(void **state)
{
	struct fixture *x = *state;
	struct trace_view *v = x->v;
	struct error err = {0};
	assert_int_equal(trace_view_line_count(v), N_LINES);
	for (uint32_t i = 0; i < N_LINES; i++)
		assert_int_equal(trace_view_line(v, i), N_LINES - 1 - i);
	/* the filter keeps the order */
	assert_int_equal(trace_view_set_filter(v, "RANK 1-2", false, &err),
			 STATUS_OK);
	static const uint32_t want[] = {7, 6, 5, 4};
	assert_int_equal(trace_view_line_count(v), 4);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(trace_view_line(v, i), want[i]);
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

/* a test over the fake fixture: its samples, or with line 9 an interval
 * track */
#define FIXTURE(test, setup) \
	cmocka_unit_test_setup_teardown(test, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		FIXTURE(test_grid_matches_brute_force, setup_intervals),
		FIXTURE(test_rows_and_lines, setup_samples),
		FIXTURE(test_navigation_and_undo, setup_samples),
		FIXTURE(test_next_change, setup_samples),
		FIXTURE(test_depth_view, setup_samples),
		FIXTURE(test_shares_and_summary, setup_samples),
		FIXTURE(test_shares_merge_names, setup_samples),
		FIXTURE(test_colors, setup_samples),
		FIXTURE(test_filter, setup_samples),
		FIXTURE(test_intervals, setup_intervals),
		cmocka_unit_test(test_counter_degenerate),
		cmocka_unit_test(test_counter_cells),
		cmocka_unit_test(test_counter_view),
		cmocka_unit_test(test_gpu_groups),
		cmocka_unit_test(test_grid_instants),
		FIXTURE(test_window_shares, setup_samples),
		FIXTURE(test_window_shares, setup_intervals),
		FIXTURE(test_window_shares_sampled, setup_samples),
		FIXTURE(test_column_shares, setup_samples),
		FIXTURE(test_column_shares, setup_intervals),
		FIXTURE(test_column_shares_sampled, setup_samples),
		FIXTURE(test_line_order, setup_reversed),
		cmocka_unit_test(test_gpu_own_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
