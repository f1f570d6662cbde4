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

static bool same_key(const struct tv_shares_key *a,
		     const struct tv_shares_key *b)
{
	return a->from == b->from && a->to == b->to && a->stamp == b->stamp &&
	       a->lo == b->lo && a->hi == b->hi && a->columns == b->columns;
}

/* The window's shares in cache `c` (per column when `columns` > 0),
 * computed again only when the window's time, line range, line list or
 * the number of columns changed. */
static enum status cached_shares(struct trace_view *v,
				 struct tv_shares_cache *c, uint32_t columns,
				 struct error *err)
{
	struct tv_shares_key key = {
		.from = v->win.from,
		.to = v->win.to,
		.stamp = v->stamp,
		.lo = v->win.line_lo,
		.hi = v->win.line_hi,
		.columns = columns,
	};
	if (c->valid && same_key(&c->key, &key))
		return STATUS_OK;
	uint32_t lo = key.lo < v->n_lines ? key.lo : v->n_lines;
	uint32_t hi = key.hi < v->n_lines ? key.hi : v->n_lines;
	uint32_t n = hi > lo ? hi - lo : 0;
	c->valid = false;
	enum status st =
		columns ? trace_shares_compute_columns(v->m, v->lines + lo, n,
						       key.from, key.to,
						       columns, v->budget,
						       &c->sh, err)
			: trace_shares_compute(v->m, v->lines + lo, n,
					       key.from, key.to, v->budget,
					       &c->sh, err);
	if (st != STATUS_OK)
		return st;
	if (tv_take_read_error(v, err))
		return err ? err->status : STATUS_IO;
	c->valid = true;
	c->key = key;
	return STATUS_OK;
}

/* The maximum depth is the whole window's (the deepest context on any
 * line counted, not on a row drawn). */
enum status tv_window_shares(struct trace_view *v, struct error *err)
{
	enum status st = cached_shares(v, &v->whole, 0, err);
	if (st == STATUS_OK)
		v->max_depth = v->whole.sh.max_frames
				       ? v->whole.sh.max_frames - 1
				       : 0;
	return st;
}

void trace_view_set_share_budget(struct trace_view *v, uint64_t budget)
{
	v->budget = budget;
	v->whole.valid = false;
	v->by_column.valid = false;
}

uint32_t trace_view_share_points(const struct trace_view *v)
{
	return v->whole.valid ? v->whole.sh.points : 0;
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
	if ((st = depth_list(v, &v->whole.sh, n_colors, out, n, err)) !=
	    STATUS_OK)
		return st;
	if (counted)
		*counted = v->whole.sh.counted;
	if (lines)
		*lines = v->whole.sh.lines;
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
	enum status st = cached_shares(v, &v->by_column, columns, err);
	if (st != STATUS_OK)
		return st;
	const struct trace_shares *sh = &v->by_column.sh;
	if (counted)
		*counted = sh->counted;
	if (lines)
		*lines = sh->lines;
	if (k >= sh->columns) /* an empty window: nothing */
		return STATUS_OK;
	return depth_list(v, &sh->col[k], n_colors, out, n, err);
}
