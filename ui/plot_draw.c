/* plot_draw: drawing a plot on its grid (see plot.h, plot_internal.h).
 * Curves and range bars are drawn on a grid of sub-cell pixels (2 x 4 per
 * cell in braille, 1 x 2 in half blocks, 1 x 1 in ASCII) and turned into
 * glyphs at the end; markers and heat map shades are whole cells; names
 * from the database are text runs, never cells.  No curses, no model. */
#include "config.h"

#include "plot_internal.h"

#include "core/array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

bool plot_add_text(struct plot *p, int y, int x, int w, enum plot_style st,
		   int series, bool right, const char *text)
{
	if (w <= 0 || !text || !*text || y < 0 || y >= p->h)
		return true;
	if (x + w > p->w)
		w = p->w - x;
	if (w <= 0)
		return true;
	if (!array_grow((void **)&p->texts, &p->cap_texts, p->n_texts + 1,
			sizeof(*p->texts)))
		return false;
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
	static const unsigned char braille_bit[2][4] = {
	    {0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
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
	double t = plot_fwd(p->xa.log, x);
	return (t - p->x0) / (p->x1 - p->x0) * (p->aw * sub_x(p) - 1);
}

static double py_of(const struct plot *p, double y)
{
	double t = plot_fwd(p->ya.log, y);
	return (1 - (t - p->y0) / (p->y1 - p->y0)) * (p->ah * sub_y(p) - 1);
}

void plot_draw_curve(struct plot *p, int s)
{
	const struct plot_series *se = &p->series[s];
	int n = p->aw * sub_x(p), H = p->ah * sub_y(p);
	bool have_prev = false;
	long prev = 0;
	for (int px = 0; px < n; px++) {
		double t = p->x0 + (p->x1 - p->x0) * px / (n > 1 ? n - 1 : 1);
		double x = plot_inv(p->xa.log, t);
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

void plot_draw_points(struct plot *p)
{
	const char *bar = utf8(p) ? "\xe2\x94\x82" : "|";  /* │ */
	const char *mark = utf8(p) ? "\xe2\x97\x8f" : "o"; /* ● */
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
void plot_finish_pixels(struct plot *p)
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
	    "\xc2\xb7",	    "\xe2\x96\x91", "\xe2\x96\x91", "\xe2\x96\x92",
	    "\xe2\x96\x92", "\xe2\x96\x93", "\xe2\x96\x93", "\xe2\x96\x88"};
	static const char *const a[PLOT_RAMP_MAX + 1] = {".", ":", "-", "=",
							 "+", "*", "#", "@"};
	return utf8(p) ? u[level] : a[level];
}

bool plot_draw_heat(struct plot *p)
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
			double v = p->heat(p->heat_ctx, plot_inv(p->xa.log, tx),
					   plot_inv(p->ya.log, ty));
			z[(size_t)r * (size_t)p->aw + (size_t)c] = v;
			plot_extend(&lo, &hi, v);
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
		double tx = plot_fwd(p->xa.log, p->marks[2 * i]);
		double ty = plot_fwd(p->ya.log, p->marks[2 * i + 1]);
		int c = (int)floor((tx - p->x0) / (p->x1 - p->x0) * p->aw);
		int r = (int)floor((p->y1 - ty) / (p->y1 - p->y0) * p->ah);
		if (c == p->aw)
			c--;
		if (r == p->ah)
			r--;
		if (c >= 0 && c < p->aw && r >= 0 && r < p->ah)
			put(p, p->ay + r, p->ax + c, utf8(p) ? "\xc3\x97" : "x",
			    PLOT_STYLE_NOTE, 0, false); /* × */
	}
	/* the scale on row 0: "label min ·░▒▓█ max" */
	char a[24], b[24];
	plot_format_tick(isfinite(lo) ? lo : 0, a, sizeof(a));
	plot_format_tick(isfinite(hi) ? hi : 0, b, sizeof(b));
	int la = (int)strlen(a), lb = (int)strlen(b);
	int x = p->w - (la + 1 + PLOT_RAMP_MAX + 1 + 1 + lb);
	if (x < 0)
		x = 0;
	if (!plot_add_text(p, 0, 0, x - 1, PLOT_STYLE_LABEL, 0, false,
			   p->zlabel) ||
	    !plot_add_text(p, 0, x, la, PLOT_STYLE_NOTE, 0, false, a))
		return false;
	for (int l = 0; l <= PLOT_RAMP_MAX; l++)
		put(p, 0, x + la + 1 + l, ramp_glyph(p, l), PLOT_STYLE_RAMP, l,
		    false);
	return plot_add_text(p, 0, x + la + PLOT_RAMP_MAX + 3, lb,
			     PLOT_STYLE_NOTE, 0, false, b);
}

/* ---- axes, legend, render ------------------------------------------- */

bool plot_draw_axes(struct plot *p, const double *yt, int ny, int lw)
{
	bool u = utf8(p);
	int axis_row = p->ay + p->ah;
	for (int y = p->ay; y < axis_row; y++)
		put(p, y, lw, u ? "\xe2\x94\x82" : "|", PLOT_STYLE_AXIS, 0,
		    false);
	put(p, axis_row, lw, u ? "\xe2\x94\x94" : "+", PLOT_STYLE_AXIS, 0,
	    false);
	for (int x = lw + 1; x < p->w; x++)
		put(p, axis_row, x, u ? "\xe2\x94\x80" : "-", PLOT_STYLE_AXIS,
		    0, false);
	char buf[32];
	int rows[TICKS_MAX];
	for (int i = 0; i < ny && i < TICKS_MAX; i++) {
		double f = (1 - (plot_fwd(p->ya.log, yt[i]) - p->y0) /
				    (p->y1 - p->y0)) *
			   (p->ah - 1);
		rows[i] = isfinite(f) ? p->ay + (int)lround(f) : -1;
	}
	/* every `step`-th tick, the smallest step that puts no two labels
	 * on one row (a short plot: 0.01, 1, 100 rather than labels drawn
	 * over each other) */
	int step = 1;
	for (; step < ny; step++) {
		bool clash = false;
		for (int i = 0; i < ny && !clash; i += step)
			for (int j = i + step; j < ny && !clash; j += step)
				clash = rows[i] == rows[j] && rows[i] >= p->ay &&
					rows[i] < axis_row;
		if (!clash)
			break;
	}
	for (int i = 0; i < ny; i += step) {
		int r = rows[i];
		if (r < p->ay || r >= axis_row)
			continue;
		put(p, r, lw, u ? "\xe2\x94\xa4" : "+", PLOT_STYLE_AXIS, 0,
		    false);
		plot_format_tick(yt[i], buf, sizeof(buf));
		if (!plot_add_text(p, r, 0, lw, PLOT_STYLE_TICK, 0, true, buf))
			return false;
	}
	double xt[TICKS_MAX];
	int nx = plot_ticks(p->xa.log, p->x0, p->x1, xt);
	int free_from = 0; /* tick labels must not overlap */
	for (int i = 0; i < nx; i++) {
		double f = (plot_fwd(p->xa.log, xt[i]) - p->x0) /
			   (p->x1 - p->x0) * (p->aw - 1);
		int c = p->ax + (int)lround(f);
		if (c < p->ax || c >= p->ax + p->aw)
			continue;
		put(p, axis_row, c, u ? "\xe2\x94\xb4" : "+", PLOT_STYLE_AXIS,
		    0, false);
		plot_format_tick(xt[i], buf, sizeof(buf));
		int len = (int)strlen(buf);
		int x = c - len / 2;
		if (x + len > p->w)
			x = p->w - len;
		if (x < free_from)
			continue;
		if (!plot_add_text(p, axis_row + 1, x, len, PLOT_STYLE_TICK, 0,
				   false, buf))
			return false;
		free_from = x + len + 1;
	}
	return plot_add_text(p, p->h - 1, lw + 1, p->w - lw - 1,
			     PLOT_STYLE_LABEL, 0, true, p->xlabel) &&
	       plot_add_text(p, 1, 0, p->w, PLOT_STYLE_LABEL, 0, false,
			     p->ylabel);
}

bool plot_draw_legend(struct plot *p)
{
	if (p->n_series == 0)
		return true;
	int share = p->w / p->n_series;
	for (int s = 0; s < p->n_series; s++) {
		int x = s * share;
		put(p, 0, x, utf8(p) ? "\xe2\x97\x8f" : "o", PLOT_STYLE_SERIES,
		    s, false);
		if (!plot_add_text(p, 0, x + 2, share - 3, PLOT_STYLE_SERIES, s,
				   false, p->series[s].name))
			return false;
	}
	return true;
}

void plot_draw_marker(struct plot *p)
{
	double f = px_of(p, p->marker);
	if (!isfinite(f))
		return;
	int c = (int)lround(f) / sub_x(p);
	if (c < 0 || c >= p->aw)
		return;
	for (int r = 0; r < p->ah; r++) {
		size_t i =
		    (size_t)(p->ay + r) * (size_t)p->w + (size_t)(p->ax + c);
		if (p->dots[i] || p->solid[i])
			continue;
		put(p, p->ay + r, p->ax + c, utf8(p) ? "\xe2\x94\x8a" : ":",
		    PLOT_STYLE_AXIS, 0, true); /* ┊ */
	}
}
