/* trace_view_cursor: what the trace view says about its cursor and where
 * it moves it: the next or previous change of context (of value on a
 * counter line), the counter value, interval and instant at the cursor,
 * and the links from GPU work to the API call that launched it and back.
 * Depends on the model and trace_index only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_view_internal.h"

#include <math.h>

#define CHANGE_LIMIT ((uint64_t)1 << 20) /* elements read per next-change */
#define SIBLING_LIMIT (1u << 16) /* launches walked to find the next one */

/* Counter lines: the start of the run of equal values holding the value
 * in force at t (whose index is i); at most `limit` values read. */
static bool counter_run_start(const struct model *m, uint32_t tl, uint64_t i,
			      uint64_t limit, uint64_t *out)
{
	uint64_t start, tn;
	double here, vn;
	if (!model_counter(m, tl, i, &start, &here))
		return false;
	for (uint64_t n = 0; i > 0 && n < limit; n++) {
		if (!model_counter(m, tl, i - 1, &tn, &vn))
			return false;
		i--;
		if (tn == start)
			continue; /* hidden by the later one at that time */
		if (vn != here)
			break;
		start = tn;
	}
	*out = start;
	return true;
}

/* Counter lines: the time of the next / previous change of value from t
 * (as trace_next_change does for contexts), reading at most about `limit`
 * values. */
static bool counter_change(const struct model *m, uint32_t tl, uint64_t t,
			   bool forward, uint64_t limit, uint64_t *out)
{
	uint64_t i, time, tn;
	double here, vn;
	if (!model_counter_at(m, tl, t, &i))
		return forward && model_counter(m, tl, 0, out, &vn);
	if (!model_counter(m, tl, i, &time, &here))
		return false;
	uint64_t count = model_timelines(m)[tl].count;
	if (forward) {
		for (uint64_t j = i + 1; j < count && j - i <= limit; j++) {
			if (!model_counter(m, tl, j, &tn, &vn))
				return false;
			/* values at one time: the last one is in force */
			double last = vn;
			uint64_t k = j;
			while (k + 1 < count && k - i <= limit) {
				uint64_t tk;
				double vk;
				if (!model_counter(m, tl, k + 1, &tk, &vk) ||
				    tk != tn)
					break;
				last = vk;
				k++;
			}
			j = k;
			if (last != here && !(isnan(last) && isnan(here))) {
				*out = tn;
				return true;
			}
		}
		return false;
	}
	/* backward: the start of the run holding t, or when t is that
	 * start, the start of the run before */
	uint64_t start, j;
	if (!counter_run_start(m, tl, i, limit, &start))
		return false;
	if (start < t) {
		*out = start;
		return true;
	}
	return start > 0 && model_counter_at(m, tl, start - 1, &j) &&
	       counter_run_start(m, tl, j, limit, out);
}

bool trace_view_next_change(struct trace_view *v, bool forward)
{
	if (v->cursor_line >= v->n_lines)
		return false;
	uint32_t tl = v->lines[v->cursor_line];
	uint64_t t;
	if (tv_is_counter(v->m, tl)) {
		if (!counter_change(v->m, tl, v->cursor_time, forward,
				    CHANGE_LIMIT, &t))
			return false;
	} else if (!trace_next_change(v->m, tl, tv_bounds_of(v, tl),
				      v->cursor_time, v->win.depth, forward,
				      CHANGE_LIMIT, &t))
		return false;
	if (t < v->win.from || t >= v->win.to) {
		struct trace_window w = v->win;
		tv_place_time(v, &w, w.to - w.from, t, (uint64_t)1 << 31);
		tv_change(v, w);
	}
	v->cursor_time = t;
	tv_clamp_cursor(v);
	return true;
}

bool trace_view_cursor_counter(struct trace_view *v, uint32_t *line,
			       uint64_t *index, uint64_t *time, double *value)
{
	if (v->cursor_line >= v->n_lines)
		return false;
	uint32_t tl = v->lines[v->cursor_line];
	if (!tv_is_counter(v->m, tl) ||
	    !model_counter_at(v->m, tl, v->cursor_time, index) ||
	    !model_counter(v->m, tl, *index, time, value))
		return false;
	*line = tl;
	return true;
}

bool trace_view_cursor_interval(struct trace_view *v, uint32_t *line,
				uint64_t *index, struct trace_interval *out)
{
	if (v->cursor_line >= v->n_lines)
		return false;
	uint32_t tl = v->lines[v->cursor_line];
	if (tl >= model_n_timelines(v->m) ||
	    model_timelines(v->m)[tl].kind != TIMELINE_INTERVALS ||
	    !trace_interval_active(v->m, tl, v->cursor_time, out, index))
		return false;
	*line = tl;
	return true;
}

bool trace_view_cursor_instant(struct trace_view *v, uint32_t columns,
			       uint32_t *line, uint64_t *index,
			       uint64_t *count, struct trace_instant *out)
{
	if (v->cursor_line >= v->n_lines || columns == 0)
		return false;
	uint32_t tl = v->lines[v->cursor_line];
	if (tl >= model_n_timelines(v->m) || !model_timelines(v->m)[tl].n_instants)
		return false;
	uint32_t k = trace_view_cursor_column(v, columns);
	uint64_t a = trace_cell_time(v->win.from, v->win.to, columns, k);
	uint64_t b = k + 1 < columns
			     ? trace_cell_time(v->win.from, v->win.to, columns,
					       k + 1)
			     : v->win.to;
	*count = trace_instants_in(v->m, tl, a, b, index);
	if (!*count || !model_instant(v->m, tl, *index, out))
		return false;
	*line = tl;
	return true;
}

/* The interval launched by the same call as GPU work (line, index) that
 * comes after it, the first one after the last (itself when it is the
 * only one).  False when (line, index) was not launched by a call. */
static bool next_sibling(const struct model *m, uint32_t line, uint64_t index,
			 uint32_t *to_line, uint64_t *to_index)
{
	uint32_t hl, sl;
	uint64_t hi, si;
	if (!model_interval_linked(m, line, index, MODEL_LINK_CALL, &hl, &hi))
		return false;
	*to_line = line;
	*to_index = index;
	for (uint32_t k = 0; k < SIBLING_LIMIT &&
			     model_interval_linked(m, hl, hi, k, &sl, &si);
	     k++)
		if (sl == line && si == index) {
			if (!model_interval_linked(m, hl, hi, k + 1, to_line,
						   to_index))
				model_interval_linked(m, hl, hi, 0, to_line,
						      to_index);
			break;
		}
	return true;
}

/* How many links interval (line, index) has (trace_ops.linked with nth
 * 0, 1, ...), at most SIBLING_LIMIT. */
static uint32_t link_count(const struct model *m, uint32_t line,
			   uint64_t index)
{
	uint32_t n = 0, l;
	uint64_t i;
	while (n < SIBLING_LIMIT &&
	       model_interval_linked(m, line, index, n, &l, &i))
		n++;
	return n;
}

/* The next link to follow from interval (line, index) with `A`: when the
 * cursor is where the last link followed landed, its origin's next link
 * (after the last, the first), else the interval's own first.  Sets the
 * origin and which link in `v->trail` (its landing is set by the caller).
 * False when the origin has no link. */
static bool next_partner(struct trace_view *v, uint32_t line,
			 uint64_t index, uint32_t *to_line, uint64_t *to_index)
{
	uint32_t from_line = line, nth = 0;
	uint64_t from_index = index;
	if (v->trail.set && v->trail.at_line == line &&
	    v->trail.at_index == index) {
		from_line = v->trail.from_line;
		from_index = v->trail.from_index;
		nth = v->trail.nth + 1;
	}
	if (!model_interval_linked(v->m, from_line, from_index, nth, to_line,
				   to_index)) {
		nth = 0;
		if (!model_interval_linked(v->m, from_line, from_index, 0,
					   to_line, to_index))
			return false;
	}
	v->trail.from_line = from_line;
	v->trail.from_index = from_index;
	v->trail.nth = nth;
	return true;
}

/* The same GPU work as interval (line, index) on a line of grouping
 * `group` (the queue and stream lines hold each kernel and copy once
 * each): the interval active at its begin with the same begin, end,
 * event and context, on the filtered lines (`shown`) or on every line.
 * O(lines x log intervals), once per key. */
static bool twin_of(const struct trace_view *v, uint32_t line, uint64_t index,
		    uint8_t group, bool shown, uint32_t *to_line,
		    uint64_t *to_index)
{
	struct trace_interval x, iv;
	const struct model *m = v->m;
	if (group == TIMELINE_GROUP_NONE ||
	    !model_interval(m, line, index, &x))
		return false;
	uint32_t n = shown ? v->n_lines : model_n_timelines(m);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t tl = shown ? v->lines[i] : i;
		uint64_t k;
		if (tl == line || model_timelines(m)[tl].group != group ||
		    model_timelines(m)[tl].kind != TIMELINE_INTERVALS ||
		    !trace_interval_active(m, tl, x.begin, &iv, &k))
			continue;
		if (iv.begin == x.begin && iv.end == x.end &&
		    iv.event == x.event && iv.ctx_id == x.ctx_id) {
			*to_line = tl;
			*to_index = k;
			return true;
		}
	}
	return false;
}

enum trace_link_result trace_view_follow_link(struct trace_view *v,
					      bool sibling)
{
	uint32_t line, to_line;
	uint64_t index, to_index;
	struct trace_interval iv, to;
	if (!trace_view_cursor_interval(v, &line, &index, &iv))
		return TRACE_LINK_IDLE;
	/* GPU work shown by the other grouping: a call's chain of launches
	 * holds its twin on the lines of the grouping shown first */
	uint8_t g = model_timelines(v->m)[line].group;
	if (sibling && g != TIMELINE_GROUP_NONE && g != v->first_group)
		twin_of(v, line, index, v->first_group, false, &line, &index);
	bool trail = false;
	if (sibling && next_sibling(v->m, line, index, &to_line, &to_index)) {
		if (to_line == line && to_index == index)
			return TRACE_LINK_ONLY;
	} else if (!sibling && model_interval_linked(v->m, line, index,
						     MODEL_LINK_CALL, &to_line,
						     &to_index)) {
		/* GPU work to its launching call */
	} else if (sibling) {
		if (!next_partner(v, line, index, &to_line, &to_index))
			return TRACE_LINK_NONE;
		trail = true;
	} else if (model_interval_linked(v->m, line, index, 0, &to_line,
					 &to_index)) {
		v->trail.from_line = line;
		v->trail.from_index = index;
		v->trail.nth = 0;
		trail = true;
	} else {
		return TRACE_LINK_NONE;
	}
	if (!model_interval(v->m, to_line, to_index, &to))
		return TRACE_LINK_NONE;
	uint32_t f = 0;
	while (f < v->n_lines && v->lines[f] != to_line)
		f++;
	if (f == v->n_lines &&
	    twin_of(v, to_line, to_index, v->group, true, &to_line,
		    &to_index) &&
	    model_interval(v->m, to_line, to_index, &to)) {
		/* the same work on a line of the grouping shown */
		f = 0;
		while (f < v->n_lines && v->lines[f] != to_line)
			f++;
	}
	if (f == v->n_lines)
		return TRACE_LINK_HIDDEN;
	if (trail) {
		v->trail.set = true;
		v->trail.at_line = to_line;
		v->trail.at_index = to_index;
		v->trail.count = link_count(v->m, v->trail.from_line,
					    v->trail.from_index);
	} else {
		v->trail.set = false;
	}
	uint64_t t = to.begin;
	if (t < v->win.from || t >= v->win.to) {
		struct trace_window w = v->win;
		tv_place_time(v, &w, w.to - w.from, t, (uint64_t)1 << 31);
		tv_change(v, w);
	}
	trace_view_set_cursor(v, t, f);
	return TRACE_LINK_MOVED;
}

bool trace_view_last_link(const struct trace_view *v, uint32_t *nth,
			  uint32_t *count)
{
	if (!v->trail.set)
		return false;
	*nth = v->trail.nth;
	*count = v->trail.count;
	return true;
}
