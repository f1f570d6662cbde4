/* trace_view_shares: the trace view's shares of the window over every
 * line (views/trace_shares: the legend, statistics and summary views),
 * cached per window so that a depth change or a cursor move reads
 * nothing, and turned into share lists at the window's depth.  Depends on
 * the model and trace_shares only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"
#include "views/trace_shares.h"

#include <stdlib.h>

/* The window's shares over every line, computed again only when the
 * window's time, line range or line list changed; the maximum depth is
 * theirs (the deepest context on any line counted, not on a row drawn). */
enum status tv_window_shares(struct trace_view *v, struct error *err)
{
	if (v->sh_valid && v->sh_from == v->win.from && v->sh_to == v->win.to &&
	    v->sh_lo == v->win.line_lo && v->sh_hi == v->win.line_hi &&
	    v->sh_stamp == v->stamp)
		return STATUS_OK;
	uint32_t lo = v->win.line_lo < v->n_lines ? v->win.line_lo : v->n_lines;
	uint32_t hi = v->win.line_hi < v->n_lines ? v->win.line_hi : v->n_lines;
	enum status st = trace_shares_compute(v->m, v->lines + lo,
					      hi > lo ? hi - lo : 0,
					      v->win.from, v->win.to,
					      v->budget, &v->shares, err);
	v->sh_valid = false;
	if (st != STATUS_OK)
		return st;
	struct error local = {.status = STATUS_OK};
	if (model_trace_take_error(v->m, err ? err : &local)) {
		error_clear(&local);
		return err ? err->status : STATUS_IO;
	}
	v->sh_valid = true;
	v->sh_from = v->win.from;
	v->sh_to = v->win.to;
	v->sh_lo = v->win.line_lo;
	v->sh_hi = v->win.line_hi;
	v->sh_stamp = v->stamp;
	v->max_depth = v->shares.max_frames ? v->shares.max_frames - 1 : 0;
	return STATUS_OK;
}

void trace_view_set_share_budget(struct trace_view *v, uint64_t budget)
{
	v->budget = budget;
	v->sh_valid = false;
	v->cs_valid = false;
}

uint32_t trace_view_share_points(const struct trace_view *v)
{
	return v->sh_valid ? v->shares.points : 0;
}



/* `sh` at the window's depth as a share list, most first. */
static enum status depth_list(struct trace_view *v,
			      const struct trace_shares *sh, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      struct error *err)
{
	struct trace_ctx_time *d = NULL;
	size_t k = 0;
	enum status st =
		trace_shares_at_depth(v->m, sh, v->win.depth, &d, &k, err);
	if (st != STATUS_OK)
		return st;
	struct trace_share *s = malloc((k ? k : 1) * sizeof(*s));
	if (!s) {
		free(d);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < k; i++)
		s[i] = (struct trace_share){
			.ctx = d[i].ctx,
			.color = trace_view_color(v->m, d[i].ctx, n_colors),
			.cells = d[i].time,
		};
	free(d);
	qsort(s, k, sizeof(*s), tv_by_cells);
	*out = s;
	*n = k;
	return STATUS_OK;
}

enum status trace_view_shares(struct trace_view *v, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      uint32_t *counted, uint32_t *lines,
			      struct error *err)
{
	*out = NULL;
	*n = 0;
	enum status st = tv_window_shares(v, err);
	if (st != STATUS_OK)
		return st;
	if ((st = depth_list(v, &v->shares, n_colors, out, n, err)) !=
	    STATUS_OK)
		return st;
	if (counted)
		*counted = v->shares.counted;
	if (lines)
		*lines = v->shares.lines;
	return STATUS_OK;
}

/* The window's shares per column, computed again only when the window's
 * time, line range, line list or the number of columns changed. */
static enum status column_shares(struct trace_view *v, uint32_t columns,
				 struct error *err)
{
	if (v->cs_valid && v->cs_from == v->win.from &&
	    v->cs_to == v->win.to && v->cs_lo == v->win.line_lo &&
	    v->cs_hi == v->win.line_hi && v->cs_stamp == v->stamp &&
	    v->cs_columns == columns)
		return STATUS_OK;
	uint32_t lo = v->win.line_lo < v->n_lines ? v->win.line_lo : v->n_lines;
	uint32_t hi = v->win.line_hi < v->n_lines ? v->win.line_hi : v->n_lines;
	v->cs_valid = false;
	enum status st = trace_shares_compute_columns(
		v->m, v->lines + lo, hi > lo ? hi - lo : 0, v->win.from,
		v->win.to, columns, v->budget, &v->cshares, err);
	if (st != STATUS_OK)
		return st;
	struct error local = {.status = STATUS_OK};
	if (model_trace_take_error(v->m, err ? err : &local)) {
		error_clear(&local);
		return err ? err->status : STATUS_IO;
	}
	v->cs_valid = true;
	v->cs_from = v->win.from;
	v->cs_to = v->win.to;
	v->cs_lo = v->win.line_lo;
	v->cs_hi = v->win.line_hi;
	v->cs_stamp = v->stamp;
	v->cs_columns = columns;
	return STATUS_OK;
}

enum status trace_view_column_shares(struct trace_view *v, uint32_t columns,
				     uint32_t k, uint32_t n_colors,
				     struct trace_share **out, size_t *n,
				     uint32_t *counted, uint32_t *lines,
				     struct error *err)
{
	*out = NULL;
	*n = 0;
	if (columns == 0 || k >= columns)
		return error_set(err, STATUS_USAGE, NULL,
				 "no such column");
	enum status st = column_shares(v, columns, err);
	if (st != STATUS_OK)
		return st;
	if (counted)
		*counted = v->cshares.counted;
	if (lines)
		*lines = v->cshares.lines;
	if (k >= v->cshares.columns) /* an empty window: nothing */
		return STATUS_OK;
	return depth_list(v, &v->cshares.col[k], n_colors, out, n, err);
}
