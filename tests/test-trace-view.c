/* Tests for trace_view: the grid, representatives, navigation, depth
 * view, colours and matches, the line filter and order, interval tracks,
 * over the fake trace provider (tests/trace_fake.h).  Every answer is
 * checked against a brute-force recomputation from the fixture arrays
 * (linear scans), never against the code's own output.  The shares are
 * in test-trace-shares.c, counter tracks in test-trace-counters.c, GPU
 * groupings in test-trace-gpu.c. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		FIXTURE(test_grid_matches_brute_force, setup_intervals),
		FIXTURE(test_rows_and_lines, setup_samples),
		FIXTURE(test_navigation_and_undo, setup_samples),
		FIXTURE(test_next_change, setup_samples),
		FIXTURE(test_depth_view, setup_samples),
		FIXTURE(test_colors, setup_samples),
		FIXTURE(test_filter, setup_samples),
		FIXTURE(test_intervals, setup_intervals),
		FIXTURE(test_line_order, setup_reversed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
