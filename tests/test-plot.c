/* Tests of the terminal plot canvas (ui/plot.c) on its character grid:
 * degenerate plots first (no data, too small, NULL free), tick formatting,
 * then ASCII, braille and block renderings of measured points (mean marker
 * and range bar in the cell computed here from the axis mapping) and a
 * curve (its extrapolated part dotted and dim, its measured part not), log
 * axes (decade ticks), the legend and the heat map's monotone ramp with
 * its scale.  Expected cells are computed independently from the layout
 * rules of plot.h (row 0 legend, row 1 y label, area, axis, ticks, x
 * label). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "case_tables.h"
#include "plot.h"

static bool row_has(const struct plot *p, int y, const char *what)
{
	char *row = plot_row_text(p, y);
	bool yes = row && strstr(row, what);
	free(row);
	return yes;
}

static bool any_row_has(const struct plot *p, const char *what)
{
	for (int y = 0; y < plot_height(p); y++)
		if (row_has(p, y, what))
			return true;
	return false;
}

static void test_degenerate(void **state)
{
	(void)state;
	plot_free(NULL);
	struct plot *p = plot_new(PLOT_ASCII);
	assert_non_null(p);
	/* nothing at all: axes over a default range, no crash */
	assert_true(plot_render(p, 40, 12));
	assert_int_equal(plot_width(p), 40);
	assert_int_equal(plot_height(p), 12);
	assert_null(plot_cell(p, 12, 0));
	assert_null(plot_cell(p, 0, -1));
	assert_non_null(plot_cell(p, 11, 39));
	/* the axis corner at the area's bottom-left */
	assert_true(any_row_has(p, "+---"));
	/* too small: a note only */
	assert_true(plot_render(p, 10, 3));
	assert_true(row_has(p, 0, "(too small"));
	assert_true(plot_render(p, 0, 0));
	assert_int_equal(plot_width(p), 0);
	/* series beyond the maximum */
	for (int i = 0; i < PLOT_SERIES_MAX; i++)
		assert_int_equal(plot_add_series(p, "s"), i);
	assert_int_equal(plot_add_series(p, "s"), -1);
	assert_false(plot_add_point(p, PLOT_SERIES_MAX, 1, 1, 1, 1));
	assert_false(plot_add_point(p, -1, 1, 1, 1, 1));
	plot_free(p);
}

static void test_format_tick(void **state)
{
	(void)state;
	static const struct format_case texts[] = {
		{0, "0"},
		{0.5, "0.5"},
		{65536, "65536"},
		{1234.5678, "1235"},
		{0.25, "0.25"},
		{1e6, "1e6"},
		{1.5e6, "1.5e6"},
		{2e-5, "2e-5"},
		{-3e7, "-3e7"},
	};
	assert_formats("plot_format_tick", plot_format_tick, texts,
		       sizeof(texts) / sizeof(texts[0]));
}

static double line(void *ctx, double x)
{
	(void)ctx;
	return x;
}

/* Points and a curve y = x on fixed axes 0..10 x 0..10, ASCII: area
 * columns ax.. where ax = label width + 1. */
static void test_ascii_points_curve(void **state)
{
	(void)state;
	struct plot *p = plot_new(PLOT_ASCII);
	struct plot_axis x = {0, 10, false, "p"}, y = {0, 10, false, "time"};
	assert_true(plot_set_axes(p, &x, &y));
	int s = plot_add_series(p, "main");
	assert_int_equal(s, 0);
	assert_true(plot_add_point(p, s, 5, 5, 4, 6));
	assert_true(plot_set_curve(p, s, line, NULL, 0, 5));
	int w = 43, h = 16;
	assert_true(plot_render(p, w, h));
	/* ticks 0 2.5 5 7.5 10 (step 2.5 for a range of 10: 10/4 -> 2.5
	 * rounds to 2; 0,2,...,10): labels at most 2 wide */
	int lw = 2, ax = lw + 1, ay = 2, aw = w - ax - 1, ah = h - 5;
	/* the mean marker: column of x = 5, row of y = 5 */
	int cx = ax + (int)lround(5.0 / 10 * (aw - 1));
	int cy = ay + (int)lround((1 - 5.0 / 10) * (ah - 1));
	const struct plot_cell *c = plot_cell(p, cy, cx);
	assert_string_equal(c->text, "o");
	assert_int_equal(c->style, PLOT_STYLE_SERIES);
	assert_int_equal(c->series, 0);
	/* the range bar above and below it (4..6 covers >= 1 row each side
	 * at 11 rows for 10 units) */
	int top = ay + (int)lround((1 - 6.0 / 10) * (ah - 1));
	int bot = ay + (int)lround((1 - 4.0 / 10) * (ah - 1));
	assert_true(top < cy && bot > cy);
	assert_string_equal(plot_cell(p, top, cx)->text, "|");
	assert_string_equal(plot_cell(p, bot, cx)->text, "|");
	/* the curve: measured part '*' not dim at x = 2, extrapolated part
	 * '.' dim at x = 8 */
	int c2 = ax + (int)lround(2.0 / 10 * (aw - 1));
	int r2 = ay + (int)lround((1 - 2.0 / 10) * (ah - 1));
	c = plot_cell(p, r2, c2);
	assert_string_equal(c->text, "*");
	assert_false(c->dim);
	int c8 = ax + (int)lround(8.0 / 10 * (aw - 1));
	int r8 = ay + (int)lround((1 - 8.0 / 10) * (ah - 1));
	c = plot_cell(p, r8, c8);
	assert_string_equal(c->text, ".");
	assert_true(c->dim);
	/* axes: y axis '|' with '+' at ticks, x axis row, labels */
	assert_string_equal(plot_cell(p, ay + ah, lw)->text, "+");
	assert_string_equal(plot_cell(p, ay + ah, w - 1)->text, "-");
	assert_true(row_has(p, ay + ah + 1, "0"));
	assert_true(row_has(p, ay + ah + 1, "10"));
	assert_true(row_has(p, h - 1, "p"));
	assert_true(row_has(p, 1, "time"));
	/* the legend */
	assert_true(row_has(p, 0, "o main"));
	/* y tick "10" right-aligned at the top row of the area */
	char *top_row = plot_row_text(p, ay);
	assert_non_null(top_row);
	assert_memory_equal(top_row, "10+", 3);
	free(top_row);
	plot_free(p);
}

/* Braille: the dot of pixel (px, py) is bit braille_bit[px%2][py%4] of
 * U+2800; a flat line y = 5 on 0..10 lies on one pixel row. */
static double flat(void *ctx, double x)
{
	(void)ctx;
	(void)x;
	return 5;
}

static void test_braille(void **state)
{
	(void)state;
	struct plot *p = plot_new(PLOT_BRAILLE);
	struct plot_axis x = {0, 10, false, NULL}, y = {0, 10, false, NULL};
	assert_true(plot_set_axes(p, &x, &y));
	int s = plot_add_series(p, "flat");
	assert_true(plot_set_curve(p, s, flat, NULL, 0, 10));
	int w = 30, h = 10;
	assert_true(plot_render(p, w, h));
	int ax = 3, ay = 2, ah = h - 5;
	int H = ah * 4;
	long py = lround((1 - 0.5) * (H - 1));
	int row = ay + (int)(py / 4);
	static const unsigned bits[2][4] = {{0x01, 0x02, 0x04, 0x40},
					    {0x08, 0x10, 0x20, 0x80}};
	unsigned want = bits[0][py % 4] | bits[1][py % 4];
	const struct plot_cell *c = plot_cell(p, row, ax + 3);
	unsigned cp = ((unsigned)(c->text[0] & 0x0f) << 12) |
		      ((unsigned)(c->text[1] & 0x3f) << 6) |
		      (unsigned)(c->text[2] & 0x3f);
	assert_int_equal(cp, 0x2800 + want);
	/* UTF-8 axes */
	assert_string_equal(plot_cell(p, ay + ah, 2)->text, "\xe2\x94\x94");
	plot_free(p);
}

static void test_block_and_marker(void **state)
{
	(void)state;
	struct plot *p = plot_new(PLOT_BLOCK);
	struct plot_axis x = {0, 10, false, NULL}, y = {0, 10, false, NULL};
	assert_true(plot_set_axes(p, &x, &y));
	int s = plot_add_series(p, "flat");
	assert_true(plot_set_curve(p, s, flat, NULL, 0, 10));
	plot_set_marker(p, 10);
	int w = 30, h = 11;
	assert_true(plot_render(p, w, h));
	int ax = 3, ay = 2, aw = w - ax - 1, ah = h - 5;
	long py = lround((1 - 0.5) * (ah * 2 - 1));
	const struct plot_cell *c = plot_cell(p, ay + (int)(py / 2), ax + 1);
	assert_string_equal(c->text, py % 2 ? "\xe2\x96\x84" : "\xe2\x96\x80");
	/* the marker at x = 10: the last area column, away from the line */
	c = plot_cell(p, ay, ax + aw - 1);
	assert_string_equal(c->text, "\xe2\x94\x8a");
	assert_true(c->dim);
	plot_free(p);
}

static double power(void *ctx, double x)
{
	(void)ctx;
	return x * x;
}

static void test_log_axes(void **state)
{
	(void)state;
	struct plot *p = plot_new(PLOT_ASCII);
	struct plot_axis x = {0, 0, true, "p"}, y = {0, 0, true, "t"};
	assert_true(plot_set_axes(p, &x, &y));
	int s = plot_add_series(p, "sq");
	for (double v = 1; v <= 1000; v *= 10)
		assert_true(plot_add_point(p, s, v, v * v, v * v, v * v));
	assert_true(plot_set_curve(p, s, power, NULL, 1, 1000));
	assert_true(plot_render(p, 60, 20));
	/* decade ticks on x: 1 10 100 1000 */
	int tick_row = 2 + 15 + 1;
	assert_true(row_has(p, tick_row, "1 "));
	assert_true(row_has(p, tick_row, "100"));
	assert_true(row_has(p, tick_row, "1000"));
	/* y spans 1..1e6: decade labels, "1e6" at the top */
	assert_true(row_has(p, 2, "1e6"));
	/* on log-log axes x^2 is a straight line: every point's marker sits
	 * on it, so each area row holding an 'o' holds no '.' */
	int markers = 0;
	for (int r = 2; r < 17; r++)
		for (int xx = 0; xx < 60; xx++)
			markers += strcmp(plot_cell(p, r, xx)->text, "o") == 0;
	assert_int_equal(markers, 4);
	plot_free(p);
}

/* The y tick labels (right-aligned runs at x 0 in the plot area): their
 * rows and values, top to bottom; how many. */
static int y_labels(const struct plot *p, int *rows, double *values, int max)
{
	size_t n;
	const struct plot_text *t = plot_texts(p, &n);
	int k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (t[i].x == 0 && t[i].right && t[i].y >= 2 &&
		    t[i].y < plot_height(p) - 3) {
			rows[k] = t[i].y;
			values[k++] = strtod(t[i].text, NULL);
		}
	return k;
}

/* Issue 26 (critique b11): a y axis of five decades on a plot three rows
 * high drew two labels on one row ("010" for 10 over 0.1); now every
 * label has its own row, values decreasing downwards, and a tall plot
 * keeps every decade. */
static void test_y_labels_apart(void **state)
{
	(void)state;
	for (int h = 8; h <= 40; h += 32) {
		struct plot *p = plot_new(PLOT_ASCII);
		struct plot_axis x = {0, 0, true, "s"}, y = {0, 0, true, "t"};
		assert_true(plot_set_axes(p, &x, &y));
		int s = plot_add_series(p, "a");
		assert_true(plot_add_point(p, s, 64, 0.01, 0.01, 0.01));
		assert_true(plot_add_point(p, s, 262144, 378, 378, 378));
		assert_true(plot_render(p, 80, h));
		int rows[16];
		double v[16];
		int n = y_labels(p, rows, v, 16);
		assert_true(n >= 2);
		for (int i = 1; i < n; i++)
			for (int j = 0; j < i; j++)
				assert_int_not_equal(rows[i], rows[j]);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (rows[i] < rows[j])
					assert_true(v[i] > v[j]);
		if (h == 40) /* 0.01 0.1 1 10 100 */
			assert_int_equal(n, 5);
		plot_free(p);
	}
}

static double plane(void *ctx, double x, double y)
{
	(void)ctx;
	return x + y;
}

static void test_heatmap(void **state)
{
	(void)state;
	struct plot *p = plot_new(PLOT_ASCII);
	struct plot_axis x = {1, 100, false, "p"}, y = {1, 100, false, "n"};
	assert_true(plot_set_axes(p, &x, &y));
	assert_true(plot_set_heatmap(p, plane, NULL, "time"));
	assert_true(plot_add_heat_mark(p, 1, 1));
	assert_true(plot_render(p, 40, 14));
	int ay = 2, ah = 9, ax = 4;
	/* bottom-left is the lowest level, top-right the highest */
	const struct plot_cell *lo = plot_cell(p, ay + ah - 1, ax + 1);
	const struct plot_cell *hi = plot_cell(p, ay, 40 - 2);
	assert_int_equal(lo->style, PLOT_STYLE_RAMP);
	assert_int_equal(hi->style, PLOT_STYLE_RAMP);
	assert_int_equal(hi->series, PLOT_RAMP_MAX);
	assert_true(lo->series <= 1);
	/* levels rise along the bottom row */
	int last = -1;
	for (int c = ax; c < 40 - 1; c++) {
		const struct plot_cell *k = plot_cell(p, ay + ah - 1, c);
		if (k->style != PLOT_STYLE_RAMP)
			continue;
		assert_true((int)k->series >= last);
		last = k->series;
	}
	/* the measured point's mark at the bottom-left cell */
	assert_string_equal(plot_cell(p, ay + ah - 1, ax)->text, "x");
	/* the scale on row 0: name, the ramp, min and max */
	assert_true(row_has(p, 0, "time"));
	assert_true(row_has(p, 0, ".:-=+*#@"));
	plot_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_format_tick),
	    cmocka_unit_test(test_ascii_points_curve),
	    cmocka_unit_test(test_braille),
	    cmocka_unit_test(test_block_and_marker),
	    cmocka_unit_test(test_log_axes),
	    cmocka_unit_test(test_y_labels_apart),
	    cmocka_unit_test(test_heatmap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
