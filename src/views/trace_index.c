/* trace_index: searches over lazily read trace elements (samples and
 * intervals alike), read through the model's accessors (model_sample,
 * model_interval).  Depends on the model only. */
#include "config.h"

#include "views/trace_index.h"
#include "core/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Element `i` of `line` as a point on the time axis: a sample's time and
 * context, or an interval's begin and context.  `end` is the interval's end
 * (UINT64_MAX for a sample: active until the next one). */
static bool read_elem(const struct model *m, uint32_t line, uint64_t i,
		      uint64_t *time, uint32_t *ctx, uint64_t *end)
{
	CHECK(line < model_n_timelines(m)); /* callers check line_ok first */
	/* a counter line has values, not contexts */
	if (model_timelines(m)[line].kind == TIMELINE_COUNTER)
		return false;
	if (model_timelines(m)[line].kind == TIMELINE_INTERVALS) {
		struct trace_interval iv;
		if (!model_interval(m, line, i, &iv))
			return false;
		*time = iv.begin;
		*ctx = iv.ctx_id;
		*end = iv.end;
		return true;
	}
	struct trace_sample s;
	if (!model_sample(m, line, i, &s))
		return false;
	*time = s.time;
	*ctx = s.ctx_id;
	*end = UINT64_MAX;
	return true;
}

/* Interval tracks: the context active at `t` when element `i` (the last
 * that begins at or before t) ended at `end` <= t: follow the `up` links
 * (trace_interval.up) to the latest-begun interval still running at t;
 * 0 (idle) when none is.  Nested regions and overlapping kernels are then
 * answered right; O(nesting depth) reads, at most TRACE_UP_LIMIT. */
#define TRACE_UP_LIMIT 4096
static bool read_time(const struct model *m, uint32_t line, uint64_t i,
		      uint64_t *time);
static bool locate(const struct model *m, uint32_t line, uint64_t lo,
		   uint64_t tlo, uint64_t hi, uint64_t thi, uint64_t t,
		   uint64_t *index);
static uint32_t active_at(const struct model *m, uint32_t line, uint64_t i,
			  uint64_t t)
{
	struct trace_interval iv;
	if (!model_interval(m, line, i, &iv))
		return 0;
	for (int n = 0; n < TRACE_UP_LIMIT; n++) {
		if (t >= iv.begin && t < iv.end)
			return iv.ctx_id;
		if (iv.up == 0 || iv.up - 1 >= i)
			return 0;
		i = iv.up - 1;
		if (!model_interval(m, line, i, &iv))
			return 0;
	}
	return 0;
}

bool trace_interval_active(const struct model *m, uint32_t line, uint64_t t,
			   struct trace_interval *out, uint64_t *index)
{
	struct trace_bounds b;
	uint64_t i;
	/* the bounds are read through model_interval: false without one */
	if (!trace_bounds_read(m, line, &b) ||
	    model_timelines(m)[line].kind != TIMELINE_INTERVALS || t < b.first)
		return false;
	if (t >= b.last)
		i = b.count - 1;
	else {
		uint64_t tl;
		if (!read_time(m, line, 0, &tl) ||
		    !locate(m, line, 0, tl, b.count - 1, b.last, t, &i))
			return false;
	}
	for (int n = 0; n < TRACE_UP_LIMIT; n++) {
		if (!model_interval(m, line, i, out))
			return false;
		if (t >= out->begin && t < out->end) {
			if (index)
				*index = i;
			return true;
		}
		if (out->up == 0 || out->up - 1 >= i)
			return false;
		i = out->up - 1;
	}
	return false;
}

static bool read_time(const struct model *m, uint32_t line, uint64_t i,
		      uint64_t *time)
{
	uint32_t ctx;
	uint64_t end;
	return read_elem(m, line, i, time, &ctx, &end);
}

static bool line_ok(const struct model *m, uint32_t line)
{
	return m && line < model_n_timelines(m) && model_timelines(m)[line].count > 0;
}

bool trace_bounds_read(const struct model *m, uint32_t line,
		       struct trace_bounds *out)
{
	if (!line_ok(m, line))
		return false;
	uint64_t n = model_timelines(m)[line].count;
	if (!read_time(m, line, 0, &out->first) ||
	    !read_time(m, line, n - 1, &out->last))
		return false;
	out->count = n;
	return true;
}

#define INTERPOLATION_ROUNDS 4
#define INTERPOLATION_SLACK 32 /* elements: about one 4 KiB block */

/* A bracket around t: time(lo) = tlo <= t < thi = time(hi), lo < hi. */
struct bracket {
	uint64_t lo, tlo, hi, thi;
};

/* Read the time at index p (inside the bracket) and move the bracket's
 * end to p on its side of t: *le when time(p) <= t (lo moved). */
static bool narrow(const struct model *m, uint32_t line, struct bracket *b,
		   uint64_t p, uint64_t t, bool *le)
{
	uint64_t time;
	if (!read_time(m, line, p, &time))
		return false;
	*le = time <= t;
	if (*le)
		b->lo = p, b->tlo = time;
	else
		b->hi = p, b->thi = time;
	return true;
}

/* The last index whose time <= t, given lo with time(lo) = tlo <= t and
 * hi with time(hi) = thi > t (lo < hi).  A few rounds of interpolation:
 * probe where linear interpolation between the bracket's times puts t,
 * then probes 1 and INTERPOLATION_SLACK elements further toward t, which usually
 * closes the bracket around t (timestamps are nearly regular, so the guess
 * is off by a few elements) or at least moves both of its ends close to t;
 * then bisection.  O(1) probes, all near the answer, when timestamps are
 * regular; never more than 3 * INTERPOLATION_ROUNDS + log2(hi - lo) + 1. */
static bool locate(const struct model *m, uint32_t line, uint64_t lo,
		   uint64_t tlo, uint64_t hi, uint64_t thi, uint64_t t,
		   uint64_t *index)
{
	struct bracket b = {lo, tlo, hi, thi};
	bool up, le;
	/* the bracket; thi > tlo is also what the interpolation divides by */
	CHECK(lo < hi && tlo <= t && t < thi);
	for (int round = 0; round < INTERPOLATION_ROUNDS && b.hi - b.lo > 2;
	     round++) {
		unsigned __int128 off = (unsigned __int128)(t - b.tlo) *
					(b.hi - b.lo) / (b.thi - b.tlo);
		uint64_t g = b.lo + (uint64_t)off;
		if (g <= b.lo)
			g = b.lo + 1;
		if (g >= b.hi)
			g = b.hi - 1;
		if (!narrow(m, line, &b, g, t, &up))
			return false;
		/* then one element further toward t, then SLACK further */
		for (uint64_t step = 1; b.hi - b.lo > 1;
		     step = step == 1 ? INTERPOLATION_SLACK : 0) {
			if (step == 0)
				break;
			uint64_t w = b.hi - b.lo;
			uint64_t p = up ? (step < w ? b.lo + step : b.hi - 1)
					: (step < w ? b.hi - step : b.lo + 1);
			if (!narrow(m, line, &b, p, t, &le))
				return false;
			if (le != up)
				break; /* t is bracketed near g */
		}
		CHECK(b.lo < b.hi && b.tlo <= t && t < b.thi);
		if (b.hi - b.lo <= INTERPOLATION_SLACK)
			break;
	}
	while (b.hi - b.lo > 1)
		if (!narrow(m, line, &b, b.lo + (b.hi - b.lo) / 2, t, &le))
			return false;
	*index = b.lo;
	return true;
}

/* The last index whose time <= t, searching from `lo` (time(lo) = tlo <= t,
 * or lo = UINT64_MAX for "the start of the line") within line bounds `b`.
 * False when t is before the first element. */
static bool find(const struct model *m, uint32_t line,
		 const struct trace_bounds *b, uint64_t lo, uint64_t tlo,
		 uint64_t t, uint64_t *index)
{
	if (t < b->first)
		return false;
	if (t >= b->last) {
		/* equal timestamps at the end: the last one */
		*index = b->count - 1;
		return true;
	}
	if (lo == UINT64_MAX) {
		lo = 0;
		tlo = b->first;
	}
	return locate(m, line, lo, tlo, b->count - 1, b->last, t, index);
}

bool trace_element_at(const struct model *m, uint32_t line,
		      const struct trace_bounds *b, uint64_t t,
		      struct trace_sample *out, uint64_t *index)
{
	uint64_t i, time, end;
	uint32_t ctx;
	if (!line_ok(m, line) || !find(m, line, b, UINT64_MAX, 0, t, &i) ||
	    !read_elem(m, line, i, &time, &ctx, &end))
		return false;
	out->time = time;
	out->ctx_id = t < end ? ctx : active_at(m, line, i, t);
	if (index)
		*index = i;
	return true;
}

bool trace_line_own_context(const struct model *m, uint32_t line)
{
	return m && line < model_n_timelines(m) &&
	       model_timelines(m)[line].group != TIMELINE_GROUP_NONE;
}

bool trace_element_read(const struct model *m, uint32_t line, uint64_t i,
			uint64_t *time, uint32_t *ctx)
{
	uint64_t end;
	return line_ok(m, line) && i < model_timelines(m)[line].count &&
	       read_elem(m, line, i, time, ctx, &end);
}

bool trace_sample_at(const struct model *m, uint32_t line, uint64_t t,
		     struct trace_sample *out, uint64_t *index)
{
	struct trace_bounds b;
	if (!trace_bounds_read(m, line, &b))
		return false;
	return trace_element_at(m, line, &b, t, out, index);
}

uint32_t trace_ctx_frames(const struct model *m, uint32_t ctx_id)
{
	uint32_t node = ctx_id ? model_node_of_ctx(m, ctx_id) : MODEL_NONE;
	uint32_t frames = 0;
	for (uint32_t n = node; n != MODEL_NONE && n != 0;
	     n = model_nodes(m)[n].parent)
		frames += model_kind_is_frame(model_nodes(m)[n].kind);
	return node == MODEL_NONE ? 0 : frames ? frames : 1;
}

uint32_t trace_ctx_at_depth(const struct model *m, uint32_t ctx_id,
			    uint32_t depth)
{
	if (ctx_id == 0)
		return 0;
	uint32_t node = model_node_of_ctx(m, ctx_id);
	if (node == MODEL_NONE)
		return 0;
	/* count the frames above (and including) node */
	uint32_t frames = 0, innermost = MODEL_NONE;
	for (uint32_t n = node; n != MODEL_NONE && n != 0;
	     n = model_nodes(m)[n].parent) {
		if (model_kind_is_frame(model_nodes(m)[n].kind)) {
			if (innermost == MODEL_NONE)
				innermost = n;
			frames++;
		}
	}
	if (frames == 0)
		return ctx_id;
	if (depth >= frames - 1)
		return model_nodes(m)[innermost].ctx_id;
	/* frame number `depth` from the outermost = (frames-1-depth)-th
	 * frame from the innermost */
	uint32_t skip = frames - 1 - depth;
	for (uint32_t n = innermost; n != MODEL_NONE && n != 0;
	     n = model_nodes(m)[n].parent) {
		if (model_kind_is_frame(model_nodes(m)[n].kind)) {
			if (skip == 0)
				return model_nodes(m)[n].ctx_id;
			skip--;
		}
	}
	return ctx_id;
}

uint64_t trace_cell_time(uint64_t from, uint64_t to, uint32_t columns,
			 uint32_t k)
{
	if (columns == 0 || to <= from)
		return from;
	unsigned __int128 span = (unsigned __int128)(to - from) * k / columns;
	return from + (uint64_t)span;
}

void trace_cells_raw(const struct model *m, uint32_t line,
		     const struct trace_bounds *b, uint64_t from, uint64_t to,
		     uint32_t columns, uint32_t *cells)
{
	uint64_t lo = UINT64_MAX, tlo = 0, end = 0;
	uint32_t ctx = 0;
	for (uint32_t k = 0; k < columns; k++)
		cells[k] = 0;
	if (!line_ok(m, line) || !b)
		return;
	for (uint32_t k = 0; k < columns; k++) {
		uint64_t t = trace_cell_time(from, to, columns, k);
		uint64_t i;
		/* a wide cell: a time in it the reader knows cheaply */
		if (model_interval_near(m, line, t,
					trace_cell_time(from, to, columns,
							k + 1) - t,
					&cells[k]))
			continue;
		CHECK(lo == UINT64_MAX || lo < b->count); /* find's answer */
		/* cell times increase: each search starts from the previous
		 * answer, whose time is known */
		if (lo != UINT64_MAX && lo + 1 < b->count) {
			uint64_t tn;
			if (!read_time(m, line, lo + 1, &tn))
				return;
			if (tn > t) {
				cells[k] = t < end ? ctx
						   : active_at(m, line, lo, t);
				continue;
			}
		}
		if (!find(m, line, b, lo, tlo, t, &i))
			continue;
		if (i != lo && !read_elem(m, line, i, &tlo, &ctx, &end))
			return;
		lo = i;
		cells[k] = t < end ? ctx : active_at(m, line, i, t);
	}
}

void trace_cells(const struct model *m, uint32_t line, uint64_t from,
		 uint64_t to, uint32_t columns, uint32_t depth,
		 uint32_t *cells)
{
	struct trace_bounds b;
	bool have = trace_bounds_read(m, line, &b);
	trace_cells_raw(m, line, have ? &b : NULL, from, to, columns, cells);
	if (depth == UINT32_MAX || trace_line_own_context(m, line))
		return;
	for (uint32_t k = 0; k < columns; k++)
		cells[k] = trace_ctx_at_depth(m, cells[k], depth);
}

/* Time and context (at `depth`) of element i. */
static bool elem_at_depth(const struct model *m, uint32_t line, uint64_t i,
			  uint32_t depth, uint64_t *time, uint32_t *out)
{
	uint64_t end;
	uint32_t ctx;
	if (!read_elem(m, line, i, time, &ctx, &end))
		return false;
	*out = depth == UINT32_MAX || trace_line_own_context(m, line)
		       ? ctx
		       : trace_ctx_at_depth(m, ctx, depth);
	return true;
}

/* Elements with equal timestamps: only the last of each group is ever
 * shown (a lookup answers the last at or before t), so changes are
 * looked for between those "effective" elements.  From effective element
 * i, walk back while the effective elements before it have context `c`;
 * the first of that run.  Budget-limited. */
static bool run_start(const struct model *m, uint32_t line, uint64_t i,
		      uint32_t depth, uint32_t c, uint64_t *budget,
		      uint64_t *out)
{
	uint64_t ti, tj;
	uint32_t cj;
	if (!elem_at_depth(m, line, i, depth, &ti, &cj))
		return false;
	for (uint64_t j = i; j > 0;) {
		if ((*budget)-- == 0 ||
		    !elem_at_depth(m, line, j - 1, depth, &tj, &cj))
			return false;
		j--;
		if (tj == ti)
			continue; /* hidden by a later one at the same time */
		if (cj != c)
			break;
		i = j;
		ti = tj;
	}
	*out = i;
	return true;
}

bool trace_next_change(const struct model *m, uint32_t line,
		       const struct trace_bounds *b, uint64_t t,
		       uint32_t depth, bool forward, uint64_t limit,
		       uint64_t *out)
{
	uint64_t i, j, time, tn = 0;
	uint32_t here, c, cn = 0;
	if (!line_ok(m, line) || !b)
		return false;
	if (!find(m, line, b, UINT64_MAX, 0, t, &i)) {
		/* before the first element: the first is the next change */
		return forward && read_time(m, line, 0, out);
	}
	if (!elem_at_depth(m, line, i, depth, &time, &here))
		return false;
	if (forward) {
		for (uint64_t n = 0; n < limit && i + 1 < b->count; n++) {
			if (!elem_at_depth(m, line, ++i, depth, &time, &c))
				return false;
			/* skip to the last element of this timestamp */
			while (i + 1 < b->count && n++ < limit) {
				if (!elem_at_depth(m, line, i + 1, depth, &tn,
						   &cn))
					return false;
				if (tn != time)
					break;
				i++;
				c = cn;
			}
			if (c != here) {
				*out = time;
				return true;
			}
		}
		return false;
	}
	if (!run_start(m, line, i, depth, here, &limit, &j) ||
	    !read_time(m, line, j, &time))
		return false;
	if (time < t) {
		*out = time;
		return true;
	}
	/* t is the start of its run: the start of the run before, whose
	 * last element is the effective one before j */
	uint64_t k = j;
	while (k > 0) {
		if (limit-- == 0 ||
		    !elem_at_depth(m, line, k - 1, depth, &tn, &cn))
			return false;
		k--;
		if (tn != time)
			break;
	}
	if (k == j || tn == time)
		return false;
	if (!run_start(m, line, k, depth, cn, &limit, &j))
		return false;
	return read_time(m, line, j, out);
}

/* ---- counter lines ----------------------------------------------------- */

void trace_counter_cells(const struct model *m, uint32_t line, uint64_t from,
			 uint64_t to, uint32_t columns, double *values,
			 uint64_t *index)
{
	uint64_t i = UINT64_MAX, next = 0;
	double v = NAN;
	bool have_next = false;
	for (uint32_t k = 0; k < columns; k++) {
		values[k] = NAN;
		if (index)
			index[k] = UINT64_MAX;
	}
	if (!m || line >= model_n_timelines(m) ||
	    model_timelines(m)[line].kind != TIMELINE_COUNTER)
		return;
	uint64_t count = model_timelines(m)[line].count;
	for (uint32_t k = 0; k < columns; k++) {
		uint64_t t = trace_cell_time(from, to, columns, k);
		uint64_t at;
		/* a wide cell: a value in it the reader knows cheaply */
		if (model_counter_near(m, line, t,
				       trace_cell_time(from, to, columns,
						       k + 1) - t,
				       &values[k], &at)) {
			if (index)
				index[k] = at;
			i = UINT64_MAX;
			continue;
		}
		/* cell times increase: while the next value is still ahead,
		 * the previous one is in force */
		if (i == UINT64_MAX || !have_next || next <= t) {
			uint64_t j, tj;
			if (!model_counter_at(m, line, t, &j) ||
			    !model_counter(m, line, j, &tj, &v))
				continue;
			i = j;
			double unused;
			have_next = i + 1 < count &&
				    model_counter(m, line, i + 1, &next, &unused);
		}
		values[k] = v;
		if (index)
			index[k] = i;
	}
}

unsigned trace_counter_level(double value, double lo, double hi)
{
	if (isnan(value))
		return 0;
	if (!(hi > lo) || !isfinite(hi - lo))
		return value != 0 ? 8 : 1;
	double x = (value - lo) / (hi - lo);
	if (!(x > 0))
		x = 0;
	if (x > 1)
		x = 1;
	return 1 + (unsigned)lround(7 * x);
}

bool trace_counter_range(const double *values, size_t n, double *lo,
			 double *hi)
{
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		if (isnan(values[k]))
			continue;
		if (!any || values[k] < *lo)
			*lo = values[k];
		if (!any || values[k] > *hi)
			*hi = values[k];
		any = true;
	}
	return any;
}

void trace_format_value(double value, char *buf, size_t size)
{
	if (isnan(value)) {
		snprintf(buf, size, "-");
		return;
	}
	if (value == trunc(value) && fabs(value) < 1e15) {
		snprintf(buf, size, "%.0f", value);
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, size, "%.*g", p, value);
		if (strtod(buf, NULL) == value)
			return;
	}
}

/* ---- instants ------------------------------------------------------ */

uint64_t trace_instants_in(const struct model *m, uint32_t line, uint64_t t0,
			   uint64_t t1, uint64_t *first)
{
	uint64_t a, b;
	*first = UINT64_MAX;
	if (t1 <= t0)
		t1 = t0 == UINT64_MAX ? t0 : t0 + 1;
	if (!model_instant_from(m, line, t0, &a))
		return 0;
	struct trace_instant in;
	if (!model_instant(m, line, a, &in) || in.time >= t1)
		return 0;
	*first = a;
	if (!model_instant_from(m, line, t1, &b))
		b = model_timelines(m)[line].n_instants;
	return b > a ? b - a : 0;
}

void trace_instant_cells(const struct model *m, uint32_t line, uint64_t from,
			 uint64_t to, uint32_t columns, uint64_t *index)
{
	uint64_t next = UINT64_MAX, next_time = 0;
	bool have = false, none = false; /* next: the first at or after */
	for (uint32_t k = 0; k < columns; k++) {
		uint64_t t0 = trace_cell_time(from, to, columns, k);
		uint64_t t1 = k + 1 < columns
				      ? trace_cell_time(from, to, columns, k + 1)
				      : to;
		if (t1 <= t0)
			t1 = t0 + 1;
		index[k] = UINT64_MAX;
		if (none)
			continue;
		if (!have || next_time < t0) {
			struct trace_instant in;
			if (!model_instant_from(m, line, t0, &next) ||
			    !model_instant(m, line, next, &in)) {
				none = true; /* none later: the rest is empty */
				continue;
			}
			next_time = in.time;
			have = true;
		}
		if (next_time < t1)
			index[k] = next;
	}
}
