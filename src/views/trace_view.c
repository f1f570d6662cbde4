/* trace_view: the trace pane's engine: window, lines, cursor, undo, the
 * cell grid and what is derived from it.  Depends on the model and
 * trace_index only. */
#include "config.h"

#include "views/trace_view.h"
#include "views/trace_shares.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CHANGE_LIMIT ((uint64_t)1 << 20) /* elements read per next-change */
#define MIN_WIDTH 10                      /* narrowest window, ns */
#define SIBLING_LIMIT (1u << 16) /* launches walked to find the next one */

enum bounds_state { BOUNDS_UNKNOWN, BOUNDS_OK, BOUNDS_EMPTY };

struct trace_view {
	const struct model *m;
	uint32_t *lines; /* filtered timeline indexes */
	/* every timeline in the order lines are shown (identifier tuple
	 * order, see line_order) and each timeline's place in it */
	uint32_t *order, *rank;
	uint32_t n_lines;
	uint32_t *counters; /* counters[i]: counter lines among lines[0, i) */
	struct trace_bounds *bounds; /* per timeline, read on first use */
	uint8_t *bounds_state;
	uint64_t t_min, t_end; /* the whole range [t_min, t_end) */
	struct trace_window win;
	struct trace_window undo[TRACE_VIEW_UNDO], redo[TRACE_VIEW_UNDO];
	uint32_t n_undo, n_redo;
	uint64_t cursor_time;
	uint32_t cursor_line;
	bool has_mark;
	uint64_t mark;
	uint32_t max_depth;
	uint64_t stamp; /* bumped when the line list changes */
	/* the line filter, kept to rebuild the list when the GPU lines'
	 * grouping changes; the grouping shown, the one shown first, and
	 * which the model has (bit 1 << group) */
	char *pattern;
	bool hide_empty;
	uint8_t group, first_group, groups;
	/* the window's shares over every line (trace_shares), computed for
	 * the window and line list `sh_*` */
	struct trace_shares shares;
	bool sh_valid;
	uint64_t sh_from, sh_to, sh_stamp, budget;
	uint32_t sh_lo, sh_hi;
	/* the same per time column (the summary view), for window `cs_*` */
	struct trace_shares cshares;
	bool cs_valid;
	uint64_t cs_from, cs_to, cs_stamp;
	uint32_t cs_lo, cs_hi, cs_columns;
	/* the label prefix the lines share, for line list `prefix_stamp` */
	size_t prefix;
	uint64_t prefix_stamp;
	bool prefix_valid;
};

static bool group_shown(const struct trace_view *v, uint32_t tl)
{
	uint8_t g = v->m->timelines[tl].group;
	return g == TIMELINE_GROUP_NONE || g == v->group;
}

static const struct trace_bounds *bounds_of(struct trace_view *v,
					    uint32_t tl)
{
	if (tl >= v->m->n_timelines)
		return NULL;
	if (v->bounds_state[tl] == BOUNDS_UNKNOWN)
		v->bounds_state[tl] = trace_bounds_read(v->m, tl, &v->bounds[tl])
					      ? BOUNDS_OK
					      : BOUNDS_EMPTY;
	return v->bounds_state[tl] == BOUNDS_OK ? &v->bounds[tl] : NULL;
}

/* The running count of counter lines of lines[0..n) (n + 1 entries),
 * or NULL when out of memory. */
static uint32_t *count_counters(const struct model *m, const uint32_t *lines,
				uint32_t n)
{
	uint32_t *c = calloc((size_t)n + 1, sizeof(*c));
	if (!c)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		c[i + 1] = c[i] + (m->timelines[lines[i]].kind ==
				   TIMELINE_COUNTER);
	return c;
}

uint32_t trace_view_counters_in(const struct trace_view *v, uint32_t lo,
				uint32_t hi)
{
	if (hi > v->n_lines)
		hi = v->n_lines;
	return lo < hi ? v->counters[hi] - v->counters[lo] : 0;
}

static bool is_counter(const struct model *m, uint32_t tl)
{
	return tl < m->n_timelines &&
	       m->timelines[tl].kind == TIMELINE_COUNTER;
}

/* Identifier tuple order (hpctraceviewer's): element by element, the
 * kind's name then the logical id, a shorter tuple first, then the
 * model's order. */
struct tuple_key {
	const struct model *m;
	uint32_t tl;
};

static int by_tuple(const void *a, const void *b)
{
	const struct model *m = ((const struct tuple_key *)a)->m;
	uint32_t x = ((const struct tuple_key *)a)->tl;
	uint32_t y = ((const struct tuple_key *)b)->tl;
	const struct model_profile *p = &m->profiles[m->timelines[x].profile];
	const struct model_profile *q = &m->profiles[m->timelines[y].profile];
	for (uint32_t i = 0; i < p->n_ids && i < q->n_ids; i++) {
		const struct model_id *u = &m->ids[p->first_id + i];
		const struct model_id *w = &m->ids[q->first_id + i];
		int c = strcmp(model_str(m, u->kind_name),
			       model_str(m, w->kind_name));
		if (c)
			return c;
		if (u->logical_id != w->logical_id)
			return u->logical_id < w->logical_id ? -1 : 1;
	}
	if (p->n_ids != q->n_ids)
		return p->n_ids < q->n_ids ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The order lines are shown in: by identifier tuple when every
 * timeline has one (HPCToolkit: ranks and threads, which the database
 * stores in no order), else the model's order (GPU runs, whose readers
 * already put host threads, queues and counters in order).  False when
 * out of memory. */
static bool line_order(struct trace_view *v)
{
	const struct model *m = v->m;
	v->order = calloc(m->n_timelines, sizeof(*v->order));
	v->rank = calloc(m->n_timelines, sizeof(*v->rank));
	if (!v->order || !v->rank)
		return false;
	bool tuples = true;
	for (uint32_t i = 0; i < m->n_timelines; i++) {
		uint32_t p = m->timelines[i].profile;
		v->order[i] = i;
		tuples &= p < m->n_profiles && m->profiles[p].n_ids > 0;
	}
	struct tuple_key *k =
		tuples ? malloc(m->n_timelines * sizeof(*k)) : NULL;
	if (k) {
		for (uint32_t i = 0; i < m->n_timelines; i++)
			k[i] = (struct tuple_key){m, i};
		qsort(k, m->n_timelines, sizeof(*k), by_tuple);
		for (uint32_t i = 0; i < m->n_timelines; i++)
			v->order[i] = k[i].tl;
		free(k);
	}
	for (uint32_t i = 0; i < m->n_timelines; i++)
		v->rank[v->order[i]] = i;
	return true;
}

/* The depth shown first: 0, but on a GPU run (lines grouped by queue or
 * stream) the first depth below the process and thread entries (rocpd and
 * Nsight root host threads' calls in "pid N" > "thread T" entry nodes),
 * so that host lines show API calls and ranges rather than one colour per
 * process; GPU lines show their kernels at any depth
 * (trace_line_own_context).  O(nodes) once. */
static uint32_t first_depth(const struct trace_view *v)
{
	const struct model *m = v->m;
	if (!v->groups)
		return 0;
	uint32_t deepest = 0;
	for (uint32_t i = 1; i < m->n_nodes; i++) {
		if (m->nodes[i].kind != NODE_ENTRY)
			continue;
		uint32_t d = 0;
		for (uint32_t n = i; n != 0 && n != MODEL_NONE && d < 64;
		     n = m->nodes[n].parent)
			d += m->nodes[n].kind == NODE_ENTRY;
		deepest = d > deepest ? d : deepest;
	}
	return deepest;
}

enum status trace_view_new(const struct model *m, struct trace_view **out,
			   struct error *err)
{
	*out = NULL;
	if (!m || m->n_timelines == 0)
		return error_set(err, STATUS_UNSUPPORTED, m ? m->path : NULL,
				 "the database has no trace");
	struct trace_view *v = calloc(1, sizeof(*v));
	if (!v)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	v->m = m;
	v->lines = calloc(m->n_timelines, sizeof(*v->lines));
	v->bounds = calloc(m->n_timelines, sizeof(*v->bounds));
	v->bounds_state = calloc(m->n_timelines, 1);
	if (!v->lines || !v->bounds || !v->bounds_state) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	/* GPU lines: the grouping of the first grouped line shows first */
	for (uint32_t i = 0; i < m->n_timelines; i++) {
		uint8_t g = m->timelines[i].group;
		if (g != TIMELINE_GROUP_NONE && g <= TIMELINE_GROUP_STREAM) {
			if (!v->groups)
				v->first_group = g;
			v->groups |= (uint8_t)(1u << g);
		}
	}
	v->group = v->first_group;
	if (!line_order(v)) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (uint32_t i = 0; i < m->n_timelines; i++)
		if (group_shown(v, v->order[i]))
			v->lines[v->n_lines++] = v->order[i];
	if (!(v->counters = count_counters(m, v->lines, v->n_lines))) {
		trace_view_free(v);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	v->t_min = m->time_min;
	v->t_end = m->time_max > m->time_min ? m->time_max + 1
					     : m->time_min + MIN_WIDTH;
	if (v->t_end < v->t_min) /* time_max == UINT64_MAX */
		v->t_end = UINT64_MAX;
	v->win = (struct trace_window){.from = v->t_min,
				       .to = v->t_end,
				       .line_lo = 0,
				       .line_hi = v->n_lines};
	v->win.depth = first_depth(v);
	v->cursor_time = v->t_min;
	v->budget = TRACE_SHARES_BUDGET;
	*out = v;
	return STATUS_OK;
}

void trace_view_free(struct trace_view *v)
{
	if (!v)
		return;
	free(v->lines);
	free(v->order);
	free(v->rank);
	free(v->counters);
	free(v->bounds);
	free(v->bounds_state);
	free(v->pattern);
	trace_shares_free(&v->shares);
	trace_shares_free(&v->cshares);
	free(v);
}

enum timeline_group trace_view_gpu_lines(const struct trace_view *v)
{
	return (enum timeline_group)v->group;
}

bool trace_view_has_gpu_lines(const struct trace_view *v,
			      enum timeline_group g)
{
	return g != TIMELINE_GROUP_NONE && g <= TIMELINE_GROUP_STREAM &&
	       (v->groups & (1u << g));
}

enum status trace_view_set_gpu_lines(struct trace_view *v,
				     enum timeline_group g, struct error *err)
{
	if (!trace_view_has_gpu_lines(v, g))
		return error_set(err, STATUS_NOT_FOUND, NULL,
				 "no GPU lines by %s",
				 g == TIMELINE_GROUP_STREAM ? "stream" : "queue");
	if (g == v->group)
		return STATUS_OK;
	uint8_t old = v->group;
	uint32_t at = v->cursor_line < v->n_lines ? v->lines[v->cursor_line]
						  : MODEL_NONE;
	v->group = (uint8_t)g;
	enum status st = trace_view_set_filter(v, v->pattern, v->hide_empty,
					       err);
	if (st != STATUS_OK) {
		v->group = old;
		return st;
	}
	/* from a GPU line to the first line of the other grouping */
	if (at != MODEL_NONE &&
	    v->m->timelines[at].group != TIMELINE_GROUP_NONE)
		for (uint32_t i = 0; i < v->n_lines; i++)
			if (v->m->timelines[v->lines[i]].group == g) {
				v->cursor_line = i;
				break;
			}
	return STATUS_OK;
}

const struct trace_window *trace_view_window(const struct trace_view *v)
{
	return &v->win;
}

uint32_t trace_view_line_count(const struct trace_view *v)
{
	return v->n_lines;
}

uint32_t trace_view_line(const struct trace_view *v, uint32_t i)
{
	return i < v->n_lines ? v->lines[i] : MODEL_NONE;
}

uint64_t trace_view_cursor_time(const struct trace_view *v)
{
	return v->cursor_time;
}

uint32_t trace_view_cursor_line(const struct trace_view *v)
{
	return v->cursor_line;
}

/* Keep the cursor inside the window's time range and the line list. */
static void clamp_cursor(struct trace_view *v)
{
	if (v->cursor_time < v->win.from)
		v->cursor_time = v->win.from;
	if (v->cursor_time >= v->win.to)
		v->cursor_time = v->win.to - 1;
	if (v->n_lines && v->cursor_line >= v->n_lines)
		v->cursor_line = v->n_lines - 1;
}

static bool same_window(const struct trace_window *a,
			const struct trace_window *b)
{
	return a->from == b->from && a->to == b->to &&
	       a->line_lo == b->line_lo && a->line_hi == b->line_hi &&
	       a->depth == b->depth;
}

/* Make `w` the window, remembering the old one for undo. */
static bool change(struct trace_view *v, struct trace_window w)
{
	if (same_window(&w, &v->win))
		return false;
	if (v->n_undo == TRACE_VIEW_UNDO) {
		memmove(v->undo, v->undo + 1,
			(TRACE_VIEW_UNDO - 1) * sizeof(*v->undo));
		v->n_undo--;
	}
	v->undo[v->n_undo++] = v->win;
	v->n_redo = 0;
	v->win = w;
	clamp_cursor(v);
	return true;
}

/* A time window of width `width` (at least MIN_WIDTH) placed so that
 * `anchor` keeps its relative position `rel` (of 2^32), inside the whole
 * range. */
static void place_time(const struct trace_view *v, struct trace_window *w,
		       uint64_t width, uint64_t anchor, uint64_t rel)
{
	uint64_t whole = v->t_end - v->t_min;
	if (width < MIN_WIDTH)
		width = MIN_WIDTH;
	if (width >= whole) {
		w->from = v->t_min;
		w->to = v->t_end;
		return;
	}
	uint64_t before = (uint64_t)((unsigned __int128)width * rel >> 32);
	uint64_t from = anchor - v->t_min >= before ? anchor - before
						    : v->t_min;
	if (from < v->t_min)
		from = v->t_min;
	if (from > v->t_end - width)
		from = v->t_end - width;
	w->from = from;
	w->to = from + width;
}

bool trace_view_zoom_time(struct trace_view *v, uint32_t num, uint32_t den)
{
	if (den == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t width = w.to - w.from;
	uint64_t rel = (uint64_t)(((unsigned __int128)(v->cursor_time - w.from)
				   << 32) /
				  width);
	unsigned __int128 nw = (unsigned __int128)width * num / den;
	if (nw == width && num != den)
		nw = num > den ? width + 1 : width - 1;
	place_time(v, &w, nw > UINT64_MAX ? UINT64_MAX : (uint64_t)nw,
		   v->cursor_time, rel);
	return change(v, w);
}

bool trace_view_pan_time(struct trace_view *v, int32_t num, uint32_t den)
{
	if (den == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t width = w.to - w.from;
	uint64_t step = (uint64_t)((unsigned __int128)width *
				   (uint32_t)(num < 0 ? -(int64_t)num : num) /
				   den);
	if (step == 0)
		step = 1;
	if (num < 0)
		w.from = w.from - v->t_min > step ? w.from - step : v->t_min;
	else
		w.from = v->t_end - w.to > step ? w.from + step
						: v->t_end - width;
	w.to = w.from + width;
	if (!change(v, w))
		return false;
	/* the cursor keeps its place on the screen */
	if (num < 0)
		v->cursor_time = v->cursor_time - v->t_min > step
					 ? v->cursor_time - step
					 : v->t_min;
	else
		v->cursor_time += step;
	clamp_cursor(v);
	return true;
}

bool trace_view_zoom_lines(struct trace_view *v, uint32_t num, uint32_t den)
{
	if (den == 0 || v->n_lines == 0)
		return false;
	struct trace_window w = v->win;
	uint64_t n = w.line_hi - w.line_lo;
	uint64_t nn = n * num / den;
	if (nn == n)
		nn = num > den ? n + 1 : n > 1 ? n - 1 : 1;
	if (nn < 1)
		nn = 1;
	if (nn > v->n_lines)
		nn = v->n_lines;
	uint32_t c = v->cursor_line;
	uint64_t before = n ? (uint64_t)(c - w.line_lo) * nn / n : 0;
	uint64_t lo = c >= before ? c - before : 0;
	if (lo + nn > v->n_lines)
		lo = v->n_lines - nn;
	w.line_lo = (uint32_t)lo;
	w.line_hi = (uint32_t)(lo + nn);
	return change(v, w);
}

bool trace_view_pan_lines(struct trace_view *v, int64_t delta)
{
	struct trace_window w = v->win;
	uint32_t n = w.line_hi - w.line_lo;
	int64_t lo = (int64_t)w.line_lo + delta;
	if (lo > (int64_t)(v->n_lines - n))
		lo = (int64_t)(v->n_lines - n);
	if (lo < 0)
		lo = 0;
	w.line_lo = (uint32_t)lo;
	w.line_hi = (uint32_t)lo + n;
	if (!change(v, w))
		return false;
	if (v->cursor_line < w.line_lo)
		v->cursor_line = w.line_lo;
	if (v->cursor_line >= w.line_hi)
		v->cursor_line = w.line_hi - 1;
	return true;
}

bool trace_view_set_depth(struct trace_view *v, uint32_t depth)
{
	struct trace_window w = v->win;
	w.depth = depth;
	return change(v, w);
}

bool trace_view_home(struct trace_view *v)
{
	struct trace_window w = {.from = v->t_min,
				 .to = v->t_end,
				 .line_lo = 0,
				 .line_hi = v->n_lines,
				 .depth = v->win.depth};
	return change(v, w);
}

void trace_view_mark(struct trace_view *v)
{
	v->has_mark = true;
	v->mark = v->cursor_time;
}

bool trace_view_has_mark(const struct trace_view *v, uint64_t *time)
{
	if (v->has_mark && time)
		*time = v->mark;
	return v->has_mark;
}

bool trace_view_zoom_to_mark(struct trace_view *v)
{
	if (!v->has_mark)
		return false;
	uint64_t a = v->mark, b = v->cursor_time;
	if (a > b) {
		uint64_t t = a;
		a = b;
		b = t;
	}
	struct trace_window w = v->win;
	uint64_t width = b - a + 1;
	place_time(v, &w, width, a, 0);
	v->has_mark = false;
	return change(v, w);
}

bool trace_view_undo(struct trace_view *v)
{
	if (v->n_undo == 0)
		return false;
	v->redo[v->n_redo++] = v->win;
	v->win = v->undo[--v->n_undo];
	clamp_cursor(v);
	return true;
}

bool trace_view_redo(struct trace_view *v)
{
	if (v->n_redo == 0)
		return false;
	v->undo[v->n_undo++] = v->win;
	v->win = v->redo[--v->n_redo];
	clamp_cursor(v);
	return true;
}

void trace_view_set_cursor(struct trace_view *v, uint64_t time,
			   uint32_t line)
{
	v->cursor_time = time;
	v->cursor_line = line;
	clamp_cursor(v);
	/* scroll the line range to show the cursor (not an undo step) */
	uint32_t n = v->win.line_hi - v->win.line_lo;
	if (v->cursor_line < v->win.line_lo) {
		v->win.line_lo = v->cursor_line;
		v->win.line_hi = v->cursor_line + n;
	} else if (v->cursor_line >= v->win.line_hi) {
		v->win.line_hi = v->cursor_line + 1;
		v->win.line_lo = v->win.line_hi - n;
	}
}

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
	uint64_t count = m->timelines[tl].count;
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
	if (is_counter(v->m, tl)) {
		if (!counter_change(v->m, tl, v->cursor_time, forward,
				    CHANGE_LIMIT, &t))
			return false;
	} else if (!trace_next_change(v->m, tl, bounds_of(v, tl),
				      v->cursor_time, v->win.depth, forward,
				      CHANGE_LIMIT, &t))
		return false;
	if (t < v->win.from || t >= v->win.to) {
		struct trace_window w = v->win;
		place_time(v, &w, w.to - w.from, t, (uint64_t)1 << 31);
		change(v, w);
	}
	v->cursor_time = t;
	clamp_cursor(v);
	return true;
}

bool trace_view_cursor_counter(struct trace_view *v, uint32_t *line,
			       uint64_t *index, uint64_t *time, double *value)
{
	if (v->cursor_line >= v->n_lines)
		return false;
	uint32_t tl = v->lines[v->cursor_line];
	if (!is_counter(v->m, tl) ||
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
	if (tl >= v->m->n_timelines ||
	    v->m->timelines[tl].kind != TIMELINE_INTERVALS ||
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
	if (tl >= v->m->n_timelines || !v->m->timelines[tl].n_instants)
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
	uint32_t n = shown ? v->n_lines : m->n_timelines;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t tl = shown ? v->lines[i] : i;
		uint64_t k;
		if (tl == line || m->timelines[tl].group != group ||
		    m->timelines[tl].kind != TIMELINE_INTERVALS ||
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
	uint8_t g = v->m->timelines[line].group;
	if (sibling && g != TIMELINE_GROUP_NONE && g != v->first_group)
		twin_of(v, line, index, v->first_group, false, &line, &index);
	if (sibling && next_sibling(v->m, line, index, &to_line, &to_index)) {
		if (to_line == line && to_index == index)
			return TRACE_LINK_ONLY;
	} else if (!model_interval_linked(v->m, line, index, MODEL_LINK_CALL,
					  &to_line, &to_index) &&
		   !model_interval_linked(v->m, line, index, 0, &to_line,
					  &to_index)) {
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
	uint64_t t = to.begin;
	if (t < v->win.from || t >= v->win.to) {
		struct trace_window w = v->win;
		place_time(v, &w, w.to - w.from, t, (uint64_t)1 << 31);
		change(v, w);
	}
	trace_view_set_cursor(v, t, f);
	return TRACE_LINK_MOVED;
}

size_t trace_view_label_prefix(struct trace_view *v)
{
	if (v->prefix_valid && v->prefix_stamp == v->stamp)
		return v->prefix;
	const struct model *m = v->m;
	const char *first = v->n_lines ? model_str(m, m->timelines[v->lines[0]].label)
				       : "";
	size_t common = strlen(first);
	for (uint32_t i = 1; i < v->n_lines && common; i++) {
		const char *l = model_str(m, m->timelines[v->lines[i]].label);
		size_t k = 0;
		while (k < common && l[k] == first[k])
			k++;
		common = k;
	}
	/* whole words only, and never a value without its key: back to the
	 * start of the word where the lines differ, then before a number */
	size_t cut = v->n_lines > 1 ? common : 0;
	while (cut > 0 && first[cut - 1] != ' ')
		cut--;
	while (cut > 0 && first[cut] >= '0' && first[cut] <= '9') {
		cut--;
		while (cut > 0 && first[cut - 1] != ' ')
			cut--;
	}
	v->prefix = cut;
	v->prefix_stamp = v->stamp;
	v->prefix_valid = true;
	return cut;
}

uint32_t trace_view_max_depth(const struct trace_view *v)
{
	return v->max_depth;
}

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

/* The window's shares over every line, computed again only when the
 * window's time, line range or line list changed; the maximum depth is
 * theirs (the deepest context on any line counted, not on a row drawn). */
static enum status window_shares(struct trace_view *v, struct error *err)
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

static int by_cells(const void *a, const void *b);

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
	qsort(s, k, sizeof(*s), by_cells);
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
	enum status st = window_shares(v, err);
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
	struct error local = {.status = STATUS_OK};
	if (!model_trace_take_error(v->m, err ? err : &local))
		return false;
	error_clear(&local);
	g->raw_valid = false;
	for (uint32_t i = 0; i < v->m->n_timelines; i++)
		if (v->bounds_state[i] == BOUNDS_EMPTY)
			v->bounds_state[i] = BOUNDS_UNKNOWN;
	return true;
}

/* The instants of row line `tl` per cell, none on other lines. */
static void instant_cells(const struct trace_view *v, uint32_t tl,
			  uint32_t columns, uint64_t *out)
{
	if (tl < v->m->n_timelines && v->m->timelines[tl].n_instants &&
	    v->m->timelines[tl].kind == TIMELINE_INTERVALS) {
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
		uint32_t tl = line == MODEL_NONE ? MODEL_NONE : v->lines[line];
		uint32_t *raw = g->raw + (size_t)r * columns;
		uint32_t *cells = g->cells + (size_t)r * columns;
		g->row_line[r] = tl;
		if (!reuse) {
			trace_cells_raw(v->m, tl,
					tl == MODEL_NONE ? NULL : bounds_of(v, tl),
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
	if ((st = window_shares(v, err)) != STATUS_OK)
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
	trace_cells_raw(v->m, tl, tl == MODEL_NONE ? NULL : bounds_of(v, tl),
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
	return window_shares(v, err);
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

/* The function name a frame context's colour stands for: the node's name,
 * else its function's; "" for idle, unknown and unnamed frames. */
static const char *ctx_name(const struct model *m, uint32_t ctx)
{
	uint32_t node = ctx ? model_node_of_ctx(m, ctx) : MODEL_NONE;
	if (node == MODEL_NONE)
		return "";
	const struct model_node *n = &m->nodes[node];
	const char *name = model_str(m, n->name);
	if (!*name && n->function < m->n_functions)
		name = model_str(m, m->functions[n->function].name);
	return name;
}

uint32_t trace_view_color(const struct model *m, uint32_t ctx,
			  uint32_t n_colors)
{
	if (ctx == 0 || n_colors == 0)
		return 0;
	const char *name = ctx_name(m, ctx);
	/* FNV-1a over the name; unnamed frames hash their context id */
	uint32_t h = 2166136261u;
	if (*name) {
		for (const unsigned char *p = (const unsigned char *)name; *p;
		     p++)
			h = (h ^ *p) * 16777619u;
	} else {
		for (int i = 0; i < 4; i++)
			h = (h ^ ((ctx >> (8 * i)) & 0xff)) * 16777619u;
	}
	return 1 + h % n_colors;
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int by_cells(const void *a, const void *b)
{
	const struct trace_share *x = a, *y = b;
	if (x->cells != y->cells)
		return x->cells > y->cells ? -1 : 1;
	return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

/* Shares of the cells of column `col` (UINT32_MAX: of every column) of
 * the grid's rows that show a line, counter rows left out. */
static enum status shares(const struct model *m, const struct trace_grid *g,
			  uint32_t col, uint32_t n_colors,
			  struct trace_share **out, size_t *n_out,
			  struct error *err)
{
	*out = NULL;
	*n_out = 0;
	/* rows without a line are not cells of the trace */
	size_t rows = 0;
	while (rows < g->rows && g->row_line[rows] != MODEL_NONE)
		rows++;
	size_t per = col == UINT32_MAX ? g->columns : col < g->columns;
	size_t n = rows * per;
	uint32_t *copy = malloc((n ? n : 1) * sizeof(*copy));
	struct trace_share *s = malloc((n ? n : 1) * sizeof(*s));
	if (!copy || !s) {
		free(copy);
		free(s);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	n = 0;
	for (size_t r = 0; r < rows; r++) {
		if (is_counter(m, g->row_line[r]))
			continue;
		const uint32_t *row = g->cells + r * g->columns;
		if (col == UINT32_MAX) {
			memcpy(copy + n, row, g->columns * sizeof(*copy));
			n += g->columns;
		} else if (per) {
			copy[n++] = row[col];
		}
	}
	qsort(copy, n, sizeof(*copy), by_u32);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && s[k - 1].ctx == copy[i]) {
			s[k - 1].cells++;
			continue;
		}
		s[k++] = (struct trace_share){
			.ctx = copy[i],
			.color = trace_view_color(m, copy[i], n_colors),
			.cells = 1,
		};
	}
	free(copy);
	qsort(s, k, sizeof(*s), by_cells);
	*out = s;
	*n_out = k;
	return STATUS_OK;
}

enum status trace_grid_shares(const struct model *m,
			      const struct trace_grid *g, uint32_t n_colors,
			      struct trace_share **out, size_t *n,
			      struct error *err)
{
	return shares(m, g, UINT32_MAX, n_colors, out, n, err);
}

enum status trace_grid_column_shares(const struct model *m,
				     const struct trace_grid *g, uint32_t k,
				     uint32_t n_colors,
				     struct trace_share **out, size_t *n,
				     struct error *err)
{
	return shares(m, g, k, n_colors, out, n, err);
}

/* An entry of trace_shares_merge_names' sort: the name and the entry's
 * index in the share list (its rank by cells). */
struct named_share {
	const char *name;
	size_t index;
};

static int by_name(const void *a, const void *b)
{
	const struct named_share *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

enum status trace_shares_merge_names(const struct model *m,
				     struct trace_share *s, size_t *n,
				     struct error *err)
{
	if (!s || *n < 2)
		return STATUS_OK;
	struct named_share *order = malloc(*n * sizeof(*order));
	bool *gone = calloc(*n, sizeof(*gone));
	if (!order || !gone) {
		free(order);
		free(gone);
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < *n; i++)
		order[i] = (struct named_share){
			.name = ctx_name(m, s[i].ctx),
			.index = i,
		};
	qsort(order, *n, sizeof(*order), by_name);
	/* within a run of one name the first index is the largest context:
	 * it stands for the run and takes the others' cells */
	size_t keep = 0;
	for (size_t i = 1; i < *n; i++) {
		if (!*order[i].name ||
		    strcmp(order[i].name, order[keep].name) != 0) {
			keep = i;
			continue;
		}
		s[order[keep].index].cells += s[order[i].index].cells;
		gone[order[i].index] = true;
	}
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (!gone[i])
			s[k++] = s[i];
	free(order);
	free(gone);
	qsort(s, k, sizeof(*s), by_cells);
	*n = k;
	return STATUS_OK;
}

bool trace_ctx_under(const struct model *m, uint32_t ctx, uint32_t node)
{
	struct trace_match t = trace_match_make(m, node, TRACE_MATCH_NODE);
	return trace_ctx_matches(m, ctx, &t);
}

struct trace_match trace_match_make(const struct model *m, uint32_t node,
				    enum trace_match_kind how)
{
	struct trace_match t = {.kind = TRACE_MATCH_NONE,
				.function = MODEL_NONE};
	if (node == MODEL_NONE || node >= m->n_nodes || node == 0)
		return t;
	const struct model_node *n = &m->nodes[node];
	const struct model_function *f =
		n->function < m->n_functions ? &m->functions[n->function] : NULL;
	t.kind = how;
	t.node = node;
	t.function = n->function < m->n_functions ? n->function : MODEL_NONE;
	t.name = n->name;
	t.node_kind = n->kind;
	t.file = n->file ? n->file : f ? f->file : 0;
	t.line = n->line;
	t.module = n->module ? n->module : f ? f->module : 0;
	if ((how == TRACE_MATCH_FILE && !t.file) ||
	    (how == TRACE_MATCH_MODULE && !t.module))
		t.kind = TRACE_MATCH_NONE;
	return t;
}

static bool node_matches(const struct model *m, uint32_t id,
			 const struct trace_match *t)
{
	const struct model_node *n = &m->nodes[id];
	switch (t->kind) {
	case TRACE_MATCH_NODE:
		return id == t->node;
	case TRACE_MATCH_FUNCTION:
		if (!model_kind_is_frame(n->kind))
			return false;
		if (t->function != MODEL_NONE)
			return n->function == t->function;
		return n->function == MODEL_NONE && n->name == t->name &&
		       n->kind == m->nodes[t->node].kind;
	case TRACE_MATCH_LINE:
		return n->kind == t->node_kind && n->file == t->file &&
		       n->line == t->line;
	case TRACE_MATCH_FILE:
	case TRACE_MATCH_MODULE: {
		const struct model_function *f =
			n->function < m->n_functions ? &m->functions[n->function]
						     : NULL;
		if (t->kind == TRACE_MATCH_FILE)
			return (n->file ? n->file : f ? f->file : 0) == t->file;
		return (n->module ? n->module : f ? f->module : 0) == t->module;
	}
	case TRACE_MATCH_NONE:
		break;
	}
	return false;
}

bool trace_ctx_matches(const struct model *m, uint32_t ctx,
		       const struct trace_match *match)
{
	if (ctx == 0 || !match || match->kind == TRACE_MATCH_NONE)
		return false;
	uint32_t n = model_node_of_ctx(m, ctx);
	for (uint32_t steps = 0;
	     n != MODEL_NONE && n != 0 && steps <= m->max_depth + 1; steps++) {
		if (node_matches(m, n, match))
			return true;
		n = m->nodes[n].parent;
	}
	return false;
}

void trace_format_duration(uint64_t ns, bool utf8, char *buf, size_t size)
{
	static const struct {
		double scale;
		const char *unit, *ascii;
	} units[] = {
		{1e9, "s", "s"},
		{1e6, "ms", "ms"},
		{1e3, "\xc2\xb5s", "us"},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((double)ns >= units[i].scale) {
			snprintf(buf, size, "%.4g %s",
				 (double)ns / units[i].scale,
				 utf8 ? units[i].unit : units[i].ascii);
			return;
		}
	}
	snprintf(buf, size, "%llu ns", (unsigned long long)ns);
}

/* "0-7,9" contains id? */
static bool in_ranges(const char *ranges, uint32_t id, bool *ok)
{
	const char *p = ranges;
	bool hit = false;
	*ok = true;
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p || *p == '-' || *p == '+') {
			*ok = false;
			return false;
		}
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b < a) {
				*ok = false;
				return false;
			}
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p) {
			*ok = false;
			return false;
		}
		hit |= id >= a && id <= b;
	}
	return hit;
}

static bool tuple_matches(const struct model *m, uint32_t profile,
			  char **pairs, size_t n_pairs)
{
	if (profile >= m->n_profiles)
		return n_pairs == 0;
	const struct model_profile *p = &m->profiles[profile];
	for (size_t i = 0; i < n_pairs; i++) {
		bool hit = false, ok;
		for (uint32_t j = 0; j < p->n_ids && !hit; j++) {
			const struct model_id *id = &m->ids[p->first_id + j];
			if (strcasecmp(model_str(m, id->kind_name),
				       pairs[2 * i]) == 0)
				hit = in_ranges(pairs[2 * i + 1],
						id->logical_id, &ok);
		}
		if (!hit)
			return false;
	}
	return true;
}

enum status trace_view_set_filter(struct trace_view *v, const char *pattern,
				  bool hide_empty, struct error *err)
{
	enum status st = STATUS_OK;
	char *copy = strdup(pattern ? pattern : "");
	char **words = NULL;
	uint32_t *lines = NULL, *counters = NULL;
	size_t n_words = 0;
	if (!copy)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	words = calloc(strlen(copy) / 2 + 2, sizeof(*words));
	lines = calloc(v->m->n_timelines, sizeof(*lines));
	if (!words || !lines) {
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		words[n_words++] = w;
	bool ok = n_words % 2 == 0;
	for (size_t i = 1; ok && i < n_words; i += 2)
		(void)in_ranges(words[i], 0, &ok);
	if (!ok) {
		st = error_set(err, STATUS_USAGE, NULL,
			       "line filter: KIND RANGES pairs, e.g. "
			       "'RANK 0-7 THREAD 0'");
		goto out;
	}
	uint32_t n = 0;
	for (uint32_t o = 0; o < v->m->n_timelines; o++) {
		uint32_t tl = v->order[o];
		if (hide_empty && v->m->timelines[tl].count == 0 &&
		    v->m->timelines[tl].n_instants == 0)
			continue;
		if (!group_shown(v, tl))
			continue;
		if (!tuple_matches(v->m, v->m->timelines[tl].profile, words,
				   n_words / 2))
			continue;
		lines[n++] = tl;
	}
	if (n == 0) {
		st = error_set(err, STATUS_NOT_FOUND, NULL,
			       "line filter: no line matches");
		goto out;
	}
	counters = count_counters(v->m, lines, n);
	char *kept = pattern && *pattern ? strdup(pattern) : NULL;
	if (!counters || (pattern && *pattern && !kept)) {
		free(kept);
		st = error_set(err, STATUS_NOMEM, NULL, "out of memory");
		goto out;
	}
	if (kept != v->pattern) {
		free(v->pattern);
		v->pattern = kept;
	}
	v->hide_empty = hide_empty;
	uint32_t keep = v->cursor_line < v->n_lines ? v->lines[v->cursor_line]
						    : 0;
	free(v->lines);
	v->lines = lines;
	lines = NULL;
	v->n_lines = n;
	free(v->counters);
	v->counters = counters;
	counters = NULL;
	v->stamp++;
	v->cursor_line = 0;
	for (uint32_t i = 0; i < n; i++)
		if (v->rank[v->lines[i]] <= v->rank[keep])
			v->cursor_line = i;
	/* the undo stack's line ranges were over the old list */
	v->n_undo = v->n_redo = 0;
	v->win.line_lo = 0;
	v->win.line_hi = n;
out:
	free(counters);
	free(lines);
	free(words);
	free(copy);
	return st;
}
