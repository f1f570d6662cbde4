/* plot: the terminal plot canvas (see plot.h): set-up, the axes' ranges
 * and ticks, the layout of plot_render and access to the grid; the drawing
 * itself is plot_draw.c.  Layout of a w x h grid: row 0 the legend (or the
 * heat map's scale), row 1 the y axis' name, then the plot area with the y
 * tick labels on its left, the x axis line, the x tick labels and the x
 * axis' name.  No curses, no model. */
#include "config.h"

#include "plot_internal.h"

#include "core/array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- set-up --------------------------------------------------------- */

struct plot *plot_new(enum plot_glyphs glyphs)
{
	struct plot *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->g = glyphs < PLOT_GLYPHS_COUNT ? glyphs : PLOT_ASCII;
	p->marker = NAN;
	return p;
}

static void clear_render(struct plot *p)
{
	for (size_t i = 0; i < p->n_texts; i++)
		free(p->texts[i].text);
	FREE_AND_NULL(p->texts);
	FREE_AND_NULL(p->cells);
	FREE_AND_NULL(p->dots);
	FREE_AND_NULL(p->solid);
	p->n_texts = p->cap_texts = 0;
	p->w = p->h = 0;
}

void plot_free(struct plot *p)
{
	if (!p)
		return;
	clear_render(p);
	for (int i = 0; i < p->n_series; i++)
		free(p->series[i].name);
	free(p->points);
	free(p->marks);
	free(p->xlabel);
	free(p->ylabel);
	free(p->zlabel);
	free(p);
}

static bool set_label(char **to, const char *text)
{
	char *copy = text ? strdup(text) : NULL;
	if (text && !copy)
		return false;
	free(*to);
	*to = copy;
	return true;
}

bool plot_set_axes(struct plot *p, const struct plot_axis *x,
		   const struct plot_axis *y)
{
	if (!set_label(&p->xlabel, x->label) ||
	    !set_label(&p->ylabel, y->label))
		return false;
	p->xa = *x;
	p->ya = *y;
	p->xa.label = p->ya.label = NULL;
	return true;
}

int plot_add_series(struct plot *p, const char *name)
{
	if (p->n_series >= PLOT_SERIES_MAX)
		return -1;
	struct plot_series *s = &p->series[p->n_series];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name ? name : "");
	if (!s->name)
		return -1;
	return p->n_series++;
}

bool plot_add_point(struct plot *p, int s, double x, double mean, double min,
		    double max)
{
	if (s < 0 || s >= p->n_series)
		return false;
	if (!array_grow((void **)&p->points, &p->cap_points, p->n_points + 1,
			sizeof(*p->points)))
		return false;
	p->points[p->n_points++] = (struct plot_point){s, x, mean, min, max};
	return true;
}

bool plot_set_curve(struct plot *p, int s, double (*f)(void *ctx, double x),
		    void *ctx, double lo, double hi)
{
	if (s < 0 || s >= p->n_series)
		return false;
	p->series[s].f = f;
	p->series[s].ctx = ctx;
	p->series[s].lo = lo;
	p->series[s].hi = hi;
	return true;
}

bool plot_set_heatmap(struct plot *p,
		      double (*f)(void *ctx, double x, double y), void *ctx,
		      const char *zlabel)
{
	if (!set_label(&p->zlabel, zlabel))
		return false;
	p->heat = f;
	p->heat_ctx = ctx;
	return true;
}

bool plot_add_heat_mark(struct plot *p, double x, double y)
{
	/* a mark: its x and y */
	if (!array_grow((void **)&p->marks, &p->cap_marks, p->n_marks + 1,
			2 * sizeof(*p->marks)))
		return false;
	p->marks[2 * p->n_marks] = x;
	p->marks[2 * p->n_marks + 1] = y;
	p->n_marks++;
	return true;
}

void plot_set_marker(struct plot *p, double x)
{
	p->marker = x;
}

/* ---- numbers -------------------------------------------------------- */

void plot_format_tick(double v, char *buf, size_t size)
{
	double a = fabs(v);
	if (a < 1e6 && v == floor(v)) { /* 65536 */
		snprintf(buf, size, "%.0f", v);
		return;
	}
	/* "1.5e+06" -> "1.5e6", "2e-05" -> "2e-5" */
	char tmp[32];
	snprintf(tmp, sizeof(tmp), a >= 1e-3 && a < 1e6 ? "%.4g" : "%.2g", v);
	char *e = strchr(tmp, 'e');
	if (e) {
		char *d = e + 1;
		bool neg = *d == '-';
		if (*d == '+' || *d == '-')
			d++;
		while (*d == '0' && d[1])
			d++;
		snprintf(buf, size, "%.*s%s%s", (int)(e - tmp + 1), tmp,
			 neg ? "-" : "", d);
	} else {
		snprintf(buf, size, "%s", tmp);
	}
}

double plot_fwd(bool log, double v)
{
	if (!log)
		return v;
	return v > 0 ? log10(v) : (double)NAN;
}

double plot_inv(bool log, double t)
{
	return log ? pow(10, t) : t;
}

static double nice_step(double range)
{
	double raw = range / 4;
	if (!(raw > 0) || !isfinite(raw))
		return 1;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* Tick values (data space) for the transformed range [t0, t1]. */
int plot_ticks(bool log, double t0, double t1, double *out)
{
	int n = 0;
	if (log) {
		double k0 = ceil(t0 - 1e-9), k1 = floor(t1 + 1e-9);
		if (k1 - k0 >= 2) {
			double every = ceil((k1 - k0 + 1) / 6);
			for (double k = k0; k <= k1 && n < TICKS_MAX;
			     k += every)
				out[n++] = pow(10, k);
			return n;
		}
		static const double m[] = {1, 2, 5};
		for (double k = floor(t0); k <= ceil(t1); k++)
			for (int i = 0; i < 3 && n < TICKS_MAX; i++) {
				double v = m[i] * pow(10, k);
				double t = log10(v);
				if (t >= t0 - 1e-9 && t <= t1 + 1e-9)
					out[n++] = v;
			}
		if (n >= 3)
			return n;
		n = 0;
		double lo = pow(10, t0), hi = pow(10, t1);
		double step = nice_step(hi - lo);
		for (double v = ceil(lo / step - 1e-9) * step;
		     v <= hi * (1 + 1e-9) && n < TICKS_MAX; v += step)
			out[n++] = v;
		return n;
	}
	double step = nice_step(t1 - t0);
	for (double v = ceil(t0 / step - 1e-9) * step;
	     v <= t1 + step * 1e-9 && n < TICKS_MAX; v += step)
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

/* Widen a degenerate or empty transformed range. */
static void widen(bool log, double *t0, double *t1)
{
	if (!isfinite(*t0) || !isfinite(*t1)) {
		*t0 = 0;
		*t1 = 1;
	}
	if (*t1 > *t0)
		return;
	double d = log ? 0.5 : (*t0 == 0 ? 1 : fabs(*t0) * 0.1);
	*t0 -= d;
	*t1 += d;
}

void plot_extend(double *lo, double *hi, double t)
{
	if (!isfinite(t))
		return;
	if (t < *lo)
		*lo = t;
	if (t > *hi)
		*hi = t;
}

/* The transformed ranges of both axes (before the area is known). */
static void compute_ranges(struct plot *p)
{
	bool xl = p->xa.log, yl = p->ya.log;
	if (p->xa.min < p->xa.max) {
		p->x0 = plot_fwd(xl, p->xa.min);
		p->x1 = plot_fwd(xl, p->xa.max);
	} else {
		p->x0 = INFINITY;
		p->x1 = -INFINITY;
		for (size_t i = 0; i < p->n_points; i++)
			plot_extend(&p->x0, &p->x1,
				    plot_fwd(xl, p->points[i].x));
		for (int s = 0; s < p->n_series; s++)
			if (p->series[s].f) {
				plot_extend(&p->x0, &p->x1,
					    plot_fwd(xl, p->series[s].lo));
				plot_extend(&p->x0, &p->x1,
					    plot_fwd(xl, p->series[s].hi));
			}
		plot_extend(&p->x0, &p->x1, plot_fwd(xl, p->marker));
	}
	widen(xl, &p->x0, &p->x1);
	if (p->ya.min < p->ya.max || p->heat) {
		p->y0 = plot_fwd(yl, p->ya.min);
		p->y1 = plot_fwd(yl, p->ya.max);
		widen(yl, &p->y0, &p->y1);
		return;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < p->n_points; i++) {
		const struct plot_point *q = &p->points[i];
		double tx = plot_fwd(xl, q->x);
		if (!(tx >= p->x0 - 1e-12 && tx <= p->x1 + 1e-12))
			continue;
		plot_extend(&lo, &hi, plot_fwd(yl, q->min));
		plot_extend(&lo, &hi, plot_fwd(yl, q->max));
		plot_extend(&lo, &hi, plot_fwd(yl, q->mean));
	}
	for (int s = 0; s < p->n_series; s++) {
		if (!p->series[s].f)
			continue;
		for (int i = 0; i <= 64; i++) {
			double x =
			    plot_inv(xl, p->x0 + (p->x1 - p->x0) * i / 64);
			plot_extend(
			    &lo, &hi,
			    plot_fwd(yl, p->series[s].f(p->series[s].ctx, x)));
		}
	}
	if (!yl && lo > 0 && isfinite(hi))
		lo = 0; /* times and counts: from zero */
	widen(yl, &lo, &hi);
	if (!yl) {
		double step = nice_step(hi - lo);
		hi = ceil(hi / step - 1e-9) * step;
		lo = floor(lo / step + 1e-9) * step;
	}
	p->y0 = lo;
	p->y1 = hi;
}

bool plot_render(struct plot *p, int w, int h)
{
	clear_render(p);
	if (w < 1 || h < 1)
		return true;
	size_t n = (size_t)w * (size_t)h;
	p->cells = calloc(n, sizeof(*p->cells));
	p->dots = calloc(n, 1);
	p->solid = calloc(n, sizeof(*p->solid));
	if (!p->cells || !p->dots || !p->solid) {
		clear_render(p);
		return false;
	}
	p->w = w;
	p->h = h;
	if (w < 20 || h < 6)
		return plot_add_text(p, 0, 0, w, PLOT_STYLE_NOTE, 0, false,
				     "(too small to plot)");
	compute_ranges(p);
	double yt[TICKS_MAX];
	int ny = plot_ticks(p->ya.log, p->y0, p->y1, yt);
	int lw = 1;
	char buf[32];
	for (int i = 0; i < ny; i++) {
		plot_format_tick(yt[i], buf, sizeof(buf));
		int len = (int)strlen(buf);
		if (len > lw)
			lw = len;
	}
	if (lw > TICK_LABEL_MAX)
		lw = TICK_LABEL_MAX;
	p->ax = lw + 1;
	p->ay = 2;
	p->aw = w - p->ax - 1;
	p->ah = h - 5;
	if (!plot_draw_axes(p, yt, ny, lw))
		return false;
	if (p->heat)
		return plot_draw_heat(p);
	for (int s = 0; s < p->n_series; s++)
		if (p->series[s].f)
			plot_draw_curve(p, s);
	plot_draw_points(p);
	plot_finish_pixels(p);
	plot_draw_marker(p);
	return plot_draw_legend(p);
}

/* ---- access --------------------------------------------------------- */

int plot_width(const struct plot *p)
{
	return p->w;
}

int plot_height(const struct plot *p)
{
	return p->h;
}

const struct plot_cell *plot_cell(const struct plot *p, int y, int x)
{
	if (y < 0 || x < 0 || y >= p->h || x >= p->w)
		return NULL;
	return &p->cells[(size_t)y * (size_t)p->w + (size_t)x];
}

const struct plot_text *plot_texts(const struct plot *p, size_t *n)
{
	*n = p->n_texts;
	return p->texts;
}

char *plot_row_text(const struct plot *p, int y)
{
	if (y < 0 || y >= p->h)
		return NULL;
	/* a cell is one column: a glyph, or one byte of a run */
	const char **col = calloc((size_t)p->w, sizeof(*col));
	char *bytes = calloc((size_t)p->w, 2);
	if (!col || !bytes) {
		free(col);
		free(bytes);
		return NULL;
	}
	for (int x = 0; x < p->w; x++) {
		const struct plot_cell *c = plot_cell(p, y, x);
		col[x] = c->text[0] ? c->text : " ";
	}
	for (size_t i = 0; i < p->n_texts; i++) {
		const struct plot_text *t = &p->texts[i];
		if (t->y != y)
			continue;
		int len = (int)strlen(t->text);
		if (len > t->w)
			len = t->w;
		int x0 = t->right ? t->x + t->w - len : t->x;
		for (int k = 0; k < len && x0 + k < p->w; k++) {
			bytes[2 * (x0 + k)] = t->text[k];
			col[x0 + k] = &bytes[2 * (x0 + k)];
		}
	}
	size_t size = 1;
	for (int x = 0; x < p->w; x++)
		size += strlen(col[x]);
	char *out = malloc(size);
	if (out) {
		out[0] = '\0';
		for (int x = 0; x < p->w; x++)
			strcat(out, col[x]);
		/* trailing blanks are no information */
		size_t len = strlen(out);
		while (len > 0 && out[len - 1] == ' ')
			out[--len] = '\0';
	}
	free(col);
	free(bytes);
	return out;
}
