/* plot: the terminal plot canvas (see plot.h).  Layout of a w x h grid:
 * row 0 the legend (or the heat map's scale), row 1 the y axis' name, then
 * the plot area with the y tick labels on its left, the x axis line, the x
 * tick labels and the x axis' name.  Curves and range bars are drawn on a
 * grid of sub-cell pixels (2 x 4 per cell in braille, 1 x 2 in half
 * blocks, 1 x 1 in ASCII) and turned into glyphs at the end; markers and
 * heat map shades are whole cells.  No curses, no model. */
#include "config.h"

#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICKS_MAX 12
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
	bool *solid;         /* per cell: a whole-cell glyph, not pixels */
	struct plot_text *texts;
	size_t n_texts, cap_texts;
	int ax, ay, aw, ah;     /* the plot area, cells */
	double x0, x1, y0, y1; /* its ranges, transformed */
};

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
	free(p->texts);
	free(p->cells);
	free(p->dots);
	free(p->solid);
	p->texts = NULL;
	p->cells = NULL;
	p->dots = NULL;
	p->solid = NULL;
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
	if (!set_label(&p->xlabel, x->label) || !set_label(&p->ylabel, y->label))
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
	if (p->n_points == p->cap_points) {
		size_t cap = p->cap_points ? p->cap_points * 2 : 16;
		struct plot_point *n = realloc(p->points, cap * sizeof(*n));
		if (!n)
			return false;
		p->points = n;
		p->cap_points = cap;
	}
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
	if (p->n_marks == p->cap_marks) {
		size_t cap = p->cap_marks ? p->cap_marks * 2 : 16;
		double *n = realloc(p->marks, cap * 2 * sizeof(*n));
		if (!n)
			return false;
		p->marks = n;
		p->cap_marks = cap;
	}
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

static double fwd(bool log, double v)
{
	if (!log)
		return v;
	return v > 0 ? log10(v) : (double)NAN;
}

static double inv(bool log, double t)
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
static int make_ticks(bool log, double t0, double t1, double *out)
{
	int n = 0;
	if (log) {
		double k0 = ceil(t0 - 1e-9), k1 = floor(t1 + 1e-9);
		if (k1 - k0 >= 2) {
			double every = ceil((k1 - k0 + 1) / 6);
			for (double k = k0; k <= k1 && n < TICKS_MAX; k += every)
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

static void extend(double *lo, double *hi, double t)
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
		p->x0 = fwd(xl, p->xa.min);
		p->x1 = fwd(xl, p->xa.max);
	} else {
		p->x0 = INFINITY;
		p->x1 = -INFINITY;
		for (size_t i = 0; i < p->n_points; i++)
			extend(&p->x0, &p->x1, fwd(xl, p->points[i].x));
		for (int s = 0; s < p->n_series; s++)
			if (p->series[s].f) {
				extend(&p->x0, &p->x1, fwd(xl, p->series[s].lo));
				extend(&p->x0, &p->x1, fwd(xl, p->series[s].hi));
			}
		extend(&p->x0, &p->x1, fwd(xl, p->marker));
	}
	widen(xl, &p->x0, &p->x1);
	if (p->ya.min < p->ya.max || p->heat) {
		p->y0 = fwd(yl, p->ya.min);
		p->y1 = fwd(yl, p->ya.max);
		widen(yl, &p->y0, &p->y1);
		return;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < p->n_points; i++) {
		const struct plot_point *q = &p->points[i];
		double tx = fwd(xl, q->x);
		if (!(tx >= p->x0 - 1e-12 && tx <= p->x1 + 1e-12))
			continue;
		extend(&lo, &hi, fwd(yl, q->min));
		extend(&lo, &hi, fwd(yl, q->max));
		extend(&lo, &hi, fwd(yl, q->mean));
	}
	for (int s = 0; s < p->n_series; s++) {
		if (!p->series[s].f)
			continue;
		for (int i = 0; i <= 64; i++) {
			double x = inv(xl, p->x0 + (p->x1 - p->x0) * i / 64);
			extend(&lo, &hi,
			       fwd(yl, p->series[s].f(p->series[s].ctx, x)));
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

/* ---- the grid ------------------------------------------------------- */

static struct plot_cell *cell_at(struct plot *p, int y, int x)
{
	if (y < 0 || x < 0 || y >= p->h || x >= p->w)
		return NULL;
	return &p->cells[(size_t)y * (size_t)p->w + (size_t)x];
}

static void put(struct plot *p, int y, int x, const char *glyph,
		enum plot_style style, int series, bool dim)
{
	struct plot_cell *c = cell_at(p, y, x);
	if (!c)
		return;
	snprintf(c->text, sizeof(c->text), "%s", glyph);
	c->style = (unsigned char)style;
	c->series = (unsigned char)series;
	c->dim = dim;
}

static bool add_text(struct plot *p, int y, int x, int w, enum plot_style st,
		     int series, bool right, const char *text)
{
	if (w <= 0 || !text || !*text || y < 0 || y >= p->h)
		return true;
	if (x + w > p->w)
		w = p->w - x;
	if (w <= 0)
		return true;
	if (p->n_texts == p->cap_texts) {
		size_t cap = p->cap_texts ? p->cap_texts * 2 : 32;
		struct plot_text *n = realloc(p->texts, cap * sizeof(*n));
		if (!n)
			return false;
		p->texts = n;
		p->cap_texts = cap;
	}
	char *copy = strdup(text);
	if (!copy)
		return false;
	p->texts[p->n_texts++] = (struct plot_text){
		y, x, w, (unsigned char)st, (unsigned char)series, right, copy};
	return true;
}

static bool utf8(const struct plot *p)
{
	return p->g != PLOT_ASCII;
}

/* sub-cell pixels per cell */
static int sub_x(const struct plot *p)
{
	return p->g == PLOT_BRAILLE ? 2 : 1;
}

static int sub_y(const struct plot *p)
{
	return p->g == PLOT_BRAILLE ? 4 : p->g == PLOT_BLOCK ? 2 : 1;
}

/* Set pixel (px, py) of the area (py 0 at the top). */
static void set_pixel(struct plot *p, int px, int py, int s, bool dim)
{
	int sx = sub_x(p), sy = sub_y(p);
	if (px < 0 || py < 0 || px >= p->aw * sx || py >= p->ah * sy)
		return;
	int cx = px / sx, cy = py / sy;
	size_t i = (size_t)(p->ay + cy) * (size_t)p->w + (size_t)(p->ax + cx);
	if (p->solid[i])
		return;
	static const unsigned char braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
							{0x08, 0x10, 0x20, 0x80}};
	if (p->g == PLOT_BRAILLE)
		p->dots[i] |= braille_bit[px % 2][py % 4];
	else if (p->g == PLOT_BLOCK)
		p->dots[i] |= (unsigned char)(py % 2 ? 2 : 1);
	else
		p->dots[i] = 1;
	struct plot_cell *c = &p->cells[i];
	/* a measured part wins over an extrapolated one in a shared cell */
	bool was = c->style == PLOT_STYLE_SERIES;
	c->style = PLOT_STYLE_SERIES;
	if (!was || !dim || c->series != s)
		c->dim = dim;
	c->series = (unsigned char)s;
}

static double px_of(const struct plot *p, double x)
{
	double t = fwd(p->xa.log, x);
	return (t - p->x0) / (p->x1 - p->x0) * (p->aw * sub_x(p) - 1);
}

static double py_of(const struct plot *p, double y)
{
	double t = fwd(p->ya.log, y);
	return (1 - (t - p->y0) / (p->y1 - p->y0)) * (p->ah * sub_y(p) - 1);
}

static void draw_curve(struct plot *p, int s)
{
	const struct plot_series *se = &p->series[s];
	int n = p->aw * sub_x(p), H = p->ah * sub_y(p);
	bool have_prev = false;
	long prev = 0;
	for (int px = 0; px < n; px++) {
		double t = p->x0 + (p->x1 - p->x0) * px / (n > 1 ? n - 1 : 1);
		double x = inv(p->xa.log, t);
		double y = se->f(se->ctx, x);
		double fy = py_of(p, y);
		if (!isfinite(fy) || fy < -4.0 * H || fy > 5.0 * H) {
			have_prev = false;
			continue;
		}
		long py = lround(fy);
		bool dim = x < se->lo * (1 - 1e-9) || x > se->hi * (1 + 1e-9);
		long a = have_prev ? (prev < py ? prev + 1 : py) : py;
		long b = have_prev ? (prev > py ? prev - 1 : py) : py;
		if (a > b)
			a = b = py;
		for (long r = a; r <= b; r++) {
			/* extrapolation is dotted where pixels are fine */
			if (dim && p->g != PLOT_ASCII && ((px + r) & 1))
				continue;
			if (r >= 0 && r < H)
				set_pixel(p, px, (int)r, s, dim);
		}
		prev = py;
		have_prev = true;
	}
}

static void draw_points(struct plot *p)
{
	const char *bar = utf8(p) ? "\xe2\x94\x82" : "|";   /* │ */
	const char *mark = utf8(p) ? "\xe2\x97\x8f" : "o";  /* ● */
	int sx = sub_x(p), sy = sub_y(p);
	for (size_t i = 0; i < p->n_points; i++) {
		const struct plot_point *q = &p->points[i];
		double fx = px_of(p, q->x);
		if (!isfinite(fx))
			continue;
		int cx = (int)lround(fx) / sx;
		if (cx < 0 || cx >= p->aw)
			continue;
		double top = py_of(p, q->max), bot = py_of(p, q->min);
		double mid = py_of(p, q->mean);
		int y_top = isfinite(top) ? (int)lround(top) / sy : -1;
		int y_bot = isfinite(bot) ? (int)lround(bot) / sy : -1;
		int y_mid = isfinite(mid) ? (int)lround(mid) / sy : -1;
		if (y_top < 0 && isfinite(top))
			y_top = 0;
		if (y_bot >= p->ah)
			y_bot = p->ah - 1;
		for (int r = y_top; r >= 0 && r <= y_bot; r++) {
			size_t k = (size_t)(p->ay + r) * (size_t)p->w +
				   (size_t)(p->ax + cx);
			put(p, p->ay + r, p->ax + cx, bar, PLOT_STYLE_SERIES,
			    q->s, false);
			p->solid[k] = true;
		}
		if (y_mid >= 0 && y_mid < p->ah) {
			size_t k = (size_t)(p->ay + y_mid) * (size_t)p->w +
				   (size_t)(p->ax + cx);
			put(p, p->ay + y_mid, p->ax + cx, mark,
			    PLOT_STYLE_SERIES, q->s, false);
			p->solid[k] = true;
		}
	}
}

/* Turn the pixels into glyphs. */
static void finish_pixels(struct plot *p)
{
	for (int y = p->ay; y < p->ay + p->ah; y++)
		for (int x = p->ax; x < p->ax + p->aw; x++) {
			size_t i = (size_t)y * (size_t)p->w + (size_t)x;
			unsigned char d = p->dots[i];
			if (!d || p->solid[i])
				continue;
			struct plot_cell *c = &p->cells[i];
			if (p->g == PLOT_BRAILLE) {
				c->text[0] = (char)0xe2;
				c->text[1] = (char)(0xa0 | (d >> 6));
				c->text[2] = (char)(0x80 | (d & 0x3f));
				c->text[3] = '\0';
			} else if (p->g == PLOT_BLOCK) {
				static const char *const half[] = {
					"", "\xe2\x96\x80", "\xe2\x96\x84",
					"\xe2\x96\x88"}; /* ▀ ▄ █ */
				snprintf(c->text, sizeof(c->text), "%s",
					 half[d & 3]);
			} else {
				snprintf(c->text, sizeof(c->text), "%s",
					 c->dim ? "." : "*");
			}
		}
}

/* ---- the heat map --------------------------------------------------- */

static const char *ramp_glyph(const struct plot *p, int level)
{
	static const char *const u[PLOT_RAMP_MAX + 1] = {
		"\xc2\xb7",     "\xe2\x96\x91", "\xe2\x96\x91", "\xe2\x96\x92",
		"\xe2\x96\x92", "\xe2\x96\x93", "\xe2\x96\x93", "\xe2\x96\x88"};
	static const char *const a[PLOT_RAMP_MAX + 1] = {".", ":", "-", "=",
							 "+", "*", "#", "@"};
	return utf8(p) ? u[level] : a[level];
}

static bool draw_heat(struct plot *p)
{
	size_t n = (size_t)p->aw * (size_t)p->ah;
	double *z = malloc((n ? n : 1) * sizeof(*z));
	if (!z)
		return false;
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; r < p->ah; r++)
		for (int c = 0; c < p->aw; c++) {
			double tx = p->x0 + (p->x1 - p->x0) * (c + 0.5) / p->aw;
			double ty = p->y1 - (p->y1 - p->y0) * (r + 0.5) / p->ah;
			double v = p->heat(p->heat_ctx, inv(p->xa.log, tx),
					   inv(p->ya.log, ty));
			z[(size_t)r * (size_t)p->aw + (size_t)c] = v;
			extend(&lo, &hi, v);
		}
	for (int r = 0; r < p->ah; r++)
		for (int c = 0; c < p->aw; c++) {
			double v = z[(size_t)r * (size_t)p->aw + (size_t)c];
			if (!isfinite(v))
				continue;
			int level = hi > lo ? (int)lround((v - lo) / (hi - lo) *
							  PLOT_RAMP_MAX)
					    : 0;
			put(p, p->ay + r, p->ax + c, ramp_glyph(p, level),
			    PLOT_STYLE_RAMP, level, false);
		}
	free(z);
	for (size_t i = 0; i < p->n_marks; i++) {
		double tx = fwd(p->xa.log, p->marks[2 * i]);
		double ty = fwd(p->ya.log, p->marks[2 * i + 1]);
		int c = (int)floor((tx - p->x0) / (p->x1 - p->x0) * p->aw);
		int r = (int)floor((p->y1 - ty) / (p->y1 - p->y0) * p->ah);
		if (c == p->aw)
			c--;
		if (r == p->ah)
			r--;
		if (c >= 0 && c < p->aw && r >= 0 && r < p->ah)
			put(p, p->ay + r, p->ax + c,
			    utf8(p) ? "\xc3\x97" : "x", PLOT_STYLE_NOTE, 0,
			    false); /* × */
	}
	/* the scale on row 0: "label min ·░▒▓█ max" */
	char a[24], b[24];
	plot_format_tick(isfinite(lo) ? lo : 0, a, sizeof(a));
	plot_format_tick(isfinite(hi) ? hi : 0, b, sizeof(b));
	int la = (int)strlen(a), lb = (int)strlen(b);
	int x = p->w - (la + 1 + PLOT_RAMP_MAX + 1 + 1 + lb);
	if (x < 0)
		x = 0;
	if (!add_text(p, 0, 0, x - 1, PLOT_STYLE_LABEL, 0, false, p->zlabel) ||
	    !add_text(p, 0, x, la, PLOT_STYLE_NOTE, 0, false, a))
		return false;
	for (int l = 0; l <= PLOT_RAMP_MAX; l++)
		put(p, 0, x + la + 1 + l, ramp_glyph(p, l), PLOT_STYLE_RAMP, l,
		    false);
	return add_text(p, 0, x + la + PLOT_RAMP_MAX + 3, lb, PLOT_STYLE_NOTE, 0,
			false, b);
}

/* ---- axes, legend, render ------------------------------------------- */

static bool draw_axes(struct plot *p, const double *yt, int ny, int lw)
{
	bool u = utf8(p);
	int axis_row = p->ay + p->ah;
	for (int y = p->ay; y < axis_row; y++)
		put(p, y, lw, u ? "\xe2\x94\x82" : "|", PLOT_STYLE_AXIS, 0, false);
	put(p, axis_row, lw, u ? "\xe2\x94\x94" : "+", PLOT_STYLE_AXIS, 0, false);
	for (int x = lw + 1; x < p->w; x++)
		put(p, axis_row, x, u ? "\xe2\x94\x80" : "-", PLOT_STYLE_AXIS, 0,
		    false);
	char buf[32];
	for (int i = 0; i < ny; i++) {
		double f = (1 - (fwd(p->ya.log, yt[i]) - p->y0) / (p->y1 - p->y0)) *
			   (p->ah - 1);
		int r = p->ay + (int)lround(f);
		if (r < p->ay || r >= axis_row)
			continue;
		put(p, r, lw, u ? "\xe2\x94\xa4" : "+", PLOT_STYLE_AXIS, 0, false);
		plot_format_tick(yt[i], buf, sizeof(buf));
		if (!add_text(p, r, 0, lw, PLOT_STYLE_TICK, 0, true, buf))
			return false;
	}
	double xt[TICKS_MAX];
	int nx = make_ticks(p->xa.log, p->x0, p->x1, xt);
	int free_from = 0; /* tick labels must not overlap */
	for (int i = 0; i < nx; i++) {
		double f = (fwd(p->xa.log, xt[i]) - p->x0) / (p->x1 - p->x0) *
			   (p->aw - 1);
		int c = p->ax + (int)lround(f);
		if (c < p->ax || c >= p->ax + p->aw)
			continue;
		put(p, axis_row, c, u ? "\xe2\x94\xb4" : "+", PLOT_STYLE_AXIS, 0,
		    false);
		plot_format_tick(xt[i], buf, sizeof(buf));
		int len = (int)strlen(buf);
		int x = c - len / 2;
		if (x + len > p->w)
			x = p->w - len;
		if (x < free_from)
			continue;
		if (!add_text(p, axis_row + 1, x, len, PLOT_STYLE_TICK, 0, false,
			      buf))
			return false;
		free_from = x + len + 1;
	}
	return add_text(p, p->h - 1, lw + 1, p->w - lw - 1, PLOT_STYLE_LABEL, 0,
			true, p->xlabel) &&
	       add_text(p, 1, 0, p->w, PLOT_STYLE_LABEL, 0, false, p->ylabel);
}

static bool draw_legend(struct plot *p)
{
	if (p->n_series == 0)
		return true;
	int share = p->w / p->n_series;
	for (int s = 0; s < p->n_series; s++) {
		int x = s * share;
		put(p, 0, x, utf8(p) ? "\xe2\x97\x8f" : "o", PLOT_STYLE_SERIES, s,
		    false);
		if (!add_text(p, 0, x + 2, share - 3, PLOT_STYLE_SERIES, s, false,
			      p->series[s].name))
			return false;
	}
	return true;
}

static void draw_marker(struct plot *p)
{
	double f = px_of(p, p->marker);
	if (!isfinite(f))
		return;
	int c = (int)lround(f) / sub_x(p);
	if (c < 0 || c >= p->aw)
		return;
	for (int r = 0; r < p->ah; r++) {
		size_t i = (size_t)(p->ay + r) * (size_t)p->w +
			   (size_t)(p->ax + c);
		if (p->dots[i] || p->solid[i])
			continue;
		put(p, p->ay + r, p->ax + c, utf8(p) ? "\xe2\x94\x8a" : ":",
		    PLOT_STYLE_AXIS, 0, true); /* ┊ */
	}
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
		return add_text(p, 0, 0, w, PLOT_STYLE_NOTE, 0, false,
				"(too small to plot)");
	compute_ranges(p);
	double yt[TICKS_MAX];
	int ny = make_ticks(p->ya.log, p->y0, p->y1, yt);
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
	if (!draw_axes(p, yt, ny, lw))
		return false;
	if (p->heat)
		return draw_heat(p);
	for (int s = 0; s < p->n_series; s++)
		if (p->series[s].f)
			draw_curve(p, s);
	draw_points(p);
	finish_pixels(p);
	draw_marker(p);
	return draw_legend(p);
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
