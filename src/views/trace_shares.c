/* trace_shares: the window's time per context over every line (see the
 * header for the definition); a walk of the elements inside the window,
 * line by line, lines sampled evenly past a budget of elements.  Depends
 * on the model and trace_index only. */
#include "config.h"

#include "views/trace_shares.h"

#include <stdlib.h>
#include <string.h>

#include "views/trace_index.h"

#define UP_LIMIT 4096 /* enclosing intervals followed at the window start */

void trace_shares_free(struct trace_shares *s)
{
	if (!s)
		return;
	free(s->depth.slots);
	free(s->own.slots);
	for (uint32_t k = 0; s->col && k < s->columns; k++) {
		free(s->col[k].depth.slots);
		free(s->col[k].own.slots);
	}
	free(s->col);
	memset(s, 0, sizeof(*s));
}

static size_t slot_of(uint32_t ctx, size_t cap)
{
	return (size_t)(ctx * 2654435761u) & (cap - 1);
}

static bool grow(struct trace_ctx_table *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1024;
	struct trace_ctx_time *n = calloc(cap, sizeof(*n));
	if (!n)
		return false;
	for (size_t i = 0; i < s->cap; i++) {
		if (!s->slots[i].ctx)
			continue;
		size_t j = slot_of(s->slots[i].ctx, cap);
		while (n[j].ctx)
			j = (j + 1) & (cap - 1);
		n[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = n;
	s->cap = cap;
	return true;
}

static bool put(struct trace_ctx_table *s, uint32_t ctx, uint64_t time)
{
	if ((s->used + 1) * 2 > s->cap && !grow(s))
		return false;
	size_t j = slot_of(ctx, s->cap);
	while (s->slots[j].ctx && s->slots[j].ctx != ctx)
		j = (j + 1) & (s->cap - 1);
	if (!s->slots[j].ctx) {
		s->slots[j].ctx = ctx;
		s->used++;
	}
	s->slots[j].time += time;
	return true;
}

static bool add_to(struct trace_shares *s, bool own, uint32_t ctx,
		   uint64_t time)
{
	if (time == 0)
		return true;
	if (ctx == 0) {
		s->idle += time;
		return true;
	}
	return put(own ? &s->own : &s->depth, ctx, time);
}

/* The column of `s` whose time span holds `t` (from <= t < to). */
static uint32_t column_of(const struct trace_shares *s, uint64_t t)
{
	uint32_t c = s->columns;
	uint32_t k = (uint32_t)((unsigned __int128)(t - s->from) * c /
				(s->to - s->from));
	if (k >= c)
		k = c - 1;
	while (k > 0 && trace_cell_time(s->from, s->to, c, k) > t)
		k--;
	while (k + 1 < c && trace_cell_time(s->from, s->to, c, k + 1) <= t)
		k++;
	return k;
}

/* [a, b) of the walked line is `ctx`: to the window, and with columns to
 * each column the span overlaps, its part of it. */
static bool add(struct trace_shares *s, uint32_t ctx, uint64_t a, uint64_t b)
{
	if (b <= a)
		return true;
	if (!add_to(s, s->walk_own, ctx, b - a))
		return false;
	if (!s->columns)
		return true;
	for (uint32_t k = column_of(s, a); k < s->columns && a < b; k++) {
		uint64_t e = k + 1 == s->columns
				     ? s->to
				     : trace_cell_time(s->from, s->to,
						       s->columns, k + 1);
		e = e < b ? e : b;
		if (e > a && !add_to(&s->col[k], s->walk_own, ctx, e - a))
			return false;
		a = e > a ? e : a;
	}
	return true;
}

/* A sample line over [from, to): each sample holds until the next. */
static bool walk_samples(const struct model *m, uint32_t line,
			 const struct trace_bounds *b, uint64_t from,
			 uint64_t to, struct trace_shares *s)
{
	uint64_t cur = from, i = 0, t;
	uint32_t ctx = 0;
	struct trace_sample first;
	if (from >= b->first) {
		if (!trace_element_at(m, line, b, from, &first, &i))
			return add(s, 0, from, to);
		ctx = first.ctx_id;
		i++;
	}
	for (; i < b->count; i++) {
		uint32_t next;
		if (!trace_element_read(m, line, i, &t, &next) || t >= to)
			break;
		s->elements++;
		if (t > cur) {
			if (!add(s, ctx, cur, t))
				return false;
			cur = t;
		}
		ctx = next;
	}
	return add(s, ctx, cur, to);
}

/* The stack of running intervals of an interval track: the latest-begun
 * on top; ended ones below the top are dropped when they surface. */
struct running {
	uint64_t *end;
	uint32_t *ctx;
	size_t n, cap;
};

static bool push(struct running *r, uint64_t end, uint32_t ctx)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		uint64_t *e = realloc(r->end, cap * sizeof(*e));
		if (e)
			r->end = e;
		uint32_t *c = realloc(r->ctx, cap * sizeof(*c));
		if (c)
			r->ctx = c;
		if (!e || !c)
			return false;
		r->cap = cap;
	}
	r->end[r->n] = end;
	r->ctx[r->n++] = ctx;
	return true;
}

/* Attribute [*cur, until) to the intervals of `r` as they end. */
static bool flush(struct running *r, uint64_t *cur, uint64_t until,
		  struct trace_shares *s)
{
	while (*cur < until) {
		while (r->n && r->end[r->n - 1] <= *cur)
			r->n--;
		if (!r->n)
			return add(s, 0, *cur, until) && (*cur = until, true);
		uint64_t e = r->end[r->n - 1] < until ? r->end[r->n - 1] : until;
		if (!add(s, r->ctx[r->n - 1], *cur, e))
			return false;
		*cur = e;
	}
	return true;
}

/* An interval track over [from, to): at each time the latest-begun
 * interval running (trace_interval_active's answer). */
static bool walk_intervals(const struct model *m, uint32_t line,
			   const struct trace_bounds *b, uint64_t from,
			   uint64_t to, struct running *r,
			   struct trace_shares *s)
{
	uint64_t cur = from, i = 0;
	struct trace_interval iv;
	r->n = 0;
	if (from >= b->first) {
		struct trace_sample at;
		uint64_t i0;
		if (!trace_element_at(m, line, b, from, &at, &i0))
			return add(s, 0, from, to);
		/* the intervals running at `from`: i0 and what it lies in,
		 * outermost first on the stack */
		uint64_t chain[256]; /* deeper nesting: the outermost are
					left out (idle once the inner end) */
		size_t nc = 0;
		uint64_t k = i0 + 1;
		for (int guard = 0; k && guard < UP_LIMIT; guard++) {
			if (!model_interval(m, line, k - 1, &iv))
				break;
			if (iv.end > from && nc < sizeof(chain) / sizeof(*chain))
				chain[nc++] = k - 1;
			if (iv.up == 0 || iv.up >= k)
				break;
			k = iv.up;
		}
		while (nc--) {
			if (!model_interval(m, line, chain[nc], &iv) ||
			    !push(r, iv.end, iv.ctx_id))
				return false;
		}
		i = i0 + 1;
	}
	for (; i < b->count; i++) {
		if (!model_interval(m, line, i, &iv) || iv.begin >= to)
			break;
		s->elements++;
		if (!flush(r, &cur, iv.begin, s))
			return false;
		if (iv.end > iv.begin && !push(r, iv.end, iv.ctx_id))
			return false;
	}
	return flush(r, &cur, to, s);
}

/* `line` over [from, to) taken at `points` times, each the middle of an
 * equal slice of the window and weighing it (its context there: the
 * sample in force, or the active interval). */
static bool point_line(const struct model *m, uint32_t line,
		       const struct trace_bounds *b, uint64_t from,
		       uint64_t to, uint64_t points, struct trace_shares *s)
{
	uint64_t width = to - from, prev = 0;
	if (points > width)
		points = width;
	bool intervals = model_timelines(m)[line].kind == TIMELINE_INTERVALS;
	for (uint64_t j = 0; j < points; j++) {
		uint64_t end =
			(uint64_t)((unsigned __int128)width * (j + 1) / points);
		uint64_t t = from + prev + (end - prev) / 2;
		uint32_t ctx = 0;
		uint64_t k;
		if (intervals) {
			struct trace_interval iv;
			/* any time of the slice is as good a sample: one the
			 * reader knows without reading events first */
			if (!model_interval_near(m, line, from + prev,
						 end - prev, &ctx) &&
			    trace_interval_active(m, line, t, &iv, &k))
				ctx = iv.ctx_id;
		} else if (t >= b->first) {
			struct trace_sample x;
			if (trace_element_at(m, line, b, t, &x, &k))
				ctx = x.ctx_id;
		}
		s->elements++;
		if (!add(s, ctx, from + prev, from + end))
			return false;
		prev = end;
	}
	return true;
}

/* Elements of `line` inside [from, to), at least 1 (two bisections). */
static uint64_t window_elements(const struct model *m, uint32_t line,
				const struct trace_bounds *b, uint64_t from,
				uint64_t to)
{
	struct trace_sample x;
	uint64_t lo = 0, hi = 0;
	if (to <= b->first)
		return 1;
	if (from >= b->first && !trace_element_at(m, line, b, from, &x, &lo))
		return 1;
	if (!trace_element_at(m, line, b, to - 1, &x, &hi))
		return 1;
	return hi >= lo ? hi - lo + 1 : 1;
}

/* Empty `s`, keeping its tables' memory; for a window with `columns`,
 * its columns.  False when out of memory. */
static bool reset(struct trace_shares *s, uint64_t from, uint64_t to,
		  uint32_t columns)
{
	struct trace_ctx_table depth = s->depth, own = s->own;
	if (depth.slots)
		memset(depth.slots, 0, depth.cap * sizeof(*depth.slots));
	if (own.slots)
		memset(own.slots, 0, own.cap * sizeof(*own.slots));
	depth.used = own.used = 0;
	for (uint32_t k = 0; s->col && k < s->columns; k++) {
		free(s->col[k].depth.slots);
		free(s->col[k].own.slots);
	}
	free(s->col);
	*s = (struct trace_shares){.depth = depth, .own = own};
	if (to <= from || !columns)
		return true;
	s->col = calloc(columns, sizeof(*s->col));
	if (!s->col)
		return false;
	s->columns = columns;
	s->from = from;
	s->to = to;
	return true;
}

/* Which lines are counted and how: use[0..k) the lines looked at, with
 * their bounds (has[i]: read) and the elements each holds in the window
 * (we[i]); a line with more than `fair` elements is long, taken at
 * `points` times, and pick_long of the n_long long lines are taken. */
struct plan {
	uint32_t *use;
	uint64_t *we;
	struct trace_bounds *bs;
	uint8_t *has;
	uint32_t k, n_long, pick_long;
	uint64_t fair, points;
};

static void plan_free(struct plan *p)
{
	free(p->use);
	free(p->we);
	free(p->bs);
	free(p->has);
}

/* The plan for lines[0..n) over [from, to) within `budget` (s->lines
 * set); false when out of memory. */
static bool plan_lines(const struct model *m, const uint32_t *lines,
		       uint32_t n, uint64_t from, uint64_t to,
		       uint64_t budget, struct trace_shares *s,
		       struct plan *p)
{
	p->use = malloc((n ? n : 1) * sizeof(*p->use));
	p->we = malloc((n ? n : 1) * sizeof(*p->we));
	p->bs = malloc((n ? n : 1) * sizeof(*p->bs));
	p->has = calloc(n ? n : 1, 1);
	if (!p->use || !p->we || !p->bs || !p->has)
		return false;
	/* the lines that count (no read yet) */
	uint32_t all = 0;
	for (uint32_t i = 0; i < n; i++)
		if (lines[i] < model_n_timelines(m) &&
		    model_timelines(m)[lines[i]].kind != TIMELINE_COUNTER)
			p->use[all++] = lines[i];
	s->lines = all;
	/* more lines than are worth two bisections each: an even spread of
	 * TRACE_SHARES_LINES of them */
	uint32_t k = all;
	if (k > TRACE_SHARES_LINES) {
		for (uint32_t j = 0; j < TRACE_SHARES_LINES; j++)
			p->use[j] = p->use[(uint64_t)j * all /
					   TRACE_SHARES_LINES];
		k = TRACE_SHARES_LINES;
	}
	p->k = k;
	/* the elements the window holds */
	uint64_t total = 0;
	for (uint32_t i = 0; i < k; i++) {
		p->has[i] = trace_bounds_read(m, p->use[i], &p->bs[i]);
		p->we[i] = p->has[i] ? window_elements(m, p->use[i], &p->bs[i],
						       from, to)
				     : 0;
		total += p->we[i];
	}
	/* past the budget: a line holding more than its even part of the
	 * budget is long -- taken at `points` times (one bisection each,
	 * about budget / TRACE_SHARES_POINT_READS of them in all) instead of
	 * walked; when the long lines are too many for TRACE_SHARES_POINTS
	 * times each, an even spread of them is taken */
	p->fair = budget && total > budget ? budget / k : UINT64_MAX;
	p->n_long = 0;
	for (uint32_t i = 0; i < k; i++)
		p->n_long += p->has[i] && p->we[i] > p->fair;
	uint64_t bisections = budget / TRACE_SHARES_POINT_READS;
	if (bisections < TRACE_SHARES_POINTS)
		bisections = TRACE_SHARES_POINTS;
	p->points = p->n_long ? bisections / p->n_long : 0;
	p->pick_long = p->n_long;
	if (p->n_long && p->points < TRACE_SHARES_POINTS) {
		p->points = TRACE_SHARES_POINTS;
		p->pick_long = (uint32_t)(bisections / TRACE_SHARES_POINTS);
		if (p->pick_long < 1)
			p->pick_long = 1;
	}
	if (p->points > TRACE_SHARES_POINTS_MAX)
		p->points = TRACE_SHARES_POINTS_MAX;
	return true;
}

/* Count the lines of plan `p` over [from, to) into `s`: walked, taken
 * at points, or idle when unread.  False when out of memory. */
static bool walk_plan(const struct model *m, const struct plan *p,
		      uint64_t from, uint64_t to, struct running *r,
		      struct trace_shares *s)
{
	for (uint32_t i = 0, seen_long = 0, taken = 0; i < p->k; i++) {
		uint32_t line = p->use[i];
		const struct trace_bounds *b = &p->bs[i];
		bool is_long = p->has[i] && p->we[i] > p->fair;
		if (is_long) {
			/* the long lines taken: an even spread of pick_long */
			uint32_t want = (uint32_t)(((uint64_t)seen_long + 1) *
						   p->pick_long / p->n_long);
			seen_long++;
			if (taken >= want)
				continue;
			taken++;
			s->points = (uint32_t)p->points;
		}
		s->walk_own = trace_line_own_context(m, line);
		bool ok = !p->has[i] ? add(s, 0, from, to)
			  : is_long ? point_line(m, line, b, from, to,
						 p->points, s)
			  : model_timelines(m)[line].kind == TIMELINE_INTERVALS
				  ? walk_intervals(m, line, b, from, to, r, s)
				  : walk_samples(m, line, b, from, to, s);
		if (!ok)
			return false;
		s->counted++;
		s->total += to - from;
	}
	return true;
}

/* The columns' totals and the most frames of a context counted. */
static void finish(const struct model *m, uint64_t from, uint64_t to,
		   struct trace_shares *s)
{
	for (uint32_t c = 0; c < s->columns; c++) {
		uint64_t a = trace_cell_time(from, to, s->columns, c);
		uint64_t b = c + 1 == s->columns
				     ? to
				     : trace_cell_time(from, to, s->columns,
						       c + 1);
		s->col[c].total = (uint64_t)s->counted * (b - a);
		s->col[c].counted = s->counted;
		s->col[c].lines = s->lines;
	}
	for (size_t i = 0; i < s->depth.cap; i++) {
		uint32_t c = s->depth.slots[i].ctx;
		uint32_t f = c ? trace_ctx_frames(m, c) : 0;
		if (f > s->max_frames)
			s->max_frames = f;
	}
}

static enum status compute(const struct model *m, const uint32_t *lines,
			   uint32_t n, uint64_t from, uint64_t to,
			   uint32_t columns, uint64_t budget,
			   struct trace_shares *s, struct error *err)
{
	if (!reset(s, from, to, columns))
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	if (to <= from)
		return STATUS_OK;
	struct plan p = {0};
	struct running r = {0};
	bool ok = plan_lines(m, lines, n, from, to, budget, s, &p) &&
		  walk_plan(m, &p, from, to, &r, s);
	if (ok)
		finish(m, from, to, s);
	plan_free(&p);
	free(r.end);
	free(r.ctx);
	return ok ? STATUS_OK
		  : error_set(err, STATUS_NOMEM, NULL, "out of memory");
}

enum status trace_shares_compute(const struct model *m, const uint32_t *lines,
				 uint32_t n, uint64_t from, uint64_t to,
				 uint64_t budget, struct trace_shares *s,
				 struct error *err)
{
	return compute(m, lines, n, from, to, 0, budget, s, err);
}

enum status trace_shares_compute_columns(const struct model *m,
					 const uint32_t *lines, uint32_t n,
					 uint64_t from, uint64_t to,
					 uint32_t columns, uint64_t budget,
					 struct trace_shares *s,
					 struct error *err)
{
	return compute(m, lines, n, from, to, columns, budget, s, err);
}

enum status trace_shares_at_depth(const struct model *m,
				  const struct trace_shares *s, uint32_t depth,
				  struct trace_ctx_time **out, size_t *n,
				  struct error *err)
{
	*out = NULL;
	*n = 0;
	struct trace_ctx_table d = {0};
	uint64_t idle = s->idle;
	/* a context unknown to the model is idle, as in the grid's cells */
	for (size_t i = 0; i < s->depth.cap; i++) {
		const struct trace_ctx_time *e = &s->depth.slots[i];
		uint32_t c = e->ctx ? trace_ctx_at_depth(m, e->ctx, depth) : 0;
		if (e->ctx && !c)
			idle += e->time;
		else if (e->ctx && !put(&d, c, e->time))
			goto nomem;
	}
	for (size_t i = 0; i < s->own.cap; i++)
		if (s->own.slots[i].ctx &&
		    !put(&d, s->own.slots[i].ctx, s->own.slots[i].time))
			goto nomem;
	struct trace_ctx_time *o = malloc((d.used + 1) * sizeof(*o));
	if (!o)
		goto nomem;
	size_t k = 0;
	if (idle)
		o[k++] = (struct trace_ctx_time){0, idle};
	for (size_t i = 0; i < d.cap; i++)
		if (d.slots[i].ctx)
			o[k++] = d.slots[i];
	free(d.slots);
	*out = o;
	*n = k;
	return STATUS_OK;
nomem:
	free(d.slots);
	return error_set(err, STATUS_NOMEM, NULL, "out of memory");
}
