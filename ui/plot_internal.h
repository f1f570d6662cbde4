/* plot_internal: the plot's state, shared by plot.c (set-up, ranges,
 * ticks, render, access) and plot_draw.c (the grid: pixels, curves, points,
 * the heat map, axes, legend).  Private to those two files. */
#ifndef CALLSCOPE_UI_PLOT_INTERNAL_H
#define CALLSCOPE_UI_PLOT_INTERNAL_H

#include "plot.h"

#define TICKS_MAX      12
#define TICK_LABEL_MAX 9
#define TICKS_MAX      12
#define TICK_LABEL_MAX 9

struct plot_point {
	int s;
	double x, mean, min, max;
};

struct plot_series {
	char *name;
	double (*f)(void *ctx, double x);
	void *ctx;
	double lo, hi;
};

struct plot {
	enum plot_glyphs g;
	struct plot_axis xa, ya;
	char *xlabel, *ylabel, *zlabel;
	struct plot_series series[PLOT_SERIES_MAX];
	int n_series;
	struct plot_point *points;
	size_t n_points, cap_points;
	double (*heat)(void *ctx, double x, double y);
	void *heat_ctx;
	double *marks; /* x, y pairs */
	size_t n_marks, cap_marks;
	double marker;
	/* the last render */
	int w, h;
	struct plot_cell *cells;
	unsigned char *dots; /* per cell: sub-cell pixels set */
	bool *solid;	     /* per cell: a whole-cell glyph, not pixels */
	struct plot_text *texts;
	size_t n_texts, cap_texts;
	int ax, ay, aw, ah;    /* the plot area, cells */
	double x0, x1, y0, y1; /* its ranges, transformed */
};

/* plot.c */
double plot_fwd(bool log, double v); /* the axis transform */
double plot_inv(bool log, double t);
/* tick values (data space) for the transformed range [t0, t1] */
int plot_ticks(bool log, double t0, double t1, double *out);
void plot_extend(double *lo, double *hi, double t);

/* plot_draw.c */
bool plot_add_text(struct plot *p, int y, int x, int w, enum plot_style st,
		   int series, bool right, const char *text);
bool plot_draw_axes(struct plot *p, const double *yt, int ny, int lw);
void plot_draw_curve(struct plot *p, int s);
void plot_draw_points(struct plot *p);
void plot_finish_pixels(struct plot *p);
bool plot_draw_heat(struct plot *p);
void plot_draw_marker(struct plot *p);
bool plot_draw_legend(struct plot *p);

#endif
