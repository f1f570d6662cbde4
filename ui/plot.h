/* plot: a terminal plot canvas, engine-free and curses-free, so that its
 * character grid can be unit-tested.  A plot holds series of measured
 * points (a mean marker with a min..max range bar each), curves (a
 * function sampled once per sub-cell column, drawn dimmer and dotted
 * outside the measured range: extrapolation), linear or logarithmic axes
 * with labelled ticks, a legend, or a heat map of a function of two
 * parameters with its shade ramp and scale.  plot_render() lays it out on
 * a w x h grid of cells; each cell holds a glyph made here (braille
 * U+2800..U+28FF, block elements, or plain ASCII) and a style (axis,
 * series k, ramp level); text that comes from the database (axis labels,
 * legend names) is kept apart as text runs that the drawer sanitizes and
 * cuts to their width (screen_text).  No curses, no model. */
#ifndef CALLSCOPE_UI_PLOT_H
#define CALLSCOPE_UI_PLOT_H

#include <stdbool.h>
#include <stddef.h>

enum plot_glyphs {
	PLOT_BRAILLE, /* 2 x 4 dots per cell (UTF-8) */
	PLOT_BLOCK,   /* half blocks, 1 x 2 per cell (UTF-8) */
	PLOT_ASCII,   /* one character per cell */
	PLOT_GLYPHS_COUNT
};

/* What a cell or a text run is, for its colour. */
enum plot_style {
	PLOT_STYLE_NONE,
	PLOT_STYLE_AXIS,   /* axis lines and tick marks */
	PLOT_STYLE_TICK,   /* tick labels */
	PLOT_STYLE_LABEL,  /* axis names */
	PLOT_STYLE_SERIES, /* series `series` (points, curve, legend) */
	PLOT_STYLE_RAMP,   /* heat map level `series` (0..PLOT_RAMP_MAX) */
	PLOT_STYLE_NOTE,   /* the heat map's scale, messages */
};

#define PLOT_SERIES_MAX 8
#define PLOT_RAMP_MAX	7

struct plot_cell {
	char text[8];	     /* one glyph, UTF-8, NUL-terminated ("" = blank) */
	unsigned char style; /* enum plot_style */
	unsigned char series; /* series index, or ramp level */
	bool dim;	      /* extrapolated */
};

/* A text run: drawn over the cells at (y, x) in at most w columns. */
struct plot_text {
	int y, x, w;
	unsigned char style, series;
	bool right; /* right-aligned in w */
	char *text; /* not sanitized */
};

struct plot_axis {
	double min, max;   /* the range; min >= max: from the data */
	bool log;	   /* log10 scale (values <= 0 are not drawn) */
	const char *label; /* copied; NULL: none */
};

struct plot;

/* An empty plot drawn with `glyphs`; NULL when out of memory. */
struct plot *plot_new(enum plot_glyphs glyphs);
void plot_free(struct plot *p);

/* The axes (labels copied).  For a heat map, `y` is the second
 * parameter's axis and `z` the value's (its label names the metric). */
bool plot_set_axes(struct plot *p, const struct plot_axis *x,
		   const struct plot_axis *y);

/* A new series named `name` (copied; the legend), its index, or -1 when
 * there are PLOT_SERIES_MAX already or out of memory. */
int plot_add_series(struct plot *p, const char *name);

/* A measured point of series `s`: mean at x, range min..max. */
bool plot_add_point(struct plot *p, int s, double x, double mean, double min,
		    double max);

/* The curve y = f(ctx, x) of series `s`; x outside [lo, hi] (the measured
 * range) is extrapolation.  One curve per series. */
bool plot_set_curve(struct plot *p, int s, double (*f)(void *ctx, double x),
		    void *ctx, double lo, double hi);

/* Make the plot a heat map of z = f(ctx, x, y) over the axes' ranges
 * (which must be given), `zlabel` naming the value (copied). */
bool plot_set_heatmap(struct plot *p,
		      double (*f)(void *ctx, double x, double y), void *ctx,
		      const char *zlabel);

/* Mark a measured point of the heat map. */
bool plot_add_heat_mark(struct plot *p, double x, double y);

/* A vertical marker line at x (the evaluation point); NaN: none. */
void plot_set_marker(struct plot *p, double x);

/* Lay the plot out on a w x h grid (w >= 20, h >= 6, else it draws only a
 * note that the pane is too small).  False when out of memory. */
bool plot_render(struct plot *p, int w, int h);

/* The grid plot_render made: its size, a cell (NULL outside), the text
 * runs. */
int plot_width(const struct plot *p);
int plot_height(const struct plot *p);
const struct plot_cell *plot_cell(const struct plot *p, int y, int x);
const struct plot_text *plot_texts(const struct plot *p, size_t *n);

/* Row y as text, the runs written over the cells (as bytes: for tests
 * and dumps of ASCII names); heap string, NULL when out of memory. */
char *plot_row_text(const struct plot *p, int y);

/* Format a tick value compactly ("0.5", "1e+06" -> "1e6", "65536") into
 * buf. */
void plot_format_tick(double v, char *buf, size_t size);

#endif
