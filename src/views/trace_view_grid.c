/* trace_view_grid: the cell grid of the trace view's visible window (rows
 * x columns, each cell the context at the start of its time slice), the
 * depth view's grid, and the mapping of screen rows and columns to lines
 * and times.  Depends on the model and trace_index only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"
#include "core/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t trace_view_row_line(const struct trace_view *v, uint32_t rows,
			     uint32_t r)
{
	uint32_t n = v->win.line_hi - v->win.line_lo;
	if (rows == 0 || r >= rows)
		return MODEL_NONE;
	if (n <= rows)
		return r < n ? v->win.line_lo + r : MODEL_NONE;
	return v->win.line_lo + (uint32_t)((uint64_t)r * n / rows);
}

uint32_t trace_view_line_row(const struct trace_view *v, uint32_t rows,
			     uint32_t line)
{
	uint32_t n = v->win.line_hi - v->win.line_lo;
	if (rows == 0 || line < v->win.line_lo || line >= v->win.line_hi)
		return MODEL_NONE;
	uint64_t x = line - v->win.line_lo;
	if (n <= rows)
		return (uint32_t)x;
	uint64_t r = x * rows / n;
	while (r + 1 < rows && (r + 1) * n / rows <= x)
		r++;
	while (r > 0 && r * n / rows > x)
		r--;
	return (uint32_t)r;
}

uint32_t trace_view_cursor_column(const struct trace_view *v,
				  uint32_t columns)
{
	uint64_t width = v->win.to - v->win.from;
	if (columns == 0 || width == 0)
		return 0;
	uint64_t k = (uint64_t)((unsigned __int128)(v->cursor_time -
						    v->win.from) *
				columns / width);
	/* the last cell whose start is at or before the cursor (cell starts
	 * are rounded down) */
	while (k + 1 < columns &&
	       trace_cell_time(v->win.from, v->win.to, columns,
			       (uint32_t)k + 1) <= v->cursor_time)
		k++;
	return k >= columns ? columns - 1 : (uint32_t)k;
}

static enum status grid_size(struct trace_grid *g, uint32_t rows,
			     uint32_t columns, struct error *err)
{
	size_t n = (size_t)rows * columns;
	if (rows && n / rows != columns)
		return error_set(err, STATUS_LIMIT, NULL, "grid too large");
	if (rows != g->rows || columns != g->columns)
		g->raw_valid = false;
	if (n > (size_t)g->rows * g->columns || !g->cells) {
		uint32_t *c = realloc(g->cells, (n ? n : 1) * sizeof(*c));
		if (c)
			g->cells = c;
		uint32_t *r = realloc(g->raw, (n ? n : 1) * sizeof(*r));
		if (r)
			g->raw = r;
		double *d = realloc(g->values, (n ? n : 1) * sizeof(*d));
		if (d)
			g->values = d;
		uint64_t *in = realloc(g->instants, (n ? n : 1) * sizeof(*in));
		if (in)
			g->instants = in;
		if (!c || !r || !d || !in)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	uint32_t *l = realloc(g->row_line, (rows ? rows : 1) * sizeof(*l));
	if (!l)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (l != g->row_line)
		g->raw_valid = false;
	g->row_line = l;
	g->rows = rows;
	g->columns = columns;
	return STATUS_OK;
}

/* A trace read failed while computing `g` (a remote file whose server went
 * away): the grid is not reused, and lines whose bounds could not be read
 * are read again next time instead of staying empty. */
static bool failed_read(struct trace_view *v, struct trace_grid *g,
			struct error *err)
{
	if (!tv_take_read_error(v, err))
		return false;
	g->raw_valid = false;
	for (uint32_t i = 0; i < model_n_timelines(v->m); i++)
		if (v->bounds_state[i] == BOUNDS_EMPTY)
			v->bounds_state[i] = BOUNDS_UNKNOWN;
	return true;
}

/* The instants of row line `tl` per cell, none on other lines. */
static void instant_cells(const struct trace_view *v, uint32_t tl,
			  uint32_t columns, uint64_t *out)
{
	if (tl < model_n_timelines(v->m) && model_timelines(v->m)[tl].n_instants &&
	    model_timelines(v->m)[tl].kind == TIMELINE_INTERVALS) {
		trace_instant_cells(v->m, tl, v->win.from, v->win.to, columns,
				    out);
		return;
	}
	for (uint32_t k = 0; k < columns; k++)
		out[k] = UINT64_MAX;
}

enum status trace_view_compute(struct trace_view *v, uint32_t rows,
			       uint32_t columns, struct trace_grid *g,
			       struct error *err)
{
	enum status st = grid_size(g, rows, columns, err);
	if (st != STATUS_OK)
		return st;
	bool reuse = g->raw_valid && !g->raw_depth_view &&
		     g->raw_from == v->win.from && g->raw_to == v->win.to &&
		     g->raw_lo == v->win.line_lo && g->raw_hi == v->win.line_hi &&
		     g->raw_stamp == v->stamp;
	for (uint32_t r = 0; r < rows; r++) {
		uint32_t line = trace_view_row_line(v, rows, r);
		CHECK(line == MODEL_NONE || line < v->n_lines);
		uint32_t tl = line == MODEL_NONE ? MODEL_NONE : v->lines[line];
		uint32_t *raw = g->raw + (size_t)r * columns;
		uint32_t *cells = g->cells + (size_t)r * columns;
		g->row_line[r] = tl;
		if (!reuse) {
			trace_cells_raw(v->m, tl,
					tl == MODEL_NONE ? NULL : tv_bounds_of(v, tl),
					v->win.from, v->win.to, columns, raw);
			/* NaN everywhere but on counter rows */
			trace_counter_cells(v->m, tl, v->win.from, v->win.to,
					    columns,
					    g->values + (size_t)r * columns,
					    NULL);
			instant_cells(v, tl, columns,
				      g->instants + (size_t)r * columns);
		}
		uint32_t prev_raw = UINT32_MAX, prev = 0;
		bool own = trace_line_own_context(v->m, tl);
		for (uint32_t k = 0; k < columns; k++) {
			if (raw[k] != prev_raw) {
				prev_raw = raw[k];
				prev = own ? raw[k]
					   : trace_ctx_at_depth(v->m, raw[k],
								v->win.depth);
			}
			cells[k] = prev;
		}
	}
	if (failed_read(v, g, err))
		return err ? err->status : STATUS_IO;
	if ((st = tv_window_shares(v, err)) != STATUS_OK)
		return st;
	*g = (struct trace_grid){
		.rows = g->rows, .columns = g->columns, .cells = g->cells,
		.raw = g->raw, .row_line = g->row_line, .values = g->values,
		.instants = g->instants, .raw_valid = true,
		.raw_from = v->win.from, .raw_to = v->win.to,
		.raw_lo = v->win.line_lo, .raw_hi = v->win.line_hi,
		.raw_stamp = v->stamp,
	};
	return STATUS_OK;
}

enum status trace_view_compute_depth(struct trace_view *v, uint32_t rows,
				     uint32_t columns, struct trace_grid *g,
				     struct error *err)
{
	enum status st = grid_size(g, rows, columns, err);
	if (st != STATUS_OK)
		return st;
	uint32_t tl = v->cursor_line < v->n_lines ? v->lines[v->cursor_line]
						  : MODEL_NONE;
	/* the line's raw contexts go in row 0 of raw, then each depth */
	trace_cells_raw(v->m, tl, tl == MODEL_NONE ? NULL : tv_bounds_of(v, tl),
			v->win.from, v->win.to, columns, g->raw);
	g->raw_valid = false;
	for (uint32_t r = 0; r < rows; r++) {
		g->row_line[r] = tl;
		for (uint32_t k = 0; k < columns; k++) {
			uint32_t ctx = g->raw[k];
			g->cells[(size_t)r * columns + k] =
				trace_ctx_frames(v->m, ctx) > r
					? trace_ctx_at_depth(v->m, ctx, r)
					: 0;
		}
	}
	for (uint32_t r = 1; r < rows; r++)
		memcpy(g->raw + (size_t)r * columns, g->raw,
		       columns * sizeof(*g->raw));
	for (size_t i = 0; i < (size_t)rows * columns; i++) {
		g->values[i] = NAN;
		g->instants[i] = UINT64_MAX;
	}
	if (failed_read(v, g, err))
		return err ? err->status : STATUS_IO;
	return tv_window_shares(v, err);
}

void trace_grid_free(struct trace_grid *g)
{
	if (!g)
		return;
	free(g->cells);
	free(g->raw);
	free(g->values);
	free(g->instants);
	free(g->row_line);
	memset(g, 0, sizeof(*g));
}
